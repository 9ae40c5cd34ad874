//! The micro section: one short statement per known slow cause of the programs, repeated
//! `inner` times per timed run (the table gives the time per call): a 1-d stencil time loop
//! (allocation and page faults per step), vector-vector and vector-matrix products, a
//! comparison against a scalar and against a 0-d array, a batched matmul with a broadcast
//! right operand, shifted-view adds in 2-d and 3-d, complex masks and `abs`, and the LU
//! statement `A[i,j] /= A[j,j]` that writes `A` while a view of it is alive.

use super::{def, frac, grid, line, Out, Prog, Runnable};
use cuprite::ops::Div;
use cuprite::{c128, s, Array, ArrayBackend, Result};

/// `z[i] = complex(((i*37) % 200) / 100 - 1.5, ((i*53) % 200) / 100 - 1)`; the mask row
/// selects `|z| < 1.2`.
pub fn complex_line<B: ArrayBackend>(n: usize, dev: &B) -> Result<Array<c128, B>> {
    let v: Vec<c128> = (0..n)
        .map(|i| {
            c128::new(
                ((i * 37) % 200) as f64 / 100.0 - 1.5,
                ((i * 53) % 200) as f64 / 100.0 - 1.0,
            )
        })
        .collect();
    Array::from_vec(v, &[n], dev)
}

/// NumPy: `for _ in range(steps): b[1:-1] = (a[:-2] + a[1:-1] + a[2:]) / 3; a, b = b, a`.
pub fn stencil1d_loop<B: ArrayBackend>(
    a: &mut Array<f64, B>,
    b: &mut Array<f64, B>,
    steps: usize,
) -> Result<()> {
    for _ in 0..steps {
        b.slice_mut(&s![1..-1])?
            .assign(&((a.slice(&s![..-2])? + &a.slice(&s![1..-1])? + &a.slice(&s![2..])?) / 3.0))?;
        std::mem::swap(a, b);
    }
    Ok(())
}

/// NumPy: `for i in range(n): for j in range(i): A[i, j] /= A[j, j]`.
pub fn lu_diag_div<B: ArrayBackend>(a: &mut Array<f64, B>) -> Result<()> {
    let n = a.shape()[0];
    for i in 0..n {
        for j in 0..i {
            let d = a.slice(&s![j, j])?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Div, &d)?;
        }
    }
    Ok(())
}

/// The same loop with the diagonal view handed over by value (`zip_op_inplace(Div, d)`):
/// the view is copied alone and `A` is written in place.
pub fn lu_diag_div_owned<B: ArrayBackend>(a: &mut Array<f64, B>) -> Result<()> {
    let n = a.shape()[0];
    for i in 0..n {
        for j in 0..i {
            let d = a.slice(&s![j, j])?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Div, d)?;
        }
    }
    Ok(())
}

/// Repeats `f` `k` times and keeps the last result.
fn rep<B: ArrayBackend, T>(k: usize, mut f: impl FnMut() -> Result<T>) -> Result<T>
where
    T: Into<Out<B>>,
{
    let mut last = f()?;
    for _ in 1..k {
        last = f()?;
    }
    Ok(last)
}

