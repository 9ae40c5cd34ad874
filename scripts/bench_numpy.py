"""Times cuprite's comparison workloads in NumPy, for `cargo xtask bench` (numpy_compare).

The Rust runner (benches/src/compare.rs) passes its workload list with --spec, so both sides
time the same shapes; without --spec the script builds the same default list itself
(benches/src/workloads.rs, `default_workloads`), scaled by --scale (10 = the anchor sizes).
scripts/bench_cupy.py imports `prepare` from here: one definition of every workload for both.

Usage:
    python3 scripts/bench_numpy.py [--json] [--runs N] [--scale S] [--spec JSON]

--spec JSON   a list of workloads: [{"id": "sum", "dims": [5000000], "inner": 1}, ...]
              ("dims" = [n] means n x n matrices for matmul_f64/matmul_f32; "inner" = calls
              per timed run, times are reported per call)
--runs N      timed runs per workload after one untimed warm-up (default 7)
--scale S     element-count factor of the default list (default 1.0; ignored with --spec)
--json        print JSON (below) instead of a text table

Timing: each run first restores in-place inputs (untimed), then times the call(s) with
time.perf_counter; the result is released after the clock stops. The median and the minimum
of the runs are reported, per call.

Output of --json: one JSON object on stdout (progress lines go to stderr),
    {"about": "NumPy 2.4.6 (BLAS: scipy-openblas 0.3.29, 2 CPUs), Python 3.12.3",
     "numpy": "2.4.6", "python": "3.12.3", "blas": "scipy-openblas 0.3.29", "threads": 2,
     "results": [{"id": "sum", "dims": [5000000], "inner": 1, "runs": 7,
                  "median_ms": 1.93, "min_ms": 1.88},
                 {"id": "...", "dims": [...], "inner": 1, "error": "MemoryError: ..."}]}
A workload that raises reports "error" instead of "median_ms"/"min_ms".
"""

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np

# Workload ids, in the order of benches/src/workloads.rs.
IDS = [
    "ones", "mul_scalar_inplace", "chain_inplace", "add", "copy", "add_small", "sum",
    "sum_axis0", "sum_axis1", "norm", "transpose_copy", "sort_f64", "sort_f32", "pipeline",
    "matmul_f64", "matmul_f32", "svd_f64", "inv_f64", "solve_f64", "cholesky_f64",
    "qr_f64", "random_f64",
    "random_f64_rng", "fft_c128", "fft_batch", "histogram_f64", "bincount_i64", "add_at_f64",
    "isin_i64", "intersect1d_i64", "lexsort_2keys", "interp_f64", "convolve_f64",
    "exp_f32", "astype_f64_f32", "argmax_f64", "take_f64", "mask_select_f64", "strided_mul_f64",
    "add_transposed_f64", "mean_axis0_f32", "concatenate_f64", "argsort_stable_f64", "where_f64",
]

# The seeds of the counting, set, signal and everyday workloads' inputs
# (benches/src/cases_counting.rs, cases_signal.rs and cases_everyday.rs `seeds`): made by
# the SplitMix64 formulas below, so both sides time the same bits.
SEEDS = {
    "histogram_f64": 61, "bincount_i64": 73, "add_at_f64": (79, 83), "isin_i64": (89, 97),
    "intersect1d_i64": (101, 103), "lexsort_2keys": (107, 109), "interp_f64": (113, 127),
    "convolve_f64": (131, 137), "exp_f32": 139, "astype_f64_f32": 149,
    "argmax_f64": 151, "take_f64": (157, 163), "mask_select_f64": 167, "strided_mul_f64": 173,
    "add_transposed_f64": (179, 181), "mean_axis0_f32": 191, "concatenate_f64": (193, 197),
    "argsort_stable_f64": 199, "where_f64": 211,
}
# Columns of mean_axis0_f32's input (cases_everyday.rs MEAN0_COLS).
MEAN0_COLS = 1000
# The interpolation table's length and the convolution kernel's (cases_signal.rs).
INTERP_TABLE = 100_000
CONVOLVE_KERNEL = 1000


