//! Element-wise ops and reductions on a [`ShardedArray`].
//!
//! - Element-wise: each rank applies the single-GPU op to its shard and the matching rows
//!   of the other operand: a sharded array of the same split, or a [`Replicated`] one that
//!   broadcasts (whose rows along the split axis, when it has them, are cut to the shard's).
//!   No data moves between GPUs.
//! - Reductions along an axis that is not split stay local and keep the split. Along the
//!   split axis, or over everything, each rank reduces its shard and the partial results
//!   meet: sums through an NCCL all-reduce; maxima and minima through an all-gather of
//!   the partials and the single-GPU reduction of them, so NaN propagates as on one GPU
//!   (NCCL's max does not) and ranks with empty shards take no part. `var` and `std`
//!   all-reduce the mean, broadcast it back to the shards, and all-reduce the squared
//!   deviations.

use super::nccl::ReduceOp;
use super::sharded::{rows, with_axis, Distributed, Replicated, ShardedArray};
use crate::device::Cuda;
use cuprite_core::{
    broadcast_shapes, Array, Element, Error, Float, Numeric, Real, Result, Scalar, TrueDivide,
};
use std::rc::Rc;

/// The other operand of an element-wise op on a [`ShardedArray`]: another sharded array of
/// the same split, or a replicated one that broadcasts against it.
pub enum Operand<'a, U: Element> {
    /// Split like the array it meets.
    Sharded(&'a ShardedArray<U>),
    /// Whole on every rank.
    Replicated(&'a Replicated<U>),
}

impl<'a, U: Element> From<&'a ShardedArray<U>> for Operand<'a, U> {
    fn from(a: &'a ShardedArray<U>) -> Self {
        Operand::Sharded(a)
    }
}

impl<'a, U: Element> From<&'a Replicated<U>> for Operand<'a, U> {
    fn from(a: &'a Replicated<U>) -> Self {
        Operand::Replicated(a)
    }
}

/// Errors unless `a` and `b` are the same mesh.
pub(crate) fn same_mesh<T: Element>(
    op: &'static str,
    a: &ShardedArray<T>,
    b: &Rc<super::Mesh>,
) -> Result<()> {
    if !Rc::ptr_eq(&a.mesh, b) {
        return Err(Error::invalid(
            op,
            format!("operands on two meshes: {:?} and {:?}", a.mesh, b),
        ));
    }
    Ok(())
}

impl<T: Element> ShardedArray<T> {
    /// `f` applied to every shard: an element-wise op, whose result has the shard's shape.
    ///
    /// # Errors
    /// `f`'s error; a result of another shape than its shard's.
    pub fn map<U: Element>(
        &self,
        f: impl Fn(&Array<T, Cuda>) -> Result<Array<U, Cuda>>,
    ) -> Result<ShardedArray<U>> {
        const OP: &str = "ShardedArray::map";
        let shards = self
            .shards
            .iter()
            .map(|s| {
                let o = f(s)?;
                if o.shape() != s.shape() {
                    return Err(Error::ShapeMismatch {
                        op: OP,
                        lhs: s.shape().to_vec(),
                        rhs: o.shape().to_vec(),
                    });
                }
                Ok(o)
            })
            .collect::<Result<_>>()?;
        Ok(self.with_shards(shards))
    }

