//! Moving rows between the ranks of a [`ShardedArray`]: resharding (a new split axis, or a
//! new split of the same one), reshaping, and sorting across the ranks (a sample sort).
//!
//! Resharding is one exchange: rank `i` sends rank `j` the part of its shard that falls in
//! `j`'s new rows, and `j` concatenates what it receives in rank order. Every rank knows
//! both splits, so it knows the shape of every piece it sends and receives.
//!
//! The sample sort: each rank sorts its shard and all-gathers a few evenly spaced samples
//! of it; every rank sorts the same samples the same way and picks the same `world - 1`
//! splitters; each rank cuts its sorted shard at the splitters (`searchsorted`, right side,
//! so equal values all go to one rank), the pieces are exchanged, and each rank merges the
//! sorted runs it received, taken in rank order (`merge_runs`: pairwise merges, ⌈log2
//! world⌉ passes). The sorts
//! are the single-GPU stable sort, the merge is stable, and the cut keeps equal values
//! together, so the result is, element for element, one GPU's sort of the whole array; a
//! last reshard evens out the split.

use super::mesh::Mesh;
use super::sharded::{check_axis, rows, ShardedArray};
use crate::device::Cuda;
use crate::sort::merge::merge_runs;
use cuprite_core::{Array, Element, Error, Result, Side};

