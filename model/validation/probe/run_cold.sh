set -u
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/cold_start model/validation/probe/cold_start.cu || exit 1
cuobjdump -sass /tmp/cold_start > $OUT/cold_start.sass
/tmp/cold_start > $OUT/cold_start.csv
cat $OUT/cold_start.csv
grep -n "LDC" $OUT/cold_start.sass | head -5
grep -n "Function" $OUT/cold_start.sass
