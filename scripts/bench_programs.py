"""The NumPy (and CuPy) side of the "real programs" group (`cargo xtask bench --group programs`).

The programs are PolyBench/NPBench's NumPy versions, written here as NPBench writes them;
benches/src/programs/ holds the cuprite translations line for line. Inputs are built from
the same integer formulas on both sides (e.g. `((i*j+1) % n) / n`), so no input files are
exchanged. The Rust runner passes the rows with --spec; --save DIR writes every output of
the warm-up run as float64 `.npy` files (`DIR/KEY__SIZE__K.npy`; booleans and integers
converted, complex as interleaved real/imag) for the cuprite side to check against.

Usage:
    python3 scripts/bench_programs.py --json --spec JSON [--runs N] [--max-seconds S]
                                      [--save DIR] [--cupy | --jax]

--spec JSON    [{"id": "lu", "size": "small", "params": [40], "inner": 1}, ...]
--runs N       timed runs after one untimed warm-up (default 5; fewer when one run takes
               longer than --max-seconds / N)
--cupy         import cupy as np (GPU); times end with a device synchronize
--jax          time the programs' jax.jit forms (scripts/programs_jax.py, float64) on the
               inputs built here, converted with jnp.asarray (untimed); times end with
               jax.block_until_ready. The warm-up (which compiles) is checked against this
               file's NumPy forms with the row's "rtol" and "bad_frac" (the Rust side's rule);
               a row that differs is reported as an error starting "WRONG RESULT".

Timing: per row, a warm-up, then each run rebuilds the inputs (untimed) and times the
program with time.perf_counter; process CPU time and minor page faults come from
resource.getrusage(RUSAGE_SELF). Times and faults are per call (`inner` calls per run).

Output of --json: {"about": "...", "results": [{"id", "size", "median_ms", "min_ms",
"cpu_ms", "minflt", "runs"} or {"id", "size", "error"}]}; progress lines go to stderr.
"""

import argparse
import json
import math
import os
import platform
import resource
import statistics
import sys
import time

import numpy as _np  # the inputs' formulas run in NumPy on both --cupy and plain runs

np = None  # numpy or cupy, set in main()
SYNC = lambda: None


# ---------------------------------------------------------------- inputs (integer formulas)

def grid(n, m, f):
    """a[i, j] = f(i, j) with int64 index arrays (the same formula as the Rust side)."""
    i, j = _np.meshgrid(_np.arange(n, dtype=_np.int64), _np.arange(m, dtype=_np.int64),
                        indexing="ij")
    return np.asarray(_np.asarray(f(i, j), dtype=_np.float64))


def line(n, f):
    return np.asarray(_np.asarray(f(_np.arange(n, dtype=_np.int64)), dtype=_np.float64))


def frac(i, j, n):
    return ((i * j + 1) % n) / n


# ---------------------------------------------------------------- stencils

def jacobi_2d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


def heat_3d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1]) +
                               0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1]) +
                               0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, 0:-2]) +
                               A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1]) +
                               0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1]) +
                               0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, 0:-2]) +
                               B[1:-1, 1:-1, 1:-1])


def fdtd_2d(TMAX, ex, ey, hz, _fict_):
    for t in range(TMAX):
        ey[0, :] = _fict_[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


# ---------------------------------------------------------------- factorizations

def lu(A):
    for i in range(A.shape[0]):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, A.shape[0]):
            A[i, j] -= A[i, :i] @ A[:i, j]


def cholesky(A):
    A[0, 0] = np.sqrt(A[0, 0])
    for i in range(1, A.shape[0]):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])


def gramschmidt(A):
    Q = np.zeros_like(A)
    R = np.zeros((A.shape[1], A.shape[1]), dtype=A.dtype)
    for k in range(A.shape[1]):
        nrm = np.dot(A[:, k], A[:, k])
        R[k, k] = np.sqrt(nrm)
        Q[:, k] = A[:, k] / R[k, k]
        for j in range(k + 1, A.shape[1]):
            R[k, j] = np.dot(Q[:, k], A[:, j])
            A[:, j] -= Q[:, k] * R[k, j]
    return Q, R


