//! `bin_add` on the CPU (the counting behind `histogram`): one pass over the values, each
//! value's bin found in the edges' type exactly as the GPU finds it, summed into one private
//! copy of the bins per rayon task and merged at the end.

use super::scatter_reduce::{values_c_order, Values, PRIVATE_MAX};
use crate::buffer::CpuBuffer;
use crate::memory::gather_map;
use crate::par::{CHUNK, PAR_MIN};
use crate::view::{check_views, contiguous, contiguous_mut};
use cuprite_core::backend::UniformBins;
use cuprite_core::{Element, Error, Float, Layout, Numeric, Real, Result};
use rayon::prelude::*;
use std::borrow::Cow;

const OP: &str = "histogram";

/// The bin of `x` among the `edges.len() - 1` bins, or `None` outside them (and for NaN).
#[inline(always)]
pub(super) fn bin_of<E: Float>(
    x: E,
    edges: &[E],
    uniform: Option<&UniformBins<E>>,
) -> Option<usize> {
    let nb = edges.len() - 1;
    match uniform {
        Some(u) => {
            if !(x >= u.first && x <= u.last) {
                return None;
            }
            let f = (x - u.first) / u.denom * E::from_usize(nb);
            let mut i = (f64::from_scalar(f.to_scalar()) as usize).min(nb - 1);
            if x < edges[i] {
                i = i.checked_sub(1)?;
            }
            if i != nb - 1 && x >= edges[i + 1] {
                i += 1;
            }
            Some(i)
        }
        None => {
            // The first edge greater than x; NaN compares false everywhere, so it lands
            // before the first edge and is dropped.
            let hi = edges.partition_point(|&e| e <= x);
            if x == edges[nb] {
                return Some(nb - 1);
            }
            (hi >= 1 && hi <= nb).then(|| hi - 1)
        }
    }
}

/// See [`cuprite_core::backend::IndexOps::bin_add`].
#[allow(clippy::too_many_arguments)]
pub(super) fn bin_add<T: Real, E: Float, W: Numeric>(
    x: &CpuBuffer<T>,
    lx: &Layout,
    edges: &CpuBuffer<E>,
    le: &Layout,
    uniform: Option<UniformBins<E>>,
    weights: Option<(&CpuBuffer<W>, &Layout)>,
    out: &mut CpuBuffer<W>,
    lo: &Layout,
) -> Result<()> {
    check_views(OP, &[(x.len(), lx), (edges.len(), le), (out.len(), lo)])?;
    let e = contiguous(edges.as_slice(), le)
        .filter(|e| le.ndim() == 1 && e.len() >= 2)
        .ok_or_else(|| Error::invalid(OP, "the edges must be 1-d, contiguous, at least 2"))?;
    let nb = e.len() - 1;
    if lo.ndim() != 1 || lo.size() != nb {
        return Err(Error::invalid(
            OP,
            format!(
                "{nb} bins need an output of {nb} elements, got shape {:?}",
                lo.shape()
            ),
        ));
    }
    let xs: Cow<'_, [T]> = match contiguous(x.as_slice(), lx) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(gather_map(x.as_slice(), lx, |v| v)?),
    };
    let w: Values<'_, W> = match weights {
        Some((wb, lw)) => {
            check_views(OP, &[(wb.len(), lw)])?;
            if lw.shape() != lx.shape() {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: lx.shape().to_vec(),
                    rhs: lw.shape().to_vec(),
                });
            }
            values_c_order(wb.as_slice(), lw)?
        }
        None => Values::One(W::from_usize(1)),
    };
    let u = uniform.as_ref();
    let fill = |acc: &mut [W], start: usize, chunk: &[T]| {
        for (j, &v) in chunk.iter().enumerate() {
            let xe = E::from_scalar(v.to_scalar());
            if let Some(b) = bin_of(xe, e, u) {
                acc[b] = acc[b].add(w.get(start + j));
            }
        }
    };
    let dst = contiguous_mut(out.make_mut()?, lo)
        .ok_or_else(|| Error::invalid(OP, "the output must be contiguous"))?;
    if xs.len() < PAR_MIN || nb > PRIVATE_MAX {
        fill(dst, 0, &xs);
        return Ok(());
    }
    // -0.0 is the sum's identity for every sign of zero (see scatter_reduce).
    let zero = W::from_scalar(cuprite_core::Scalar::C128(cuprite_core::c128::new(
        -0.0, -0.0,
    )));
    // At most PRIVATE_MAX elements per copy, a few copies per thread.
    let fresh = || vec![zero; nb];
    let sums = xs
        .par_chunks(CHUNK)
        .enumerate()
        .try_fold(fresh, |mut acc, (c, chunk)| {
            fill(&mut acc, c * CHUNK, chunk);
            Ok(acc)
        })
        .try_reduce_with(|mut a, b| {
            for (p, q) in a.iter_mut().zip(b) {
                *p = p.add(q);
            }
            Ok(a)
        })
        .transpose()?;
    if let Some(s) = sums {
        for (d, v) in dst.iter_mut().zip(s) {
            *d = d.add(v);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_follow_numpy_rules() {
        let edges = [0.0, 0.25, 0.5, 0.75, 1.0];
        let u = UniformBins {
            first: 0.0,
            last: 1.0,
            denom: 1.0,
        };
        for (x, want) in [
            (0.0, Some(0)),
            (0.25, Some(1)),
            (0.999, Some(3)),
            (1.0, Some(3)),
            (-0.1, None),
            (1.1, None),
            (f64::NAN, None),
        ] {
            assert_eq!(bin_of(x, &edges, Some(&u)), want, "{x}");
            assert_eq!(bin_of(x, &edges, None), want, "{x}");
        }
        let uneven = [-1.0f32, 0.0, 10.0];
        assert_eq!(bin_of(5.0f32, &uneven, None), Some(1));
        assert_eq!(bin_of(-1.0f32, &uneven, None), Some(0));
        assert_eq!(bin_of(10.0f32, &uneven, None), Some(1));
    }
}
