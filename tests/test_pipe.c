/* test_pipe.c - the pipe model against seed 000's published A100 and
 * RTX 3070 Ti convergence points (Tables III and IV). */
#include "check.h"
#include "arch/pipe.h"

int main(void)
{
    /* A100 mma m16n8k16 f16.f32: completion 24.7; (4,3) 27.4 cyc, 897.6 FMA;
     * (8,2) 32.6 cyc, 1004.2 FMA/clk/SM */
    gc_pipe_t a100 = {24.7, 8.15, 1.35, 4};
    CHECK_NEAR(gc_pipe_cycles(&a100, 1, 1), 24.7, 1e-9);
    CHECK_NEAR(gc_pipe_cycles(&a100, 4, 3), 27.4, 0.05);
    CHECK_NEAR(gc_pipe_cycles(&a100, 8, 2), 32.6, 0.05);
    CHECK_NEAR(gc_pipe_rate(&a100, 4, 3) * 2048, 897.6, 2);
    CHECK_NEAR(gc_pipe_rate(&a100, 8, 2) * 2048, 1004.2, 2);
    CHECK(gc_pipe_latency_bound(&a100, 4, 3));
    CHECK(!gc_pipe_latency_bound(&a100, 8, 2));
    CHECK(gc_pipe_per_slot(&a100, 5, 2) == 4); /* ceil(5/4) * 2 */
    /* RTX 3070 Ti m16n8k16 f16.f32: (4,1) 33 cycles 248.2; (8,1) 64.8, 252.7 */
    gc_pipe_t ti = {33.0, 32.4, 0.0, 4};
    CHECK_NEAR(gc_pipe_cycles(&ti, 4, 1), 33.0, 0.5);
    CHECK_NEAR(gc_pipe_cycles(&ti, 8, 1), 64.8, 0.1);
    CHECK_NEAR(gc_pipe_rate(&ti, 8, 1) * 2048, 252.7, 1);
    /* a zero slot count is treated as one slot, not a division by zero */
    gc_pipe_t z = {10, 2, 0, 0};
    CHECK_NEAR(gc_pipe_cycles(&z, 3, 2), 12, 1e-12);
    CHECK_DONE();
}