def covariance(M, float_n, data):
    mean = np.mean(data, axis=0)
    data -= mean
    cov = np.zeros((M, M), dtype=data.dtype)
    for i in range(M):
        cov[i:M, i] = cov[i, i:M] = data[:, i] @ data[:, i:M] / (float_n - 1.0)
    return cov


def spd(n):
    return grid(n, n, lambda i, j: frac(i, j, n) + (i == j) * n)


# ---------------------------------------------------------------- dense

def relu(x):
    return np.maximum(x, 0)


def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def mlp(input, w1, b1, w2, b2, w3, b3):
    x = relu(input @ w1 + b1)
    x = relu(x @ w2 + b2)
    x = softmax(x @ w3 + b3)
    return x


def layer(fan_in, fan_out):
    w = grid(fan_in, fan_out, lambda i, j: ((i + 2 * j) % 7 - 3) / (3 * fan_in))
    b = line(fan_out, lambda j: (j % 5 - 2) / 10)
    return w, b


def gesummv(alpha, beta, A, B, x):
    return alpha * A @ x + beta * B @ x


def getAcc(pos, mass, G, softening):
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r3 = (dx**2 + dy**2 + dz**2 + softening**2)
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0]**(-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    a = np.hstack((ax, ay, az))
    return a


def nbody(mass, pos, vel, Nt, dt, G, softening):
    vel -= np.mean(mass * vel, 0) / np.mean(mass)
    acc = getAcc(pos, mass, G, softening)
    for i in range(Nt):
        vel += acc * dt / 2.0
        pos += vel * dt
        acc = getAcc(pos, mass, G, softening)
        vel += acc * dt / 2.0
    return pos, vel


# ---------------------------------------------------------------- masks, histograms, indices

def mandelbrot(xmin, xmax, ymin, ymax, xn, yn, maxiter, horizon=2.0):
    X = np.linspace(xmin, xmax, xn, dtype=np.float64)
    Y = np.linspace(ymin, ymax, yn, dtype=np.float64)
    C = X + Y[:, None] * 1j
    N = np.zeros(C.shape, dtype=np.int64)
    Z = np.zeros(C.shape, dtype=np.complex128)
    for n in range(maxiter):
        I = np.less(abs(Z), horizon)
        N[I] = n
        Z[I] = Z[I]**2 + C[I]
    N[N == maxiter - 1] = 0
    return Z, N


def azimint_hist(data, radius, npt):
    histu = np.histogram(radius, npt)[0]
    histw = np.histogram(radius, npt, weights=data)[0]
    return histw / histu


def azimint_init(n):
    w = math.isqrt(n)
    radius = line(n, lambda i: _np.sqrt(((i // w - w // 2)**2 + (i % w - w // 2)**2).astype(float)))
    data = line(n, lambda i: ((i * 31 + 7) % 101) / 101)
    return data, radius


def spmv_coo(rows, indices, data, x, n):
    return np.bincount(rows, weights=data * x[indices], minlength=n)


def spmv_init(n, k):
    p = _np.arange(n * k, dtype=_np.int64)
    rows = np.asarray(p // k)
    indices = np.asarray(((p // k) * 31 + (p % k) * 97 + 7) % n)
    data = line(n * k, lambda p: ((p * 13) % 17 + 1) / 17)
    x = line(n, lambda c: (c % 11 + 1) / 11)
    return rows, indices, data, x


# ---------------------------------------------------------------- cavity flow

def build_up_b(b, rho, dt, u, v, dx, dy):
    b[1:-1, 1:-1] = (rho * (1 / dt * ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx) +
                                      (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)) -
                            ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx))**2 - 2 *
                            ((u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy) *
                             (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx)) -
                            ((v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy))**2))


def pressure_poisson(nit, p, dx, dy, b):
    pn = np.empty_like(p)
    pn = p.copy()
    for q in range(nit):
        pn = p.copy()
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy**2 +
                          (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx**2) /
                         (2 * (dx**2 + dy**2)) - dx**2 * dy**2 /
                         (2 * (dx**2 + dy**2)) * b[1:-1, 1:-1])
        p[:, -1] = p[:, -2]  # dp/dx = 0 at x = 2
        p[0, :] = p[1, :]  # dp/dy = 0 at y = 0
        p[:, 0] = p[:, 1]  # dp/dx = 0 at x = 0
        p[-1, :] = 0  # p = 0 at y = 2


def cavity_flow(nx, ny, nt, nit, u, v, dt, dx, dy, p, rho, nu):
    un = np.empty_like(u)
    vn = np.empty_like(v)
    b = np.zeros((ny, nx))
    for n in range(nt):
        un = u.copy()
        vn = v.copy()
        build_up_b(b, rho, dt, u, v, dx, dy)
        pressure_poisson(nit, p, dx, dy, b)
        u[1:-1, 1:-1] = (un[1:-1, 1:-1] - un[1:-1, 1:-1] * dt / dx *
                         (un[1:-1, 1:-1] - un[1:-1, 0:-2]) -
                         vn[1:-1, 1:-1] * dt / dy *
                         (un[1:-1, 1:-1] - un[0:-2, 1:-1]) - dt / (2 * rho * dx) *
                         (p[1:-1, 2:] - p[1:-1, 0:-2]) + nu *
                         (dt / dx**2 *
                          (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2]) +
                          dt / dy**2 *
                          (un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[0:-2, 1:-1])))
        v[1:-1, 1:-1] = (vn[1:-1, 1:-1] - un[1:-1, 1:-1] * dt / dx *
                         (vn[1:-1, 1:-1] - vn[1:-1, 0:-2]) -
                         vn[1:-1, 1:-1] * dt / dy *
                         (vn[1:-1, 1:-1] - vn[0:-2, 1:-1]) - dt / (2 * rho * dy) *
                         (p[2:, 1:-1] - p[0:-2, 1:-1]) + nu *
                         (dt / dx**2 *
                          (vn[1:-1, 2:] - 2 * vn[1:-1, 1:-1] + vn[1:-1, 0:-2]) +
                          dt / dy**2 *
                          (vn[2:, 1:-1] - 2 * vn[1:-1, 1:-1] + vn[0:-2, 1:-1])))
        u[0, :] = 0
        u[:, 0] = 0
        u[:, -1] = 0
        u[-1, :] = 1  # set velocity on cavity lid equal to 1
        v[0, :] = 0
        v[-1, :] = 0
        v[:, 0] = 0
        v[:, -1] = 0


# ---------------------------------------------------------------- micro statements

def stencil1d_loop(a, b, steps):
    for _ in range(steps):
        b[1:-1] = (a[:-2] + a[1:-1] + a[2:]) / 3
        a, b = b, a
    return a


def lu_diag_div(A):
    for i in range(A.shape[0]):
        for j in range(i):
            A[i, j] /= A[j, j]


def complex_line(n):
    i = _np.arange(n, dtype=_np.int64)
    re = ((i * 37) % 200) / 100 - 1.5
    im = ((i * 53) % 200) / 100 - 1.0
    z = _np.empty(n, dtype=_np.complex128)
    z.real, z.imag = re, im
    return np.asarray(z)


def rep(k, f):
    last = f()
    for _ in range(1, k):
        last = f()
    return last


# ---------------------------------------------------------------- the rows

def case(key, p, inner):
    """(init, kernel): init() builds fresh inputs (untimed), kernel(s) runs the program and
    returns its outputs."""
    k = inner
    v = lambda n: line(n, lambda i: ((i * 7 + 1) % 13) / 13)
    m = lambda r, c: grid(r, c, lambda i, j: frac(i, j, c))
    x = lambda n: line(n, lambda i: ((i * 7919) % 1000) / 1000)
    if key == "jacobi_2d":
        n = p[0]
        init = lambda: (grid(n, n, lambda i, j: (i * (j + 2) + 2) / n),
                        grid(n, n, lambda i, j: (i * (j + 3) + 3) / n))
        return init, lambda s: (jacobi_2d(p[1], *s), [s[0]])[1]
    if key == "heat_3d":
        n = p[0]

        def init():
            a = grid(n * n, n, lambda ij, kk: ((ij // n + ij % n + (n - kk)) * 10) / n).reshape(n, n, n)
            return a, a.copy()
        return init, lambda s: (heat_3d(p[1], *s), [s[0]])[1]
    if key == "fdtd_2d":
        nx, ny, tmax = p
        init = lambda: (grid(nx, ny, lambda i, j: (i * (j + 1)) / nx),
                        grid(nx, ny, lambda i, j: (i * (j + 2)) / ny),
                        grid(nx, ny, lambda i, j: (i * (j + 3)) / nx),
                        line(tmax, lambda t: t))
        return init, lambda s: (fdtd_2d(tmax, *s), list(s[:3]))[1]
    if key == "lu":
        return lambda: spd(p[0]), lambda a: (lu(a), [a])[1]
    if key == "cholesky":
        return lambda: spd(p[0]), lambda a: (cholesky(a), [a])[1]
    if key == "gramschmidt":
        mm, nn = p
        return (lambda: grid(mm, nn, lambda i, j: frac(i, j, mm) + (i == j) * 2),
                lambda a: list(gramschmidt(a)))
    if key == "covariance":
        mm, nn = p
        return (lambda: grid(nn, mm, lambda i, j: (i * j) / mm),
                lambda d: [covariance(mm, float(nn), d)])
    if key == "mlp":
        def init():
            inp = grid(p[0], p[1], lambda i, j: frac(i, j, p[1]))
            return (inp, *layer(p[1], p[2]), *layer(p[2], p[3]), *layer(p[3], p[4]))
        return init, lambda s: [mlp(*s)]
    if key == "softmax":
        return lambda: grid(p[0], p[1], lambda i, j: frac(i, j, p[1]) * 10.0), lambda x_: [softmax(x_)]
    if key == "gesummv":
        n = p[0]
        init = lambda: (grid(n, n, lambda i, j: frac(i, j, n)),
                        grid(n, n, lambda i, j: ((i * j + 2) % n) / n),
                        line(n, lambda i: (i % n) / n))
        return init, lambda s: [gesummv(1.5, 1.2, *s)]
    if key == "nbody":
        n, nt = p
        init = lambda: (grid(n, 1, lambda i, j: (20 * (1 + i % 3)) / n),
                        grid(n, 3, lambda i, kk: ((i * (2 * kk + 3) + kk) % 97) / 97),
                        grid(n, 3, lambda i, kk: ((i * (kk + 1) + 1) % 13) / 13 - 0.5))
        return init, lambda s: list(nbody(s[0], s[1], s[2], nt, 0.01, 1.0, 0.1))
    if key == "mandelbrot":
        return lambda: None, lambda s: list(mandelbrot(-2.25, 0.75, -1.25, 1.25, p[0], p[1], p[2], 2.0))
    if key == "azimint_hist":
        return lambda: azimint_init(p[0]), lambda s: [azimint_hist(s[0], s[1], p[1])]
    if key == "spmv_coo":
        return lambda: spmv_init(p[0], p[1]), lambda s: [spmv_coo(*s, p[0])]
    if key == "cavity_flow":
        n, nt, nit = p

        def run(s):
            u, v_, pp = s
            dx = 2 / (n - 1)
            dy = 2 / (n - 1)
            dt = .1 / ((n - 1) * (n - 1))
            cavity_flow(n, n, nt, nit, u, v_, dt, dx, dy, pp, 1.0, .1)
            return [u, v_, pp]
        return lambda: (np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n))), run
    # micro rows
    if key == "stencil1d_loop":
        return lambda: (x(p[0]), x(p[0])), lambda s: [stencil1d_loop(s[0], s[1], p[1])]
    if key == "vecdot_1000":
        return lambda: v(p[0]), lambda a: [rep(k, lambda: a @ a)]
    if key == "vecmat_600x500":
        return lambda: (v(p[0]), m(p[0], p[1])), lambda s: [rep(k, lambda: s[0] @ s[1])]
    if key == "matvec_500x600":
        return lambda: (m(p[0], p[1]), v(p[1])), lambda s: [rep(k, lambda: s[0] @ s[1])]
    if key == "ge_scalar":
        return lambda: x(p[0]), lambda a: [rep(k, lambda: a >= 0.5)]
    if key == "ge_0d":
        return lambda: (x(p[0]), np.asarray(0.5)), lambda s: [rep(k, lambda: s[0] >= s[1])]
    if key == "bmatmul_bcast":
        b, n = p
        return (lambda: (grid(b * b, n, lambda i, j: frac(i, j, n)).reshape(b, b, 1, n), m(n, n)),
                lambda s: [rep(k, lambda: s[0] @ s[1])])
    if key == "shifted_add_2d":
        return lambda: m(p[0], p[0]), lambda a: [rep(k, lambda: a[1:-1, 1:-1] + a[1:-1, :-2])]
    if key == "shifted_add_3d":
        n = p[0]
        return (lambda: grid(n * n, n, lambda i, j: frac(i, j, n)).reshape(n, n, n),
                lambda a: [rep(k, lambda: a[1:-1, 1:-1, 1:-1] + a[1:-1, 1:-1, :-2])])
    if key == "mask_select_c128":
        def init():
            z = complex_line(p[0])
            return z, abs(z) < 1.2
        return init, lambda s: [rep(k, lambda: s[0][s[1]])]
    if key in ("abs_c128_small", "abs_c128_1m"):
        return lambda: complex_line(p[0]), lambda z: [rep(k, lambda: abs(z))]
    if key in ("lu_diag_div", "lu_diag_div_owned"):
        return lambda: spd(p[0]), lambda a: (lu_diag_div(a), [a])[1]
    raise KeyError(f"unknown program {key}")


def close(got, ref, rtol, bad_frac):
    """None when every output is within the Rust side's rule (check_outputs in
    benches/src/programs/runner.rs), else what differs."""
    if len(got) != len(ref):
        return f"{len(got)} outputs, NumPy gave {len(ref)}"
    for k, (g, r) in enumerate(zip(got, ref)):
        g, r = as_f64(g), as_f64(r)
        if g.size != r.size:
            return f"output {k} has {g.size} elements, NumPy's {r.size}"
        fin = r[_np.isfinite(r)]
        scale = float(_np.abs(fin).max()) if fin.size else 0.0
        with _np.errstate(invalid="ignore"):
            ok = ((_np.isnan(g) & _np.isnan(r)) | (g == r)
                  | (_np.abs(g - r) <= rtol * _np.maximum(_np.abs(r), scale * 1e-3)))
        bad = int((~ok).sum())
        if bad > bad_frac * g.size:
            i = int(_np.argmin(ok))
            return f"output {k}: {bad} of {g.size} elements differ (first: [{i}] = {g[i]}, NumPy {r[i]})"
    return None


def jax_case(key, p, inner, rtol, bad_frac):
    """(init, kernel) of the jax.jit form, and the NumPy outputs for the check."""
    import jax
    import jax.numpy as jnp
    import programs_jax

    f = programs_jax.form(key, p, inner)
    init, kernel = case(key, p, inner)
    ref = kernel(init())

    def jinit():
        return jax.block_until_ready(jax.tree_util.tree_map(jnp.asarray, init()))

    def jkernel(s):
        return jax.block_until_ready(f(s))

    return jinit, jkernel, lambda out: close(out, ref, rtol, bad_frac)


def as_f64(a):
    """An output as a flat float64 NumPy array (complex interleaved, as z.view(float64))."""
    if hasattr(a, "get"):
        a = a.get()
    a = _np.ascontiguousarray(_np.asarray(a))
    if _np.iscomplexobj(a):
        return a.astype(_np.complex128).view(_np.float64).ravel()
    return a.astype(_np.float64).ravel()


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def time_row(row, runs, max_s, save, jax=False):
    key, size, p, inner = row["id"], row["size"], row["params"], row.get("inner", 1)
    check = None
    if jax:
        init, kernel, check = jax_case(key, p, inner, row.get("rtol", 1e-9),
                                       row.get("bad_frac", 0.0))
    else:
        init, kernel = case(key, p, inner)
    s = init()
    SYNC()
    t0 = time.perf_counter()
    out = kernel(s)
    SYNC()
    warm = time.perf_counter() - t0
    if check is not None:
        bad = check(out)
        if bad is not None:
            raise ValueError(f"WRONG RESULT: {bad}")
        # The warm-up compiled; time one more call for the run count.
        del out, s
        s = init()
        t0 = time.perf_counter()
        out = kernel(s)
        warm = time.perf_counter() - t0
    if save:
        for k, o in enumerate(out):
            _np.save(os.path.join(save, f"{key}__{size}__{k}.npy"), as_f64(o))
    del out, s
    n = max(1, min(runs, int(max_s / warm))) if warm > 0 else runs
    wall, cpu, flt = [], [], []
    for _ in range(n):
        s = init()
        SYNC()
        c0, f0 = usage()
        t0 = time.perf_counter()
        out = kernel(s)
        SYNC()
        t = time.perf_counter() - t0
        c1, f1 = usage()
        wall.append(t * 1e3 / inner)
        cpu.append((c1 - c0) * 1e3 / inner)
        flt.append((f1 - f0) / inner)
        del out, s
    return {"id": key, "size": size, "median_ms": statistics.median(wall), "min_ms": min(wall),
            "cpu_ms": statistics.median(cpu), "minflt": statistics.median(flt), "runs": n}


def about(cupy, jax=False):
    if jax:
        import jax as j
        return (f"JAX {j.__version__} (jax.jit, float64) on {j.devices()[0].device_kind}, "
                f"Python {platform.python_version()}")
    if cupy:
        name = np.cuda.runtime.getDeviceProperties(0)["name"]
        name = name.decode() if isinstance(name, bytes) else name
        return f"CuPy {np.__version__} on {name}, Python {platform.python_version()}"
    blas = "?"
    try:
        cfg = np.show_config(mode="dicts")
        b = cfg["Build Dependencies"]["blas"]
        blas = f"{b.get('name', '?')} {b.get('version', '')}".strip()
    except Exception:
        pass
    threads = os.environ.get("OPENBLAS_NUM_THREADS", str(os.cpu_count()))
    return f"NumPy {np.__version__} (BLAS: {blas}, {threads} threads), Python {platform.python_version()}"


def main():
    global np, SYNC
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--max-seconds", type=float, default=2.0)
    ap.add_argument("--save")
    ap.add_argument("--cupy", action="store_true")
    ap.add_argument("--jax", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.cupy:
        import cupy
        np = cupy
        SYNC = lambda: cupy.cuda.Device().synchronize()
    else:
        np = _np
    if args.jax:
        import jax
        jax.config.update("jax_enable_x64", True)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    side = "jax" if args.jax else "cupy" if args.cupy else "numpy"
    results = []
    for row in json.loads(args.spec):
        try:
            r = time_row(row, args.runs, args.max_seconds, args.save, args.jax)
            print(f"  {side} {row['id']} {row['size']}: "
                  f"{r['median_ms']:.4f} ms", file=sys.stderr)
        except Exception as e:  # reported per row, as the Rust side does
            msg = str(e) if str(e).startswith("WRONG RESULT") else f"{type(e).__name__}: {e}"
            r = {"id": row["id"], "size": row["size"], "error": msg}
            print(f"  {row['id']} {row['size']}: {r['error']}", file=sys.stderr)
        results.append(r)
    doc = {"about": about(args.cupy, args.jax), "results": results}
    if args.json:
        print(json.dumps(doc))
    else:
        for r in results:
            print(r)


if __name__ == "__main__":
    main()
