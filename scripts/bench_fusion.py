"""The Python anchors of the fusion group (`cargo xtask bench --group fusion`).

The cases are benches/src/fusion.rs's, written as NumPy writes them, on the same inputs
(values in [0.5, 1.5) from the same generator; only timing is compared here, the Rust side
checks its fused results against its unfused ones). Systems:

  --device cpu   numpy (eager), numexpr (each element-wise expression as one
                 `ne.evaluate`, reductions in NumPy)
  --device gpu   cupy (eager), cupy.fuse (element-wise chains and a trailing reduction as
                 one traced kernel), jax.jit (the whole case compiled by XLA), torch (eager)
                 and torch.compile (Inductor's generated Triton kernels, default mode)

Usage:
    python3 scripts/bench_fusion.py --device cpu|gpu --dtype f32|f64 --n N --seed-n M
                                    [--runs R] [--keys a,b] --json

Timing: two warm-ups, then R runs of the call and a device synchronisation (CuPy: the
stream's; JAX: block_until_ready), time.perf_counter, median. The seed chain gets a fresh
copy of x before every run, untimed (JAX cannot update in place: it returns a new array).

Output of --json: {"about": "...", "results": {KEY: {SYSTEM: seconds or "error: ..."}}}.
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

# JAX takes 75% of the GPU's memory when it starts unless told not to, which leaves CuPy too
# little for the 2 GB seed chain.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def values(n, seed):
    """The Rust side's generator: an LCG, 0.5 + (s >> 11) / 2^53."""
    out = np.empty(n, dtype=np.float64)
    s = seed
    mul, inc, mask = 6364136223846793005, 1442695040888963407, (1 << 64) - 1
    # Vectorised by jumping: the LCG in blocks would be exact but slow in Python; use the
    # closed form s_k = a^k s + c (a^k - 1)/(a - 1) modulo 2^64 in chunks of 2^16.
    k = 1 << 16
    a_pow = [1]
    for _ in range(k):
        a_pow.append((a_pow[-1] * mul) & mask)
    c_sum = [0]
    for j in range(k):
        c_sum.append((c_sum[-1] * mul + inc) & mask)
    a_arr = np.array(a_pow[1:], dtype=np.uint64)
    c_arr = np.array(c_sum[1:], dtype=np.uint64)
    done = 0
    with np.errstate(over="ignore"):
        while done < n:
            m = min(k, n - done)
            block = a_arr[:m] * np.uint64(s) + c_arr[:m]
            out[done:done + m] = 0.5 + (block >> np.uint64(11)).astype(np.float64) / float(1 << 53)
            s = int(block[m - 1])
            done += m
    return out


def shape_of(key, n, seed_n):
    if key == "seed":
        return (seed_n,)
    if key == "chain_small":
        return (4096,)
    if key in ("softmax", "normalise"):
        return (n // 1024, 1024)
    if key == "stencil":
        side = int(math.sqrt(n))
        return (side, side)
    return (n,)


def cases(xp):
    """The cases on an array module (numpy or cupy)."""

    def seed(x, y):
        x *= 5
        x *= x
        x += x
        return x

    def chain10(x, y):
        t = (((x * 1.5 + y) * x - 0.5) * y + x) * 0.25 - y
        return t * t + 1

    def chain(x, y):
        return (x * y + x - y) * 0.5 + x * x

    def sumsq(x, y):
        return xp.sum((x - y) ** 2)

    def softmax(x, y):
        e = xp.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def normalise(x, y):
        return (x - x.mean(axis=0)) / x.std(axis=0)

    def stencil(x, y):
        a = x
        return 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])

    return {
        "copy": lambda x, y: x.copy(),
        "seed": seed,
        "chain10": chain10,
        "chain": chain,
        "chain_small": chain,
        "sumsq": sumsq,
        "softmax": softmax,
        "normalise": normalise,
        "stencil": stencil,
    }


