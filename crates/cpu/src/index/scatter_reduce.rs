//! `scatter_reduce` on the CPU (NumPy's `ufunc.at`: `add.at`, `minimum.at`, `maximum.at`, and
//! the counting behind `bincount` and `histogram`). Indices are checked up front (an error
//! leaves the destination unchanged). A sum into a small destination from many indices is
//! split over rayon with one private copy of the destination per task, merged at the end;
//! everything else runs in index order on the calling thread, which is also NumPy's order.

use super::{checked_indices, wrap};
use crate::buffer::CpuBuffer;
use crate::memory::gather_map;
use crate::par::{CHUNK, PAR_MIN};
use crate::view::{check_views, contiguous};
use cuprite_core::ops::BinaryOp;
use cuprite_core::{c128, Element, Error, Layout, Result, Scalar};
use rayon::prelude::*;
use std::borrow::Cow;

const OP: &str = "scatter_reduce";

/// Destinations at most this long get a private copy per task when summing in parallel
/// (a copy stays in a core's cache, and merging the copies costs little next to the scatter).
pub(super) const PRIVATE_MAX: usize = 1 << 16;

/// The values in the index view's C order: borrowed when contiguous, one value when the
/// view broadcasts a single element, else gathered.
pub(super) enum Values<'a, T: Clone> {
    Run(Cow<'a, [T]>),
    One(T),
}

impl<T: Element> Values<'_, T> {
    #[inline(always)]
    pub(super) fn get(&self, j: usize) -> T {
        match self {
            Values::Run(v) => v[j],
            Values::One(v) => *v,
        }
    }
}

pub(super) fn values_c_order<'a, T: Element>(
    values: &'a [T],
    lv: &Layout,
) -> Result<Values<'a, T>> {
    if lv.size() > 0 && lv.strides().iter().all(|&s| s == 0) {
        return Ok(Values::One(values[lv.offset()]));
    }
    Ok(Values::Run(match contiguous(values, lv) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(gather_map(values, lv, |v| v)?),
    }))
}

/// See [`cuprite_core::backend::IndexOps::scatter_reduce`].
#[allow(clippy::too_many_arguments)]
pub(super) fn scatter_reduce<T: Element, O: BinaryOp<T, Out = T>>(
    dst: &mut CpuBuffer<T>,
    ld: &Layout,
    idx: &CpuBuffer<i64>,
    li: &Layout,
    values: &CpuBuffer<T>,
    lv: &Layout,
    op: O,
) -> Result<()> {
    check_views(
        O::NAME,
        &[(dst.len(), ld), (idx.len(), li), (values.len(), lv)],
    )?;
    if ld.ndim() != 1 {
        return Err(Error::invalid(
            OP,
            format!("the destination must be 1-d, got shape {:?}", ld.shape()),
        ));
    }
    if li.shape() != lv.shape() {
        return Err(Error::ShapeMismatch {
            op: OP,
            lhs: li.shape().to_vec(),
            rhs: lv.shape().to_vec(),
        });
    }
    let n = ld.shape()[0];
    let idx = checked_indices(O::NAME, idx, li, 0, n)?;
    if idx.is_empty() {
        return Ok(());
    }
    let vals = values_c_order(values.as_slice(), lv)?;
    let (base, step) = (ld.offset() as isize, ld.strides()[0]);
    let d = dst.make_mut()?;
    let ni = n as i64;
    let at = |k: isize| (base + k * step) as usize;
    if O::NAME == "add" && idx.len() >= PAR_MIN && n <= PRIVATE_MAX {
        // -0.0 is the sum's identity for every sign of zero, so adding an untouched
        // private element leaves its destination bit for bit unchanged.
        let zero = T::from_scalar(Scalar::C128(c128::new(-0.0, -0.0)));
        // At most PRIVATE_MAX elements per copy, a few copies per thread.
        let fresh = || vec![zero; n];
        let sums = idx
            .par_chunks(CHUNK)
            .enumerate()
            .try_fold(fresh, |mut acc, (c, chunk)| {
                for (j, &i) in chunk.iter().enumerate() {
                    let k = wrap(i, ni) as usize;
                    acc[k] = op.apply(acc[k], vals.get(c * CHUNK + j));
                }
                Ok(acc)
            })
            .try_reduce_with(|mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x = op.apply(*x, y);
                }
                Ok(a)
            })
            .transpose()?;
        if let Some(s) = sums {
            for (k, v) in s.into_iter().enumerate() {
                let p = at(k as isize);
                d[p] = op.apply(d[p], v);
            }
        }
        return Ok(());
    }
    if let (Values::Run(v), 1) = (&vals, step) {
        // The common case (`bincount` with weights, `add.at` into a contiguous array): one
        // tight loop over index and value pairs.
        let d = &mut d[base as usize..base as usize + n];
        for (&i, &x) in idx.iter().zip(v.iter()) {
            let k = wrap(i, ni) as usize;
            d[k] = op.apply(d[k], x);
        }
        return Ok(());
    }
    for (j, &i) in idx.iter().enumerate() {
        let p = at(wrap(i, ni));
        d[p] = op.apply(d[p], vals.get(j));
    }
    Ok(())
}
