"""Times CuPy's user kernels (and NumPy's CPU form of the same computation) for cuprite's
`kernels` bench (benches/benches/kernels.rs), which runs this script and puts its figures
beside cuprite's in one table.

Usage:
    python3 scripts/bench_kernels.py [--json] [--quick] [--no-cupy] [--no-numpy]
                                     [--n N] [--small N] [--calls N] [--mat N]
                                     [--repeats N] [--runs N]

--n N         elements of the large arrays (default 10000000; --quick: 1000000)
--small N     elements of the arrays of the launch-overhead loop (default 1000)
--calls N     calls in the launch-overhead loop (default 10000; --quick: 1000)
--mat N       side of the square matrices of the RawKernel product (default 1024; --quick: 256)
--repeats N   new kernels compiled, and later processes started, per first-call figure
              (default 5; --quick: 3)
--runs N      timed calls per device-time figure, after 3 untimed ones (default 100;
              --quick: 20)
--json        print JSON (below) instead of a text list
--no-cupy     skip the GPU workloads
--no-numpy    skip the CPU workload

The workloads (ids shared with the Rust side):
  first_call_new_ms     construction of a new ElementwiseKernel (my_kernel, its body made
                        unique by a leading nonce comment, in a fresh CUPY_CACHE_DIR) to the
                        synchronised end of its first call on two N-element float32 arrays; the
                        device is initialised and the inputs uploaded before (untimed); median
                        over --repeats kernels
  first_call_cached_ms  the same in a later process (this script started again with
                        --child-cached), the kernel compiled by this process into the cache
                        directory the child is given: the child imports CuPy, uploads its inputs
                        and synchronises (untimed), then times construction + first call + sync
                        of this kernel, the first of the process; median over --repeats
                        processes
  first_call_cached_warm_ms  in the same later process, right after: a second kernel (another
                        nonce, also compiled by this process) timed the same way, once the
                        process has loaded one kernel (the compiler's one-time set-up done)
  launch_us             host time per call of the compiled kernel on --small elements: --calls
                        calls in a loop, one synchronize, wall time / calls; median of 5 loops
  my_kernel_ms          my_kernel on N float32, GPU time (cupyx.profiler.benchmark gpu_times)
  copy_ms               x.copy() of N float32, GPU time (the bandwidth ceiling of the run)
  l2_norm_ms            ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0')
                        over N float32, GPU time
  raw_matmul_ms         the naive product RawKernel (one thread per output element, 16 x 16
                        blocks) of two --mat x --mat float32 matrices, GPU time
  matmul_ms             a @ b of the same matrices (cuBLAS), GPU time
  numpy_my_kernel_ms    np.where(x - 2 > y, x * y, x + y) on N float32, wall time (CPU),
                        median of --runs calls after 3 untimed
GPU times are medians of --runs calls. Inputs are uniform random in [-4, 4), never constants.

Check: each GPU result is compared once, untimed, with NumPy's on the same host data: my_kernel
within 1e-6 |want| (exact in practice), the norm within 1e-4 relative of the float64 norm, the
products by Freivalds' test (C r against A (B r) in float64, r of random signs, within 1e-6
|A| |B| 1). A mismatch is reported as "error": "WRONG RESULT: ..." (the Rust side then exits 1).

Output of --json: one JSON object on stdout (progress lines go to stderr),
    {"about": "CuPy 14.2.0 (CUDA runtime 13.0, NVIDIA H200), NumPy 2.4.6, Python 3.12.3",
     "numpy": "2.4.6", "cupy": "14.2.0", "python": "3.12.3", "device": "NVIDIA H200",
     "cupy_error": null,
     "results": [{"id": "my_kernel_ms", "value": 0.059, "samples": [...], "checked": true},
                 {"id": "l2_norm_ms", "error": "..."}]}
"cupy_error" says why the GPU workloads did not run (no CuPy, no GPU, --no-cupy). A workload
that raises reports "error" instead of "value". Exit status 0 (also without CuPy); 2 on bad
options.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import numpy as np

IN_PARAMS = "float32 x, float32 y"
OUT_PARAMS = "float32 z"
BODY = "if (x - 2 > y) { z = x * y; } else { z = x + y; }"

RAW_MATMUL = r"""
extern "C" __global__ void naive_matmul(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) {
            acc += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = acc;
    }
}
"""

BLOCK = 16


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def inputs(n, seed):
    """Two float32 arrays uniform in [-4, 4) (both branches of my_kernel are taken)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    y = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    return x, y


