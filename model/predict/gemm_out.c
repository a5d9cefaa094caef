/* gemm_out.c - the gemm template's output (gemm.h): a JSON document
 * (schema gpucal-gemm/1, keys in model/kernels/README.md) listing each
 * kernel of the call and the total, and human text. time_us is GPU time
 * (kernels only); launch_us what launching the call adds end to end. */
#include "gemm_int.h"

#include <math.h>
#include <stdio.h>

static double fin(double v)
{
    return isfinite(v) ? v : 0;
}

static void template_json(const gc_gemm_result_t *r, FILE *fp)
{
    fprintf(fp,
            "  \"template\": {\"name\": \"gemm\", \"m\": %ld, \"n\": %ld, \"k\": %ld, "
            "\"dtype\": \"%s\", \"path\": \"%s\", \"instruction\": \"%s\", "
            "\"tile\": [%d, %d, %d], \"stages\": %d, \"warps\": %d, \"candidates\": %d, "
            "\"predicted_in_full\": %d, \"tflops\": %.1f, \"batch\": %ld, \"layout\": \"%s\", "
            "\"split_k\": %d, \"align_bytes\": %d, \"rule\": \"%s\"},\n",
            r->m, r->n, r->k, gc_gemm_dtype_name(r->dtype), r->path, r->inst, r->tile_m, r->tile_n,
            r->tile_k, r->stages, r->warps, r->candidates, r->predicted, fin(r->tflops), r->batch,
            r->layout, r->split, r->align, r->why);
}

void gc_gemm_print_json(const gc_gemm_result_t *r, FILE *fp)
{
    fprintf(fp, "{\n  \"schema\": \"gpucal-gemm/1\",\n  \"kernel\": \"%s\",\n  \"arch\": \"%s\",\n",
            r->pred.kernel, r->pred.arch);
    fprintf(fp, "  \"time_us\": %.6g,\n  \"launch_us\": %.6g,\n", fin(r->time_us),
            fin(r->launch_us));
    fprintf(fp, "  \"clock_mhz\": %.6g,\n  \"clock_source\": \"%s\",\n", fin(r->clock_mhz),
            r->clock_source ? r->clock_source : "");
    template_json(r, fp);
    fprintf(fp, "  \"kernels\": [\n");
    for (int i = 0; i < r->n_kernels; i++) {
        const gc_gemm_kpred_t *k = &r->kern[i];
        fprintf(fp,
                "  {\"role\": \"%s\", \"name\": \"%s\", \"library\": "
                "\"%s@%ld,%ld,%ld@%ld,%ld,%ld@%d\", "
                "\"grid\": [%ld, %ld, %ld], \"block\": [%ld, %ld, %ld], \"registers\": %d, "
                "\"persistent\": %s, \"time_us\": %.6g, \"clock_mhz\": %.6g, \"prediction\":\n",
                k->role, k->name, k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0],
                k->block[1], k->block[2], k->regs, k->grid[0], k->grid[1], k->grid[2], k->block[0],
                k->block[1], k->block[2], k->regs, k->persistent ? "true" : "false",
                fin(k->kernel_us), fin(k->pred.clock_mhz));
        gc_predict_print_json(&k->pred, NULL, fp);
        fprintf(fp, "  }%s\n", i + 1 < r->n_kernels ? "," : "");
    }
    fprintf(fp, "  ]\n}\n");
}

void gc_gemm_print_text(const gc_gemm_result_t *r, FILE *fp)
{
    fprintf(fp,
            "gemm %ldx%ldx%ld %s, batch %ld, layout %s, on %s: %.2f us on the GPU (%d kernel%s), "
            "+ %.2f us to launch; clock %.0f MHz (%s)\n",
            r->m, r->n, r->k, gc_gemm_dtype_name(r->dtype), r->batch, r->layout, r->pred.arch,
            fin(r->time_us), r->n_kernels, r->n_kernels > 1 ? "s" : "", fin(r->launch_us),
            fin(r->clock_mhz), r->clock_source ? r->clock_source : "");
    fprintf(fp, "  rule: %s\n", r->why);
    for (int i = 0; i < r->n_kernels; i++) {
        const gc_gemm_kpred_t *k = &r->kern[i];
        fprintf(fp, "  %-6s %s grid %ldx%ldx%ld%s, block %ld: %.2f us, %s-bound\n", k->role,
                k->name, k->grid[0], k->grid[1], k->grid[2], k->persistent ? " (persistent)" : "",
                k->block[0] * k->block[1] * k->block[2], fin(k->kernel_us),
                gc_predict_resource(k->pred.bound));
    }
    fprintf(fp,
            "  gemm %ldx%ldx%ld %s: %s, %s, block tile %dx%dx%d, %d stages, %d warps, "
            "split-K %d (fastest of %d candidates, %d predicted in full); %.1f TFLOP/s\n",
            r->m, r->n, r->k, gc_gemm_dtype_name(r->dtype), r->path, r->inst, r->tile_m, r->tile_n,
            r->tile_k, r->stages, r->warps, r->split, r->candidates, r->predicted, fin(r->tflops));
    fprintf(fp, "main kernel:\n");
    gc_predict_print_text(&r->pred, fp);
}
