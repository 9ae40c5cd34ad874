"""Times cuprite's comparison workloads in CuPy, for `cargo xtask bench` (numpy_compare).

The workloads are those of scripts/bench_numpy.py (imported from beside this file: one
definition for both), on arrays uploaded with cupy.asarray from the same NumPy-made host data.
The Rust runner (benches/src/python.rs) passes its workload list with --spec and parses the
JSON below.

Usage:
    python3 scripts/bench_cupy.py [--json] [--runs N] [--scale S] [--spec JSON] [--no-check]

--spec JSON   a list of workloads: [{"id": "sum", "dims": [5000000], "inner": 1}, ...]
              (as bench_numpy.py)
--runs N      timed runs per workload after one untimed, checked warm-up (default 7)
--scale S     element-count factor of the default list (default 1.0; ignored with --spec;
              10 = the anchor sizes)
--json        print JSON (below) instead of a text table
--no-check    skip the check against NumPy

Timing: the GPU time of each call, median over the runs, from cupyx.profiler.benchmark (CUDA
events recorded before and after the call on the current stream: the figure of the anchor
table). Workloads that update their input in place are reset (untimed) before each timed call.
A second series times the same calls by the wall clock from an idle device to the end of a
device synchronize, the way the Rust runner times cuprite ("wall_median_ms"). Times are per
call ("inner" calls per run).

Check: the warm-up's result is compared once, untimed, with NumPy's result on the same host
data: exactly for element-wise ops, copies, sorts, bincount, isin, intersect1d and lexsort;
the histogram's counts exactly and its edges within 1e-12 of the largest; within 1e-9 of the
sum of magnitudes for the reductions and add.at (per destination element); within
1e-9 * (1 + |x|) for the pipeline; by Freivalds' test (C r against
A (B r) in f64, tolerance 1e-14 (f64) or 1e-7 (f32) times |A| |B| 1) for the matmuls. A
mismatch is reported as "error": "WRONG RESULT: ..." (the Rust runner then exits non-zero).

Output of --json: one JSON object on stdout (progress lines go to stderr),
    {"about": "CuPy 14.2.0 (CUDA 13.0, NVIDIA H200), NumPy 2.4.6, Python 3.12.3",
     "cupy": "14.2.0", "numpy": "2.4.6", "python": "3.12.3", "device": "NVIDIA H200",
     "cuda_runtime": 13000,
     "results": [{"id": "sum", "dims": [5000000], "inner": 1, "runs": 7,
                  "median_ms": 0.0123, "min_ms": 0.0119, "wall_median_ms": 0.0201,
                  "checked": true},
                 {"id": "...", "dims": [...], "inner": 1, "error": "OutOfMemoryError: ..."}]}
A workload that raises reports "error" instead of "median_ms"/"min_ms". Exit status 0 unless
CuPy cannot be imported or sees no GPU (then 3, with the reason on stderr).
"""

import argparse
import math
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_numpy  # noqa: E402  (beside this file)

EXACT = {
    "ones", "mul_scalar_inplace", "chain_inplace", "add", "add_small", "copy",
    "transpose_copy", "sort_f64", "sort_f32", "bincount_i64", "isin_i64", "intersect1d_i64",
    "lexsort_2keys", "astype_f64_f32", "argmax_f64", "take_f64", "mask_select_f64",
    "strided_mul_f64", "add_transposed_f64", "concatenate_f64", "argsort_stable_f64", "where_f64",
}