def my_kernel_host(x, y):
    return np.where(x - 2 > y, x * y, x + y)


def body_with(nonce):
    """my_kernel's body made unique by a leading comment (no cache holds it)."""
    return f"/* {nonce} */ {BODY}"


def new_nonce():
    return f"nonce {uuid.uuid4().hex} {os.getpid()} {time.time_ns()}"


def first_mismatch(got, want, tol):
    """None if |got - want| <= tol everywhere (NaN fails), else a message."""
    got = np.asarray(got, dtype=np.float64).ravel()
    want = np.asarray(want, dtype=np.float64).ravel()
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    tol = np.broadcast_to(np.asarray(tol, dtype=np.float64), want.shape)
    ok = np.abs(got - want) <= tol
    if ok.all():
        return None
    i = int(np.argmin(ok))
    return f"element {i} is {float(got[i])!r}, expected {float(want[i])!r}"


def expect(msg, what):
    if msg is not None:
        raise AssertionError(f"WRONG RESULT: {what}: {msg}")


def check_my_kernel(z, x, y):
    want = my_kernel_host(x, y)
    expect(first_mismatch(z, want, 1e-6 * np.abs(want)), "my_kernel")


def check_product(c, a, b, what):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    k = a.shape[0]
    r = np.sign(np.random.default_rng(23).uniform(-1.0, 1.0, k))
    bound = np.abs(a64) @ (np.abs(b64) @ np.ones(k))
    expect(first_mismatch(c.astype(np.float64) @ r, a64 @ (b64 @ r), 1e-6 * bound), what)


def median_ms(seconds):
    return statistics.median(seconds) * 1e3


def row(wid, fn):
    """Runs one workload: {"id", "value", ...} or {"id", "error"}; never raises."""
    item = {"id": wid}
    try:
        item.update(fn())
    except AssertionError as e:
        item["error"] = str(e)
    except Exception as e:  # reported per workload, the others still run
        item["error"] = f"{type(e).__name__}: {e}"
    if "value" in item:
        log(f"  {wid:<26} {item['value']:.4f}")
    else:
        log(f"  {wid:<26} {item['error']}")
    return item


# ---------------------------------------------------------------------------- NumPy (CPU)


def numpy_rows(args):
    x, y = inputs(args.n, 1)

    def my_kernel():
        for _ in range(3):
            my_kernel_host(x, y)
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            my_kernel_host(x, y)
            times.append(time.perf_counter() - t0)
        return {"value": median_ms(times), "samples": [t * 1e3 for t in times]}

    return [row("numpy_my_kernel_ms", my_kernel)]


# ---------------------------------------------------------------------------- CuPy (GPU)


def gpu_times_ms(benchmark, fn, fargs, runs):
    res = benchmark(fn, fargs, n_repeat=runs, n_warmup=3)
    ms = [float(t) * 1e3 for t in res.gpu_times[0]]
    return {"value": statistics.median(ms), "samples": ms}


