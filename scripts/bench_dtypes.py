"""Times the 16-bit element types on the GPU in CuPy and PyTorch for cuprite's `dtypes` bench
(benches/benches/dtypes.rs), which runs this script and puts its figures beside cuprite's in
one table.

Usage:
    python3 scripts/bench_dtypes.py [--json] [--quick] [--no-cupy] [--no-torch]
                                    [--mat N] [--n N] [--img N] [--runs N]

--mat N      side of the square float16/bfloat16 matrices (default 8192; --quick: 256)
--n N        elements of the float16 arrays of the copy, add and sum (default 2**28;
             --quick: 2**20)
--img N      side of the square uint16 image (default 8192; --quick: 256)
--runs N     timed calls per figure, after 3 untimed ones (default 50; --quick: 10)
--json       print JSON (below) instead of a text list
--no-cupy    skip the CuPy workloads
--no-torch   skip the PyTorch workloads

The workloads (ids shared with the Rust side). Times are GPU times, medians of --runs calls
with CUDA events around each call (cupyx.profiler.benchmark's gpu_times for CuPy,
torch.cuda.Event pairs for PyTorch):
  matmul_f16_ms         cupy.matmul(a, b) of two --mat x --mat float16 matrices uniform in
                        [-1, 1) (cublasGemmEx, CUBLAS_COMPUTE_32F: float32 accumulation)
  matmul_bf16_ms        the same in bfloat16 (ml_dtypes.bfloat16 arrays, CuPy 14's bfloat16
                        support); an error saying so where CuPy, NumPy or ml_dtypes lacks it
  torch_matmul_f16_ms   torch.matmul of the same float16 matrices as CUDA tensors, with
                        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction off
                        (float32 accumulation throughout, as cuprite and CuPy)
  torch_matmul_bf16_ms  torch.matmul of the same float32 draws rounded to torch.bfloat16,
                        allow_bf16_reduced_precision_reduction off
  copy_ms               x.copy() of --n float16 uniform in [-1, 1) (the copy ceiling)
  add_f16_ms            a + b of two such arrays
  sum_f16_ms            x.sum(): a float16 result; with CuPy's default CUB routine
                        accelerator, cub::DeviceReduce::Sum over __half (a float16
                        accumulator), else CuPy's reduction with a float32 accumulator
  u16_pipeline_ms       y = x.astype(float32); lo = y.min(); hi = y.max();
                        ((y - lo) * (float32(65535) / (hi - lo))).astype(uint16) on an
                        --img x --img uint16 image, integers uniform in [1000, 60000]
                        (eight kernels, as cuprite's)

Checks: each result is compared once, untimed, with NumPy on the same host data:
  products   Freivalds' test in float64: C r against A (B r) for r of random signs, row i
             within 8 (u |C_i|_2 + 2^-24 (|A| |B| 1)_i), u = 2^-11 (float16), 2^-8
             (bfloat16): the rounding of each output once, after a float32 accumulation
  copy, add  bit for bit (NumPy's float16 add rounds the exact sum once, as CuPy's)
  sum        against the exact sum (float64 is exact for these inputs) within one float16
             ulp plus 2^-5 sqrt(sum x^2): a sanity bound (float16 accumulation has no
             useful error bound at 2^28 elements; this one is many standard deviations of
             the error of float16 accumulators each adding a few hundred terms, as CUB's do
             here); the measured error is reported as "abs_error"
  pipeline   against the same float32 steps in NumPy, every pixel equal or off by one
             (the final cast truncates); the count off by one is reported as "off_by_one"
A mismatch is reported as "error": "WRONG RESULT: ..." (the Rust side then exits 1).

Output of --json: one JSON object on stdout (progress lines go to stderr),
    {"about": "CuPy 14.2.0 (CUDA runtime 13.0, NVIDIA H200), PyTorch 2.11.0 (CUDA 13.0,
               NVIDIA H200), NumPy 2.4.6, Python 3.12.3",
     "numpy": "2.4.6", "python": "3.12.3", "cupy": "14.2.0", "torch": "2.11.0",
     "device": "NVIDIA H200", "cupy_error": null, "torch_error": null,
     "cupy_accelerators": "cub",
     "results": [{"id": "matmul_f16_ms", "value": 1.52, "samples": [...], "checked": true},
                 {"id": "sum_f16_ms", "value": 0.18, "samples": [...], "checked": true,
                  "abs_error": 42.0},
                 {"id": "matmul_bf16_ms", "error": "CuPy has no bfloat16 here: ..."}]}
"cupy_error" / "torch_error" say why a library's workloads did not run (not installed, no
GPU, --no-cupy / --no-torch); each of its figures then carries that reason as its "error".
A workload that raises reports "error" instead of "value". Exit status 0 (also without
CuPy, PyTorch or a GPU); 1 without NumPy; 2 on bad options.
"""

