"""The Python anchor of the batched small-matrix linear-algebra bench
(`cargo bench -p cuprite-benches --bench batched_linalg`).

The cases are benches/benches/batched_linalg.rs's, on inputs of the same kind (values in
[-1, 1) plus n on the diagonal for inv, solve and det; R R^T + n I for cholesky and eigh), as
a NumPy or CuPy user writes them: `xp.linalg.inv(a)`, `xp.linalg.solve(a, b)` with b of shape
(batch, n, 1), `xp.linalg.det(a)`, `xp.linalg.cholesky(a)`, `xp.linalg.eigh(a)`.

Usage:
    python3 scripts/bench_batched_linalg.py --device cpu|gpu --batch N [--runs R]

Timing: five warm-ups, then R runs of the call and a device synchronisation (CuPy: the
stream's), time.perf_counter, median.

Output (stdout): {"about": "...", "results": {KEY: seconds or "error: ..."}}.
"""

import argparse
import json
import platform
import statistics
import time

import numpy as np

CASES = [
    ("inv_3x3", 3, "inv"),
    ("inv_4x4", 4, "inv"),
    ("solve_3x3", 3, "solve"),
    ("solve_4x4", 4, "solve"),
    ("det_3x3", 3, "det"),
    ("det_4x4", 4, "det"),
    ("cholesky_8x8", 8, "cholesky"),
    ("eigh_8x8", 8, "eigh"),
]


def inputs(xp, op, batch, n):
    rng = np.random.default_rng(41)
    r = rng.uniform(-1.0, 1.0, (batch, n, n))
    if op in ("cholesky", "eigh"):
        a = r @ r.transpose(0, 2, 1) + n * np.eye(n)
    else:
        a = r + n * np.eye(n)
    b = rng.uniform(-1.0, 1.0, (batch, n, 1))
    return xp.asarray(a), xp.asarray(b)


def call(xp, op, a, b):
    if op == "inv":
        return xp.linalg.inv(a)
    if op == "solve":
        return xp.linalg.solve(a, b)
    if op == "det":
        return xp.linalg.det(a)
    if op == "cholesky":
        return xp.linalg.cholesky(a)
    return xp.linalg.eigh(a)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--batch", type=int, default=10000)
    p.add_argument("--runs", type=int, default=10)
    args = p.parse_args()
    if args.device == "gpu":
        import cupy as xp

        sync = xp.cuda.get_current_stream().synchronize
        name = xp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        about = f"CuPy {xp.__version__} on {name}, Python {platform.python_version()}"
    else:
        xp = np

        def sync():
            pass

        about = f"NumPy {np.__version__}, Python {platform.python_version()}"
    results = {}
    for key, n, op in CASES:
        try:
            a, b = inputs(xp, op, args.batch, n)
            for _ in range(5):
                call(xp, op, a, b)
                sync()
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                call(xp, op, a, b)
                sync()
                times.append(time.perf_counter() - t0)
            results[key] = statistics.median(times)
        except Exception as e:  # reported in the table, not fatal
            results[key] = f"error: {e}"
    print(json.dumps({"about": about, "results": results}))


if __name__ == "__main__":
    main()