def default_spec(scale):
    """The default workload list (mirrors `default_workloads` in benches/src/workloads.rs)."""
    s = lambda n: max(1, round(n * scale))
    side = lambda n: max(1, round(n * scale ** math.log10(5)))
    dims = {
        "ones": [s(100), 500, 500],
        "mul_scalar_inplace": [s(25_000_000)],
        "chain_inplace": [s(25_000_000)],
        "add": [s(25_000_000)],
        "copy": [s(25_000_000)],
        "add_small": [1000],
        "sum": [s(5_000_000)],
        "sum_axis0": [s(500), 10_000],
        "sum_axis1": [s(500), 10_000],
        "norm": [s(5_000_000)],
        "transpose_copy": [s(500), 10_000],
        "sort_f64": [s(5_000_000)],
        "sort_f32": [s(5_000_000)],
        "pipeline": [s(5000) * 1000],
        "matmul_f64": [side(2000)],
        "matmul_f32": [side(2000)],
        "svd_f64": [side(200)],
        "inv_f64": [side(200)],
        "solve_f64": [side(200)],
        "cholesky_f64": [side(200)],
        "qr_f64": [side(200)],
        "random_f64": [s(5_000_000)],
        "random_f64_rng": [s(5_000_000)],
        "fft_c128": [1 << max(0, round(math.log2((1 << 24) * scale / 10)))],
        "fft_batch": [max(1, round(4096 * scale / 10)), 4096],
        "histogram_f64": [s(5_000_000)],
        "bincount_i64": [s(5_000_000)],
        "add_at_f64": [s(1_000_000)],
        "isin_i64": [s(1_000_000)],
        "intersect1d_i64": [s(1_000_000)],
        "lexsort_2keys": [s(1_000_000)],
        "interp_f64": [s(1_000_000)],
        "convolve_f64": [s(100_000)],
        "exp_f32": [s(1_000_000)],
        "astype_f64_f32": [s(1_000_000)],
        **{k: [s(1_000_000)] for k in IDS[IDS.index("argmax_f64"):]},
    }
    return [{"id": i, "dims": dims[i], "inner": 2000 if i == "add_small" else 1} for i in IDS]


def sin_wave(n):
    """sin(i) for i in 0..n, as benches/src/data.rs `sin_wave`."""
    return np.sin(np.arange(n, dtype=np.float64))


def splitmix64(n, seed):
    """The first `n` outputs of SplitMix64 seeded with `seed` (uint64), as
    benches/src/data.rs `SplitMix64::next_u64`: output i mixes seed + (i + 1) * gamma."""
    z = np.arange(1, n + 1, dtype=np.uint64)
    z *= np.uint64(0x9E3779B97F4A7C15)  # uint64 array arithmetic wraps, as Rust's wrapping_*
    z += np.uint64(seed)
    z ^= z >> np.uint64(30)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(27)
    z *= np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return z


def splitmix_uniform(n, lo, hi, seed):
    """`n` uniform values in [lo, hi), bit for bit benches/src/data.rs `uniform`."""
    u = (splitmix64(n, seed) >> np.uint64(11)).astype(np.float64)
    u *= 1.0 / (1 << 53)
    return lo + (hi - lo) * u


def splitmix_ints(n, lo, hi, seed):
    """`n` int64 values in lo..hi, as benches/src/data.rs `uniform_i64`."""
    return (splitmix64(n, seed) % np.uint64(hi - lo)).astype(np.int64) + np.int64(lo)


def splitmix_normal(n, seed):
    """`n` approximately standard normal values (the sum of 12 uniforms minus 6, added in
    the same order), bit for bit benches/src/data.rs `normal`."""
    acc = splitmix_uniform(n, 0.0, 1.0, seed)
    for k in range(1, 12):
        acc += splitmix_uniform(n, 0.0, 1.0, seed + k)
    acc -= 6.0
    return acc


class Prepared:
    """A workload ready to run: `reset()` restores in-place inputs (untimed), `run()` is the
    timed call and returns the result (the updated array for in-place workloads), `inputs`
    are the input arrays (for checks)."""

    def __init__(self, reset, run, inputs):
        self.reset = reset
        self.run = run
        self.inputs = inputs