def cupy_rows(cp, benchmark, args, cache_dir):
    sync = cp.cuda.Device().synchronize
    hx, hy = inputs(args.n, 1)
    x, y = cp.asarray(hx), cp.asarray(hy)
    sync()
    results = []

    def first_call_new():
        times = []
        for i in range(args.repeats):
            nonce = new_nonce()
            sync()
            t0 = time.perf_counter()
            k = cp.ElementwiseKernel(IN_PARAMS, OUT_PARAMS, body_with(nonce), "my_kernel")
            z = k(x, y)
            sync()
            times.append(time.perf_counter() - t0)
            if i == 0:
                check_my_kernel(cp.asnumpy(z), hx, hy)
            del z, k
        return {"value": median_ms(times), "samples": [t * 1e3 for t in times],
                "checked": True}

    results.append(row("first_call_new_ms", first_call_new))

    def first_calls_cached():
        nonces = [new_nonce(), new_nonce()]
        for nonce in nonces:
            k = cp.ElementwiseKernel(IN_PARAMS, OUT_PARAMS, body_with(nonce), "my_kernel")
            k(x, y)
        sync()
        env = dict(os.environ, CUPY_CACHE_DIR=cache_dir)
        cmd = [sys.executable, os.path.abspath(__file__), "--child-cached", *nonces,
               "--n", str(args.n)]
        cold, warm = [], []
        for _ in range(args.repeats):
            out = subprocess.run(cmd, env=env, capture_output=True, text=True)
            lines = out.stdout.strip().splitlines()
            if not lines:
                raise RuntimeError(f"the child exited with {out.returncode}: "
                                   f"{out.stderr.strip().splitlines()[-1:]}")
            v = json.loads(lines[-1])
            if "error" in v:
                raise AssertionError(v["error"]) if v["error"].startswith("WRONG") \
                    else RuntimeError(v["error"])
            cold.append(v["ms"])
            warm.append(v["warm_ms"])
        return cold, warm

    try:
        cold, warm = first_calls_cached()
        results.append(row("first_call_cached_ms", lambda: {
            "value": statistics.median(cold), "samples": cold, "checked": True}))
        results.append(row("first_call_cached_warm_ms", lambda: {
            "value": statistics.median(warm), "samples": warm, "checked": True}))
    except Exception as e:
        msg = str(e) if isinstance(e, AssertionError) else f"{type(e).__name__}: {e}"
        for wid in ("first_call_cached_ms", "first_call_cached_warm_ms"):
            results.append({"id": wid, "error": msg})
            log(f"  {wid:<26} {msg}")

    k = cp.ElementwiseKernel(IN_PARAMS, OUT_PARAMS, BODY, "my_kernel")

    def launch():
        sx, sy = inputs(args.small, 2)
        dx, dy = cp.asarray(sx), cp.asarray(sy)
        z = k(dx, dy)
        check_my_kernel(cp.asnumpy(z), sx, sy)
        for _ in range(100):
            z = k(dx, dy)
        sync()
        per_call = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(args.calls):
                z = k(dx, dy)
            sync()
            per_call.append((time.perf_counter() - t0) / args.calls * 1e6)
        return {"value": statistics.median(per_call), "samples": per_call, "checked": True}

    results.append(row("launch_us", launch))

    def my_kernel():
        check_my_kernel(cp.asnumpy(k(x, y)), hx, hy)
        return dict(gpu_times_ms(benchmark, k, (x, y), args.runs), checked=True)

    results.append(row("my_kernel_ms", my_kernel))

    def copy():
        expect(None if np.array_equal(cp.asnumpy(x.copy()), hx) else "differs", "copy")
        return dict(gpu_times_ms(benchmark, x.copy, (), args.runs), checked=True)

    results.append(row("copy_ms", copy))

    def l2_norm():
        norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0",
                                  "l2norm")
        got = float(norm(x))
        want = float(np.sqrt(np.sum(hx.astype(np.float64) ** 2)))
        expect(first_mismatch(got, want, 1e-4 * want), "l2 norm")
        return dict(gpu_times_ms(benchmark, norm, (x,), args.runs), checked=True)

    results.append(row("l2_norm_ms", l2_norm))

    m = args.mat
    ha, hb = inputs(m * m, 3)
    ha, hb = ha.reshape(m, m), hb.reshape(m, m)
    a, b = cp.asarray(ha), cp.asarray(hb)

    def raw_matmul():
        kern = cp.RawKernel(RAW_MATMUL, "naive_matmul")
        grid = ((m + BLOCK - 1) // BLOCK, (m + BLOCK - 1) // BLOCK)
        c = cp.empty((m, m), dtype=cp.float32)

        def run():
            kern(grid, (BLOCK, BLOCK), (a, b, c, np.int32(m)))

        run()
        check_product(cp.asnumpy(c), ha, hb, "naive matmul RawKernel")
        return dict(gpu_times_ms(benchmark, run, (), args.runs), checked=True)

    results.append(row("raw_matmul_ms", raw_matmul))

    def matmul():
        check_product(cp.asnumpy(a @ b), ha, hb, "matmul")
        return dict(gpu_times_ms(benchmark, cp.matmul, (a, b), args.runs), checked=True)

    results.append(row("matmul_ms", matmul))
    return results


def child_cached(args):
    """--child-cached NONCE1 NONCE2: the first calls of two kernels served from the disk
    cache, the process's first and second (see the docstring). Prints {"ms", "warm_ms"}."""
    try:
        import cupy as cp

        hx, hy = inputs(args.n, 1)
        x, y = cp.asarray(hx), cp.asarray(hy)
        cp.cuda.Device().synchronize()
        out = {}
        for key, nonce in zip(("ms", "warm_ms"), args.child_cached):
            t0 = time.perf_counter()
            k = cp.ElementwiseKernel(IN_PARAMS, OUT_PARAMS, body_with(nonce), "my_kernel")
            z = k(x, y)
            cp.cuda.Device().synchronize()
            out[key] = (time.perf_counter() - t0) * 1e3
            check_my_kernel(cp.asnumpy(z), hx, hy)
        print(json.dumps(out))
    except AssertionError as e:
        print(json.dumps({"error": str(e)}))
    except Exception as e:
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))


