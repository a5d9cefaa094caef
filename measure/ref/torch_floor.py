"""torch_floor.py - what the profiler (CUPTI, as torch.profiler reports it)
says a kernel that does almost nothing lasts: element-wise adds over 1 ..
2^20 float32 elements (one kernel each), the median duration of 200 calls.
The reference for gpucal's measured per-kernel GPU floor
(measure/ref/kernel_floor.cu). Exit 3 without torch or a GPU."""
import sys


def main():
    try:
        import torch
        from torch.profiler import profile, ProfilerActivity
    except ImportError as e:
        print("torch_floor: no torch (%s)" % e)
        return 3
    if not torch.cuda.is_available():
        print("torch_floor: torch sees no GPU")
        return 3
    print("torch %s on %s" % (torch.__version__, torch.cuda.get_device_name(0)))
    for n in (1, 1024, 32768, 262144, 1 << 20):
        x = torch.zeros(n, device="cuda")
        for _ in range(20):
            x.add_(1.0)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(200):
                x.add_(1.0)
            torch.cuda.synchronize()
        d = sorted(e.device_time for e in prof.events() if e.device_type.name == "CUDA")
        names = sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})
        if d:
            print("TFLOOR n %8d: kernels %d, median %.3f us, min %.3f us (%s)"
                  % (n, len(d), d[len(d) // 2], d[0], names[0][:80]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
