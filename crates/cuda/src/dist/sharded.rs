//! [`ShardedArray`]: one array split along one axis over the ranks of a [`Mesh`], each
//! rank holding its rows on its own GPU, and [`Replicated`]: the same array whole on every
//! rank. Ops on them run each rank's share with the ordinary single-GPU ops and meet
//! through NCCL only where the result needs every rank's rows (see the sibling files:
//! creation, element-wise ops and reductions, matmul, resharding and sorting).
//!
//! A shard's split is the list of `world + 1` offsets along the axis (rank `r` holds rows
//! `split[r]..split[r + 1]`); every rank knows the whole list, so no op has to ask the
//! others how long their shards are. Creation splits evenly, as NumPy's `array_split` does;
//! a sort leaves the split even too.

use super::mesh::Mesh;
use crate::device::Cuda;
use cuprite_core::{Array, ArrayBackend, Element, Error, Result, SliceArg};
use std::rc::Rc;

/// An array split along `axis` over the ranks of a [`Mesh`].
pub struct ShardedArray<T: Element> {
    pub(crate) mesh: Rc<Mesh>,
    pub(crate) shape: Vec<usize>,
    pub(crate) axis: usize,
    pub(crate) split: Vec<usize>,
    /// One shard per rank this process drives, in the mesh's order.
    pub(crate) shards: Vec<Array<T, Cuda>>,
}

impl<T: Element> Clone for ShardedArray<T> {
    fn clone(&self) -> Self {
        ShardedArray {
            mesh: self.mesh.clone(),
            shape: self.shape.clone(),
            axis: self.axis,
            split: self.split.clone(),
            shards: self.shards.clone(),
        }
    }
}

impl<T: Element> std::fmt::Debug for ShardedArray<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ShardedArray<{:?}>(shape {:?}, split along axis {} at {:?}, {:?})",
            T::DTYPE,
            self.shape,
            self.axis,
            self.split,
            self.mesh
        )
    }
}

/// The same array whole on every rank of a [`Mesh`] (what a reduction over the split
/// axis returns, and what a sharded array broadcasts against).
pub struct Replicated<T: Element> {
    pub(crate) mesh: Rc<Mesh>,
    /// One copy per rank this process drives, in the mesh's order.
    pub(crate) copies: Vec<Array<T, Cuda>>,
}

impl<T: Element> Clone for Replicated<T> {
    fn clone(&self) -> Self {
        Replicated {
            mesh: self.mesh.clone(),
            copies: self.copies.clone(),
        }
    }
}

impl<T: Element> std::fmt::Debug for Replicated<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Replicated<{:?}>(shape {:?}, {:?})",
            T::DTYPE,
            self.shape(),
            self.mesh
        )
    }
}

/// The result of an op that may come out split or whole: a reduction over the split axis
/// (or over everything), or a matmul whose inner axis was split, is whole on every rank;
/// otherwise the result keeps a split.
#[derive(Clone, Debug)]
pub enum Distributed<T: Element> {
    /// Split over the ranks.
    Sharded(ShardedArray<T>),
    /// Whole on every rank.
    Replicated(Replicated<T>),
}

impl<T: Element> Distributed<T> {
    /// The global shape.
    pub fn shape(&self) -> Vec<usize> {
        match self {
            Distributed::Sharded(s) => s.shape().to_vec(),
            Distributed::Replicated(r) => r.shape().to_vec(),
        }
    }

    /// The whole array on the host (see [`ShardedArray::to_vec`]).
    ///
    /// # Errors
    /// As [`ShardedArray::to_vec`].
    pub fn to_vec(&self) -> Result<Vec<T>> {
        match self {
            Distributed::Sharded(s) => s.to_vec(),
            Distributed::Replicated(r) => r.to_vec(),
        }
    }

    /// The whole array on `dev` (see [`ShardedArray::gather`]).
    ///
    /// # Errors
    /// As [`ShardedArray::gather`].
    pub fn gather(&self, dev: &Cuda) -> Result<Array<T, Cuda>> {
        match self {
            Distributed::Sharded(s) => s.gather(dev),
            Distributed::Replicated(r) => r.copies[0].to_device(dev),
        }
    }