def _first_mismatch(got, want, tol):
    """None if |got - want| <= tol everywhere (NaN fails), else a message."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    tol = np.broadcast_to(np.asarray(tol, dtype=np.float64), want.shape).ravel()
    got, want = got.ravel(), want.ravel()
    ok = np.abs(got - want) <= tol
    if ok.all():
        return None
    i = int(np.argmin(ok))
    g, x = float(got[i]), float(want[i])
    return f"element {i} is {g!r}, expected {x!r} (tolerance {tol[i]:g})"


def check(spec, got):
    """Compares CuPy's result `got` (on the host) with NumPy's on the same data; None or a
    message."""
    wid = spec["id"]
    ref = bench_numpy.prepare(spec, np)
    if wid in ("matmul_f64", "matmul_f32"):
        a, b = (x.astype(np.float64) for x in ref.inputs)
        k = a.shape[0]
        if got.shape != (k, k):
            return f"shape {got.shape}, expected {(k, k)}"
        r = np.sign(np.random.default_rng(23).uniform(-1.0, 1.0, k))
        eps = 1e-14 if wid == "matmul_f64" else 1e-7
        bound = np.abs(a) @ (np.abs(b) @ np.ones(k))
        return _first_mismatch(got.astype(np.float64) @ r, a @ (b @ r), eps * bound)
    if wid == "svd_f64":
        (a,) = ref.inputs
        u, s, vh = got
        _, want_s, _ = np.linalg.svd(a)
        msg = _first_mismatch(s, want_s, 1e-10 * want_s[0])
        if msg is not None:
            return "singular values: " + msg
        return _first_mismatch((u * s) @ vh, a, 1e-10 * want_s[0])
    if wid == "inv_f64":
        (a,) = ref.inputs
        k = a.shape[0]
        return _first_mismatch(a @ got, np.eye(k), 1e-7)
    if wid == "solve_f64":
        a, b = ref.inputs
        return _first_mismatch(a @ got, b, 1e-7)
    if wid == "cholesky_f64":
        (a,) = ref.inputs
        k = a.shape[0]
        msg = _first_mismatch(np.triu(got, 1), np.zeros((k, k)), 0.0)
        if msg is not None:
            return "not lower triangular: " + msg
        return _first_mismatch(got @ got.T, a, 1e-12 * k * np.abs(a).max())
    if wid == "qr_f64":
        (a,) = ref.inputs
        q, r = got
        k = a.shape[0]
        msg = _first_mismatch(np.tril(r, -1), np.zeros((k, k)), 0.0)
        if msg is not None:
            return "R not upper triangular: " + msg
        msg = _first_mismatch(q.T @ q, np.eye(k), 1e-10)
        if msg is not None:
            return "Q not orthonormal: " + msg
        return _first_mismatch(q @ r, a, 1e-10 * k)
    if wid in ("random_f64", "random_f64_rng"):
        # A different generator than NumPy's: check the distribution, not the values.
        n = got.size
        if got.dtype != np.float64 or got.shape != tuple(spec["dims"]):
            return f"dtype {got.dtype}, shape {got.shape}"
        if not ((got >= 0.0) & (got < 1.0)).all():
            return "values outside [0, 1)"
        if abs(got.mean() - 0.5) > 6 * math.sqrt(1 / 12 / n):
            return f"mean {got.mean()}"
        return None
    if wid == "histogram_f64":
        counts, edges = got
        want_counts, want_edges = ref.run()
        if counts.shape != want_counts.shape or counts.dtype != want_counts.dtype:
            return (f"counts: shape {counts.shape} {counts.dtype}, expected "
                    f"{want_counts.shape} {want_counts.dtype}")
        if not np.array_equal(counts, want_counts):
            return "counts: " + _first_mismatch(counts, want_counts, 0.0)
        msg = _first_mismatch(edges, want_edges, 1e-12 * np.abs(want_edges).max())
        return None if msg is None else "edges: " + msg
    ref.reset()
    want = np.asarray(ref.run())
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype}, expected {want.dtype}"
    if wid in EXACT:
        if np.array_equal(got, want):
            return None
        return _first_mismatch(got, want, 0.0)
    if wid in ("sum", "sum_axis0", "sum_axis1"):
        x = ref.inputs[0]
        axis = {"sum": None, "sum_axis0": 0, "sum_axis1": 1}[wid]
        return _first_mismatch(got, want, 1e-9 * np.abs(x).sum(axis=axis))
    if wid == "norm":
        return _first_mismatch(got, want, 1e-9 * want)
    if wid == "add_at_f64":
        idx, v = ref.inputs
        mag = np.bincount(idx, weights=np.abs(v), minlength=want.size)
        return _first_mismatch(got, want, 1e-9 * mag)
    if wid == "pipeline":
        return _first_mismatch(got, want, 1e-9 * (1.0 + np.abs(want)))
    if wid in ("fft_c128", "fft_batch"):
        (x,) = ref.inputs
        n = x.shape[-1]
        tol = 1e-12 * n * np.abs(x).max()
        return _first_mismatch(np.abs(got - want), np.zeros(want.shape), tol)
    if wid == "exp_f32":
        # CUDA's expf is within 2 ulps, NumPy's reference within about 2.5: 4 ulps apart
        # at most (2^-23 relative each).
        return _first_mismatch(got, want, 4.8e-7 * np.abs(want.astype(np.float64)))
    if wid == "mean_axis0_f32":
        rows = ref.inputs[0].shape[0]
        tol = 4.0 * math.sqrt(rows) * 1.2e-7 * np.abs(want.astype(np.float64))
        return _first_mismatch(got, want, tol)
    if wid == "interp_f64":
        return _first_mismatch(got, want, 1e-12)
    if wid == "convolve_f64":
        # CuPy may take the FFT path: its rounding grows with the transform, not each sum.
        a, v = ref.inputs
        return _first_mismatch(got, want, 1e-11 * np.abs(a).max() * np.abs(v).sum())
    return f"no check for {wid!r}"


def time_workload(cp, benchmark, spec, runs, do_check):
    """(median GPU ms, min GPU ms, median wall ms, checked) per call of one workload."""
    w = bench_numpy.prepare(spec, cp)
    inner = spec.get("inner", 1)
    sync = cp.cuda.Device().synchronize
    w.reset()
    r = w.run()
    sync()
    checked = False
    if do_check:
        host = tuple(cp.asnumpy(x) for x in r) if isinstance(r, tuple) else cp.asnumpy(r)
        msg = check(spec, host)
        if msg is not None:
            raise AssertionError(f"WRONG RESULT: {msg}")
        checked = True
    del r
    gpu = []
    if w.reset is bench_numpy._noop:
        res = benchmark(w.run, n_repeat=runs, n_warmup=1)
        gpu = [float(t) * 1e3 for t in res.gpu_times[0]]
    else:
        for _ in range(runs):
            w.reset()
            sync()
            res = benchmark(w.run, n_repeat=1, n_warmup=0)
            gpu.append(float(res.gpu_times[0][0]) * 1e3)
    wall = []
    for _ in range(runs):
        w.reset()
        sync()
        t0 = time.perf_counter()
        r = w.run()
        sync()
        t1 = time.perf_counter()
        del r
        wall.append((t1 - t0) * 1e3)
    gpu = [t / inner for t in gpu]
    wall = [t / inner for t in wall]
    return statistics.median(gpu), min(gpu), statistics.median(wall), checked


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--spec", type=str, default=None)
    p.add_argument("--no-check", action="store_true")
    args = p.parse_args()
    try:
        import cupy as cp
        from cupyx.profiler import benchmark

        if cp.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no GPU visible")
        device = cp.cuda.runtime.getDeviceProperties(0)["name"]
        device = device.decode() if isinstance(device, bytes) else str(device)
        runtime = cp.cuda.runtime.runtimeGetVersion()
    except Exception as e:  # no CuPy, no driver, no GPU
        print(f"CuPy unavailable: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(3)
    specs = json.loads(args.spec) if args.spec else bench_numpy.default_spec(args.scale)
    runs = max(1, args.runs)
    results = []
    for spec in specs:
        item = {"id": spec["id"], "dims": spec["dims"], "inner": spec.get("inner", 1)}
        try:
            med, low, wall, checked = time_workload(cp, benchmark, spec, runs, not args.no_check)
            item.update(runs=runs, median_ms=med, min_ms=low, wall_median_ms=wall,
                        checked=checked)
        except AssertionError as e:
            item["error"] = str(e)
        except Exception as e:  # reported per workload, the others still run
            item["error"] = f"{type(e).__name__}: {e}"
        # Give the memory back before the next workload (CuPy's pool keeps it otherwise).
        cp.get_default_memory_pool().free_all_blocks()
        results.append(item)
        if "median_ms" in item:
            t = f"{item['median_ms']:12.4f} ms GPU, {item['wall_median_ms']:.4f} ms wall"
        else:
            t = item["error"]
        line = f"  {spec['id']:<20} {'x'.join(map(str, spec['dims'])):<16} {t}"
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)
    if args.json:
        v = runtime // 1000, (runtime % 1000) // 10
        json.dump(
            {
                "about": f"CuPy {cp.__version__} (CUDA runtime {v[0]}.{v[1]}, {device}), "
                f"NumPy {np.__version__}, Python {platform.python_version()}",
                "cupy": cp.__version__,
                "numpy": np.__version__,
                "python": platform.python_version(),
                "device": device,
                "cuda_runtime": runtime,
                "results": results,
            },
            sys.stdout,
        )
        print()


if __name__ == "__main__":
    main()
