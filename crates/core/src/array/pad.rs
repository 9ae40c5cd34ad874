//! NumPy's `np.pad` with its modes: [`Array::pad`] taking a [`PadMode`] (constant, edge,
//! reflect and symmetric with their [`ReflectType`], wrap, linear_ramp, maximum, mean,
//! median, minimum), and [`PadElement`], the per-type arithmetic of the modes that compute
//! values (the odd reflections, the ramps and the statistics).
//!
//! Axes are padded one after the other, each seeing the pads already added to the axes
//! before it, as NumPy does; every step is composed from views (negative steps for the
//! reflections), broadcasts, concatenation, element-wise ops and reductions, so it runs on
//! every backend with their kernels.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Inexact, Numeric, bf16, c64, c128, f16};
use crate::error::{Error, Result};
use crate::layout::check_wide_shape;
use crate::ops::{Div, Mul, Sub};

/// How `reflect` and `symmetric` pads mirror the values (NumPy's `reflect_type`): `Even`
/// mirrors them; `Odd` mirrors them about the edge value (`2 * edge - x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReflectType {
    /// The mirrored values (the default).
    Even,
    /// `2 * edge - mirrored`.
    Odd,
}

/// NumPy's pad modes. Per-axis parameters are `(before, after)` pairs, one for every axis
/// or a single one for all; a `stat_length` of `None` takes the whole axis.
#[derive(Clone, Debug, PartialEq)]
pub enum PadMode<T> {
    /// The value on every pad (`mode="constant", constant_values=v`).
    Constant(T),
    /// The edge values repeated.
    Edge,
    /// The values mirrored about the edge, the edge itself not repeated.
    Reflect(ReflectType),
    /// The values mirrored about the edge, the edge repeated.
    Symmetric(ReflectType),
    /// The values of the other end, as if the axis were periodic.
    Wrap,
    /// A linear ramp from each `end_values` pair's value to the edge (the edge excluded).
    LinearRamp(Vec<(T, T)>),
    /// The largest of the `stat_length` values nearest each edge.
    Maximum(Option<Vec<(usize, usize)>>),
    /// The mean of the `stat_length` values nearest each edge (integers rounded half to
    /// even).
    Mean(Option<Vec<(usize, usize)>>),
    /// The median of the `stat_length` values nearest each edge (integers rounded half to
    /// even).
    Median(Option<Vec<(usize, usize)>>),
    /// The smallest of the `stat_length` values nearest each edge.
    Minimum(Option<Vec<(usize, usize)>>),
}

/// A statistic of the stat modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadStat {
    /// `np.amax`.
    Maximum,
    /// `np.mean`.
    Mean,
    /// `np.median`.
    Median,
    /// `np.amin`.
    Minimum,
}

impl PadStat {
    fn name(self) -> &'static str {
        match self {
            PadStat::Maximum => "maximum",
            PadStat::Mean => "mean",
            PadStat::Median => "median",
            PadStat::Minimum => "minimum",
        }
    }
}

/// The arithmetic [`Array::pad`] needs for each element type, following NumPy's dtype
/// rules: integers take their statistics in `f64` and round them half to even, and their
/// ramps in `f64` rounded down; floats and complex numbers compute in their own type; bool
/// computes in `f64` and converts back (nonzero is true).
pub trait PadElement: Element {
    /// `2 * edge - x`, `edge` broadcast against `x` (bool: `edge | x`, as NumPy's casts).
    fn pad_odd<B: ArrayBackend>(
        edge: &Array<Self, B>,
        x: &Array<Self, B>,
    ) -> Result<Array<Self, B>>;
    /// The statistic along `axis` with the axis kept (length 1).
    fn pad_stat<B: ArrayBackend>(
        x: &Array<Self, B>,
        stat: PadStat,
        axis: usize,
    ) -> Result<Array<Self, B>>;
    /// `width` values from `end` towards `edge` (length 1 along `axis`), the edge
    /// excluded: NumPy's `linspace(end, edge, width, endpoint=False, axis=axis)`.
    fn pad_ramp<B: ArrayBackend>(
        end: Self,
        edge: &Array<Self, B>,
        width: usize,
        axis: usize,
    ) -> Result<Array<Self, B>>;
}