import argparse
import json
import math
import os
import platform
import statistics
import sys

try:
    import numpy as np
except ImportError as e:  # the checks need NumPy
    print(f"bench_dtypes.py needs NumPy: {e}", file=sys.stderr)
    sys.exit(1)

U_F32 = 2.0 ** -24
U_F16 = 2.0 ** -11
U_BF16 = 2.0 ** -8

CUPY_IDS = ("matmul_f16_ms", "matmul_bf16_ms", "copy_ms", "add_f16_ms", "sum_f16_ms",
            "u16_pipeline_ms")
TORCH_IDS = ("torch_matmul_f16_ms", "torch_matmul_bf16_ms")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- host data


def uniform_f32(n, seed):
    """n float32 values uniform in [-1, 1)."""
    return np.random.default_rng(seed).random(n, dtype=np.float32) * 2 - 1


def matrices(m):
    """The two float32 draws of the products (rounded to each 16-bit type later)."""
    return uniform_f32(m * m, 3).reshape(m, m), uniform_f32(m * m, 4).reshape(m, m)


def image(side):
    return np.random.default_rng(7).integers(1000, 60001, size=(side, side), dtype=np.uint16)


# ---------------------------------------------------------------------------- checks


def expect(msg, what):
    if msg is not None:
        raise AssertionError(f"WRONG RESULT: {what}: {msg}")


def check_product(c, a, b, u_out, what):
    """Freivalds' test of c = a b (see the docstring); all three as float64-convertible."""
    a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    c64 = np.asarray(c, dtype=np.float64)
    m = a64.shape[0]
    if c64.shape != (m, m):
        raise AssertionError(f"WRONG RESULT: {what}: shape {c64.shape}, expected {(m, m)}")
    r = np.sign(np.random.default_rng(23).uniform(-1.0, 1.0, m))
    bound = np.abs(a64) @ (np.abs(b64) @ np.ones(m))
    tol = 8 * (u_out * np.sqrt((c64 * c64).sum(axis=1)) + U_F32 * bound)
    got, want = c64 @ r, a64 @ (b64 @ r)
    ok = np.abs(got - want) <= tol  # NaN fails
    if not ok.all():
        i = int(np.argmin(ok))
        expect(f"row {i} of C r is {got[i]!r}, expected {want[i]!r} (tolerance {tol[i]:.3e})",
               what)


