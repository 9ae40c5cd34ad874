"""Counts what 10^4 DLPack exchanges through cuprite_normalize leave behind.

One exchange: a producer's array goes into cuprite (`view` or `normalize`), comes back as
a `cuprite.Array`, and the producer's library views the result with `from_dlpack`; then
every reference is dropped. After N exchanges (10^4 by default) the script checks, per
library present (NumPy always; PyTorch and CuPy on a CUDA GPU):

- the producer's reference count is what it was (cuprite released every import);
- the consumer's memory (torch.cuda.memory_allocated, CuPy's pool in use) is what it was;
- cuprite's own device memory in use (`cuda_memory_in_use`) is what it was;
- the process's resident memory grew by less than 16 MiB (each `normalize` result of the
  host case is 296 kB, so one leaked per exchange would be 2.9 GB).

It prints the counts before and after and exits 1 on a leak.

    python3 leaks.py [N] [--numpy]
"""

import gc
import os
import sys

import numpy as np

import cuprite_normalize as cn

RSS_SLACK = 16 << 20


def rss():
    """Resident bytes of this process."""
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def exchange(x, from_dlpack, n):
    for i in range(n):
        y = from_dlpack(cn.normalize(x) if i % 2 else cn.view(x))
        del y


def check(name, before, after, slack=0):
    grew = after - before
    ok = grew <= slack
    print(f"  {name}: {before} -> {after} ({'ok' if ok else 'LEAK'})")
    return ok


def numpy_case(n):
    m = np.random.default_rng(7).standard_normal((1000, 37))
    exchange(m, np.from_dlpack, 100)  # warm-up: allocator caches, plans
    gc.collect()
    refs, mem = sys.getrefcount(m), rss()
    exchange(m, np.from_dlpack, n)
    gc.collect()
    print(f"numpy, {n} exchanges:")
    ok = check("producer refcount", refs, sys.getrefcount(m))
    return check("resident bytes", mem, rss(), RSS_SLACK) and ok


def torch_case(n):
    import torch

    if not torch.cuda.is_available():
        print("torch: no CUDA device, skipped")
        return True
    m = torch.randn(1000, 37, device="cuda", dtype=torch.float64)
    exchange(m, torch.from_dlpack, 100)
    torch.cuda.synchronize()
    gc.collect()
    refs, used, ours = sys.getrefcount(m), torch.cuda.memory_allocated(), cn.cuda_memory_in_use()
    exchange(m, torch.from_dlpack, n)
    torch.cuda.synchronize()
    gc.collect()
    print(f"torch, {n} exchanges:")
    ok = check("producer refcount", refs, sys.getrefcount(m))
    ok = check("torch.cuda.memory_allocated", used, torch.cuda.memory_allocated()) and ok
    return check("cuprite device bytes in use", ours, cn.cuda_memory_in_use()) and ok


def cupy_case(n):
    import cupy as cp

    pool = cp.get_default_memory_pool()
    m = cp.random.default_rng(7).standard_normal((1000, 37))
    exchange(m, cp.from_dlpack, 100)
    cp.cuda.Device().synchronize()
    gc.collect()
    refs, used, ours = sys.getrefcount(m), pool.used_bytes(), cn.cuda_memory_in_use()
    exchange(m, cp.from_dlpack, n)
    cp.cuda.Device().synchronize()
    gc.collect()
    print(f"cupy, {n} exchanges:")
    ok = check("producer refcount", refs, sys.getrefcount(m))
    ok = check("cupy pool bytes in use", used, pool.used_bytes()) and ok
    return check("cuprite device bytes in use", ours, cn.cuda_memory_in_use()) and ok


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 10_000
    ok = numpy_case(n)
    if "--numpy" not in sys.argv:
        for name, case in (("torch", torch_case), ("cupy", cupy_case)):
            try:
                __import__(name)
            except ImportError:
                print(f"{name}: not installed, skipped")
            else:
                ok = case(n) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