/// NumPy's `linspace(end, edge, width, endpoint=False, axis)` in the inexact type `U`:
/// `i * step + end` with `step = (edge - end) / width`, or `i / width * delta + end` when
/// any step is zero (NumPy's switch for denormal steps, taken for the whole array).
fn ramp_in<U: Inexact, B: ArrayBackend>(
    end: U,
    edge: &Array<U, B>,
    width: usize,
    axis: usize,
) -> Result<Array<U, B>> {
    let mut shape = edge.shape().to_vec();
    shape[axis] = width;
    if width == 0 || edge.size() == 0 {
        return Array::zeros(&shape, edge.device());
    }
    let mut ishape = vec![1isize; edge.ndim()];
    ishape[axis] = width as isize;
    let i = Array::<U, B>::ramp(width, U::from_usize(0), U::from_usize(1), edge.device())?
        .reshape(&ishape)?;
    let w = U::from_usize(width);
    let delta = edge.scalar_op(Sub, end)?;
    let step = delta.scalar_op(Div, w)?;
    let main = i.try_mul(&step)?;
    let alt = i.scalar_op(Div, w)?.try_mul(&delta)?;
    let any_zero = step.eq_scalar(U::from_usize(0))?.any()?;
    let chosen = Array::where_(&any_zero, &alt, &main)?;
    chosen
        .scalar_op(crate::ops::Add, end)?
        .broadcast_to(&shape)?
        .copy()
}

macro_rules! pad_int {
    ($($t:ty),*) => {$(
        impl PadElement for $t {
            fn pad_odd<B: ArrayBackend>(edge: &Array<Self, B>, x: &Array<Self, B>)
                -> Result<Array<Self, B>> {
                edge.scalar_op(Mul, 2 as $t)?.try_sub(x)
            }
            fn pad_stat<B: ArrayBackend>(x: &Array<Self, B>, stat: PadStat, axis: usize)
                -> Result<Array<Self, B>> {
                let ax = axis as isize;
                match stat {
                    PadStat::Maximum => x.max_axes(ax, true),
                    PadStat::Minimum => x.min_axes(ax, true),
                    PadStat::Mean => x.mean_axes(ax, true)?.rint()?.astype(),
                    PadStat::Median => x.median_axes(ax, true)?.rint()?.astype(),
                }
            }
            fn pad_ramp<B: ArrayBackend>(end: Self, edge: &Array<Self, B>, width: usize, axis: usize)
                -> Result<Array<Self, B>> {
                ramp_in(end as f64, &edge.astype::<f64>()?, width, axis)?.floor()?.astype()
            }
        }
    )*};
}
pad_int!(i8, u8, i16, u16, i32, u32, i64, u64);

macro_rules! pad_float {
    ($($t:ty),*) => {$(
        impl PadElement for $t {
            fn pad_odd<B: ArrayBackend>(edge: &Array<Self, B>, x: &Array<Self, B>)
                -> Result<Array<Self, B>> {
                edge.scalar_op(Mul, <$t as Numeric>::from_usize(2))?.try_sub(x)
            }
            fn pad_stat<B: ArrayBackend>(x: &Array<Self, B>, stat: PadStat, axis: usize)
                -> Result<Array<Self, B>> {
                let ax = axis as isize;
                match stat {
                    PadStat::Maximum => x.max_axes(ax, true),
                    PadStat::Minimum => x.min_axes(ax, true),
                    PadStat::Mean => x.mean_axes(ax, true),
                    PadStat::Median => x.median_axes(ax, true),
                }
            }
            fn pad_ramp<B: ArrayBackend>(end: Self, edge: &Array<Self, B>, width: usize, axis: usize)
                -> Result<Array<Self, B>> {
                ramp_in(end, edge, width, axis)
            }
        }
    )*};
}
pad_float!(f16, bf16, f32, f64);

/// Complex maximum, minimum and median along `axis` in NumPy's lexicographic order, from
/// one sort of the lanes (NaN sorted last; a lane holding a NaN gives that NaN).
fn complex_order_stat<T: Inexact, B: ArrayBackend>(
    x: &Array<T, B>,
    stat: PadStat,
    axis: usize,
) -> Result<Array<T, B>> {
    let n = x.shape()[axis];
    if n == 0 {
        // NumPy's median of nothing (a stat_length of 0) is NaN.
        let mut shape = x.shape().to_vec();
        shape[axis] = 1;
        return Array::full(&shape, T::from_f64(f64::NAN), x.device());
    }
    let s = x.sort(axis as isize)?;
    let at = |i: usize| s.with_layout(s.layout().slice_axis(axis, i, 1, 1));
    let last = at(n - 1);
    let nan = x.isnan()?.any_axes(axis as isize, true)?;
    let v = match stat {
        PadStat::Maximum => return Ok(last),
        PadStat::Minimum => at(0),
        _ if n % 2 == 1 => at(n / 2),
        _ => at(n / 2 - 1)
            .try_add(&at(n / 2))?
            .scalar_op(Mul, T::from_f64(0.5))?,
    };
    Array::where_(&nan, &last, &v)
}