    /// `f(shard, other's matching part)` on every rank: an element-wise op between this
    /// array and a sharded array of the same shape and split, or a replicated array that
    /// broadcasts against it (without growing the split axis).
    ///
    /// # Errors
    /// Operands on two meshes; a sharded operand of another shape, axis or split (reshard
    /// it first); shapes that do not broadcast, or would broadcast the split axis; `f`'s
    /// error, or a result of another shape than the broadcast one.
    pub fn zip<'a, U: Element + 'a, V: Element>(
        &self,
        other: impl Into<Operand<'a, U>>,
        f: impl Fn(&Array<T, Cuda>, &Array<U, Cuda>) -> Result<Array<V, Cuda>>,
    ) -> Result<ShardedArray<V>> {
        const OP: &str = "ShardedArray::zip";
        match other.into() {
            Operand::Sharded(o) => {
                same_mesh(OP, self, &o.mesh)?;
                if o.shape != self.shape || o.axis != self.axis || o.split != self.split {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "shape {:?} split along axis {} at {:?} meets shape {:?} split \
                             along axis {} at {:?}: reshard one like the other",
                            self.shape, self.axis, self.split, o.shape, o.axis, o.split
                        ),
                    ));
                }
                let shards = self
                    .shards
                    .iter()
                    .zip(&o.shards)
                    .map(|(a, b)| checked(OP, f(a, b)?, a.shape()))
                    .collect::<Result<_>>()?;
                Ok(self.with_shards(shards))
            }
            Operand::Replicated(r) => {
                same_mesh(OP, self, &r.mesh)?;
                let out = broadcast_shapes(OP, &self.shape, r.shape())?;
                let nd = out.len();
                let axis = self.axis + nd - self.ndim();
                if out[axis] != self.shape[self.axis] {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "shape {:?} split along axis {} would broadcast that axis to {} \
                             against shape {:?}",
                            self.shape,
                            self.axis,
                            out[axis],
                            r.shape()
                        ),
                    ));
                }
                // The replicated operand's axis facing the split one, when it has one that
                // is not broadcast: each rank takes the rows of its shard.
                let facing = (axis + r.shape().len())
                    .checked_sub(nd)
                    .filter(|&k| r.shape()[k] != 1);
                let shards = self
                    .mesh
                    .ranks()
                    .into_iter()
                    .zip(self.shards.iter().zip(&r.copies))
                    .map(|(rank, (a, b))| {
                        let rows_here = self.rows_of(rank);
                        let b = match facing {
                            Some(k) => rows(b, k, rows_here.start, rows_here.end)?,
                            None => b.clone(),
                        };
                        checked(OP, f(a, &b)?, &with_axis(&out, axis, rows_here.len()))
                    })
                    .collect::<Result<_>>()?;
                Ok(ShardedArray {
                    mesh: self.mesh.clone(),
                    shape: out,
                    axis,
                    split: self.split.clone(),
                    shards,
                })
            }
        }
    }

    /// The sum along `axis`, or of everything (`None`), as NumPy's `sum`: sharded when
    /// `axis` is not the split one, else whole on every rank (an NCCL all-reduce of the
    /// shards' sums).
    ///
    /// # Errors
    /// `axis` out of range; a sum type NCCL cannot add (16-bit integers); NCCL's failures.
    pub fn sum(&self, axis: Option<usize>) -> Result<Distributed<T::Accum>> {
        self.summed("ShardedArray::sum", axis, shard_sum)
    }

    /// The mean along `axis` or of everything, as NumPy's `mean` (the all-reduced sum
    /// divided by the count when `axis` is the split one).
    ///
    /// # Errors
    /// As [`sum`](Self::sum).
    pub fn mean(&self, axis: Option<usize>) -> Result<Distributed<T::Mean>>
    where
        T::Mean: TrueDivide,
    {
        const OP: &str = "ShardedArray::mean";
        if let Some(k) = self.unsplit_axis(OP, axis)? {
            return self.local_reduce(k, |x| x.mean_axes(k, false));
        }
        let count = self.count(axis);
        let r = self.summed_over_ranks(axis, |x, ax| shard_sum(x, ax)?.astype::<T::Mean>())?;
        let copies = r
            .copies
            .iter()
            .map(|c| {
                let n = Array::scalar(T::Mean::from_scalar(Scalar::F64(count as f64)), c.device())?;
                c.try_div(&n)
            })
            .collect::<Result<_>>()?;
        Ok(Distributed::Replicated(Replicated {
            mesh: r.mesh,
            copies,
        }))
    }

    /// The axis of a reduction along `axis` when that is not the split one (each shard
    /// then reduces alone), `None` when the ranks must meet; an `Err` naming `op` for an
    /// axis out of range.
    fn unsplit_axis(&self, op: &'static str, axis: Option<usize>) -> Result<Option<usize>> {
        match axis {
            Some(k) if k >= self.ndim() => Err(Error::invalid(
                op,
                format!("axis {k} is out of range for shape {:?}", self.shape),
            )),
            Some(k) if k != self.axis => Ok(Some(k)),
            _ => Ok(None),
        }
    }

    /// The number of elements a reduction along `axis` (or over everything) combines.
    fn count(&self, axis: Option<usize>) -> usize {
        match axis {
            Some(k) => self.shape[k],
            None => self.shape.iter().product(),
        }
    }

    /// `local` along axis `k` (not the split one) on every shard: the split moves down one
    /// axis when `k` is before it.
    fn local_reduce<U: Element>(
        &self,
        k: usize,
        local: impl Fn(&Array<T, Cuda>) -> Result<Array<U, Cuda>>,
    ) -> Result<Distributed<U>> {
        let shards = self.shards.iter().map(local).collect::<Result<_>>()?;
        let mut shape = self.shape.clone();
        shape.remove(k);
        Ok(Distributed::Sharded(ShardedArray {
            mesh: self.mesh.clone(),
            shape,
            axis: self.axis - usize::from(k < self.axis),
            split: self.split.clone(),
            shards,
        }))
    }

    /// A reduction whose partial results add up: local along an axis that is not split,
    /// else summed over the ranks.
    fn summed<U: Element>(
        &self,
        op: &'static str,
        axis: Option<usize>,
        local: impl Fn(&Array<T, Cuda>, Option<usize>) -> Result<Array<U, Cuda>>,
    ) -> Result<Distributed<U>> {
        if let Some(k) = self.unsplit_axis(op, axis)? {
            return self.local_reduce(k, |x| local(x, Some(k)));
        }
        Ok(Distributed::Replicated(
            self.summed_over_ranks(axis, local)?,
        ))
    }

    /// `local` on every shard (along the split axis, or over everything), summed over the
    /// ranks by an NCCL all-reduce.
    fn summed_over_ranks<U: Element>(
        &self,
        axis: Option<usize>,
        local: impl Fn(&Array<T, Cuda>, Option<usize>) -> Result<Array<U, Cuda>>,
    ) -> Result<Replicated<U>> {
        let partial: Vec<Array<U, Cuda>> = self
            .shards
            .iter()
            .map(|x| local(x, axis))
            .collect::<Result<_>>()?;
        Ok(Replicated {
            mesh: self.mesh.clone(),
            copies: self.mesh.all_reduce(&partial, ReduceOp::Sum)?,
        })
    }
}