    /// The sharded result, or an `Err` naming `op` when it is whole.
    ///
    /// # Errors
    /// The result is [`Distributed::Replicated`].
    pub fn into_sharded(self) -> Result<ShardedArray<T>> {
        match self {
            Distributed::Sharded(s) => Ok(s),
            Distributed::Replicated(r) => Err(Error::invalid(
                "Distributed::into_sharded",
                format!("the result of shape {:?} is whole on every rank", r.shape()),
            )),
        }
    }

    /// The whole result, or an `Err` when it is split.
    ///
    /// # Errors
    /// The result is [`Distributed::Sharded`].
    pub fn into_replicated(self) -> Result<Replicated<T>> {
        match self {
            Distributed::Replicated(r) => Ok(r),
            Distributed::Sharded(s) => Err(Error::invalid(
                "Distributed::into_replicated",
                format!(
                    "the result of shape {:?} is split along axis {}",
                    s.shape, s.axis
                ),
            )),
        }
    }
}

impl<T: Element> Replicated<T> {
    /// `a` copied whole to every rank's GPU (from the host, or from any GPU).
    ///
    /// # Errors
    /// As [`Array::to_device`].
    pub fn new<B: ArrayBackend>(mesh: &Rc<Mesh>, a: &Array<T, B>) -> Result<Replicated<T>> {
        let copies = mesh
            .devices()
            .iter()
            .map(|d| a.to_device(d))
            .collect::<Result<_>>()?;
        Ok(Replicated {
            mesh: mesh.clone(),
            copies,
        })
    }

    /// The shape of the array.
    pub fn shape(&self) -> &[usize] {
        self.copies[0].shape()
    }

    /// The copy on each rank this process drives, in the mesh's order.
    pub fn copies(&self) -> &[Array<T, Cuda>] {
        &self.copies
    }

    /// The mesh the copies are on.
    pub fn mesh(&self) -> &Rc<Mesh> {
        &self.mesh
    }

    /// `f` applied to every copy (each rank computes the same result).
    ///
    /// # Errors
    /// `f`'s error.
    pub fn map<U: Element>(
        &self,
        f: impl Fn(&Array<T, Cuda>) -> Result<Array<U, Cuda>>,
    ) -> Result<Replicated<U>> {
        Ok(Replicated {
            mesh: self.mesh.clone(),
            copies: self.copies.iter().map(f).collect::<Result<_>>()?,
        })
    }

    /// The array on the host (from this process's first copy).
    ///
    /// # Errors
    /// As [`Array::to_vec`].
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.copies[0].to_vec()
    }
}

impl<T: Element> ShardedArray<T> {
    /// The global shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of axes.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// The axis the array is split along.
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// The split: `world + 1` offsets along the axis, rank `r` holding rows
    /// `split[r]..split[r + 1]`.
    pub fn split(&self) -> &[usize] {
        &self.split
    }

    /// The shards of the ranks this process drives, in the mesh's order.
    pub fn shards(&self) -> &[Array<T, Cuda>] {
        &self.shards
    }

    /// The mesh the array is split over.
    pub fn mesh(&self) -> &Rc<Mesh> {
        &self.mesh
    }

    /// The rows of rank `r` along the split axis.
    pub fn rows_of(&self, r: usize) -> std::ops::Range<usize> {
        self.split[r]..self.split[r + 1]
    }

    /// An array of the same mesh, split and shape with new shards.
    pub(crate) fn with_shards<U: Element>(&self, shards: Vec<Array<U, Cuda>>) -> ShardedArray<U> {
        ShardedArray {
            mesh: self.mesh.clone(),
            shape: self.shape.clone(),
            axis: self.axis,
            split: self.split.clone(),
            shards,
        }
    }