macro_rules! pad_complex {
    ($($t:ty),*) => {$(
        impl PadElement for $t {
            fn pad_odd<B: ArrayBackend>(edge: &Array<Self, B>, x: &Array<Self, B>)
                -> Result<Array<Self, B>> {
                edge.scalar_op(Mul, <$t as Numeric>::from_usize(2))?.try_sub(x)
            }
            fn pad_stat<B: ArrayBackend>(x: &Array<Self, B>, stat: PadStat, axis: usize)
                -> Result<Array<Self, B>> {
                match stat {
                    PadStat::Mean => x.mean_axes(axis as isize, true),
                    _ => complex_order_stat(x, stat, axis),
                }
            }
            fn pad_ramp<B: ArrayBackend>(end: Self, edge: &Array<Self, B>, width: usize, axis: usize)
                -> Result<Array<Self, B>> {
                ramp_in(end, edge, width, axis)
            }
        }
    )*};
}
pad_complex!(c64, c128);

impl PadElement for bool {
    fn pad_odd<B: ArrayBackend>(
        edge: &Array<Self, B>,
        x: &Array<Self, B>,
    ) -> Result<Array<Self, B>> {
        edge.logical_or(x)
    }
    fn pad_stat<B: ArrayBackend>(
        x: &Array<Self, B>,
        stat: PadStat,
        axis: usize,
    ) -> Result<Array<Self, B>> {
        f64::pad_stat(&x.astype::<f64>()?, stat, axis)?.astype()
    }
    fn pad_ramp<B: ArrayBackend>(
        end: Self,
        edge: &Array<Self, B>,
        width: usize,
        axis: usize,
    ) -> Result<Array<Self, B>> {
        let e = if end { 1.0 } else { 0.0 };
        ramp_in(e, &edge.astype::<f64>()?, width, axis)?.astype()
    }
}

/// `pairs` broadcast to one `(before, after)` pair per axis (NumPy's `_as_pairs`): one
/// pair applies to every axis.
fn as_pairs<V: Clone>(
    op: &'static str,
    what: &str,
    pairs: &[V],
    shape: &[usize],
) -> Result<Vec<V>> {
    let n = shape.len();
    match pairs.len() {
        1 => Ok(vec![pairs[0].clone(); n]),
        k if k == n => Ok(pairs.to_vec()),
        k => Err(Error::invalid(
            op,
            format!(
                "{what} has {k} (before, after) pairs for an array of shape {shape:?} \
                 (expected 1 or {n})"
            ),
        )),
    }
}

/// A view of `a` taking `len` elements along `axis` from `start` with `step`.
fn part<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axis: usize,
    start: usize,
    len: usize,
    step: isize,
) -> Array<T, B> {
    a.with_layout(a.layout().slice_axis(axis, start, len, step))
}

/// `a` broadcast to `n` copies along `axis`, where it has length 1.
fn spread<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axis: usize,
    n: usize,
) -> Result<Array<T, B>> {
    let mut shape = a.shape().to_vec();
    shape[axis] = n;
    a.broadcast_to(&shape)
}

/// `left`, `mid` and `right` joined along `axis`, empty pieces left out.
fn join<T: Element, B: ArrayBackend>(
    left: Option<Array<T, B>>,
    mid: &Array<T, B>,
    right: Option<Array<T, B>>,
    axis: usize,
) -> Result<Array<T, B>> {
    let mut parts: Vec<&Array<T, B>> = Vec::with_capacity(3);
    if let Some(l) = &left {
        parts.push(l);
    }
    parts.push(mid);
    if let Some(r) = &right {
        parts.push(r);
    }
    if parts.len() == 1 {
        return Ok(mid.clone());
    }
    Array::concatenate(&parts, axis as isize)
}