impl<T: Real> ShardedArray<T> {
    /// The maximum along `axis` or of everything, as NumPy's `max` (NaN propagates).
    ///
    /// # Errors
    /// `axis` out of range; an empty reduction; NCCL's failures.
    pub fn max(&self, axis: Option<usize>) -> Result<Distributed<T>> {
        self.extreme("ShardedArray::max", axis, |x, ax| match ax {
            None => x.max(),
            Some(k) => x.max_axes(k, false),
        })
    }

    /// The minimum along `axis` or of everything, as NumPy's `min` (NaN propagates).
    ///
    /// # Errors
    /// As [`max`](Self::max).
    pub fn min(&self, axis: Option<usize>) -> Result<Distributed<T>> {
        self.extreme("ShardedArray::min", axis, |x, ax| match ax {
            None => x.min(),
            Some(k) => x.min_axes(k, false),
        })
    }

    /// A reduction that the single-GPU op finishes: local along an axis that is not split,
    /// else the partials of the ranks with rows all-gathered and reduced once more.
    fn extreme(
        &self,
        op: &'static str,
        axis: Option<usize>,
        local: impl Fn(&Array<T, Cuda>, Option<usize>) -> Result<Array<T, Cuda>>,
    ) -> Result<Distributed<T>> {
        if let Some(k) = self.unsplit_axis(op, axis)? {
            return self.local_reduce(k, |x| local(x, Some(k)));
        }
        let world = self.mesh.world_size();
        let with_rows: Vec<i64> = (0..world)
            .filter(|&r| !self.rows_of(r).is_empty())
            .map(|r| r as i64)
            .collect();
        if with_rows.is_empty() {
            // Nothing to reduce anywhere: the single-GPU op's own error.
            return Err(local(&self.shards[0], axis)
                .err()
                .unwrap_or_else(|| Error::invalid(op, "an empty reduction")));
        }
        let part_shape = match axis {
            None => vec![],
            Some(k) => {
                let mut s = self.shape.clone();
                s.remove(k);
                s
            }
        };
        // Ranks without rows send a placeholder that the others leave out.
        let partial: Vec<Array<T, Cuda>> = self
            .mesh
            .ranks()
            .into_iter()
            .zip(&self.shards)
            .map(|(r, x)| {
                if self.rows_of(r).is_empty() {
                    Array::zeros(&part_shape, x.device())
                } else {
                    local(x, axis)
                }
            })
            .collect::<Result<_>>()?;
        let copies = self
            .mesh
            .all_gather(&partial)?
            .iter()
            .map(|g| {
                let keep = Array::from_slice(&with_rows, &[with_rows.len()], g.device())?;
                local(&g.take(&keep, Some(0))?, Some(0))
            })
            .collect::<Result<_>>()?;
        Ok(Distributed::Replicated(Replicated {
            mesh: self.mesh.clone(),
            copies,
        }))
    }
}

