#!/bin/sh
# run_sass4.sh - on the GPU host (from the repository root): the SASS of the measure
# binary's k_tma_link (the test fixture's copy) and DIAG_MODE=sass on diag_sass_rows4.txt.
# DIAG_ROWS=FILE profiles another list of train rows; SKIP_MEASURE=1 leaves out the measure
# binary.
# Writes $OUT/k_tma_link.sass, $OUT/diag4.tar.gz, $OUT/diag.log.
set -u
W=/tmp/gm
if [ -z "${SKIP_MEASURE:-}" ]; then
(cmake -S . -B $W -DGPUCAL_CUDA=ON -DGPUCAL_CUDA_GENCODE="-gencode=arch=compute_90a,code=sm_90a" >/dev/null && cmake --build $W -j16 --target gpucal-measure >$W.log 2>&1) || tail -20 $W.log
cuobjdump -sass -arch sm_90a $W/gpucal-measure | awk '/Function : .*k_tma_link/ {k=1; print; next} /Function : / {k=0} k' > $OUT/k_tma_link.sass
wc -l $OUT/k_tma_link.sass
fi
OUT2=$OUT/diag; mkdir -p $OUT2
OUT=$OUT2 DIAG_MODE=sass DIAG_ROWS=${DIAG_ROWS:-model/validation/torch/diag_sass_rows4.txt} timeout 400 sh model/validation/torch/diag.sh > $OUT/diag.log 2>&1
echo "diag rc=$?"; tail -5 $OUT/diag.log
mv $OUT2/diag.tar.gz $OUT/diag4.tar.gz; rm -rf $OUT2
ls -la $OUT
