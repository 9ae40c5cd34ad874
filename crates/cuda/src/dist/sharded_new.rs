//! Making a [`ShardedArray`]: filled (`zeros`, `ones`, `full`, `ramp`), split from an array
//! on the host or on one GPU, assembled from shards the ranks already hold, and drawn at
//! random so that the whole array is, bit for bit, what one GPU draws from the same
//! generator (each rank computes only its own part of the Philox stream).

use super::mesh::Mesh;
use super::sharded::{check_axis, rows, with_axis, ShardedArray};
use crate::device::Cuda;
use cuprite_core::backend::RandomOps;
use cuprite_core::random::{Draw, FloatDist, Generator};
use cuprite_core::{Array, ArrayBackend, Element, Error, Float, Layout, Numeric, Result};
use std::rc::Rc;

impl<T: Element> ShardedArray<T> {
    /// An array of `shape` split evenly along `axis`, each rank's shard made by
    /// `make(rank, rows, shard shape, device)`.
    fn build(
        op: &'static str,
        mesh: &Rc<Mesh>,
        shape: &[usize],
        axis: usize,
        make: impl Fn(usize, std::ops::Range<usize>, &[usize], &Cuda) -> Result<Array<T, Cuda>>,
    ) -> Result<ShardedArray<T>> {
        check_axis(op, shape, axis)?;
        let split = mesh.even_split(shape[axis]);
        let shards = mesh
            .ranks()
            .into_iter()
            .zip(mesh.devices())
            .map(|(r, dev)| {
                let rows = split[r]..split[r + 1];
                make(r, rows.clone(), &with_axis(shape, axis, rows.len()), &dev)
            })
            .collect::<Result<_>>()?;
        Ok(ShardedArray {
            mesh: mesh.clone(),
            shape: shape.to_vec(),
            axis,
            split,
            shards,
        })
    }

    /// `value` everywhere, split evenly along `axis` (NumPy `full`).
    ///
    /// # Errors
    /// `axis` not an axis of `shape`; as [`Array::full`].
    pub fn full(mesh: &Rc<Mesh>, shape: &[usize], axis: usize, value: T) -> Result<Self> {
        Self::build("ShardedArray::full", mesh, shape, axis, |_, _, s, d| {
            Array::full(s, value, d)
        })
    }

    /// Zeros, split evenly along `axis`.
    ///
    /// # Errors
    /// As [`full`](Self::full).
    pub fn zeros(mesh: &Rc<Mesh>, shape: &[usize], axis: usize) -> Result<Self> {
        Self::full(mesh, shape, axis, T::ZERO)
    }

    /// `a` (on the host or on any GPU) split evenly along `axis`: each rank copies its rows
    /// straight to its GPU.
    ///
    /// # Errors
    /// `axis` not an axis of `a`; as [`Array::to_device`].
    pub fn from_array<B: ArrayBackend>(
        mesh: &Rc<Mesh>,
        a: &Array<T, B>,
        axis: usize,
    ) -> Result<Self> {
        Self::build(
            "ShardedArray::from_array",
            mesh,
            a.shape(),
            axis,
            |_, r, _, d| rows(a, axis, r.start, r.end)?.to_device(d),
        )
    }

    /// An array assembled from the shards the ranks hold (this process's, one per rank it
    /// drives, in the mesh's order), split along `axis`. Every rank calls it: the shard
    /// lengths are all-gathered, and shards whose other axes or rank disagree are an `Err`
    /// on every rank.
    ///
    /// # Errors
    /// A shard count unlike the mesh's, a shard on another rank's GPU, shards of different
    /// shapes off the split axis, `axis` not an axis of a shard; NCCL's failures.
    pub fn from_shards(mesh: &Rc<Mesh>, shards: Vec<Array<T, Cuda>>, axis: usize) -> Result<Self> {
        const OP: &str = "ShardedArray::from_shards";
        let devs = mesh.devices();
        if shards.len() != devs.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "{} shards for the {} ranks this process drives",
                    shards.len(),
                    devs.len()
                ),
            ));
        }
        // Each rank's shape as 9 words: the rank of the array, then up to 8 axes.
        const WORDS: usize = 9;
        let mut descs = Vec::with_capacity(shards.len());
        for (s, d) in shards.iter().zip(&devs) {
            if s.device().ordinal() != d.ordinal() {
                return Err(Error::DeviceMismatch {
                    op: OP,
                    lhs: format!("a rank on cuda:{}", d.ordinal()),
                    rhs: format!("its shard on cuda:{}", s.device().ordinal()),
                });
            }
            check_axis(OP, s.shape(), axis)?;
            if s.ndim() >= WORDS {
                return Err(Error::invalid(
                    OP,
                    format!("shards of {} axes (at most 8)", s.ndim()),
                ));
            }
            let mut w = [0i64; WORDS];
            w[0] = s.ndim() as i64;
            for (k, &n) in s.shape().iter().enumerate() {
                w[1 + k] = n as i64;
            }
            descs.push(Array::from_slice(&w, &[WORDS], d)?);
        }
        let all = mesh.all_gather(&descs)?[0].to_vec()?;
        let shape_of = |r: usize| -> Vec<usize> {
            let w = &all[r * WORDS..(r + 1) * WORDS];
            w[1..1 + w[0] as usize]
                .iter()
                .map(|&n| n as usize)
                .collect()
        };
        let first = shape_of(0);
        let mut split = vec![0];
        for r in 0..mesh.world_size() {
            let s = shape_of(r);
            if s.len() != first.len() || (0..s.len()).any(|k| k != axis && s[k] != first[k]) {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: first,
                    rhs: s,
                });
            }
            split.push(split[r] + s[axis]);
        }
        let shape = with_axis(&first, axis, split[mesh.world_size()]);
        Ok(ShardedArray {
            mesh: mesh.clone(),
            shape,
            axis,
            split,
            shards,
        })
    }
}

