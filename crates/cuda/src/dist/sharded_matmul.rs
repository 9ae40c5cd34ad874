//! Matrix products of a 2-d [`ShardedArray`] (the left operand) by a replicated or sharded
//! right operand, each rank multiplying with the single-GPU `matmul`:
//!
//! | left split | right operand | what moves | result |
//! | --- | --- | --- | --- |
//! | rows | replicated | nothing | rows split |
//! | rows | sharded | the right operand, all-gathered | rows split |
//! | columns | replicated | nothing (each rank takes its rows of it) | an all-reduce of the partial products: whole |
//! | columns | rows split | the right operand resharded to the left's split if it differs | the same all-reduce |
//! | columns | columns split | the right operand, all-gathered | the same all-reduce |

use super::nccl::ReduceOp;
use super::sharded::{rows, Distributed, Replicated, ShardedArray};
use super::sharded_ops::{same_mesh, Operand};
use crate::device::Cuda;
use cuprite_core::{Array, Error, Numeric, Result};

impl<T: Numeric> ShardedArray<T> {
    /// `self @ rhs` for a 2-d `self` and a 1-d or 2-d `rhs` (NumPy's `matmul`): split by
    /// rows when `self` is split by rows, whole on every rank when `self` is split by
    /// columns (see the module's table).
    ///
    /// # Errors
    /// `self` not 2-d; `rhs` not 1-d or 2-d; inner lengths that differ; operands on two
    /// meshes; a sum type NCCL cannot add; NCCL's failures.
    pub fn matmul<'a>(&self, rhs: impl Into<Operand<'a, T>>) -> Result<Distributed<T>> {
        const OP: &str = "ShardedArray::matmul";
        let rhs = rhs.into();
        let rshape = match &rhs {
            Operand::Sharded(b) => b.shape().to_vec(),
            Operand::Replicated(b) => b.shape().to_vec(),
        };
        if self.ndim() != 2 || !(1..=2).contains(&rshape.len()) || rshape[0] != self.shape[1] {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: self.shape.clone(),
                rhs: rshape,
            });
        }
        let whole;
        let b: &Replicated<T> = match rhs {
            Operand::Replicated(b) => {
                same_mesh(OP, self, &b.mesh)?;
                b
            }
            Operand::Sharded(b) => {
                same_mesh(OP, self, &b.mesh)?;
                if self.axis == 1 && b.axis == 0 {
                    let b = b.reshard_to(0, self.split.clone())?;
                    return self.partial_products(|l, _| Ok(b.shards[l].clone()));
                }
                whole = b.all_gather()?;
                &whole
            }
        };
        if self.axis == 0 {
            let shards = self
                .shards
                .iter()
                .zip(&b.copies)
                .map(|(a, b)| a.matmul(b))
                .collect::<Result<_>>()?;
            let mut shape = vec![self.shape[0]];
            shape.extend(rshape.get(1));
            return Ok(Distributed::Sharded(ShardedArray {
                mesh: self.mesh.clone(),
                shape,
                axis: 0,
                split: self.split.clone(),
                shards,
            }));
        }
        self.partial_products(|l, r| {
            let k = self.rows_of(r);
            rows(&b.copies[l], 0, k.start, k.end)
        })
    }

    /// Split by columns: each rank's shard times its rows of the right operand
    /// (`rhs_rows(l, rank)` for this process's `l`-th rank), summed over the ranks.
    fn partial_products(
        &self,
        rhs_rows: impl Fn(usize, usize) -> Result<Array<T, Cuda>>,
    ) -> Result<Distributed<T>> {
        let partial: Vec<Array<T, Cuda>> = self
            .mesh
            .ranks()
            .into_iter()
            .enumerate()
            .map(|(l, r)| self.shards[l].matmul(&rhs_rows(l, r)?))
            .collect::<Result<_>>()?;
        Ok(Distributed::Replicated(Replicated {
            mesh: self.mesh.clone(),
            copies: self.mesh.all_reduce(&partial, ReduceOp::Sum)?,
        }))
    }
}