impl<T: Float + TrueDivide> ShardedArray<T> {
    /// The variance along `axis` or of everything, with `ddof` delta degrees of freedom
    /// (NumPy's `var`): local along an axis that is not split; else the all-reduced mean,
    /// broadcast back to every shard, and the all-reduced mean of the squared deviations.
    ///
    /// # Errors
    /// `axis` out of range; NCCL's failures.
    pub fn var(&self, axis: Option<usize>, ddof: f64) -> Result<Distributed<T>> {
        const OP: &str = "ShardedArray::var";
        if let Some(k) = self.unsplit_axis(OP, axis)? {
            return self.local_reduce(k, |x| x.var_axes(k, ddof, false));
        }
        let count = self.count(axis);
        // The mean with the reduced axes kept (as length 1), so that it broadcasts.
        let mut kept: Vec<isize> = self.shape.iter().map(|&d| d as isize).collect();
        match axis {
            Some(k) => kept[k] = 1,
            None => kept.iter_mut().for_each(|d| *d = 1),
        }
        let mean = match self.mean(axis)? {
            Distributed::Replicated(r) => r.map(|m| m.reshape(&kept))?,
            Distributed::Sharded(_) => {
                return Err(Error::invalid(OP, "the mean over the split axis is whole"))
            }
        };
        let d = self.sub(&mean)?;
        let squares = d.mul(&d)?;
        let sum = squares.summed_over_ranks(axis, shard_sum)?;
        let scale = T::from_f64(1.0 / (count as f64 - ddof));
        Ok(Distributed::Replicated(
            sum.map(|v| v.scalar_op(cuprite_core::ops::Mul, scale))?,
        ))
    }

    /// The standard deviation along `axis` or of everything (NumPy's `std`): the square
    /// root of [`var`](Self::var).
    ///
    /// # Errors
    /// As [`var`](Self::var).
    pub fn std(&self, axis: Option<usize>, ddof: f64) -> Result<Distributed<T>> {
        Ok(match self.var(axis, ddof)? {
            Distributed::Sharded(s) => Distributed::Sharded(s.map(|v| v.sqrt())?),
            Distributed::Replicated(r) => Distributed::Replicated(r.map(|v| v.sqrt())?),
        })
    }
}

impl<T: Numeric> ShardedArray<T> {
    /// `self + other` element-wise (see [`zip`](Self::zip) for the operands).
    ///
    /// # Errors
    /// As [`zip`](Self::zip).
    pub fn add<'a>(&self, other: impl Into<Operand<'a, T>>) -> Result<ShardedArray<T>> {
        self.zip(other, |a, b| a.try_add(b))
    }

    /// `self - other` element-wise.
    ///
    /// # Errors
    /// As [`zip`](Self::zip).
    pub fn sub<'a>(&self, other: impl Into<Operand<'a, T>>) -> Result<ShardedArray<T>> {
        self.zip(other, |a, b| a.try_sub(b))
    }

    /// `self * other` element-wise.
    ///
    /// # Errors
    /// As [`zip`](Self::zip).
    pub fn mul<'a>(&self, other: impl Into<Operand<'a, T>>) -> Result<ShardedArray<T>> {
        self.zip(other, |a, b| a.try_mul(b))
    }
}

impl<T: TrueDivide> ShardedArray<T> {
    /// `self / other` element-wise (true division, as NumPy's `/`).
    ///
    /// # Errors
    /// As [`zip`](Self::zip).
    pub fn div<'a>(&self, other: impl Into<Operand<'a, T>>) -> Result<ShardedArray<T::Mean>> {
        self.zip(other, |a, b| a.try_div(b))
    }
}

/// A shard's sum along `ax`, or of all of it: the partial result the ranks add up.
fn shard_sum<T: Element>(x: &Array<T, Cuda>, ax: Option<usize>) -> Result<Array<T::Accum, Cuda>> {
    match ax {
        None => x.sum(),
        Some(k) => x.sum_axes(k, false),
    }
}

/// `a` when its shape is `want`, else an `Err` naming `op`.
fn checked<V: Element>(
    op: &'static str,
    a: Array<V, Cuda>,
    want: &[usize],
) -> Result<Array<V, Cuda>> {
    if a.shape() != want {
        return Err(Error::ShapeMismatch {
            op,
            lhs: want.to_vec(),
            rhs: a.shape().to_vec(),
        });
    }
    Ok(a)
}