def numexpr_cases():
    import numexpr as ne

    def seed(x, y):
        return ne.evaluate("((x * 5) * (x * 5)) * 2", out=x)

    def softmax(x, y):
        e = ne.evaluate("exp(x - m)", local_dict={"x": x, "m": x.max(axis=1, keepdims=True)})
        return ne.evaluate("e / s", local_dict={"e": e, "s": e.sum(axis=1, keepdims=True)})

    return {
        "copy": lambda x, y: x.copy(),
        "seed": seed,
        "chain10": lambda x, y: ne.evaluate(
            "((((x * 1.5 + y) * x - 0.5) * y + x) * 0.25 - y) ** 2 + 1"
        ),
        "chain": lambda x, y: ne.evaluate("(x * y + x - y) * 0.5 + x * x"),
        "chain_small": lambda x, y: ne.evaluate("(x * y + x - y) * 0.5 + x * x"),
        "sumsq": lambda x, y: ne.evaluate("sum((x - y) ** 2)"),
        "softmax": softmax,
        "normalise": lambda x, y: ne.evaluate(
            "(x - m) / s", local_dict={"x": x, "m": x.mean(axis=0), "s": x.std(axis=0)}),
        "stencil": lambda x, y: ne.evaluate(
            "0.2 * (c + n + s + w + e)",
            local_dict={"c": x[1:-1, 1:-1], "n": x[:-2, 1:-1], "s": x[2:, 1:-1],
                        "w": x[1:-1, :-2], "e": x[1:-1, 2:]}),
    }


def cupy_fuse_cases(cp):
    @cp.fuse()
    def seed_k(x):
        t = x * 5
        t = t * t
        return t + t

    @cp.fuse()
    def chain10_k(x, y):
        t = (((x * 1.5 + y) * x - 0.5) * y + x) * 0.25 - y
        return t * t + 1

    @cp.fuse()
    def chain_k(x, y):
        return (x * y + x - y) * 0.5 + x * x

    @cp.fuse()
    def sumsq_k(x, y):
        return cp.sum((x - y) * (x - y))

    @cp.fuse()
    def sub_exp(x, m):
        return cp.exp(x - m)

    @cp.fuse()
    def div(e, s):
        return e / s

    @cp.fuse()
    def norm_k(x, m, s):
        return (x - m) / s

    @cp.fuse()
    def stencil_k(c, n, s, w, e):
        return 0.2 * (c + n + s + w + e)

    def softmax(x, y):
        e = sub_exp(x, x.max(axis=1, keepdims=True))
        return div(e, e.sum(axis=1, keepdims=True))

    return {
        "copy": lambda x, y: x.copy(),
        "seed": lambda x, y: seed_k(x),
        "chain10": chain10_k,
        "chain": chain_k,
        "chain_small": chain_k,
        "sumsq": sumsq_k,
        "softmax": softmax,
        "normalise": lambda x, y: norm_k(x, x.mean(axis=0), x.std(axis=0)),
        "stencil": lambda x, y: stencil_k(x[1:-1, 1:-1], x[:-2, 1:-1], x[2:, 1:-1],
                                          x[1:-1, :-2], x[1:-1, 2:]),
    }


def jax_cases():
    import jax
    import jax.numpy as jnp

    fns = cases(jnp)
    fns["seed"] = lambda x, y: ((x * 5) * (x * 5)) * 2
    return {k: jax.jit(f) for k, f in fns.items()}


def torch_cases(torch):
    """The cases as a PyTorch user writes them (in place where NumPy is, `amax` for `max`,
    the population `std`)."""

    def seed(x, y):
        x.mul_(5)
        x.mul_(x)
        x.add_(x)
        return x

    def softmax(x, y):
        e = torch.exp(x - x.amax(dim=1, keepdim=True))
        return e / e.sum(dim=1, keepdim=True)

    def normalise(x, y):
        return (x - x.mean(dim=0)) / x.std(dim=0, correction=0)

    fns = cases(torch)
    fns.update({"copy": lambda x, y: x.clone(), "seed": seed, "softmax": softmax,
                "normalise": normalise})
    return fns