/// The micro row `key` with parameters `p`, or `None` for an unknown key.
pub fn case<'d, B: ArrayBackend>(
    key: &str,
    p: Vec<usize>,
    dev: &'d B,
) -> Option<Box<dyn Runnable + 'd>> {
    let k = def(key)?.inner;
    let v = |n: usize, d: &B| line(n, |i| ((i * 7 + 1) % 13) as f64 / 13.0, d);
    let m = |r: usize, c: usize, d: &B| grid(r, c, |i, j| frac(i, j, c), d);
    let x = |n: usize, d: &B| line(n, |i| ((i * 7919) % 1000) as f64 / 1000.0, d);
    Some(match key {
        "stencil1d_loop" => Prog::boxed(
            dev,
            move |d| Ok((x(p[0], d)?, x(p[0], d)?, p[1])),
            |(a, b, steps), _| {
                stencil1d_loop(a, b, *steps)?;
                Ok(vec![a.clone().into()])
            },
        ),
        "vecdot_1000" => Prog::boxed(
            dev,
            move |d| Ok((v(p[0], d)?, k)),
            |(a, k), _| Ok(vec![rep(*k, || a.matmul(a))?.into()]),
        ),
        "vecmat_600x500" => Prog::boxed(
            dev,
            move |d| Ok((v(p[0], d)?, m(p[0], p[1], d)?, k)),
            |(a, mm, k), _| Ok(vec![rep(*k, || a.matmul(mm))?.into()]),
        ),
        "matvec_500x600" => Prog::boxed(
            dev,
            move |d| Ok((m(p[0], p[1], d)?, v(p[1], d)?, k)),
            |(mm, a, k), _| Ok(vec![rep(*k, || mm.matmul(a))?.into()]),
        ),
        "ge_scalar" => Prog::boxed(
            dev,
            move |d| Ok((x(p[0], d)?, k)),
            |(a, k), _| Ok(vec![rep(*k, || a.ge_scalar(0.5))?.into()]),
        ),
        "ge_0d" => Prog::boxed(
            dev,
            move |d| Ok((x(p[0], d)?, Array::scalar(0.5, d)?, k)),
            |(a, h, k), _| Ok(vec![rep(*k, || a.ge(h))?.into()]),
        ),
        "bmatmul_bcast" => Prog::boxed(
            dev,
            move |d| {
                let (b, n) = (p[0], p[1]);
                let a = grid(b * b, n, |i, j| frac(i, j, n), d)?;
                let a = a.reshape(&[b as isize, b as isize, 1, n as isize])?;
                Ok((a, m(n, n, d)?, k))
            },
            |(a, w, k), _| Ok(vec![rep(*k, || a.matmul(w))?.into()]),
        ),
        "shifted_add_2d" => Prog::boxed(
            dev,
            move |d| Ok((m(p[0], p[0], d)?, k)),
            |(a, k), _| {
                let r = rep(*k, || {
                    Ok(a.slice(&s![1..-1, 1..-1])? + &a.slice(&s![1..-1, ..-2])?)
                })?;
                Ok(vec![r.into()])
            },
        ),
        "shifted_add_3d" => Prog::boxed(
            dev,
            move |d| {
                let n = p[0];
                let a = grid(n * n, n, |i, j| frac(i, j, n), d)?;
                Ok((a.reshape(&[n as isize, n as isize, n as isize])?, k))
            },
            |(a, k), _| {
                let r = rep(*k, || {
                    Ok(a.slice(&s![1..-1, 1..-1, 1..-1])? + &a.slice(&s![1..-1, 1..-1, ..-2])?)
                })?;
                Ok(vec![r.into()])
            },
        ),
        "mask_select_c128" => Prog::boxed(
            dev,
            move |d| {
                let z = complex_line(p[0], d)?;
                let mask = z.abs()?.lt_scalar(1.2)?;
                Ok((z, mask, k))
            },
            |(z, mask, k), _| Ok(vec![rep(*k, || z.select(mask))?.into()]),
        ),
        "abs_c128_small" | "abs_c128_1m" => Prog::boxed(
            dev,
            move |d| Ok((complex_line(p[0], d)?, k)),
            |(z, k), _| Ok(vec![rep(*k, || z.abs())?.into()]),
        ),
        "lu_diag_div" => Prog::boxed(
            dev,
            move |d| super::factor::spd_init(p[0], d),
            |a, _| {
                lu_diag_div(a)?;
                Ok(vec![a.clone().into()])
            },
        ),
        "lu_diag_div_owned" => Prog::boxed(
            dev,
            move |d| super::factor::spd_init(p[0], d),
            |a, _| {
                lu_diag_div_owned(a)?;
                Ok(vec![a.clone().into()])
            },
        ),
        _ => return None,
    })
}