impl<T: Numeric> ShardedArray<T> {
    /// Ones, split evenly along `axis`.
    ///
    /// # Errors
    /// As [`full`](Self::full).
    pub fn ones(mesh: &Rc<Mesh>, shape: &[usize], axis: usize) -> Result<Self> {
        Self::full(mesh, shape, axis, T::ONE)
    }

    /// The 1-d array `start + i * step` for `i` in `0..n`, split evenly (the values one
    /// GPU's `ramp` makes, each rank computing its own).
    ///
    /// # Errors
    /// As [`Array::ramp`].
    pub fn ramp(mesh: &Rc<Mesh>, n: usize, start: T, step: T) -> Result<Self> {
        Self::build("ShardedArray::ramp", mesh, &[n], 0, |_, r, _, d| {
            let first = T::from_scalar(cuprite_core::Scalar::U64(r.start as u64));
            let at = Array::ramp(r.len(), first, T::ONE, d)?;
            at.try_mul(&Array::scalar(step, d)?)?
                .try_add(&Array::scalar(start, d)?)
        })
    }
}

impl<T: Float> ShardedArray<T> {
    /// A draw of `shape` split along `axis` from `fill(device, n, draw)`: rank `r` fills the
    /// elements of its rows. Along axis 0 those are one run of the C-order draw; along
    /// another axis the draw is split along axis 0 and resharded.
    fn drawn(
        op: &'static str,
        mesh: &Rc<Mesh>,
        rng: &mut Generator,
        shape: &[usize],
        axis: usize,
        fill: impl Fn(&Cuda, usize, &Draw) -> Result<<Cuda as cuprite_core::BackendBase>::Buffer<T>>,
    ) -> Result<Self> {
        check_axis(op, shape, axis)?;
        let n = cuprite_core::layout::check_shape(op, shape, std::mem::size_of::<T>())?;
        let d = rng.reserve(op, n)?;
        let row = n.checked_div(shape[0]).unwrap_or(0);
        let along0 = Self::build(op, mesh, shape, 0, |_, r, s, dev| {
            let buf = fill(dev, r.len() * row, &d.starting_at((r.start * row) as u64))?;
            Array::from_raw_parts(buf, Layout::contiguous(s), dev.clone())
        })?;
        if axis == 0 {
            Ok(along0)
        } else {
            along0.reshard(axis)
        }
    }

    /// Uniform values in `[0, 1)` (NumPy `rng.random`), the same bits one GPU draws from
    /// `rng`, which advances as it would there.
    ///
    /// # Errors
    /// `axis` not an axis of `shape`; the generator's stream exhausted; out of memory.
    pub fn random(
        mesh: &Rc<Mesh>,
        rng: &mut Generator,
        shape: &[usize],
        axis: usize,
    ) -> Result<Self> {
        Self::drawn(
            "ShardedArray::random",
            mesh,
            rng,
            shape,
            axis,
            |d, n, dr| d.random_uniform(n, dr, T::zero(), T::one()),
        )
    }

    /// Uniform values in `[low, high)` (NumPy `rng.uniform`), as one GPU draws them.
    ///
    /// # Errors
    /// As [`random`](Self::random), and unless `low < high` with a finite difference.
    pub fn uniform(
        mesh: &Rc<Mesh>,
        rng: &mut Generator,
        low: T,
        high: T,
        shape: &[usize],
        axis: usize,
    ) -> Result<Self> {
        const OP: &str = "ShardedArray::uniform";
        if !(low < high && (high - low).to_f64_lossy().is_finite()) {
            return Err(Error::invalid(
                OP,
                format!("need low < high with a finite difference, got low={low}, high={high}"),
            ));
        }
        Self::drawn(OP, mesh, rng, shape, axis, |d, n, dr| {
            d.random_uniform(n, dr, low, high)
        })
    }

    /// Normal values (NumPy `rng.normal`), as one GPU draws them.
    ///
    /// # Errors
    /// As [`random`](Self::random), and when `scale < 0` or a parameter is not finite.
    pub fn normal(
        mesh: &Rc<Mesh>,
        rng: &mut Generator,
        loc: f64,
        scale: f64,
        shape: &[usize],
        axis: usize,
    ) -> Result<Self> {
        const OP: &str = "ShardedArray::normal";
        if !(loc.is_finite() && scale.is_finite() && scale >= 0.0) {
            return Err(Error::invalid(
                OP,
                format!("need finite loc and scale >= 0, got loc={loc}, scale={scale}"),
            ));
        }
        Self::drawn(OP, mesh, rng, shape, axis, |d, n, dr| {
            d.random_float(n, dr, FloatDist::Normal { loc, scale })
        })
    }
}