impl<T: PadElement, B: ArrayBackend> Array<T, B> {
    /// Pads the array (NumPy's `np.pad(array, pad_width, mode, ...)`): `pad_width[i] =
    /// (before, after)` elements on axis `i`, a single pair for every axis. `mode` is one of
    /// NumPy's modes with its parameters ([`PadMode`]); [`PadMode::Constant`] is
    /// [`Array::pad_constant`]. Pads wider than the axis repeat the reflection (or the
    /// period) as NumPy's do; a `reflect` pad of a length-1 axis repeats the edge, as
    /// NumPy's.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `pad_width`, `end_values` or `stat_length` has
    /// neither 1 nor `ndim` pairs; when a mode other than constant would extend an empty
    /// axis; when a `stat_length` of 0 asks for a maximum or minimum.
    /// [`Error::TooBig`] when the padded shape's bytes exceed `isize::MAX`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev)?;
    /// let r = a.pad(&[(2, 3)], PadMode::Reflect(ReflectType::Even))?;
    /// assert_eq!(r.to_vec()?, vec![3, 2, 1, 2, 3, 2, 1, 2]);
    /// let w = a.pad(&[(1, 4)], PadMode::Wrap)?;
    /// assert_eq!(w.to_vec()?, vec![3, 1, 2, 3, 1, 2, 3, 1]);
    /// let m = a.pad(&[(1, 1)], PadMode::Mean(Some(vec![(2, 1)])))?;
    /// assert_eq!(m.to_vec()?, vec![2, 1, 2, 3, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn pad(&self, pad_width: &[(usize, usize)], mode: PadMode<T>) -> Result<Self> {
        const OP: &str = "pad";
        if let PadMode::Constant(v) = mode {
            return self.pad_constant(pad_width, v);
        }
        let widths = as_pairs(OP, "pad_width", pad_width, self.shape())?;
        let wide: Vec<u128> = self
            .shape()
            .iter()
            .zip(&widths)
            .map(|(&d, &(b, a))| d as u128 + b as u128 + a as u128)
            .collect();
        let out_shape = check_wide_shape(OP, &wide, self.itemsize())?;
        let stat_lengths =
            |s: &Option<Vec<(usize, usize)>>| -> Result<Vec<(Option<usize>, Option<usize>)>> {
                match s {
                    None => Ok(vec![(None, None); self.ndim()]),
                    Some(v) => Ok(as_pairs(OP, "stat_length", v, self.shape())?
                        .into_iter()
                        .map(|(a, b)| (Some(a), Some(b)))
                        .collect()),
                }
            };
        let (stat, lengths) = match &mode {
            PadMode::Maximum(s) => (Some(PadStat::Maximum), stat_lengths(s)?),
            PadMode::Minimum(s) => (Some(PadStat::Minimum), stat_lengths(s)?),
            PadMode::Mean(s) => (Some(PadStat::Mean), stat_lengths(s)?),
            PadMode::Median(s) => (Some(PadStat::Median), stat_lengths(s)?),
            _ => (None, Vec::new()),
        };
        let ends = match &mode {
            PadMode::LinearRamp(v) => as_pairs(OP, "end_values", v, self.shape())?,
            _ => Vec::new(),
        };
        if self.size() == 0 {
            for (ax, (&d, &(b, a))) in self.shape().iter().zip(&widths).enumerate() {
                if d == 0 && (b > 0 || a > 0) {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "can't extend empty axis {ax} using modes other than 'constant' \
                             or 'empty' (array of shape {:?})",
                            self.shape()
                        ),
                    ));
                }
            }
            return Self::zeros(&out_shape, self.device());
        }
        let mut cur = self.clone();
        for (ax, &(l, r)) in widths.iter().enumerate() {
            let n = self.shape()[ax];
            cur = match &mode {
                PadMode::Constant(_) => unreachable!("handled above"),
                PadMode::Edge => edge_axis(&cur, ax, l, r)?,
                PadMode::Reflect(_) if n == 1 => edge_axis(&cur, ax, l, r)?,
                PadMode::Reflect(kind) => reflect_axis(&cur, ax, l, r, *kind, false, n)?,
                PadMode::Symmetric(kind) => reflect_axis(&cur, ax, l, r, *kind, true, n)?,
                PadMode::Wrap => wrap_axis(&cur, ax, l, r, n)?,
                PadMode::LinearRamp(_) => {
                    let len = cur.shape()[ax];
                    let (el, er) = ends[ax];
                    let left = (l > 0)
                        .then(|| T::pad_ramp(el, &part(&cur, ax, 0, 1, 1), l, ax))
                        .transpose()?;
                    let right = (r > 0)
                        .then(|| -> Result<Self> {
                            T::pad_ramp(er, &part(&cur, ax, len - 1, 1, 1), r, ax)?
                                .flip(ax as isize)
                        })
                        .transpose()?;
                    join(left, &cur, right, ax)?
                }
                PadMode::Maximum(_)
                | PadMode::Minimum(_)
                | PadMode::Mean(_)
                | PadMode::Median(_) => {
                    let stat = stat.expect("a stat mode");
                    stat_axis(&cur, ax, l, r, lengths[ax], stat)?
                }
            };
        }
        Ok(cur)
    }
}

