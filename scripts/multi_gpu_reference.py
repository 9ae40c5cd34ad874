"""Times CuPy's copies between GPUs and torch.distributed's all_reduce for cuprite's
`multi_gpu` bench (benches/benches/multi_gpu.rs), which runs this script after its own
measurements and puts the figures beside cuprite's, one table per measurement.

Usage:
    python3 scripts/multi_gpu_reference.py --sizes B1,B2,... [--inner I1,I2,...]
        [--runs K] [--warmup W] [--copy SRC:DST ...] [--all-reduce N ...]
        [--no-cupy] [--no-torch]

--sizes B,...     bytes of each array (multiples of 4: float32 elements)
--inner I,...     calls timed together per run, one count per size (default 1 each); the
                  time reported is per call
--runs K          timed runs per figure, the figure is their median (default 10)
--warmup W        untimed runs before them (default 3), after one checked call
--copy S:D        time `with cupy.cuda.Device(D): b = a.copy()` for `a` on GPU S (CuPy
                  enables peer access and copies with cudaMemcpyAsync on D's current
                  stream); S == D is the copy on one GPU, the ceiling. Repeatable.
--all-reduce N    time torch.distributed.all_reduce (NCCL backend, float32 sum, in place)
                  on GPUs 0..N-1, one process per GPU started by torch.multiprocessing,
                  meeting over TCP on 127.0.0.1. Repeatable.
--no-cupy         no copies
--no-torch        no all_reduce

Inputs: float32 integers uniform in [-1000, 1000] (one period of 2**18 drawn with a fixed
seed, tiled to the size): never zeros or a constant, and any sum of them over the ranks is
exact, so results compare exactly.

Checks, once per figure before it is timed: a copy is on the destination GPU and equals
an array built there independently from the same period (a few elements read back to the
host and compared with the period, then cupy.array_equal); an all_reduce gives N times its
input on every rank (a few elements on the host, then torch.equal). A mismatch is the
figure's "error": "WRONG RESULT: ..." (the bench then exits 1); nothing is timed.

Timing: each run resets the in-place input, synchronises every GPU in use (and, for
all_reduce, meets the other ranks at a barrier), then records CUDA events around the
`inner` calls: on the destination's current stream for a copy, on each rank's current
stream for all_reduce (torch makes it wait for the NCCL stream); an all_reduce run's time
is the longest of the ranks'.

Output: JSON lines on stdout, progress on stderr:
    {"kind": "about", "about": "CuPy 14.2.0, PyTorch 2.11.0 (NCCL 2.27.5), Python 3.12.3",
     "python": "3.12.3", "cupy": "14.2.0", "cupy_error": null, "torch": "2.11.0",
     "torch_error": null, "torch_nccl": "2.27.5", "cuda_driver": "13.0"}
    {"kind": "copy", "src": 0, "dst": 1, "bytes": 1048576, "inner": 20, "runs": 10,
     "median_ms": 0.0051, "min_ms": 0.0049}
    {"kind": "all_reduce", "world": 8, "bytes": 1048576, "inner": 20, "runs": 10,
     "median_ms": 0.031, "min_ms": 0.029}
A figure that could not be measured carries "error" instead of the times; an all_reduce
line without "bytes" is the failure of every size of that communicator not reported yet.
"cupy_error" / "torch_error" say why a library was not used (not installed, no GPU,
--no-cupy / --no-torch); its figures are then not printed. Exit status 0, also without
CuPy, PyTorch or a GPU; 2 on bad options.
"""

import argparse
import json
import platform
import socket
import statistics
import sys
import traceback

PATTERN_LEN = 1 << 18
SEED = 20261122


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def emit(obj):
    print(json.dumps(obj), flush=True)


class Wrong(Exception):
    """A result that differs from the expected one."""


