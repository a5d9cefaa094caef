/* test_machine.c - an arch resolved once into the predictor's machine
 * (model/predict/machine.h): derived figures filled and recorded at
 * resolve time, the form index (rand preferred, operands filter, bf16 and
 * wmma fallbacks), the CUDA-core index (the arch entry of a name, else
 * the default of its prefix up to a '.', else FP64), unusable forms
 * failing only when used, and a prediction on an attached machine equal to
 * one resolved for the call. */
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "model/predict/kernel.h"
#include "model/predict/machine.h"
#include "model/predict/predict.h"
#include "check.h"

static const char arch_text[] =
    "schema: gpucal-arch/1\n"
    "name: toy\n"
    "family: ampere\n"
    "device: toy\n"
    "cc: \"8.0\"\n"
    "sm: {count: 10, sub_cores: 4, fp32_lanes: 128, clock_max_mhz: 1000}\n"
    "tensor:\n"
    "  - {inst: mma, shape: m16n8k16, a: f16, c: f32, data: zero, latency_cyc: 30, "
    "issue_cyc: 9}\n"
    "  - {inst: mma, shape: m16n8k16, a: f16, c: f32, data: rand, latency_cyc: 30, "
    "issue_cyc: 8}\n"
    "  - {inst: mma, shape: m16n8k8, a: f16, c: f32, peak_fma_clk_sm: 512}\n"
    "  - {inst: mma, shape: m16n8k32, a: s8, c: s32, latency_cyc: 20}\n"
    "  - {inst: wgmma, shape: m64n64k16, a: f16, c: f32, operands: rs, latency_cyc: 40, "
    "issue_cyc: 32}\n"
    "alu:\n"
    "  - {op: ffma, latency_cyc: 5}\n"
    "  - {op: mufu, latency_cyc: 7}\n"
    "memory:\n"
    "  dram: {bw_peak_gbs: 1000}\n";

static gc_kop_t op_of(const char *inst, const char *shape, const char *a, const char *c)
{
    gc_kop_t op;
    memset(&op, 0, sizeof(op));
    op.cls = GC_OP_MMA;
    op.inst = inst;
    op.shape = shape;
    op.a = a;
    op.c = c;
    op.count = 1;
    return op;
}

static void resolve(const gc_machine_t *m)
{
    CHECK(m->n_forms == 5 && m->sms == 10);
    /* DRAM from the peak, recorded once in the machine */
    CHECK_NEAR(m->dram_bw_gbs, 900, 1e-9);
    int found = 0;
    for (int i = 0; i < m->derived.n; i++)
        found |= !strcmp(m->derived.d[i].field, "memory.dram.bw_gbs");
    CHECK(found);
    /* the k8 form: issue from its peak (16*8*8 * 4 / 512 = 8), latency = issue */
    const gc_mform_t *f = &m->forms[2];
    CHECK(f->ok);
    CHECK_NEAR(f->pipe.issue_cyc, 8, 1e-12);
    CHECK_NEAR(f->pipe.lat_cyc, 8, 1e-12);
    CHECK(f->nd == 4); /* sub_cores, issue_cyc, latency_cyc, overhead_cyc */
    /* the s8 form has neither issue nor peak: unusable, but the machine resolves */
    CHECK(!m->forms[3].ok);
    /* ffma: the entry's latency, the default rate (128 lanes) */
    CHECK(m->alus[0].ok);
    CHECK_NEAR(m->alus[0].pipe.lat_cyc, 5, 1e-12);
    CHECK_NEAR(m->alus[0].pipe.issue_cyc, 32.0 * 4 / 128, 1e-12);
}