/// The rows two ranges share: `a ∩ b`, empty when they do not meet.
fn overlap(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> std::ops::Range<usize> {
    let s = a.start.max(b.start);
    s..a.end.min(b.end).max(s)
}

/// What rank `i` (rows `src_rows` of axis `from`) sends rank `j` (rows `dst_rows` of axis
/// `to`) in a reshard: along each of the two axes, the rows it takes in the global array.
pub(crate) fn piece(
    from: usize,
    src_rows: &std::ops::Range<usize>,
    to: usize,
    dst_rows: &std::ops::Range<usize>,
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    if from == to {
        let both = overlap(src_rows, dst_rows);
        (both.clone(), both)
    } else {
        (src_rows.clone(), dst_rows.clone())
    }
}

impl<T: Element> ShardedArray<T> {
    /// The same array split evenly along `axis` (JAX's `device_put` with a new sharding).
    ///
    /// # Errors
    /// `axis` not an axis of the array; NCCL's failures; out of memory.
    pub fn reshard(&self, axis: usize) -> Result<ShardedArray<T>> {
        check_axis("ShardedArray::reshard", &self.shape, axis)?;
        let split = self.mesh.even_split(self.shape[axis]);
        self.reshard_to(axis, split)
    }

    /// The same array split along `axis` at `split` (`world + 1` offsets from 0 to the
    /// axis's length, never decreasing).
    ///
    /// # Errors
    /// `axis` not an axis of the array; a split of the wrong length, decreasing, or not
    /// ending at the axis's length; NCCL's failures; out of memory.
    pub fn reshard_to(&self, axis: usize, split: Vec<usize>) -> Result<ShardedArray<T>> {
        const OP: &str = "ShardedArray::reshard_to";
        check_axis(OP, &self.shape, axis)?;
        let world = self.mesh.world_size();
        if split.len() != world + 1
            || split[0] != 0
            || split[world] != self.shape[axis]
            || split.windows(2).any(|w| w[0] > w[1])
        {
            return Err(Error::invalid(
                OP,
                format!(
                    "split {split:?} is not {} non-decreasing offsets from 0 to {} (axis {axis} \
                     of shape {:?})",
                    world + 1,
                    self.shape[axis],
                    self.shape
                ),
            ));
        }
        if axis == self.axis && split == self.split {
            return Ok(self.clone());
        }
        let dst = |j: usize| split[j]..split[j + 1];
        let (from, to) = (self.axis, axis);
        // The part of rank i's shard (in its own coordinates) for rank j, and its shape.
        let part = |i: usize, j: usize| {
            let src = self.rows_of(i);
            let (a, b) = piece(from, &src, to, &dst(j));
            let mut shape = self.shape.clone();
            shape[from] = a.len();
            shape[to] = b.len();
            (a.start - src.start..a.end - src.start, b, shape)
        };
        let ranks = self.mesh.ranks();
        let sends: Vec<Vec<Array<T, Cuda>>> = ranks
            .iter()
            .zip(&self.shards)
            .map(|(&i, s)| {
                (0..world)
                    .map(|j| {
                        let (a, b, _) = part(i, j);
                        let p = rows(s, from, a.start, a.end)?;
                        if from == to {
                            Ok(p)
                        } else {
                            rows(&p, to, b.start, b.end)
                        }
                    })
                    .collect()
            })
            .collect::<Result<_>>()?;
        let shapes: Vec<Vec<Vec<usize>>> = ranks
            .iter()
            .map(|&j| (0..world).map(|i| part(i, j).2).collect())
            .collect();
        let got = self.mesh.exchange(&sends, &shapes)?;
        let shards = got
            .iter()
            .map(|pieces| Array::concatenate(&pieces.iter().collect::<Vec<_>>(), from as isize))
            .collect::<Result<_>>()?;
        Ok(ShardedArray {
            mesh: self.mesh.clone(),
            shape: self.shape.clone(),
            axis,
            split,
            shards,
        })
    }

    /// The same elements in C order with a new shape (NumPy's `reshape`, one `-1`
    /// allowed), split evenly along its first axis. The array is resharded along its first
    /// axis if it is split along another, each shard is flattened, the flat array is
    /// resharded so that every rank holds whole rows of the new shape, and each shard is
    /// reshaped.
    ///
    /// # Errors
    /// A shape of another size, or of no axes; NCCL's failures; out of memory.
    pub fn reshape(&self, shape: &[isize]) -> Result<ShardedArray<T>> {
        const OP: &str = "ShardedArray::reshape";
        let size: usize = self.shape.iter().product();
        let new = cuprite_core::resolve_shape(OP, shape, size, &self.shape)?;
        check_axis(OP, &new, 0)?;
        let along0 = if self.axis == 0 {
            self.clone()
        } else {
            self.reshard(0)?
        };
        let old_row: usize = self.shape[1..].iter().product();
        let new_row: usize = new[1..].iter().product();
        let flat = ShardedArray {
            mesh: self.mesh.clone(),
            shape: vec![size],
            axis: 0,
            split: along0.split.iter().map(|&r| r * old_row).collect(),
            shards: along0
                .shards
                .iter()
                .map(|s| s.reshape(&[-1]))
                .collect::<Result<_>>()?,
        };
        let rows = self.mesh.even_split(new[0]);
        let flat = flat.reshard_to(0, rows.iter().map(|&r| r * new_row).collect())?;
        let shards = self
            .mesh
            .ranks()
            .into_iter()
            .zip(&flat.shards)
            .map(|(r, s)| {
                let dims: Vec<isize> = std::iter::once((rows[r + 1] - rows[r]) as isize)
                    .chain(new[1..].iter().map(|&d| d as isize))
                    .collect();
                s.reshape(&dims)
            })
            .collect::<Result<_>>()?;
        Ok(ShardedArray {
            mesh: self.mesh.clone(),
            shape: new,
            axis: 0,
            split: rows,
            shards,
        })
    }

    /// The array sorted along `axis` (NumPy's `sort`, NaN last, stable): each shard alone
    /// when `axis` is not split; a sample sort across the ranks for a 1-d array; for more
    /// axes, the array is resharded along another axis, sorted there and resharded back.
    ///
    /// # Errors
    /// `axis` out of range; NCCL's failures; out of memory.
    pub fn sort(&self, axis: usize) -> Result<ShardedArray<T>> {
        const OP: &str = "ShardedArray::sort";
        if axis >= self.ndim() {
            return Err(Error::invalid(
                OP,
                format!("axis {axis} is out of range for shape {:?}", self.shape),
            ));
        }
        if axis != self.axis {
            let shards = self
                .shards
                .iter()
                .map(|s| s.sort(axis as isize))
                .collect::<Result<_>>()?;
            return Ok(self.with_shards(shards));
        }
        if self.ndim() > 1 {
            let other = usize::from(axis == 0);
            return self
                .reshard(other)?
                .sort(axis)?
                .reshard_to(axis, self.split.clone());
        }
        self.sample_sort()
    }

    /// The sample sort of a 1-d array (see the module's doc).
    fn sample_sort(&self) -> Result<ShardedArray<T>> {
        let mesh: &Mesh = &self.mesh;
        let world = mesh.world_size();
        let sorted: Vec<Array<T, Cuda>> = self
            .shards
            .iter()
            .map(|s| s.sort(0))
            .collect::<Result<_>>()?;
        if world == 1 || self.shape[0] == 0 {
            return Ok(self.with_shards(sorted));
        }
        let per = SAMPLES_PER_RANK * world;
        let ranks = mesh.ranks();
        // Evenly spaced samples of each sorted shard (a placeholder for an empty one).
        let samples: Vec<Array<T, Cuda>> = ranks
            .iter()
            .zip(&sorted)
            .map(|(&r, s)| {
                let n = self.rows_of(r).len();
                if n == 0 {
                    return Array::zeros(&[per], s.device());
                }
                let at: Vec<i64> = (0..per)
                    .map(|t| ((2 * t + 1) * n / (2 * per)) as i64)
                    .collect();
                s.take(&Array::from_slice(&at, &[per], s.device())?, Some(0))
            })
            .collect::<Result<_>>()?;
        let with_rows: Vec<i64> = (0..world)
            .filter(|&r| !self.rows_of(r).is_empty())
            .map(|r| r as i64)
            .collect();
        let gathered = mesh.all_gather(&samples)?;
        // Every rank: the same samples, sorted the same way, the same splitters.
        let splitters: Vec<Array<T, Cuda>> = gathered
            .iter()
            .map(|g| {
                let dev = g.device();
                let keep = Array::from_slice(&with_rows, &[with_rows.len()], dev)?;
                let all = g.take(&keep, Some(0))?.reshape(&[-1])?.sort(0)?;
                let m = all.shape()[0];
                let at: Vec<i64> = (1..world).map(|j| (j * m / world) as i64).collect();
                all.take(&Array::from_slice(&at, &[world - 1], dev)?, Some(0))
            })
            .collect::<Result<_>>()?;
        // Each rank's cut points, then how many elements every rank sends every other.
        let counts: Vec<Array<i64, Cuda>> = sorted
            .iter()
            .zip(&splitters)
            .map(|(s, sp)| {
                let cut = s.searchsorted(sp, Side::Right)?.to_vec()?;
                let mut bounds = vec![0i64];
                bounds.extend(cut);
                bounds.push(s.shape()[0] as i64);
                let c: Vec<i64> = bounds.windows(2).map(|w| w[1] - w[0]).collect();
                Array::from_slice(&c, &[world], s.device())
            })
            .collect::<Result<_>>()?;
        let table = mesh.all_gather(&counts)?[0].to_vec()?;
        let count = |i: usize, j: usize| table[i * world + j] as usize;
        let sends: Vec<Vec<Array<T, Cuda>>> = ranks
            .iter()
            .zip(&sorted)
            .map(|(&i, s)| {
                let mut at = 0;
                (0..world)
                    .map(|j| {
                        let p = rows(s, 0, at, at + count(i, j));
                        at += count(i, j);
                        p
                    })
                    .collect()
            })
            .collect::<Result<_>>()?;
        let shapes: Vec<Vec<Vec<usize>>> = ranks
            .iter()
            .map(|&j| (0..world).map(|i| vec![count(i, j)]).collect())
            .collect();
        let got = mesh.exchange(&sends, &shapes)?;
        // What a rank receives is one sorted run from every rank, in rank order: merged.
        let shards = ranks
            .iter()
            .zip(&got)
            .map(|(&j, pieces)| {
                let mut bounds = vec![0];
                for i in 0..world {
                    bounds.push(bounds[i] + count(i, j));
                }
                let runs = Array::concatenate(&pieces.iter().collect::<Vec<_>>(), 0)?;
                merge_runs(&runs, &bounds)
            })
            .collect::<Result<_>>()?;
        let mut split = vec![0];
        for j in 0..world {
            split.push(split[j] + (0..world).map(|i| count(i, j)).sum::<usize>());
        }
        let uneven = ShardedArray {
            mesh: self.mesh.clone(),
            shape: self.shape.clone(),
            axis: 0,
            split,
            shards,
        };
        uneven.reshard_to(0, self.split.clone())
    }
}

/// Samples each rank contributes per rank of the mesh: more samples, splitters closer to
/// the quantiles, shards closer to even before the last reshard.
const SAMPLES_PER_RANK: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_tile_the_array() {
        // Along the same axis: the overlaps of the two splits.
        let (a, b) = piece(0, &(0..4), 0, &(2..7));
        assert_eq!((a, b), (2..4, 2..4));
        let (a, _) = piece(0, &(0..4), 0, &(7..10));
        assert!(a.is_empty());
        // To another axis: the sender's rows, the receiver's columns.
        let (a, b) = piece(0, &(4..7), 1, &(2..4));
        assert_eq!((a, b), (4..7, 2..4));
        // Every element lands once: three source and two destination ranks.
        let src = [0..4, 4..7, 7..10];
        let dst = [0..5, 5..10];
        let total: usize = src
            .iter()
            .flat_map(|s| dst.iter().map(move |d| piece(0, s, 0, d).0.len()))
            .sum();
        assert_eq!(total, 10);
    }
}