def sample_indices(n):
    """Both ends, the middle, the edges of the first period, and a spread of others."""
    idx = {0, 1, n // 3, n // 2, PATTERN_LEN - 1, PATTERN_LEN, n - 2, n - 1}
    idx.update(range(0, n, max(1, n // 5)))
    return sorted(i for i in idx if 0 <= i < n)


def check_samples(got, period, factor):
    """`got`: (index, value) pairs; the expected value is factor * period[index % len]."""
    for i, v in got:
        want = float(period[i % PATTERN_LEN]) * factor
        if float(v) != want:
            raise Wrong(f"element {i} is {v}, expected {want}")


def figure(ms, inner, runs):
    return {"inner": inner, "runs": runs, "median_ms": statistics.median(ms),
            "min_ms": min(ms)}


def failure(e):
    if isinstance(e, Wrong):
        return f"WRONG RESULT: {e}"
    return f"error: {type(e).__name__}: {e}"


# --- CuPy: copies ----------------------------------------------------------------------

def import_cupy():
    try:
        import cupy as cp
        import numpy as np
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # not installed, no driver, no GPU
        return None, None, f"{type(e).__name__}: {e}"
    if count < 1:
        return None, None, "CuPy sees no GPU"
    return cp, np, None


def cupy_period(np):
    rng = np.random.default_rng(SEED)
    return rng.integers(-1000, 1001, PATTERN_LEN).astype(np.float32)


def cupy_tiled(cp, period, n):
    reps = -(-n // PATTERN_LEN)
    return cp.ascontiguousarray(cp.tile(cp.asarray(period), reps)[:n])


def copy_figure(cp, period, src, dst, nbytes, inner, runs, warmup):
    count = cp.cuda.runtime.getDeviceCount()
    if max(src, dst) >= count:
        raise RuntimeError(f"needs GPU {max(src, dst)}, CuPy sees {count}")
    n = nbytes // 4
    devices = [cp.cuda.Device(src), cp.cuda.Device(dst)]
    with devices[0]:
        a = cupy_tiled(cp, period, n)
    with devices[1]:
        want = cupy_tiled(cp, period, n)
        b = a.copy()
        if b.device.id != dst:
            raise Wrong(f"the copy is on GPU {b.device.id}, not {dst}")
        idx = sample_indices(n)
        got = cp.asnumpy(b[cp.asarray(idx)])
        check_samples(zip(idx, got.tolist()), period, 1)
        if not bool(cp.array_equal(b, want)):
            raise Wrong("differs from the source (the sampled elements match)")
        del b, want
        ms = []
        for run in range(warmup + runs):
            for d in devices:
                d.synchronize()
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            for _ in range(inner):
                b = a.copy()
            end.record()
            end.synchronize()
            del b
            if run >= warmup:
                ms.append(cp.cuda.get_elapsed_time(start, end) / inner)
    del a
    for d in devices:
        with d:
            cp.get_default_memory_pool().free_all_blocks()
    return figure(ms, inner, runs)


def cupy_copies(cp, np, pairs, sizes, inners, runs, warmup):
    period = cupy_period(np)
    for src, dst in pairs:
        for nbytes, inner in zip(sizes, inners):
            line = {"kind": "copy", "src": src, "dst": dst, "bytes": nbytes}
            try:
                line.update(copy_figure(cp, period, src, dst, nbytes, inner, runs, warmup))
                log(f"  cupy copy {src}->{dst} {nbytes} B: {line['median_ms']:.4f} ms")
            except Exception as e:
                line["error"] = failure(e)
                log(f"  cupy copy {src}->{dst} {nbytes} B: {line['error']}")
                try:
                    cp.get_default_memory_pool().free_all_blocks()
                except Exception:
                    pass
            emit(line)


# --- PyTorch: all_reduce ---------------------------------------------------------------

def import_torch():
    try:
        import torch
        import torch.distributed as dist
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"
    if not torch.cuda.is_available():
        return None, "PyTorch sees no GPU"
    if not dist.is_available() or not dist.is_nccl_available():
        return None, "torch.distributed has no NCCL backend here"
    return torch, None


def torch_nccl_version(torch):
    try:
        v = torch.cuda.nccl.version()
    except Exception:
        return None
    if isinstance(v, tuple):
        return ".".join(str(x) for x in v[:3])
    return str(v)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reduce_figure(torch, dist, dev, rank, world, period, nbytes, inner, runs, warmup):
    """One size on this rank: the checked call, then the timed runs. Every rank takes the
    same branches (each failure is agreed on through a small all_reduce first), so no rank
    waits in a collective the others skip. Returns the figure, or its "error", as a dict
    (rank 0 prints it)."""
    n = nbytes // 4

    def agree(e):
        """The failure of the highest failing rank, agreed on by all: None, or (rank,
        whether it was a wrong result)."""
        code = 0 if e is None else 2 * (rank + 1) + (1 if isinstance(e, Wrong) else 0)
        t = torch.tensor([code], device=dev, dtype=torch.int64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        code = int(t.item())
        return None if code == 0 else (code // 2 - 1, code % 2 == 1)

    def message(e, bad):
        r, wrong = bad
        if r == rank:
            log(f"  rank {rank} of {world}: {failure(e)}")
            return {"error": f"{failure(e)} (rank {r} of {world})"}
        kind = "WRONG RESULT" if wrong else "error"
        return {"error": f"{kind} on rank {r} of {world} (its message is above)"}

    trouble = None
    try:
        reps = -(-n // PATTERN_LEN)
        src = period.to(dev).repeat(reps)[:n].contiguous()
        want = src * world
        x = src.clone()
    except Exception as e:
        trouble = e
    bad = agree(trouble)
    if bad:
        return message(trouble, bad)

    try:
        dist.all_reduce(x)
        torch.cuda.synchronize(dev)
        idx = sample_indices(n)
        got = x[torch.tensor(idx, device=dev)].cpu().tolist()
        check_samples(zip(idx, got), period, world)
        if not torch.equal(x, want):
            raise Wrong("differs from N times the input (the sampled elements match)")
    except Exception as e:
        trouble = e
    del want
    bad = agree(trouble)
    if bad:
        return message(trouble, bad)

    ms = []
    for run in range(warmup + runs):
        x.copy_(src)
        torch.cuda.synchronize(dev)
        dist.barrier()
        torch.cuda.synchronize(dev)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(inner):
            dist.all_reduce(x)
        end.record()
        end.synchronize()
        if run >= warmup:
            ms.append(start.elapsed_time(end) / inner)
    slowest = torch.tensor(ms, device=dev, dtype=torch.float64)
    dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
    del x, src
    torch.cuda.empty_cache()
    return figure(slowest.cpu().tolist(), inner, runs)


def reduce_worker(rank, world, port, sizes, inners, runs, warmup):
    import torch
    import torch.distributed as dist
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    init = {"backend": "nccl", "init_method": f"tcp://127.0.0.1:{port}", "rank": rank,
            "world_size": world}
    try:
        dist.init_process_group(**init, device_id=dev)
    except TypeError:  # a PyTorch before 2.3 binds the device at the first collective
        dist.init_process_group(**init)
    try:
        g = torch.Generator().manual_seed(SEED)
        period = torch.randint(-1000, 1001, (PATTERN_LEN,), generator=g).to(torch.float32)
        for nbytes, inner in zip(sizes, inners):
            r = reduce_figure(torch, dist, dev, rank, world, period, nbytes, inner, runs,
                              warmup)
            if rank == 0:
                line = {"kind": "all_reduce", "world": world, "bytes": nbytes}
                line.update(r)
                emit(line)
                log(f"  torch all_reduce x{world} {nbytes} B: "
                    + (f"{r['median_ms']:.4f} ms" if "median_ms" in r else r["error"]))
    finally:
        dist.destroy_process_group()


def torch_all_reduces(torch, worlds, sizes, inners, runs, warmup):
    import torch.multiprocessing as mp
    count = torch.cuda.device_count()
    for world in worlds:
        if world > count:
            emit({"kind": "all_reduce", "world": world,
                  "error": f"error: needs {world} GPUs, PyTorch sees {count}"})
            continue
        try:
            mp.spawn(reduce_worker, args=(world, free_port(), sizes, inners, runs, warmup),
                     nprocs=world, join=True)
        except Exception as e:
            log(traceback.format_exc())
            emit({"kind": "all_reduce", "world": world,
                  "error": f"error: the ranks failed: {type(e).__name__}: {e}"})


# --- main ----------------------------------------------------------------------------

def int_list(v):
    return [int(x) for x in v.split(",") if x.strip()]


def pair(v):
    s, d = v.split(":")
    return int(s), int(d)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int_list, required=True)
    p.add_argument("--inner", type=int_list)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--copy", type=pair, action="append", default=[])
    p.add_argument("--all-reduce", type=int, action="append", default=[])
    p.add_argument("--no-cupy", action="store_true")
    p.add_argument("--no-torch", action="store_true")
    a = p.parse_args()
    inners = a.inner or [1] * len(a.sizes)
    if len(inners) != len(a.sizes) or a.runs < 1 or a.warmup < 0:
        p.error("--inner needs one count per size, --runs >= 1, --warmup >= 0")
    if any(b <= 0 or b % 4 for b in a.sizes) or any(i < 1 for i in inners):
        p.error("sizes must be positive multiples of 4, inner counts positive")

    cp = np = torch = None
    cupy_error = torch_error = None
    if a.no_cupy:
        cupy_error = "--no-cupy"
    else:
        cp, np, cupy_error = import_cupy()
    if a.no_torch:
        torch_error = "--no-torch"
    else:
        torch, torch_error = import_torch()

    about = {"kind": "about", "python": platform.python_version(),
             "cupy": cp.__version__ if cp else None, "cupy_error": cupy_error,
             "torch": torch.__version__ if torch else None, "torch_error": torch_error,
             "torch_nccl": torch_nccl_version(torch) if torch else None,
             "cuda_driver": None}
    if cp:
        try:
            v = cp.cuda.runtime.driverGetVersion()
            about["cuda_driver"] = f"{v // 1000}.{v % 1000 // 10}"
        except Exception:
            pass
    parts = []
    if cp:
        parts.append(f"CuPy {cp.__version__}")
    if torch:
        nccl = about["torch_nccl"]
        parts.append(f"PyTorch {torch.__version__}" + (f" (NCCL {nccl})" if nccl else ""))
    parts.append(f"Python {about['python']}")
    about["about"] = ", ".join(parts)
    emit(about)

    if cp and a.copy:
        cupy_copies(cp, np, a.copy, a.sizes, inners, a.runs, a.warmup)
    if torch and a.all_reduce:
        torch_all_reduces(torch, a.all_reduce, a.sizes, inners, a.runs, a.warmup)
    return 0


if __name__ == "__main__":
    sys.exit(main())