    /// The whole array on `dev`, assembled from every shard (copied GPU to GPU). Needs a
    /// mesh this process drives whole; one rank of a job of several processes uses
    /// [`all_gather`](Self::all_gather).
    ///
    /// # Errors
    /// A mesh not driven whole by this process; as [`Array::to_device`].
    pub fn gather(&self, dev: &Cuda) -> Result<Array<T, Cuda>> {
        const OP: &str = "ShardedArray::gather";
        if !self.mesh.is_whole() {
            return Err(Error::invalid(
                OP,
                format!(
                    "this process holds ranks {:?} of {}: use all_gather to assemble the array \
                     of shape {:?} on every rank",
                    self.mesh.ranks(),
                    self.mesh.world_size(),
                    self.shape
                ),
            ));
        }
        let on: Vec<Array<T, Cuda>> = self
            .shards
            .iter()
            .map(|s| s.to_device(dev))
            .collect::<Result<_>>()?;
        Array::concatenate(&on.iter().collect::<Vec<_>>(), self.axis as isize)
    }

    /// The whole array on every rank, through one NCCL all-gather (shards shorter than
    /// the longest travel padded).
    ///
    /// # Errors
    /// NCCL's failures; out of memory.
    pub fn all_gather(&self) -> Result<Replicated<T>> {
        let world = self.mesh.world_size();
        let longest = (0..world).map(|r| self.rows_of(r).len()).max().unwrap_or(0);
        // Each shard with its split axis first, padded to the longest.
        let padded = self
            .shards
            .iter()
            .map(|s| {
                let front = s.moveaxis(&[self.axis as isize], &[0])?;
                let short = longest - front.shape()[0];
                if short == 0 {
                    return front.to_contiguous();
                }
                let pad = Array::zeros(&with_axis(front.shape(), 0, short), s.device())?;
                Array::concatenate(&[&front, &pad], 0)
            })
            .collect::<Result<Vec<_>>>()?;
        let gathered = self.mesh.all_gather(&padded)?;
        let copies = gathered
            .iter()
            .map(|g| {
                let rows: Vec<Array<T, Cuda>> = (0..world)
                    .map(|r| {
                        let mut args =
                            vec![SliceArg::Index(r as isize), range(0, self.rows_of(r).len())];
                        args.resize(g.ndim(), full());
                        g.slice(&args)
                    })
                    .collect::<Result<_>>()?;
                Array::concatenate(&rows.iter().collect::<Vec<_>>(), 0)?
                    .moveaxis(&[0], &[self.axis as isize])
            })
            .collect::<Result<_>>()?;
        Ok(Replicated {
            mesh: self.mesh.clone(),
            copies,
        })
    }

    /// The whole array on the host: assembled on the first GPU when this process drives
    /// the mesh whole, else all-gathered.
    ///
    /// # Errors
    /// As [`gather`](Self::gather) and [`all_gather`](Self::all_gather).
    pub fn to_vec(&self) -> Result<Vec<T>> {
        if self.mesh.is_whole() {
            self.gather(&self.mesh.devices()[0])?.to_vec()
        } else {
            self.all_gather()?.to_vec()
        }
    }
}

/// `shape` with axis `axis` of length `len`.
pub(crate) fn with_axis(shape: &[usize], axis: usize, len: usize) -> Vec<usize> {
    let mut s = shape.to_vec();
    s[axis] = len;
    s
}

/// `start..stop` of an axis.
pub(crate) fn range(start: usize, stop: usize) -> SliceArg {
    SliceArg::Range {
        start: Some(start as isize),
        stop: Some(stop as isize),
        step: 1,
    }
}

/// A whole axis.
pub(crate) fn full() -> SliceArg {
    SliceArg::Range {
        start: None,
        stop: None,
        step: 1,
    }
}

/// Rows `start..stop` of `a` along `axis` (a view).
pub(crate) fn rows<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axis: usize,
    start: usize,
    stop: usize,
) -> Result<Array<T, B>> {
    let mut args = vec![full(); a.ndim()];
    args[axis] = range(start, stop);
    a.slice(&args)
}

/// Errors unless `axis` is an axis of `shape`, naming `op`.
pub(crate) fn check_axis(op: &'static str, shape: &[usize], axis: usize) -> Result<()> {
    if axis >= shape.len() {
        return Err(Error::invalid(
            op,
            format!(
                "axis {axis} is not an axis of shape {shape:?} (a sharded array needs an axis \
                 to split)"
            ),
        ));
    }
    Ok(())
}
