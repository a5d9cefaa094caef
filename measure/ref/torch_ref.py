"""torch_ref.py - PyTorch's copy and triad bandwidth, an independent reference
for gpucal's DRAM bandwidth. y.copy_(x) over float32 tensors of MIB MiB
counts bytes read + written (2 x size); triad a = b + s * c counts 3 x size.
Best and median of 30 timed launches (CUDA events) after 3 warm-ups.
Usage: python3 torch_ref.py [MiB, default 1024]. Exit 0; 3 if torch or a GPU
is missing (reported, not a failure of the measurement)."""
import sys


def timed(fn, reps=30):
    """Best and median milliseconds of `reps` calls of fn, each between events."""
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1))
    ts.sort()
    return ts[0], ts[len(ts) // 2]


def main():
    mib = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    try:
        import torch
    except ImportError as e:
        print("torch_ref: no torch (%s)" % e)
        return 3
    if not torch.cuda.is_available():
        print("torch_ref: torch sees no GPU")
        return 3
    n = (mib << 20) // 4
    x = torch.rand(n, device="cuda")
    y = torch.empty_like(x)
    c = torch.rand(n, device="cuda")
    print("torch %s on %s, %d MiB per tensor" % (torch.__version__, torch.cuda.get_device_name(0), mib))
    size = n * 4
    for name, fn, mult in (("copy", lambda: y.copy_(x), 2),
                           ("triad", lambda: torch.add(x, c, alpha=1.5, out=y), 3),
                           ("read_sum", lambda: x.sum(), 1),
                           ("write_fill", lambda: y.fill_(1.0), 1)):
        b, m = timed(fn)
        print("TORCH %s best %.1f GB/s, median %.1f GB/s (bytes = %d x %d MiB)"
              % (name, mult * size / b / 1e6, mult * size / m / 1e6, mult, mib))
    return 0


if __name__ == "__main__":
    sys.exit(main())