def _noop():
    return None


def prepare(spec, xp=np):
    """The workload `spec` on array module `xp` (numpy, or cupy for bench_cupy.py). Inputs
    are made by NumPy on the host (the same bits for both modules), then `xp.asarray`."""
    wid, dims, inner = spec["id"], spec["dims"], spec.get("inner", 1)
    n = math.prod(dims)
    rng = np.random.default_rng(1)
    put = xp.asarray
    if wid == "ones":
        return Prepared(_noop, lambda: xp.ones(dims), ())
    if wid in ("mul_scalar_inplace", "chain_inplace"):
        orig = put(sin_wave(n).reshape(dims))
        x = orig.copy()

        def mul():
            x.__imul__(5.0)
            return x

        def chain():
            x.__imul__(5.0)
            x.__imul__(x)
            x.__iadd__(x)
            return x

        run = mul if wid == "mul_scalar_inplace" else chain
        return Prepared(lambda: xp.copyto(x, orig), run, (orig,))
    if wid in ("add", "add_small"):
        a = put(sin_wave(n).reshape(dims))
        b = put(rng.uniform(-1.0, 1.0, n).reshape(dims))

        def add():
            r = None
            for _ in range(inner):
                r = a + b
            return r

        return Prepared(_noop, add, (a, b))
    if wid == "copy":
        x = put(sin_wave(n).reshape(dims))
        return Prepared(_noop, lambda: x.copy(), (x,))
    if wid == "sum":
        x = put(sin_wave(n))
        return Prepared(_noop, lambda: x.sum(), (x,))
    if wid in ("sum_axis0", "sum_axis1"):
        m = put(sin_wave(n).reshape(dims))
        axis = 0 if wid == "sum_axis0" else 1
        return Prepared(_noop, lambda: m.sum(axis=axis), (m,))
    if wid == "norm":
        x = put(sin_wave(n))
        return Prepared(_noop, lambda: xp.linalg.norm(x), (x,))
    if wid == "transpose_copy":
        m = put(sin_wave(n).reshape(dims))
        return Prepared(_noop, lambda: m.T.copy(), (m,))
    if wid == "sort_f64":
        x = put(sin_wave(n))
        return Prepared(_noop, lambda: xp.sort(x), (x,))
    if wid == "sort_f32":
        x = put(rng.random(n, dtype=np.float32))
        return Prepared(_noop, lambda: xp.sort(x), (x,))
    if wid == "pipeline":
        x = put(rng.random(n))

        def pipeline():
            m = xp.sort(x).reshape(-1, 1000)
            return (m - m.mean(axis=0)) / m.std(axis=0)

        return Prepared(_noop, pipeline, (x,))
    if wid in ("matmul_f64", "matmul_f32"):
        k = dims[0]
        dt = np.float64 if wid == "matmul_f64" else np.float32
        a = put(rng.uniform(-1.0, 1.0, (k, k)).astype(dt))
        b = put(rng.uniform(-1.0, 1.0, (k, k)).astype(dt))
        return Prepared(_noop, lambda: a @ b, (a, b))
    if wid in ("svd_f64", "inv_f64"):
        k = dims[0]
        a = put(rng.random((k, k)))
        if wid == "svd_f64":
            return Prepared(_noop, lambda: xp.linalg.svd(a), (a,))
        return Prepared(_noop, lambda: xp.linalg.inv(a), (a,))
    if wid == "solve_f64":
        k = dims[0]
        a = put(rng.random((k, k)))
        b = put(rng.uniform(-1.0, 1.0, k))
        return Prepared(_noop, lambda: xp.linalg.solve(a, b), (a, b))
    if wid == "cholesky_f64":
        k = dims[0]
        g = rng.random((k, k))
        a = put(g @ g.T + k * np.eye(k))
        return Prepared(_noop, lambda: xp.linalg.cholesky(a), (a,))
    if wid == "qr_f64":
        k = dims[0]
        a = put(rng.random((k, k)))
        return Prepared(_noop, lambda: xp.linalg.qr(a), (a,))
    if wid == "random_f64":
        xp.random.seed(7)
        return Prepared(_noop, lambda: xp.random.random(n), ())
    if wid == "random_f64_rng":
        gen = xp.random.default_rng(7)
        return Prepared(_noop, lambda: gen.random(n), ())
    if wid in ("fft_c128", "fft_batch"):
        x = rng.uniform(-1.0, 1.0, n) + 1j * rng.uniform(-1.0, 1.0, n)
        x = put(x.reshape(dims))
        return Prepared(_noop, lambda: xp.fft.fft(x, axis=-1), (x,))
    if wid == "histogram_f64":
        x = put(splitmix_normal(n, SEEDS[wid]))
        return Prepared(_noop, lambda: xp.histogram(x, bins=100), (x,))
    if wid == "bincount_i64":
        k = put(splitmix_ints(n, 0, 1000, SEEDS[wid]))
        return Prepared(_noop, lambda: xp.bincount(k), (k,))
    if wid == "add_at_f64":
        si, sv = SEEDS[wid]
        idx = put(splitmix_ints(n, 0, 1000, si))
        v = put(splitmix_uniform(n, -1.0, 1.0, sv))
        orig = xp.zeros(1000)
        a = orig.copy()
        # CuPy before 12 has no ufunc.at; cupyx.scatter_add is the same operation there.
        add_at = getattr(xp.add, "at", None)
        if add_at is None:
            import cupyx

            add_at = cupyx.scatter_add

        def scatter():
            add_at(a, idx, v)
            return a

        return Prepared(lambda: xp.copyto(a, orig), scatter, (idx, v))
    if wid in ("isin_i64", "intersect1d_i64"):
        sa, sb = SEEDS[wid]
        a = put(splitmix_ints(n, 0, 2 * n, sa))
        b = put(splitmix_ints(n, 0, 2 * n, sb))
        if wid == "isin_i64":
            return Prepared(_noop, lambda: xp.isin(a, b), (a, b))
        return Prepared(_noop, lambda: xp.intersect1d(a, b), (a, b))
    if wid == "lexsort_2keys":
        sk, sf = SEEDS[wid]
        k = splitmix_ints(n, 0, 1000, sk)
        f = splitmix_uniform(n, 0.0, 1.0, sf)
        if xp is np:
            return Prepared(_noop, lambda: np.lexsort((f, k)), (f, k))
        # cupy.lexsort takes one (k, N) array of one dtype: the keys stacked as f64 (exact for
        # 0..1000), made untimed; the order is the same.
        keys = put(np.stack([f, k.astype(np.float64)]))
        return Prepared(_noop, lambda: xp.lexsort(keys), (keys,))
    if wid == "interp_f64":
        sf, sx = SEEDS[wid]
        xp_ = put(np.arange(INTERP_TABLE, dtype=np.float64) / (INTERP_TABLE - 1))
        fp = put(splitmix_uniform(INTERP_TABLE, -1.0, 1.0, sf))
        x = put(splitmix_uniform(n, -0.1, 1.1, sx))
        return Prepared(_noop, lambda: xp.interp(x, xp_, fp), (x, xp_, fp))
    if wid == "convolve_f64":
        sa, sv = SEEDS[wid]
        a = put(splitmix_uniform(n, -1.0, 1.0, sa))
        v = put(splitmix_uniform(CONVOLVE_KERNEL, -1.0, 1.0, sv))
        # NumPy's convolve is direct (sums of products); CuPy's picks direct or FFT by size.
        return Prepared(_noop, lambda: xp.convolve(a, v), (a, v))
    if wid == "exp_f32":
        x = put(splitmix_uniform(n, -10.0, 10.0, SEEDS[wid]).astype(np.float32))
        return Prepared(_noop, lambda: xp.exp(x), (x,))
    if wid == "astype_f64_f32":
        x = put(splitmix_uniform(n, -1000.0, 1000.0, SEEDS[wid]))
        return Prepared(_noop, lambda: x.astype(np.float32), (x,))
    if wid == "argmax_f64":
        x = put(splitmix_uniform(n, -1.0, 1.0, SEEDS[wid]))
        return Prepared(_noop, lambda: x.argmax(), (x,))
    if wid == "take_f64":
        sx, si = SEEDS[wid]
        x = put(splitmix_uniform(n, -1.0, 1.0, sx))
        idx = put(splitmix_ints(n, 0, n, si))
        return Prepared(_noop, lambda: x.take(idx), (x, idx))
    if wid == "mask_select_f64":
        x = put(splitmix_uniform(n, -1.0, 1.0, SEEDS[wid]))
        return Prepared(_noop, lambda: x[x > 0.5], (x,))
    if wid == "strided_mul_f64":
        x = put(splitmix_uniform(2 * n, -1.0, 1.0, SEEDS[wid]))
        return Prepared(_noop, lambda: x[::2] * 2.0, (x,))
    if wid == "add_transposed_f64":
        k = max(int(round(math.sqrt(n))), 1)
        sa, sb = SEEDS[wid]
        a = put(splitmix_uniform(k * k, -1.0, 1.0, sa).reshape(k, k))
        b = put(splitmix_uniform(k * k, -1.0, 1.0, sb).reshape(k, k))
        return Prepared(_noop, lambda: a + b.T, (a, b))
    if wid == "mean_axis0_f32":
        rows = max(n // MEAN0_COLS, 1)
        x = put(splitmix_uniform(rows * MEAN0_COLS, 0.0, 1.0, SEEDS[wid])
                .astype(np.float32).reshape(rows, MEAN0_COLS))
        return Prepared(_noop, lambda: x.mean(axis=0), (x,))
    if wid == "concatenate_f64":
        half = max(n // 2, 1)
        sa, sb = SEEDS[wid]
        a = put(splitmix_uniform(half, -1.0, 1.0, sa))
        b = put(splitmix_uniform(half, -1.0, 1.0, sb))
        return Prepared(_noop, lambda: xp.concatenate([a, b]), (a, b))
    if wid == "argsort_stable_f64":
        x = put(splitmix_uniform(n, -1.0, 1.0, SEEDS[wid]))
        return Prepared(_noop, lambda: xp.argsort(x, kind="stable"), (x,))
    if wid == "where_f64":
        x = put(splitmix_uniform(n, -1.0, 1.0, SEEDS[wid]))
        return Prepared(_noop, lambda: xp.where(x > 0, x, 0.0), (x,))
    raise ValueError(f"unknown workload {wid!r}")


def time_workload(spec, runs):
    """Median and minimum milliseconds per call of one workload."""
    w = prepare(spec)
    inner = spec.get("inner", 1)
    w.reset()
    r = w.run()
    del r
    times = []
    for _ in range(runs):
        w.reset()
        t0 = time.perf_counter()
        r = w.run()
        t1 = time.perf_counter()
        del r
        times.append((t1 - t0) * 1e3 / inner)
    return statistics.median(times), min(times)


def blas_name():
    """The BLAS NumPy was built against, as NumPy reports it."""
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]
        return f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:  # older NumPy: no dict mode
        return "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--spec", type=str, default=None)
    args = p.parse_args()
    specs = json.loads(args.spec) if args.spec else default_spec(args.scale)
    results = []
    for spec in specs:
        item = {"id": spec["id"], "dims": spec["dims"], "inner": spec.get("inner", 1)}
        try:
            med, low = time_workload(spec, max(1, args.runs))
            item.update(runs=args.runs, median_ms=med, min_ms=low)
        except Exception as e:  # reported per workload, the others still run
            item["error"] = f"{type(e).__name__}: {e}"
        results.append(item)
        t = f"{item['median_ms']:12.3f} ms" if "median_ms" in item else item["error"]
        line = f"  {spec['id']:<20} {'x'.join(map(str, spec['dims'])):<16} {t}"
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)
    if args.json:
        json.dump(
            {
                "about": f"NumPy {np.__version__} (BLAS: {blas_name()}, {os.cpu_count()} "
                f"CPUs), Python {platform.python_version()}",
                "numpy": np.__version__,
                "python": platform.python_version(),
                "blas": blas_name(),
                "threads": os.cpu_count(),
                "results": results,
            },
            sys.stdout,
        )
        print()


if __name__ == "__main__":
    main()
