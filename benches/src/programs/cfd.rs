//! NPBench cavity flow (the lid-driven cavity of "12 steps to Navier-Stokes"): per time step
//! the source term `b`, `nit` Jacobi sweeps of the pressure Poisson equation with its
//! boundary rows and columns, and the velocity updates, every one an assignment to an
//! interior view. A boundary copy `p[:, -1] = p[:, -2]` reads a view of `p` while writing
//! `p`, as NumPy does. Scalar factors (`dt / dx**2`) are Python floats in the original,
//! computed once as `f64` here in the same order.

use super::{Prog, Runnable};
use cuprite::{s, Array, ArrayBackend, Result};

/// `a[sl]` for the five shifted interiors of a 2-d array: centre `[1:-1, 1:-1]`, right
/// `[1:-1, 2:]`, left `[1:-1, 0:-2]`, up `[2:, 1:-1]`, down `[0:-2, 1:-1]`.
fn v<B: ArrayBackend>(a: &Array<f64, B>, di: i32, dj: i32) -> Result<Array<f64, B>> {
    let r = |d: i32| match d {
        -1 => cuprite::SliceArg::from(0..-2),
        0 => cuprite::SliceArg::from(1..-1),
        _ => cuprite::SliceArg::from(2..),
    };
    a.slice(&[r(di), r(dj)])
}

/// NPBench build_up_b:
/// ```python
/// b[1:-1, 1:-1] = (rho * (1 / dt * ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx) +
///                                   (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)) -
///                         ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx))**2 - 2 *
///                         ((u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy) *
///                          (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx)) -
///                         ((v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy))**2))
/// ```
#[allow(clippy::too_many_arguments)]
pub fn build_up_b<B: ArrayBackend>(
    b: &mut Array<f64, B>,
    rho: f64,
    dt: f64,
    u: &Array<f64, B>,
    vv: &Array<f64, B>,
    dx: f64,
    dy: f64,
) -> Result<()> {
    let rhs = rho
        * ((1.0 / dt
            * ((v(u, 0, 1)? - &v(u, 0, -1)?) / (2.0 * dx)
                + &((v(vv, 1, 0)? - &v(vv, -1, 0)?) / (2.0 * dy))))
            - &((v(u, 0, 1)? - &v(u, 0, -1)?) / (2.0 * dx)).square()?
            - &(2.0
                * ((v(u, 1, 0)? - &v(u, -1, 0)?) / (2.0 * dy) * &(v(vv, 0, 1)? - &v(vv, 0, -1)?)
                    / (2.0 * dx)))
            - &((v(vv, 1, 0)? - &v(vv, -1, 0)?) / (2.0 * dy)).square()?);
    b.slice_mut(&s![1..-1, 1..-1])?.assign(&rhs)
}

/// NPBench pressure_poisson:
/// ```python
/// pn = np.empty_like(p)
/// pn = p.copy()
/// for q in range(nit):
///     pn = p.copy()
///     p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy**2 +
///                       (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx**2) /
///                      (2 * (dx**2 + dy**2)) - dx**2 * dy**2 /
///                      (2 * (dx**2 + dy**2)) * b[1:-1, 1:-1])
///     p[:, -1] = p[:, -2]  # dp/dx = 0 at x = 2
///     p[0, :] = p[1, :]  # dp/dy = 0 at y = 0
///     p[:, 0] = p[:, 1]  # dp/dx = 0 at x = 0
///     p[-1, :] = 0  # p = 0 at y = 2
/// ```
pub fn pressure_poisson<B: ArrayBackend>(
    nit: usize,
    p: &mut Array<f64, B>,
    dx: f64,
    dy: f64,
    b: &Array<f64, B>,
) -> Result<()> {
    let mut _pn = p.empty_like()?;
    _pn = p.copy()?;
    for _q in 0..nit {
        let pn = p.copy()?;
        let rhs = ((v(&pn, 0, 1)? + &v(&pn, 0, -1)?) * (dy * dy)
            + &((v(&pn, 1, 0)? + &v(&pn, -1, 0)?) * (dx * dx)))
            / (2.0 * (dx * dx + dy * dy))
            - &(dx * dx * (dy * dy) / (2.0 * (dx * dx + dy * dy)) * &v(b, 0, 0)?);
        p.slice_mut(&s![1..-1, 1..-1])?.assign(&rhs)?;
        let col = p.slice(&s![.., -2])?;
        p.slice_mut(&s![.., -1])?.assign(&col)?;
        let row = p.slice(&s![1, ..])?;
        p.slice_mut(&s![0, ..])?.assign(&row)?;
        let col = p.slice(&s![.., 1])?;
        p.slice_mut(&s![.., 0])?.assign(&col)?;
        p.slice_mut(&s![-1, ..])?.fill(0.0)?;
    }
    Ok(())
}

