#!/bin/sh
# run_lsu9.sh - on the GPU host (from the repository root): what stop 28 measured to find why
# the model had fitted FlashAttention and cuBLAS's unaligned GEMMs only with the coissue
# bench's first ldmatrix chain (2026-11-29, H200):
#   1. measure/device_coissue.sh: the coissue bench twice and probe/mma_ldsm.cu;
#   2. diag.sh's sections on the train rows of diag_rows9.txt -> pipes9.py: each kernel's
#      pipes' and LSU data path's busy shares (data/h200/ncu_pipes9.csv);
#   3. ncu's L1 wavefront and instruction counts of four train rows' kernels (g091 cutlass_75
#      align1, g106 cutlass_80 align2, o001 FlashAttention-2, p002 the bf16 stem's cutlass
#      256x64) -> ncu_pivot.py (data/h200/ncu_lsu9.csv);
#   4. probe/lsu_rate.cu: narrow loads, copies and shared stores a clock an SM, and under ncu
#      their wavefronts per instruction (data/h200/lsu_rate.csv, lsu_ncu.csv).
# Writes into $OUT: coissue.csv, coissue_run2.csv, mma_ldsm.csv, diag9.tar.gz, ncu9.csv,
# lsu_rate.csv, lsu_ncu.csv and their logs. Never changes clocks (ncu --clock-control none).
set -u
OUT=${OUT:-/tmp/gpucal-lsu9-out}
H=model/validation
mkdir -p "$OUT"
sh measure/device_coissue.sh >"$OUT/coissue_run.txt" 2>&1; echo "coissue rc=$?"
mkdir -p "$OUT/d"
OUT=$OUT/d DIAG_ROWS=$H/torch/diag_rows9.txt SEED002_DIR=/nonexistent timeout 300 \
  sh $H/torch/diag.sh >"$OUT/diag9.log" 2>&1
echo "diag rc=$?"; mv "$OUT/d/diag.tar.gz" "$OUT/diag9.tar.gz"; rm -rf "$OUT/d"
cat >/tmp/args9.txt <<'A'
gemm --m 4095 --n 4095 --k 4095 --dtype f16 --layout nn --batch 1
gemm --m 4096 --n 4096 --k 4100 --dtype f16 --layout nn --batch 1
attention --batch 16 --heads 16 --seq 512 --head-dim 64 --dtype f16
conv2d --n 8 --c 3 --h 224 --w 224 --k 64 --r 7 --s 7 --stride 2 --pad 3 --dtype bf16
A
M=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
M=$M,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed.sum
M=$M,sm__cycles_elapsed.avg,smsp__inst_executed_pipe_tensor_op_hmma.sum,sm__pipe_tensor_cycles_active.avg
timeout 240 ncu --clock-control none --profile-from-start off --metrics "$M" --csv \
  python3 $H/torch/bench.py --ncu /tmp/args9.txt --ncu-calls 1 >"$OUT/ncu9.csv" 2>"$OUT/ncu9.err"
echo "ncu rc=$?"
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/lsu_rate $H/probe/lsu_rate.cu &&
  /tmp/lsu_rate >"$OUT/lsu_rate.csv"
M=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_requests.sum
M=$M,l1tex__t_sectors.sum,l1tex__data_bank_writes.sum,l1tex__data_bank_reads.sum,smsp__inst_executed.sum
M=$M,sm__cycles_elapsed.avg,lts__t_sectors.sum,l1tex__m_xbar2l1tex_read_sectors.sum
M=$M,l1tex__lsuin_requests.sum,smsp__inst_executed_pipe_lsu.sum
timeout 200 ncu --clock-control none --metrics "$M" --csv /tmp/lsu_rate ncu >"$OUT/lsu_ncu.csv" \
  2>"$OUT/lsu_ncu.err"
echo "lsu ncu rc=$?"
# locally: python3 model/validation/torch/pipes9.py ops_raw.csv ids.txt data/h200/ncu_pipes9.csv
#   --skip 'bitwise_not|splitKreduce';  python3 model/validation/torch/ncu_pivot.py ncu9.csv
#   data/h200/ncu_lsu9.csv --skip 'bitwise_not|Padding|memset|fill' --ids g091,g106,o001,p002;
#   python3 model/validation/torch/ncu_pivot.py lsu_ncu.csv data/h200/lsu_ncu.csv
#   --ids ldg2,ldg4,ldg16,cpa4,cpa8,cpg16,sts2,ldg2+sts2
ls -la "$OUT"
