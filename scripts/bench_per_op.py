"""The Python anchors of the per-op bench (`cargo bench -p cuprite-benches --bench per_op`).

The cases are benches/benches/per_op.rs's, written as a NumPy, CuPy or PyTorch user writes
them, on f32 arrays of n elements (x in [0, 1), y in [0.999, 1.001), 16 x 16 matrices in
[-1, 1)):

    add_scalar   x = x + 0.001          (ops chained: each reads the last result)
    mul_arrays   x = x * y
    unary        x = sin(x)
    iadd_scalar  x += 0.001
    sum_0d       s = x.sum()
    sum_axis     r = m.sum(axis=1)      (m: x[:n//10*10] as n//10 x 10)
    stencil      x[1:-1] = (x[:-2] + x[2:]) * 0.5   (3 ops a statement)
    matmul_16    p = a @ b

Usage:
    python3 scripts/bench_per_op.py --device cpu|gpu --n N --ops K [--runs R]

Timing: one warm-up chain, then R chains of K ops (K/3 statements for the stencil) each
ending in a device synchronisation, time.perf_counter, median; seconds per op.

Output (stdout): {"about": "...", "results": {SYSTEM: {KEY: seconds per op or "error: ..."}}}
with SYSTEM numpy (cpu) or cupy and torch (gpu).
"""

import argparse
import json
import math
import platform
import statistics
import time

import numpy as np

PER = {"stencil": 3}
KEYS = ["add_scalar", "mul_arrays", "unary", "iadd_scalar", "sum_0d", "sum_axis", "stencil",
        "matmul_16"]


def chain(key, xp, inp, steps):
    x = inp["x"].clone() if hasattr(inp["x"], "clone") else inp["x"].copy()
    if key == "add_scalar":
        for _ in range(steps):
            x = x + 0.001
    elif key == "mul_arrays":
        y = inp["y"]
        for _ in range(steps):
            x = x * y
    elif key == "unary":
        for _ in range(steps):
            x = xp.sin(x)
    elif key == "iadd_scalar":
        for _ in range(steps):
            x += 0.001
    elif key == "sum_0d":
        for _ in range(steps):
            s = x.sum()
        return s
    elif key == "sum_axis":
        n = x.shape[0]
        m = x[: n // 10 * 10].reshape(n // 10, 10)
        for _ in range(steps):
            r = m.sum(1)
        return r
    elif key == "stencil":
        for _ in range(steps):
            x[1:-1] = (x[:-2] + x[2:]) * 0.5
    else:
        a, b = inp["a16"], inp["b16"]
        for _ in range(steps):
            p = a @ b
        return p
    return x


def run(system, xp, sync, to_dev, n, ops, runs):
    rng = np.random.default_rng(51)
    inp = {
        "x": to_dev(rng.uniform(0.0, 1.0, n).astype(np.float32)),
        "y": to_dev(rng.uniform(0.999, 1.001, n).astype(np.float32)),
        "a16": to_dev(rng.uniform(-1.0, 1.0, (16, 16)).astype(np.float32)),
        "b16": to_dev(rng.uniform(-1.0, 1.0, (16, 16)).astype(np.float32)),
    }
    out = {}
    for key in KEYS:
        per = PER.get(key, 1)
        steps = math.ceil(ops / per)
        try:
            chain(key, xp, inp, steps)
            sync()
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                chain(key, xp, inp, steps)
                sync()
                times.append((time.perf_counter() - t0) / (steps * per))
            out[key] = statistics.median(times)
        except Exception as e:  # noqa: BLE001 - reported in the table
            out[key] = f"error: {type(e).__name__}: {e}"
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--ops", type=int, default=10000)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    results = {}
    about = []
    if args.device == "gpu":
        try:
            import cupy as cp

            name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
            about.append(f"CuPy {cp.__version__} on {name}")
            results["cupy"] = run("cupy", cp, cp.cuda.get_current_stream().synchronize,
                                  cp.asarray, args.n, args.ops, args.runs)
        except Exception as e:  # noqa: BLE001
            results["cupy"] = {k: f"error: {e}" for k in KEYS}
        try:
            import torch

            class T:
                sin = staticmethod(torch.sin)

            about.append(f"PyTorch {torch.__version__}")

            def to_dev(a):
                return torch.from_numpy(a).cuda()

            results["torch"] = run("torch", T, torch.cuda.synchronize, to_dev, args.n,
                                   args.ops, args.runs)
        except Exception as e:  # noqa: BLE001
            results["torch"] = {k: f"error: {e}" for k in KEYS}
    else:
        about.append(f"NumPy {np.__version__}")
        results["numpy"] = run("numpy", np, lambda: None, lambda a: a, args.n, args.ops,
                               args.runs)
    about.append(f"Python {platform.python_version()}")
    print(json.dumps({"about": ", ".join(about), "results": results}))


if __name__ == "__main__":
    main()
