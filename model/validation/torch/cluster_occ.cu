// cluster_occ.cu - how many thread-block clusters of each size fit on the GPU
// at once (cudaOccupancyMaxActiveClusters) for a block like cuDNN's and
// cuBLAS's sm90 persistent kernels: 384 threads, 168 registers, the whole
// opt-in shared memory. cuDNN sizes its persistent fprop grids by it: the
// train rows' sm90_xmma_fprop_implicit_gemm grids are (15, 8) with clusters
// of (1, 8, 1) and (30, 4) with (1, 4, 1), 120 blocks on 132 SMs, and ncu's
// launch__occupancy_per_cluster_size on the H200 reads 132, 66, 39, 30, 22,
// 17, 15, 15, 9, ... for sizes 1, 2, 3, ... (/work/diag/ops_raw.csv). This
// measures that table on any GPU, for an arch key the conv2d template could
// use instead of min(tiles, SMs).
//
// Build and run (CUDA runtime only; changes no setting):
//   nvcc -O2 -arch=sm_90 -o cluster_occ cluster_occ.cu && ./cluster_occ > $OUT/cluster_occ.csv
// Output: CSV cluster_size,max_active_clusters,blocks (one row per size 1..16).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(384, 1) k_persistent(float *out)
{
    extern __shared__ float sm[];
    sm[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    if (out)
        out[blockIdx.x * blockDim.x + threadIdx.x] = sm[(threadIdx.x + 1) % blockDim.x];
}

int main(void)
{
    int dev = 0, smem = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
        fprintf(stderr, "cluster_occ: no CUDA device\n");
        return 2;
    }
    cudaFuncSetAttribute(k_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(k_persistent, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    printf("# sms: %d, dynamic shared bytes per block: %d, 384 threads\n", sms, smem);
    printf("cluster_size,max_active_clusters,blocks\n");
    for (int cs = 1; cs <= 16; cs++) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        cfg.gridDim = dim3(cs * sms, 1, 1);
        cfg.blockDim = dim3(384, 1, 1);
        cfg.dynamicSmemBytes = (size_t)smem;
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = cs;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        int n = 0;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&n, k_persistent, &cfg);
        if (e != cudaSuccess) {
            printf("%d,-1,-1\n", cs);
            cudaGetLastError();
            continue;
        }
        printf("%d,%d,%d\n", cs, n, n * cs);
    }
    return 0;
}
