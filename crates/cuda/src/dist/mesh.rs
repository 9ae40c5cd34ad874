//! [`Mesh`]: the GPUs an array is split over, and the three collective moves every
//! sharded op is built from: an element-wise reduction over the ranks, a gather of every
//! rank's array, and an exchange of pieces between every pair of ranks. Each takes and
//! returns one array per rank this process drives, in the mesh's order.
//!
//! A mesh is one process driving all its GPUs ([`Mesh::new`]) or one rank of a job of one
//! process per GPU ([`Mesh::from_env`]); the sharded ops run the same code on both, each
//! process working on the shards it holds.

use super::comm::{group, Communicator};
use super::nccl::ReduceOp;
use crate::device::Cuda;
use cuprite_core::{Array, Element, Error, Result};
use std::rc::Rc;
use std::time::Duration;

/// How the ranks of a mesh reach each other.
enum Links {
    /// NCCL communicators, one per rank this process drives.
    Nccl(Vec<Communicator>),
    /// Every rank in this process, moved by device copies: the unit tests' stand-in for
    /// several GPUs, so the sharded algorithms run with several ranks on one GPU (NCCL
    /// refuses two ranks on one GPU).
    #[cfg(test)]
    Simulated(Vec<Cuda>),
}

/// The ranks an array is split over: a group of GPUs joined by NCCL, and which of its
/// ranks this process drives. Shared by the arrays on it (`Rc`).
pub struct Mesh {
    links: Links,
    world: usize,
}

impl std::fmt::Debug for Mesh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Mesh(ranks {:?} of {} here, on cuda:{:?})",
            self.ranks(),
            self.world,
            self.devices().iter().map(Cuda::ordinal).collect::<Vec<_>>()
        )
    }
}

impl Mesh {
    /// One process driving every GPU of `devs` (rank `i` on `devs[i]`), through NCCL.
    ///
    /// # Errors
    /// As [`Communicator::new_all`]: no NCCL, no devices, the same GPU twice.
    pub fn new(devs: &[Cuda]) -> Result<Rc<Mesh>> {
        Self::from_communicators(Communicator::new_all(devs)?)
    }

    /// This process's rank of a job of one process per GPU, as torchrun launches it (see
    /// [`Communicator::from_env`]).
    ///
    /// # Errors
    /// As [`Communicator::from_env`].
    pub fn from_env(timeout: Duration) -> Result<Rc<Mesh>> {
        Self::from_communicators(vec![Communicator::from_env(timeout)?])
    }