/// One velocity update of cavity_flow (`u` or `v`, `w` is the field updated, `pd` the
/// pressure difference and `h` its spacing):
/// ```python
/// u[1:-1, 1:-1] = (un[1:-1, 1:-1] - un[1:-1, 1:-1] * dt / dx *
///                  (un[1:-1, 1:-1] - un[1:-1, 0:-2]) -
///                  vn[1:-1, 1:-1] * dt / dy *
///                  (un[1:-1, 1:-1] - un[0:-2, 1:-1]) - dt / (2 * rho * dx) *
///                  (p[1:-1, 2:] - p[1:-1, 0:-2]) + nu *
///                  (dt / dx**2 *
///                   (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2]) +
///                   dt / dy**2 *
///                   (un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[0:-2, 1:-1])))
/// ```
/// and the same for `v` with `vn` in place of the first `un`s and `p[2:] - p[0:-2]`.
#[allow(clippy::too_many_arguments)]
fn velocity<B: ArrayBackend>(
    wn: &Array<f64, B>,
    un: &Array<f64, B>,
    vn: &Array<f64, B>,
    pd: Array<f64, B>,
    h: f64,
    dt: f64,
    dx: f64,
    dy: f64,
    rho: f64,
    nu: f64,
) -> Result<Array<f64, B>> {
    Ok(v(wn, 0, 0)?
        - &(v(un, 0, 0)? * dt / dx * &(v(wn, 0, 0)? - &v(wn, 0, -1)?))
        - &(v(vn, 0, 0)? * dt / dy * &(v(wn, 0, 0)? - &v(wn, -1, 0)?))
        - &(dt / (2.0 * rho * h) * &pd)
        + &(nu
            * (dt / (dx * dx) * (v(wn, 0, 1)? - &(2.0 * &v(wn, 0, 0)?) + &v(wn, 0, -1)?)
                + &(dt / (dy * dy) * (v(wn, 1, 0)? - &(2.0 * &v(wn, 0, 0)?) + &v(wn, -1, 0)?)))))
}

/// NPBench cavity_flow (see [`velocity`] for the two long assignments):
/// ```python
/// un = np.empty_like(u); vn = np.empty_like(v)
/// b = np.zeros((ny, nx))
/// for n in range(nt):
///     un = u.copy(); vn = v.copy()
///     build_up_b(b, rho, dt, u, v, dx, dy)
///     pressure_poisson(nit, p, dx, dy, b)
///     u[1:-1, 1:-1] = ...; v[1:-1, 1:-1] = ...
///     u[0, :] = 0; u[:, 0] = 0; u[:, -1] = 0; u[-1, :] = 1
///     v[0, :] = 0; v[-1, :] = 0; v[:, 0] = 0; v[:, -1] = 0
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cavity_flow<B: ArrayBackend>(
    nx: usize,
    ny: usize,
    nt: usize,
    nit: usize,
    u: &mut Array<f64, B>,
    vv: &mut Array<f64, B>,
    dt: f64,
    dx: f64,
    dy: f64,
    p: &mut Array<f64, B>,
    rho: f64,
    nu: f64,
    dev: &B,
) -> Result<()> {
    let mut b = Array::<f64, B>::zeros(&[ny, nx], dev)?;
    for _n in 0..nt {
        let un = u.copy()?;
        let vn = vv.copy()?;
        build_up_b(&mut b, rho, dt, u, vv, dx, dy)?;
        pressure_poisson(nit, p, dx, dy, &b)?;
        let pdx = v(p, 0, 1)? - &v(p, 0, -1)?;
        let nu_ = velocity(&un, &un, &vn, pdx, dx, dt, dx, dy, rho, nu)?;
        u.slice_mut(&s![1..-1, 1..-1])?.assign(&nu_)?;
        let pdy = v(p, 1, 0)? - &v(p, -1, 0)?;
        let nv = velocity(&vn, &un, &vn, pdy, dy, dt, dx, dy, rho, nu)?;
        vv.slice_mut(&s![1..-1, 1..-1])?.assign(&nv)?;
        u.slice_mut(&s![0, ..])?.fill(0.0)?;
        u.slice_mut(&s![.., 0])?.fill(0.0)?;
        u.slice_mut(&s![.., -1])?.fill(0.0)?;
        u.slice_mut(&s![-1, ..])?.fill(1.0)?;
        vv.slice_mut(&s![0, ..])?.fill(0.0)?;
        vv.slice_mut(&s![-1, ..])?.fill(0.0)?;
        vv.slice_mut(&s![.., 0])?.fill(0.0)?;
        vv.slice_mut(&s![.., -1])?.fill(0.0)?;
    }
    Ok(())
}

/// cavity_flow ready to time: `[NX = NY, NT, NIT]`, zero fields, `dx = dy = 2 / (nx - 1)`,
/// `dt = 0.1 / ((nx - 1) * (ny - 1))`, rho 1, nu 0.1; outputs `u`, `v`, `p`.
pub fn cavity_flow_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| {
            let n = p[0];
            let z = || Array::<f64, B>::zeros(&[n, n], d);
            Ok((p.clone(), z()?, z()?, z()?))
        },
        |(prm, u, vv, p), dev| {
            let (nx, ny) = (prm[0], prm[0]);
            let dx = 2.0 / (nx - 1) as f64;
            let dy = 2.0 / (ny - 1) as f64;
            let dt = 0.1 / ((nx - 1) * (ny - 1)) as f64;
            cavity_flow(nx, ny, prm[1], prm[2], u, vv, dt, dx, dy, p, 1.0, 0.1, dev)?;
            Ok(vec![u.clone().into(), vv.clone().into(), p.clone().into()])
        },
    )
}
