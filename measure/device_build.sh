# device_build.sh - sourced by the device scripts (device_clock.sh,
# device_power.sh, device_cold.sh, device_coissue.sh), not run on its own: builds gpucal-measure for sm_90a
# with CUDA alone (cmake -DGPUCAL_CUDA=ON; the GPU host needs neither GSL
# nor libyaml) into the folder $B, its log in $OUT/build.log, and says how
# long it took; a failed build prints the log's end and exits 1.
t0=$(date +%s)
cmake -S . -B "$B" -DGPUCAL_CUDA=ON \
    -DGPUCAL_CUDA_GENCODE="-gencode=arch=compute_90a,code=sm_90a" >"$OUT/build.log" 2>&1
if ! cmake --build "$B" -j16 --target gpucal-measure >>"$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"
    exit 1
fi
echo "built in $(($(date +%s) - t0)) s"
