//! Stencil programs on views, written as NPBench's NumPy versions: jacobi-2d, heat-3d and
//! fdtd-2d (PolyBench). Each in-place NumPy assignment `B[1:-1, 1:-1] = expr` is
//! `b.slice_mut(&s![1..-1, 1..-1])?.assign(&expr)?`, each `X[...] -= expr` is
//! `x.slice_mut(..)?.zip_op_inplace(Sub, &expr)?`; the right-hand sides are the same
//! temporaries NumPy makes.

use super::{grid, line, Prog, Runnable};
use cuprite::ops::Sub;
use cuprite::{s, Array, ArrayBackend, Result};

/// NPBench jacobi_2d:
/// ```python
/// for t in range(1, TSTEPS):
///     B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
///     A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])
/// ```
pub fn jacobi_2d<B: ArrayBackend>(
    tsteps: usize,
    a: &mut Array<f64, B>,
    b: &mut Array<f64, B>,
) -> Result<()> {
    for _t in 1..tsteps {
        b.slice_mut(&s![1..-1, 1..-1])?.assign(
            &(0.2
                * (a.slice(&s![1..-1, 1..-1])?
                    + &a.slice(&s![1..-1, ..-2])?
                    + &a.slice(&s![1..-1, 2..])?
                    + &a.slice(&s![2.., 1..-1])?
                    + &a.slice(&s![..-2, 1..-1])?)),
        )?;
        a.slice_mut(&s![1..-1, 1..-1])?.assign(
            &(0.2
                * (b.slice(&s![1..-1, 1..-1])?
                    + &b.slice(&s![1..-1, ..-2])?
                    + &b.slice(&s![1..-1, 2..])?
                    + &b.slice(&s![2.., 1..-1])?
                    + &b.slice(&s![..-2, 1..-1])?)),
        )?;
    }
    Ok(())
}

/// PolyBench's init of jacobi-2d: `A[i,j] = (i*(j+2)+2)/n`, `B[i,j] = (i*(j+3)+3)/n`.
pub fn jacobi_2d_init<B: ArrayBackend>(n: usize, dev: &B) -> Result<[Array<f64, B>; 2]> {
    let nf = n as f64;
    Ok([
        grid(n, n, |i, j| (i * (j + 2) + 2) as f64 / nf, dev)?,
        grid(n, n, |i, j| (i * (j + 3) + 3) as f64 / nf, dev)?,
    ])
}

/// jacobi-2d ready to time: `[N, TSTEPS]`; the output is `A`.
pub fn jacobi_2d_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| Ok((p[1], jacobi_2d_init(p[0], d)?)),
        |(t, [a, b]), _| {
            jacobi_2d(*t, a, b)?;
            Ok(vec![a.clone().into()])
        },
    )
}

/// `A[1:-1, 1:-1, 1:-1]`-style interior slice of a 3-d array with offsets (-1, 0, 1) per axis.
fn h3<B: ArrayBackend>(a: &Array<f64, B>, di: i32, dj: i32, dk: i32) -> Result<Array<f64, B>> {
    let r = |d: i32| match d {
        -1 => cuprite::SliceArg::from(..-2),
        0 => cuprite::SliceArg::from(1..-1),
        _ => cuprite::SliceArg::from(2..),
    };
    a.slice(&[r(di), r(dj), r(dk)])
}

/// NPBench heat_3d:
/// ```python
/// for t in range(1, TSTEPS):
///     B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1]) +
///                            0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1]) +
///                            0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, 0:-2]) +
///                            A[1:-1, 1:-1, 1:-1])
///     A[1:-1, 1:-1, 1:-1] = (the same with A and B swapped)
/// ```
/// (`h3(A, 1, 0, 0)` is `A[2:, 1:-1, 1:-1]`, `h3(A, -1, 0, 0)` is `A[:-2, 1:-1, 1:-1]`.)
pub fn heat_3d<B: ArrayBackend>(
    tsteps: usize,
    a: &mut Array<f64, B>,
    b: &mut Array<f64, B>,
) -> Result<()> {
    fn step<B: ArrayBackend>(a: &Array<f64, B>) -> Result<Array<f64, B>> {
        Ok(
            0.125 * (h3(a, 1, 0, 0)? - &(2.0 * &h3(a, 0, 0, 0)?) + &h3(a, -1, 0, 0)?)
                + &(0.125 * (h3(a, 0, 1, 0)? - &(2.0 * &h3(a, 0, 0, 0)?) + &h3(a, 0, -1, 0)?))
                + &(0.125 * (h3(a, 0, 0, 1)? - &(2.0 * &h3(a, 0, 0, 0)?) + &h3(a, 0, 0, -1)?))
                + &h3(a, 0, 0, 0)?,
        )
    }
    for _t in 1..tsteps {
        b.slice_mut(&s![1..-1, 1..-1, 1..-1])?.assign(&step(a)?)?;
        a.slice_mut(&s![1..-1, 1..-1, 1..-1])?.assign(&step(b)?)?;
    }
    Ok(())
}