static void lookups(const gc_machine_t *m)
{
    gc_err_t e;
    gc_tensor_plan_t tp;
    gc_derived_list_t dl = {.n = 0};
    gc_kop_t op = op_of("mma", "m16n8k16", "f16", "f32");
    CHECK(gc_machine_tensor(m, &op, "k.yaml", &tp, &dl, &e) == 0);
    CHECK(tp.form == &m->forms[1]); /* rand preferred over zero */
    op = op_of("mma", "m16n8k16", "bf16", "f32");
    dl.n = 0;
    CHECK(gc_machine_tensor(m, &op, "k.yaml", &tp, &dl, &e) == 0);
    /* the bf16 rule recorded first (key "tensor[...]"), then the form's figures */
    CHECK(tp.form == &m->forms[1] && dl.n >= 1 && !dl.d[0].field[0] && dl.d[0].value == 1);
    op = op_of("wmma", "m16n16k16", "f16", "f32");
    CHECK(gc_machine_tensor(m, &op, "k.yaml", &tp, &dl, &e) == 0);
    CHECK(tp.form == &m->forms[1] && tp.insts == 2);
    op = op_of("wgmma", "m64n64k16", "f16", "f32");
    gc_err_clear(&e);
    CHECK(gc_machine_tensor(m, &op, "k.yaml", &tp, &dl, &e) == GC_EINPUT); /* only rs */
    CHECK_HAS(e.msg, "for wgmma operands");
    op.operands = "rs";
    CHECK(gc_machine_tensor(m, &op, "k.yaml", &tp, &dl, &e) == 0 && tp.warpgroup);
    op = op_of("mma", "m16n8k32", "s8", "s32");
    op.line = 7;
    gc_err_clear(&e);
    CHECK(gc_machine_tensor(m, &op, "k.yaml", &tp, &dl, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "k.yaml:7:");
    CHECK_HAS(e.msg, "neither issue_cyc nor a peak");
}

/* op `name` resolves to latency lat on execution pipe cls (lat < 0: an error) */
static void alu_is(const gc_machine_t *m, const char *name, double lat, int cls)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_kop_t op;
    memset(&op, 0, sizeof(op));
    op.cls = GC_OP_ALU;
    op.name = name;
    op.count = 1;
    gc_pipe_t p;
    int c = -1;
    int rc = gc_machine_alu(m, &op, "k.yaml", &p, &c, NULL, &e);
    if (lat < 0) {
        CHECK(rc == GC_EINPUT);
        CHECK_HAS(e.msg, "no alu entry");
        return;
    }
    CHECK(rc == 0);
    CHECK_NEAR(p.lat_cyc, lat, 1e-12);
    CHECK(c == cls);
}

static void alu_lookups(const gc_machine_t *m)
{
    alu_is(m, "ffma", 5, 0);
    alu_is(m, "mufu", 7, 2);      /* the arch's entry */
    alu_is(m, "mufu.ex2", 20, 2); /* no entry of that name: the default of its prefix */
    alu_is(m, "lop3", 4, 1);
    alu_is(m, "iadd3.x", 4, 1);
    alu_is(m, "dfma.rn", 8, 3); /* FP64 by prefix */
    alu_is(m, "ffmax", -1, 0);  /* a prefix only up to a '.' */
    alu_is(m, "fadd.", 4, 0);
    alu_is(m, ".ffma", -1, 0);
}

static const char kernel_text[] = "schema: gpucal-kernel/1\nname: t\n"
                                  "launch: {grid: [100], block: [128], registers: 32}\n"
                                  "loop:\n  trips: 10\n  ops:\n"
                                  "    - {op: mma, shape: m16n8k8, a: f16, c: f32, count: 4}\n"
                                  "    - {op: alu, name: iadd3, count: 2}\n"
                                  "    - {op: ldg, width: 16, count: 1}\n";

/* attached machine and one resolved for the call predict the same */
static void attached(gc_arch_t *a)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_kernel_t *k = NULL;
    if (gc_kernel_parse(&k, "k.yaml", kernel_text, strlen(kernel_text), &e))
        fprintf(stderr, "kernel: %s\n", e.msg);
    CHECK(k != NULL);
    if (!k)
        return;
    gc_predict_opts_t o = {0};
    gc_prediction_t p1, p2;
    CHECK(gc_predict(a, k, &o, &p1, &e) == 0);
    CHECK(gc_machine_of(a) == NULL);
    CHECK(gc_machine_attach(a, &e) == 0 && gc_machine_of(a) != NULL);
    CHECK(gc_predict(a, k, &o, &p2, &e) == 0);
    CHECK(p1.cycles > 0 && p1.cycles == p2.cycles && p1.derived.n == p2.derived.n);
    for (int i = 0; i < p1.derived.n && i < p2.derived.n; i++) {
        char k1[160], k2[160];
        CHECK_STR(gc_derived_key(&p1.derived.d[i], k1, sizeof(k1)),
                  gc_derived_key(&p2.derived.d[i], k2, sizeof(k2)));
    }
    gc_kernel_destroy(k);
}

int main(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a = NULL;
    if (gc_arch_parse(&a, "toy.yaml", arch_text, strlen(arch_text), &e)) {
        fprintf(stderr, "toy arch: %s\n", e.msg);
        return 1;
    }
    gc_machine_t *m = NULL;
    CHECK(gc_machine_create(&m, a, &e) == 0);
    if (m) {
        resolve(m);
        lookups(m);
        alu_lookups(m);
    }
    gc_machine_destroy(m);
    attached(a);
    /* no SM count: the machine cannot be resolved */
    gc_arch_t *b = gc_arch_create();
    gc_err_clear(&e);
    CHECK(gc_machine_create(&m, b, &e) == GC_EINPUT && m == NULL);
    CHECK_HAS(e.msg, "sm.count is missing");
    gc_arch_destroy(b);
    gc_arch_destroy(a);
    gc_machine_destroy(NULL);
    return gc_check_failures ? 1 : 0;
}