def time_case(fn, x, y, runs, sync, fresh=None):
    times = []
    for r in range(runs + 2):
        if fresh is not None:
            x = fresh()
        sync()
        t = time.perf_counter()
        out = fn(x, y)
        sync(out)
        dt = time.perf_counter() - t
        del out
        if r >= 2:
            times.append(dt)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    ap.add_argument("--dtype", choices=["f32", "f64"], default="f64")
    ap.add_argument("--n", type=int, default=1 << 22)
    ap.add_argument("--seed-n", type=int, default=1 << 22)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--keys", default="")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    dtype = np.float32 if a.dtype == "f32" else np.float64
    keys = [k for k in a.keys.split(",") if k] or list(cases(np).keys())
    results = {k: {} for k in keys}
    about = [f"Python {platform.python_version()}", f"NumPy {np.__version__}"]

    def host_inputs(key):
        shape = shape_of(key, a.n, a.seed_n)
        size = int(np.prod(shape))
        return (values(size, 1).astype(dtype).reshape(shape),
                values(size, 2).astype(dtype).reshape(shape))

    systems = []
    if a.device == "cpu":
        systems.append(("numpy", cases(np), lambda v: v, lambda *o: None))
        try:
            import numexpr as ne
            about.append(f"numexpr {ne.__version__} ({ne.detect_number_of_threads()} threads)")
            systems.append(("numexpr", numexpr_cases(), lambda v: v, lambda *o: None))
        except ImportError as e:
            for k in keys:
                results[k]["numexpr"] = f"error: {e}"
    else:
        try:
            import cupy as cp
            about.append(f"CuPy {cp.__version__} on {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
            sync = lambda *o: cp.cuda.get_current_stream().synchronize()
            systems.append(("cupy", cases(cp), cp.asarray, sync))
            systems.append(("cupy.fuse", cupy_fuse_cases(cp), cp.asarray, sync))
        except Exception as e:  # noqa: BLE001 - report any import or device failure
            for k in keys:
                results[k]["cupy"] = f"error: {e}"
        try:
            import jax
            import jax.numpy as jnp
            if a.dtype == "f64":
                jax.config.update("jax_enable_x64", True)
            about.append(f"JAX {jax.__version__} on {jax.devices()[0]}")

            def jsync(*o):
                for v in o:
                    jax.block_until_ready(v)

            systems.append(("jax.jit", jax_cases(), jnp.asarray, jsync))
        except Exception as e:  # noqa: BLE001
            for k in keys:
                results[k]["jax.jit"] = f"error: {e}"

        try:
            import torch
            if not torch.cuda.is_available():
                raise RuntimeError("torch sees no CUDA device")
            about.append(f"PyTorch {torch.__version__}")

            def tsync(*o):
                torch.cuda.synchronize()

            tput = lambda v: torch.as_tensor(v, device="cuda")
            eager = torch_cases(torch)
            systems.append(("torch", eager, tput, tsync))
            compiled = {k: torch.compile(f, dynamic=False) for k, f in eager.items()}
            systems.append(("torch.compile", compiled, tput, tsync))
        except Exception as e:  # noqa: BLE001
            for k in keys:
                results[k]["torch.compile"] = f"error: {e}"

    for key in keys:
        hx, hy = host_inputs(key)
        for name, fns, put, sync in systems:
            try:
                x, y = put(hx), put(hy)
                fresh = (lambda: put(hx.copy())) if key == "seed" else None
                t = time_case(fns[key], x, y, a.runs, sync, fresh)
                results[key][name] = t
                print(f"fusion: {key} {name} {t * 1e3:.3f} ms", file=sys.stderr)
            except Exception as e:  # noqa: BLE001 - a failing system is reported, not fatal
                results[key][name] = f"error: {type(e).__name__}: {e}"
                print(f"fusion: {key} {name} failed: {e}", file=sys.stderr)
    print(json.dumps({"about": ", ".join(about), "results": results}))


if __name__ == "__main__":
    main()
