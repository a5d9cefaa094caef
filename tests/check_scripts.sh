#!/bin/sh
# check_scripts.sh - model/validation's gemm_check.sh and ops_check.sh: each row
# predicted with the call period the harness measured when --call-period asks for it
# (NAME_inrow.csv beside NAME.csv, else row_times.csv), back to back without it; bad
# usage one line and exit 2. Needs $GPUCAL (set by ctest).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
V=$(dirname "$0")/../model/validation
A=$(dirname "$0")/../arch/hopper-h200.yaml
D=$T/data
mkdir -p "$D"
cat >"$D/gemm.csv" <<'CSV'
id,split,class,args,kernels,kernel_us,time_us,reps
g001,train,square,gemm --m 256 --n 256 --k 256 --dtype f16 --layout nn --batch 1,"k@2,64,1@384,1,1@168",2.624,2.624,2000
g002,train,square,gemm --m 512 --n 512 --k 512 --dtype f16 --layout nn --batch 1,"k@2,64,1@384,1,1@168",3.23,3.23,2000
CSV
cat >"$D/gemm_inrow.csv" <<'CSV'
id,split,class,args,reps,time_us,csv_time_us,period_us,ticks,clock_mhz,clock_lo_mhz,clock_hi_mhz,first_mhz,last_mhz,mean_mhz,row_s
g001,train,square,gemm --m 256 --n 256 --k 256 --dtype f16 --layout nn --batch 1,2000,2.592,2.624,17.761,400,1955.6,1955.6,1986.6,1955.1,1955.6,1961.9,4.779
CSV
printf 'g001,100.000,100.500\ng002,200.000,200.100\n' >"$D/row_times.csv"
run sh "$V/gemm_check.sh" "$G" "$D/gemm.csv" "$A" --call-period
expect_rc 0 "gemm_check --call-period"
expect_out "^g001 .*batch 1 period-us 17.76$" "the measured period of clock_inrow.py wins"
expect_out "^g002 .*batch 1 period-us 50.00$" "else the profiled interval over the reps"
run sh "$V/gemm_check.sh" "$G" "$D/gemm.csv" "$A"
expect_rc 0 "gemm_check back to back"
grep -q 'period-us' "$out" && fail "without --call-period no row has a period"
run sh "$V/gemm_check.sh" "$G" "$D/gemm.csv" "$A" --period
expect_rc 2 "an unknown option"
expect_err "unknown option '--period'" "an unknown option is named"
finish
