/* gemm_out.c - the gemm template's output (gemm.h): a JSON document
 * (schema gpucal-gemm/1, keys in model/kernels/README.md) listing each
 * kernel of the call and the total, and human text. time_us is GPU time
 * (kernels only); launch_us what launching the call adds end to end. */
#include "gemm_int.h"
#include "predict_json.h"

#include <math.h>
#include <stdio.h>

static double fin(double v)
{
    return isfinite(v) ? v : 0;
}

/* the JSON text: predict_json.c */
void gc_gemm_print_json(const gc_gemm_result_t *r, FILE *fp)
{
    gc_jbuf_t jb;
    gc_jbuf_init(&jb, 0);
    gc_gemm_json(&jb, r);
    gc_jbuf_write(&jb, fp);
    gc_jbuf_fini(&jb);
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