def check_equal(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        expect(f"shape {got.shape}, expected {want.shape}", what)
    same = got.view(np.uint16) == want.view(np.uint16)
    if not same.all():
        i = int(np.argmin(same.ravel()))
        expect(f"element {i} is {got.ravel()[i]!r}, expected {want.ravel()[i]!r}", what)


def f16_ulp(v):
    """The spacing of float16 values at |v| (2^-24 among the subnormals)."""
    e = -14 if v == 0 else max(math.floor(math.log2(abs(v))), -14)
    return 2.0 ** (e - 10)


def exact_sum(x16):
    """The exact sum (float64 partial sums of float16 values below 2^28 are exact) and
    sum x^2."""
    x64 = x16.astype(np.float64)
    return float(x64.sum()), float((x64 * x64).sum())


def check_sum(got, exact, sum_sq, what):
    """The sanity bound of a float16-accumulated sum; returns |got - exact|."""
    err = abs(float(got) - exact)
    tol = f16_ulp(exact) + 2.0 ** -5 * math.sqrt(sum_sq)
    if not err <= tol:
        expect(f"{float(got)!r}, the exact sum is {exact!r} (tolerance {tol:.3e})", what)
    return err


def pipeline_host(x):
    y = x.astype(np.float32)
    lo, hi = y.min(), y.max()
    scale = np.float32(65535) / (hi - lo)
    return ((y - lo) * scale).astype(np.uint16)


def check_pipeline(got, x, what):
    """Every pixel equal to NumPy's or off by one; returns the count off by one."""
    want = pipeline_host(x)
    got = np.asarray(got)
    if got.shape != want.shape or got.dtype != np.uint16:
        expect(f"{got.dtype} {got.shape}, expected uint16 {want.shape}", what)
    diff = np.abs(got.astype(np.int32) - want.astype(np.int32))
    if diff.max() > 1:
        i = int(np.argmax(diff.ravel()))
        expect(f"pixel {i} is {got.ravel()[i]}, expected {want.ravel()[i]}", what)
    return int((diff == 1).sum())


# ---------------------------------------------------------------------------- timing


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
        log(f"  {wid:<24} {item['value']:.4f} ms")
    else:
        log(f"  {wid:<24} {item['error']}")
    return item


def summary(ms):
    return {"value": statistics.median(ms), "samples": ms, "checked": True}


def cupy_ms(benchmark, fn, fargs, runs):
    res = benchmark(fn, fargs, n_repeat=runs, n_warmup=3)
    return summary([float(t) * 1e3 for t in res.gpu_times[0]])


def torch_ms(torch, fn, runs):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        ms.append(float(start.elapsed_time(end)))
    return summary(ms)


# ---------------------------------------------------------------------------- CuPy


def cupy_rows(cp, benchmark, args):
    results = []
    fa, fb = matrices(args.mat)

    def matmul_f16():
        ha, hb = fa.astype(np.float16), fb.astype(np.float16)
        a, b = cp.asarray(ha), cp.asarray(hb)
        check_product(cp.asnumpy(cp.matmul(a, b)), ha, hb, U_F16, "float16 matmul")
        return cupy_ms(benchmark, cp.matmul, (a, b), args.runs)

    results.append(row("matmul_f16_ms", matmul_f16))

    def matmul_bf16():
        try:
            import ml_dtypes

            ha, hb = fa.astype(ml_dtypes.bfloat16), fb.astype(ml_dtypes.bfloat16)
            a, b = cp.asarray(ha), cp.asarray(hb)
            c = cp.matmul(a, b)
            got = cp.asnumpy(c).astype(np.float64)
        except Exception as e:
            raise RuntimeError(f"CuPy has no bfloat16 here: {type(e).__name__}: {e}") from e
        check_product(got, ha, hb, U_BF16, "bfloat16 matmul")
        return cupy_ms(benchmark, cp.matmul, (a, b), args.runs)

    results.append(row("matmul_bf16_ms", matmul_bf16))
    cp.get_default_memory_pool().free_all_blocks()

    hx, hy = uniform_f32(args.n, 5).astype(np.float16), uniform_f32(args.n, 6).astype(np.float16)
    x, y = cp.asarray(hx), cp.asarray(hy)

    def copy():
        check_equal(cp.asnumpy(x.copy()), hx, "float16 x.copy()")
        return cupy_ms(benchmark, x.copy, (), args.runs)

    results.append(row("copy_ms", copy))

    def add():
        check_equal(cp.asnumpy(x + y), hx + hy, "float16 a + b")
        return cupy_ms(benchmark, cp.add, (x, y), args.runs)

    results.append(row("add_f16_ms", add))

    def total():
        exact, sum_sq = exact_sum(hx)
        err = check_sum(cp.asnumpy(x.sum()), exact, sum_sq, "float16 x.sum()")
        return dict(cupy_ms(benchmark, x.sum, (), args.runs), abs_error=err)

    results.append(row("sum_f16_ms", total))
    cp.get_default_memory_pool().free_all_blocks()

    def normalise(img):
        y = img.astype(cp.float32)
        lo, hi = y.min(), y.max()
        return ((y - lo) * cp.true_divide(cp.float32(65535), hi - lo)).astype(cp.uint16)

    def pipeline():
        himg = image(args.img)
        img = cp.asarray(himg)
        off = check_pipeline(cp.asnumpy(normalise(img)), himg, "uint16 pipeline")
        return dict(cupy_ms(benchmark, normalise, (img,), args.runs), off_by_one=off)

    results.append(row("u16_pipeline_ms", pipeline))
    cp.get_default_memory_pool().free_all_blocks()
    return results


# ---------------------------------------------------------------------------- PyTorch


def torch_rows(torch, args):
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    dev = torch.device("cuda")
    fa, fb = matrices(args.mat)
    results = []

    def matmul(dtype, u_out, what):
        a = torch.from_numpy(fa).to(dev).to(dtype)
        b = torch.from_numpy(fb).to(dev).to(dtype)
        c = torch.matmul(a, b)
        # The inputs as rounded on the device, exactly, and the product, exactly.
        ha, hb = a.float().cpu().numpy(), b.float().cpu().numpy()
        check_product(c.float().cpu().numpy(), ha, hb, u_out, what)
        return torch_ms(torch, lambda: torch.matmul(a, b), args.runs)

    results.append(row("torch_matmul_f16_ms",
                       lambda: matmul(torch.float16, U_F16, "torch float16 matmul")))
    results.append(row("torch_matmul_bf16_ms",
                       lambda: matmul(torch.bfloat16, U_BF16, "torch bfloat16 matmul")))
    torch.cuda.empty_cache()
    return results


# ---------------------------------------------------------------------------- main


def import_cupy():
    """(cupy, benchmark, device name, runtime version) or raises why not."""
    import cupy as cp
    from cupyx.profiler import benchmark

    if cp.cuda.runtime.getDeviceCount() < 1:
        raise RuntimeError("no GPU visible")
    device = cp.cuda.runtime.getDeviceProperties(0)["name"]
    device = device.decode() if isinstance(device, bytes) else str(device)
    return cp, benchmark, device, cp.cuda.runtime.runtimeGetVersion()


def import_torch():
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False (no GPU, or a CPU-only build)")
    return torch


def unavailable(ids, lib, why):
    items = [{"id": wid, "error": f"{lib} not run: {why}"} for wid in ids]
    for item in items:
        log(f"  {item['id']:<24} {item['error']}")
    return items


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--no-cupy", action="store_true")
    p.add_argument("--no-torch", action="store_true")
    p.add_argument("--mat", type=int)
    p.add_argument("--n", type=int)
    p.add_argument("--img", type=int)
    p.add_argument("--runs", type=int)
    args = p.parse_args()
    full = {"mat": 8192, "n": 1 << 28, "img": 8192, "runs": 50}
    quick = {"mat": 256, "n": 1 << 20, "img": 256, "runs": 10}
    for key, v in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, v)
    for key in ("mat", "n", "img", "runs"):
        if getattr(args, key) < 1:
            p.error(f"--{key} must be at least 1")

    report = {"numpy": np.__version__, "python": platform.python_version(), "cupy": None,
              "torch": None, "device": None, "cupy_error": None, "torch_error": None,
              "cupy_accelerators": None, "results": []}
    parts = []
    if args.no_cupy:
        report["cupy_error"] = "not asked for (--no-cupy)"
    else:
        try:
            cp, benchmark, device, runtime = import_cupy()
        except Exception as e:  # no CuPy, no driver, no GPU
            report["cupy_error"] = f"{type(e).__name__}: {e}"
        else:
            v = runtime // 1000, (runtime % 1000) // 10
            parts.append(f"CuPy {cp.__version__} (CUDA runtime {v[0]}.{v[1]}, {device})")
            report.update(cupy=cp.__version__, device=device,
                          cupy_accelerators=os.environ.get("CUPY_ACCELERATORS", "cub"))
            log(f"CuPy on {device}:")
            report["results"] += cupy_rows(cp, benchmark, args)
    if report["cupy_error"] is not None:
        log(f"CuPy unavailable: {report['cupy_error']}")
        report["results"] += unavailable(CUPY_IDS, "CuPy", report["cupy_error"])
    if args.no_torch:
        report["torch_error"] = "not asked for (--no-torch)"
    else:
        try:
            torch = import_torch()
        except Exception as e:  # no PyTorch, a CPU-only build, no GPU
            report["torch_error"] = f"{type(e).__name__}: {e}"
        else:
            device = torch.cuda.get_device_name(0)
            parts.append(f"PyTorch {torch.__version__} (CUDA {torch.version.cuda}, {device})")
            report.update(torch=torch.__version__, device=report["device"] or device)
            log(f"PyTorch on {device}:")
            report["results"] += torch_rows(torch, args)
    if report["torch_error"] is not None:
        log(f"PyTorch unavailable: {report['torch_error']}")
        report["results"] += unavailable(TORCH_IDS, "PyTorch", report["torch_error"])
    parts.append(f"NumPy {np.__version__}, Python {platform.python_version()}")
    report["about"] = ", ".join(parts)
    if args.json:
        json.dump(report, sys.stdout)
        print()
    else:
        print(report["about"])
        for lib in ("cupy", "torch"):
            if report[f"{lib}_error"]:
                print(f"{lib} workloads skipped: {report[f'{lib}_error']}")
        for r in report["results"]:
            print(f"  {r['id']:<24} {r.get('value', r.get('error'))}")


if __name__ == "__main__":
    main()