def import_cupy(cache_dir):
    """(cupy, benchmark, device name, runtime version) or raises why not."""
    os.environ["CUPY_CACHE_DIR"] = cache_dir  # read by CuPy's compiler
    import cupy as cp
    from cupyx.profiler import benchmark

    if cp.cuda.runtime.getDeviceCount() < 1:
        raise RuntimeError("no GPU visible")
    device = cp.cuda.runtime.getDeviceProperties(0)["name"]
    device = device.decode() if isinstance(device, bytes) else str(device)
    return cp, benchmark, device, cp.cuda.runtime.runtimeGetVersion()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--no-cupy", action="store_true")
    p.add_argument("--no-numpy", action="store_true")
    p.add_argument("--n", type=int)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--calls", type=int)
    p.add_argument("--mat", type=int)
    p.add_argument("--repeats", type=int)
    p.add_argument("--runs", type=int)
    p.add_argument("--child-cached", nargs=2, metavar="NONCE", help=argparse.SUPPRESS)
    args = p.parse_args()
    full = {"n": 10_000_000, "calls": 10_000, "mat": 1024, "repeats": 5, "runs": 100}
    quick = {"n": 1_000_000, "calls": 1000, "mat": 256, "repeats": 3, "runs": 20}
    for key, v in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, v)
    for key in ("n", "small", "calls", "mat", "repeats", "runs"):
        if getattr(args, key) < 1:
            p.error(f"--{key} must be at least 1")

    if args.child_cached is not None:
        child_cached(args)
        return

    report = {"numpy": np.__version__, "python": platform.python_version(), "cupy": None,
              "device": None, "cupy_error": None, "results": []}
    about = f"NumPy {np.__version__}, Python {platform.python_version()}"
    if not args.no_numpy:
        log("NumPy (CPU):")
        report["results"] += numpy_rows(args)
    if args.no_cupy:
        report["cupy_error"] = "not asked for (--no-cupy)"
    else:
        with tempfile.TemporaryDirectory(prefix="cupy-kernel-cache-") as cache_dir:
            try:
                cp, benchmark, device, runtime = import_cupy(cache_dir)
            except Exception as e:  # no CuPy, no driver, no GPU
                report["cupy_error"] = f"{type(e).__name__}: {e}"
                log(f"CuPy unavailable: {report['cupy_error']}")
            else:
                v = runtime // 1000, (runtime % 1000) // 10
                about = (f"CuPy {cp.__version__} (CUDA runtime {v[0]}.{v[1]}, {device}), "
                         + about)
                report.update(cupy=cp.__version__, device=device)
                log(f"CuPy on {device}:")
                report["results"] += cupy_rows(cp, benchmark, args, cache_dir)
    report["about"] = about
    if args.json:
        json.dump(report, sys.stdout)
        print()
    else:
        print(about)
        if report["cupy_error"]:
            print(f"GPU workloads skipped: {report['cupy_error']}")
        for r in report["results"]:
            print(f"  {r['id']:<26} {r.get('value', r.get('error'))}")


if __name__ == "__main__":
    main()