/// The edge values of `cur` repeated `l` times before and `r` times after along `ax`.
fn edge_axis<T: Element, B: ArrayBackend>(
    cur: &Array<T, B>,
    ax: usize,
    l: usize,
    r: usize,
) -> Result<Array<T, B>> {
    let len = cur.shape()[ax];
    let left = (l > 0)
        .then(|| spread(&part(cur, ax, 0, 1, 1), ax, l))
        .transpose()?;
    let right = (r > 0)
        .then(|| spread(&part(cur, ax, len - 1, 1, 1), ax, r))
        .transpose()?;
    join(left, cur, right, ax)
}

/// NumPy's `_get_stats` then `_set_pad_area` for one axis: the statistic of the
/// `stat_length` values nearest each edge (all of them for `None` or a longer length).
fn stat_axis<T: PadElement, B: ArrayBackend>(
    cur: &Array<T, B>,
    ax: usize,
    l: usize,
    r: usize,
    lengths: (Option<usize>, Option<usize>),
    stat: PadStat,
) -> Result<Array<T, B>> {
    let max_len = cur.shape()[ax];
    let ll = lengths.0.map_or(max_len, |v| v.min(max_len));
    let rl = lengths.1.map_or(max_len, |v| v.min(max_len));
    if (ll == 0 || rl == 0) && matches!(stat, PadStat::Maximum | PadStat::Minimum) {
        return Err(Error::invalid(
            "pad",
            format!(
                "stat_length of 0 yields no value for padding (mode '{}', axis {ax})",
                stat.name()
            ),
        ));
    }
    let left = (l > 0)
        .then(|| -> Result<Array<T, B>> {
            let s = T::pad_stat(&part(cur, ax, 0, ll, 1), stat, ax)?;
            spread(&s, ax, l)
        })
        .transpose()?;
    let right = (r > 0)
        .then(|| -> Result<Array<T, B>> {
            let s = T::pad_stat(&part(cur, ax, max_len - rl, rl, 1), stat, ax)?;
            spread(&s, ax, r)
        })
        .transpose()?;
    join(left, cur, right, ax)
}

/// NumPy's `_set_reflect_both`, repeated until both pads are filled: each round mirrors at
/// most one period of the values already there (`n`, the original length, with the edge;
/// `n - 1` without it).
fn reflect_axis<T: PadElement, B: ArrayBackend>(
    cur: &Array<T, B>,
    ax: usize,
    mut l: usize,
    mut r: usize,
    kind: ReflectType,
    include_edge: bool,
    n: usize,
) -> Result<Array<T, B>> {
    let mut cur = cur.clone();
    let e = usize::from(include_edge);
    while l > 0 || r > 0 {
        let len = cur.shape()[ax];
        let old = if include_edge {
            len / n * n
        } else {
            (len - 1) / (n - 1) * (n - 1)
        };
        let mut left = None;
        if l > 0 {
            let chunk = old.min(l);
            let mut c = part(&cur, ax, chunk - e, chunk, -1);
            if kind == ReflectType::Odd {
                c = T::pad_odd(&part(&cur, ax, 0, 1, 1), &c)?;
            }
            left = Some(c);
            l -= chunk;
        }
        let mut right = None;
        if r > 0 {
            let chunk = old.min(r);
            let mut c = part(&cur, ax, len - 2 + e, chunk, -1);
            if kind == ReflectType::Odd {
                c = T::pad_odd(&part(&cur, ax, len - 1, 1, 1), &c)?;
            }
            right = Some(c);
            r -= chunk;
        }
        cur = join(left, &cur, right, ax)?;
    }
    Ok(cur)
}

/// NumPy's `_set_wrap_both`, repeated until both pads are filled: each round copies at
/// most one whole period (a multiple of the original length `n`) from the other end.
fn wrap_axis<T: Element, B: ArrayBackend>(
    cur: &Array<T, B>,
    ax: usize,
    mut l: usize,
    mut r: usize,
    n: usize,
) -> Result<Array<T, B>> {
    let mut cur = cur.clone();
    while l > 0 || r > 0 {
        let len = cur.shape()[ax];
        let period = len / n * n;
        let mut left = None;
        if l > 0 {
            let take = period.min(l);
            left = Some(part(&cur, ax, period - take, take, 1));
            l -= take;
        }
        let mut right = None;
        if r > 0 {
            let take = period.min(r);
            right = Some(part(&cur, ax, len - period, take, 1));
            r -= take;
        }
        cur = join(left, &cur, right, ax)?;
    }
    Ok(cur)
}