    /// A mesh of communicators made by other means: ranks of one world, each once.
    ///
    /// # Errors
    /// No communicator, communicators of different worlds, a rank twice.
    pub fn from_communicators(comms: Vec<Communicator>) -> Result<Rc<Mesh>> {
        const OP: &str = "Mesh::from_communicators";
        let Some(first) = comms.first() else {
            return Err(Error::invalid(OP, "no communicator given"));
        };
        let world = first.world_size();
        for (i, c) in comms.iter().enumerate() {
            if c.world_size() != world {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "communicators of worlds of {world} and {} ranks",
                        c.world_size()
                    ),
                ));
            }
            if comms[..i].iter().any(|d| d.rank() == c.rank()) {
                return Err(Error::invalid(OP, format!("rank {} given twice", c.rank())));
            }
        }
        Ok(Rc::new(Mesh {
            links: Links::Nccl(comms),
            world,
        }))
    }

    /// `n` ranks on the devices `devs` (repeats allowed), all in this process, moved by
    /// device copies.
    #[cfg(test)]
    pub(crate) fn simulated(devs: Vec<Cuda>) -> Rc<Mesh> {
        let world = devs.len();
        Rc::new(Mesh {
            links: Links::Simulated(devs),
            world,
        })
    }

    /// The number of ranks of the mesh.
    pub fn world_size(&self) -> usize {
        self.world
    }

    /// The ranks this process drives, in the order of its shards.
    pub fn ranks(&self) -> Vec<usize> {
        match &self.links {
            Links::Nccl(c) => c.iter().map(Communicator::rank).collect(),
            #[cfg(test)]
            Links::Simulated(d) => (0..d.len()).collect(),
        }
    }

    /// The device of each rank this process drives, in the order of its shards.
    pub fn devices(&self) -> Vec<Cuda> {
        match &self.links {
            Links::Nccl(c) => c.iter().map(|c| c.device().clone()).collect(),
            #[cfg(test)]
            Links::Simulated(d) => d.clone(),
        }
    }

    /// True when this process drives every rank (so a whole array can be assembled here).
    pub fn is_whole(&self) -> bool {
        self.ranks().len() == self.world
    }

    /// The split of `n` rows over the mesh's ranks, as [`even_split`] makes it.
    pub fn even_split(&self, n: usize) -> Vec<usize> {
        even_split(n, self.world)
    }

    /// The element-wise reduction `op` of every rank's array, on every rank (one array per
    /// rank here in, one out).
    pub(crate) fn all_reduce<T: Element>(
        &self,
        xs: &[Array<T, Cuda>],
        op: ReduceOp,
    ) -> Result<Vec<Array<T, Cuda>>> {
        match &self.links {
            Links::Nccl(c) => run(c, |c, l| c.all_reduce(&xs[l], op)),
            #[cfg(test)]
            Links::Simulated(devs) => {
                assert_eq!(op, ReduceOp::Sum, "the simulated mesh only sums");
                let mut acc = xs[0].to_device(&devs[0])?;
                for x in &xs[1..] {
                    acc = sum_pair(&acc, &x.to_device(&devs[0])?)?;
                }
                devs.iter().map(|d| acc.to_device(d)).collect()
            }
        }
    }

    /// Every rank's array stacked along a new first axis, on every rank.
    pub(crate) fn all_gather<T: Element>(
        &self,
        xs: &[Array<T, Cuda>],
    ) -> Result<Vec<Array<T, Cuda>>> {
        match &self.links {
            Links::Nccl(c) => run(c, |c, l| c.all_gather(&xs[l])),
            #[cfg(test)]
            Links::Simulated(devs) => devs
                .iter()
                .map(|d| {
                    let on: Vec<Array<T, Cuda>> =
                        xs.iter().map(|x| x.to_device(d)).collect::<Result<_>>()?;
                    Array::stack(&on.iter().collect::<Vec<_>>(), 0)
                })
                .collect(),
        }
    }

    /// Moves pieces between every pair of ranks: `sends[l][j]` goes from this process's
    /// `l`-th rank to rank `j`; the result's `[l][i]` is what the `l`-th rank received from
    /// rank `i`, of shape `recv_shapes[l][i]` (which both sides know).
    pub(crate) fn exchange<T: Element>(
        &self,
        sends: &[Vec<Array<T, Cuda>>],
        recv_shapes: &[Vec<Vec<usize>>],
    ) -> Result<Vec<Vec<Array<T, Cuda>>>> {
        match &self.links {
            Links::Nccl(comms) => {
                // Every rank's sends and receives in one group, so none waits on another.
                let got = group(|| {
                    let mut got = Vec::with_capacity(comms.len());
                    for (l, c) in comms.iter().enumerate() {
                        let mut row = Vec::with_capacity(self.world);
                        for peer in 0..self.world {
                            if peer == c.rank() {
                                row.push(None);
                                continue;
                            }
                            c.send(&sends[l][peer], peer)?;
                            row.push(Some(c.recv::<T>(&recv_shapes[l][peer], peer)?));
                        }
                        got.push(row);
                    }
                    Ok(got)
                })?;
                got.into_iter()
                    .zip(comms)
                    .enumerate()
                    .map(|(l, (row, c))| {
                        row.into_iter()
                            .map(|r| match r {
                                Some(a) => Ok(a),
                                // A rank's piece for itself stays on its device.
                                None => sends[l][c.rank()].to_contiguous(),
                            })
                            .collect()
                    })
                    .collect()
            }
            #[cfg(test)]
            Links::Simulated(devs) => devs
                .iter()
                .enumerate()
                .map(|(l, d)| {
                    (0..self.world)
                        .map(|i| {
                            let a = sends[i][l].to_device(d)?;
                            assert_eq!(a.shape(), &recv_shapes[l][i][..]);
                            Ok(a)
                        })
                        .collect()
                })
                .collect(),
        }
    }
}

/// Runs `f` for each communicator (with its index), inside one group when there are several.
fn run<R>(comms: &[Communicator], f: impl Fn(&Communicator, usize) -> Result<R>) -> Result<Vec<R>> {
    let all = || comms.iter().enumerate().map(|(l, c)| f(c, l)).collect();
    if comms.len() == 1 {
        all()
    } else {
        group(all)
    }
}

/// `a + b` for any element type (the simulated mesh's sum; bool sums as `or`).
#[cfg(test)]
fn sum_pair<T: Element>(a: &Array<T, Cuda>, b: &Array<T, Cuda>) -> Result<Array<T, Cuda>> {
    let both = Array::stack(&[a, b], 0)?;
    both.sum_axes(0, false)?.astype::<T>()
}

/// The split of `n` rows over `world` ranks as NumPy's `array_split` makes it: `world + 1`
/// offsets, rank `r` holding rows `off[r]..off[r + 1]`, the first `n % world` ranks one row
/// longer than the rest (a world of 0 counts as 1).
///
/// ```
/// use cuprite_cuda::dist::even_split;
/// assert_eq!(even_split(10, 3), vec![0, 4, 7, 10]);
/// assert_eq!(even_split(2, 4), vec![0, 1, 2, 2, 2]);
/// ```
pub fn even_split(n: usize, world: usize) -> Vec<usize> {
    let world = world.max(1);
    let (q, r) = (n / world, n % world);
    let mut off = Vec::with_capacity(world + 1);
    off.push(0);
    for k in 0..world {
        off.push(off[k] + q + usize::from(k < r));
    }
    off
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_split_is_array_split() {
        assert_eq!(even_split(10, 3), vec![0, 4, 7, 10]);
        assert_eq!(even_split(2, 4), vec![0, 1, 2, 2, 2]);
        assert_eq!(even_split(0, 2), vec![0, 0, 0]);
        assert_eq!(even_split(9, 1), vec![0, 9]);
    }
}