/// PolyBench's init of heat-3d: `A[i,j,k] = B[i,j,k] = (i + j + (n-k)) * 10 / n`.
pub fn heat_3d_init<B: ArrayBackend>(n: usize, dev: &B) -> Result<Array<f64, B>> {
    let g = grid(
        n * n,
        n,
        |ij, k| ((ij / n + ij % n + (n - k)) * 10) as f64 / n as f64,
        dev,
    )?;
    g.reshape(&[n as isize, n as isize, n as isize])
}

/// heat-3d ready to time: `[N, TSTEPS]`; the output is `A`.
pub fn heat_3d_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| {
            let a = heat_3d_init(p[0], d)?;
            let b = a.copy()?;
            Ok((p[1], a, b))
        },
        |(t, a, b), _| {
            heat_3d(*t, a, b)?;
            Ok(vec![a.clone().into()])
        },
    )
}

/// NPBench fdtd_2d:
/// ```python
/// for t in range(TMAX):
///     ey[0, :] = _fict_[t]
///     ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
///     ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
///     hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
/// ```
pub fn fdtd_2d<B: ArrayBackend>(
    tmax: usize,
    ex: &mut Array<f64, B>,
    ey: &mut Array<f64, B>,
    hz: &mut Array<f64, B>,
    fict: &Array<f64, B>,
) -> Result<()> {
    for t in 0..tmax {
        ey.slice_mut(&s![0, ..])?.assign(&fict.slice(&s![t])?)?;
        ey.slice_mut(&s![1.., ..])?.zip_op_inplace(
            Sub,
            &(0.5 * (hz.slice(&s![1.., ..])? - &hz.slice(&s![..-1, ..])?)),
        )?;
        ex.slice_mut(&s![.., 1..])?.zip_op_inplace(
            Sub,
            &(0.5 * (hz.slice(&s![.., 1..])? - &hz.slice(&s![.., ..-1])?)),
        )?;
        hz.slice_mut(&s![..-1, ..-1])?.zip_op_inplace(
            Sub,
            &(0.7
                * (ex.slice(&s![..-1, 1..])? - &ex.slice(&s![..-1, ..-1])?
                    + &ey.slice(&s![1.., ..-1])?
                    - &ey.slice(&s![..-1, ..-1])?)),
        )?;
    }
    Ok(())
}

/// PolyBench's init of fdtd-2d: `ex = i*(j+1)/nx`, `ey = i*(j+2)/ny`, `hz = i*(j+3)/nx`,
/// `_fict_[t] = t`.
#[allow(clippy::type_complexity)]
pub fn fdtd_2d_init<B: ArrayBackend>(
    nx: usize,
    ny: usize,
    tmax: usize,
    dev: &B,
) -> Result<[Array<f64, B>; 4]> {
    Ok([
        grid(nx, ny, |i, j| (i * (j + 1)) as f64 / nx as f64, dev)?,
        grid(nx, ny, |i, j| (i * (j + 2)) as f64 / ny as f64, dev)?,
        grid(nx, ny, |i, j| (i * (j + 3)) as f64 / nx as f64, dev)?,
        line(tmax, |t| t as f64, dev)?,
    ])
}

/// fdtd-2d ready to time: `[NX, NY, TMAX]`; the outputs are `ex`, `ey`, `hz`.
pub fn fdtd_2d_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| Ok((p[2], fdtd_2d_init(p[0], p[1], p[2], d)?)),
        |(t, [ex, ey, hz, fict]), _| {
            fdtd_2d(*t, ex, ey, hz, fict)?;
            Ok(vec![
                ex.clone().into(),
                ey.clone().into(),
                hz.clone().into(),
            ])
        },
    )
}
