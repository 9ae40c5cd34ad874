//! Shape manipulation and copies built from views: squeeze/expand_dims/swapaxes/moveaxis/flip
//! and broadcast_arrays (metadata only), concatenate/stack/split, roll, repeat, tile and
//! constant padding. Every copy is a fresh destination written piece by piece with the
//! backend's `assign` (or one strided `copy` of a broadcast view), so it works on every backend
//! with no primitive of its own.

use super::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::{Layout, broadcast_shapes, check_wide_shape, normalize_axes, normalize_axis};

/// How [`Array::split`] and [`Array::array_split`] cut an axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sections {
    /// Into `n` pieces (equal for `split`; sizes differing by at most one for `array_split`).
    N(usize),
    /// At these positions (Python slice semantics: negative counts from the end, clamped).
    Indices(Vec<isize>),
}

impl From<usize> for Sections {
    fn from(n: usize) -> Self {
        Sections::N(n)
    }
}
impl From<Vec<isize>> for Sections {
    fn from(v: Vec<isize>) -> Self {
        Sections::Indices(v)
    }
}
impl From<&[isize]> for Sections {
    fn from(v: &[isize]) -> Self {
        Sections::Indices(v.to_vec())
    }
}

/// How many times [`Array::repeat`] repeats each element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repeats {
    /// Every element the same number of times.
    Each(usize),
    /// One count per element along the axis (a single count applies to all).
    PerElement(Vec<usize>),
}

impl From<usize> for Repeats {
    fn from(n: usize) -> Self {
        Repeats::Each(n)
    }
}
impl From<Vec<usize>> for Repeats {
    fn from(v: Vec<usize>) -> Self {
        Repeats::PerElement(v)
    }
}
impl From<&[usize]> for Repeats {
    fn from(v: &[usize]) -> Self {
        Repeats::PerElement(v.to_vec())
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Writes `src` into the part `dst_layout` of this fresh (unshared) array.
    pub(crate) fn write_part(&mut self, dst_layout: &Layout, src: &Array<T, B>) -> Result<()> {
        if dst_layout.size() == 0 {
            return Ok(());
        }
        self.device
            .assign(&mut self.buf, dst_layout, &src.buf, &src.layout)
    }

    /// Removes axes of length 1: every one with [`Axes::All`], else the listed ones.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when a listed axis does not have length 1,
    /// [`Error::AxisOutOfRange`] for a bad axis.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::zeros(&[1, 3, 1], dev)?;
    /// assert_eq!(a.squeeze(Axes::All)?.shape(), &[3]);
    /// assert_eq!(a.squeeze(-1)?.shape(), &[1, 3]);
    /// assert!(a.squeeze(1).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn squeeze(&self, axes: impl Into<Axes>) -> Result<Self> {
        const OP: &str = "squeeze";
        let axes = match axes.into() {
            Axes::All => (0..self.ndim()).filter(|&a| self.shape()[a] == 1).collect(),
            some => some.resolve(OP, self.ndim())?,
        };
        let mut l = self.layout.clone();
        for &a in axes.iter().rev() {
            if self.shape()[a] != 1 {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "cannot select an axis to squeeze out which has size not equal to one \
                         (axis {a} of shape {:?})",
                        self.shape()
                    ),
                ));
            }
            l = l.remove_axis(a);
        }
        Ok(self.with_layout(l))
    }

    /// Inserts axes of length 1 at the given positions of the result (a view).
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] for a position outside the result's rank,
    /// [`Error::InvalidArgument`] for a repeated axis or [`Axes::All`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::zeros(&[2, 3], dev)?;
    /// assert_eq!(a.expand_dims([0, -1])?.shape(), &[1, 2, 3, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn expand_dims(&self, axes: impl Into<Axes>) -> Result<Self> {
        const OP: &str = "expand_dims";
        let axes = match axes.into() {
            Axes::All => return Err(Error::invalid(OP, "expects explicit axes")),
            Axes::Some(v) => v,
        };
        let out_ndim = self.ndim() + axes.len();
        crate::layout::check_ndim(OP, out_ndim)?;
        let axes = normalize_axes(OP, &axes, out_ndim)?;
        let mut l = self.layout.clone();
        for &a in &axes {
            l = l.insert_axis(a);
        }
        Ok(self.with_layout(l))
    }

    /// Exchanges two axes (a view).
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`].
    pub fn swapaxes(&self, axis1: isize, axis2: isize) -> Result<Self> {
        let a = normalize_axis("swapaxes", axis1, self.ndim())?;
        let b = normalize_axis("swapaxes", axis2, self.ndim())?;
        let mut perm: Vec<isize> = (0..self.ndim() as isize).collect();
        perm.swap(a, b);
        self.permute_dims(&perm)
    }

    /// Moves axes `source[i]` to positions `destination[i]`, the others keeping their order
    /// (a view).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the lists differ in length or repeat an axis,
    /// [`Error::AxisOutOfRange`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::zeros(&[3, 4, 5], dev)?;
    /// assert_eq!(a.moveaxis(&[0], &[-1])?.shape(), &[4, 5, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn moveaxis(&self, source: &[isize], destination: &[isize]) -> Result<Self> {
        const OP: &str = "moveaxis";
        if source.len() != destination.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "`source` {source:?} and `destination` {destination:?} arguments must have \
                     the same number of elements"
                ),
            ));
        }
        let n = self.ndim();
        let resolve = |v: &[isize]| -> Result<Vec<usize>> {
            normalize_axes(OP, v, n)?; // rejects repeats
            v.iter().map(|&a| normalize_axis(OP, a, n)).collect()
        };
        let src = resolve(source)?;
        let dst = resolve(destination)?;
        let mut order: Vec<usize> = (0..n).filter(|a| !src.contains(a)).collect();
        let mut pairs: Vec<(usize, usize)> = dst.into_iter().zip(src).collect();
        pairs.sort_unstable();
        for (d, s) in pairs {
            order.insert(d, s);
        }
        let perm: Vec<isize> = order.into_iter().map(|a| a as isize).collect();
        self.permute_dims(&perm)
    }

    /// Broadcasts every array to their common shape (read-only views).
    ///
    /// # Errors
    /// [`Error::Broadcast`] when the shapes are incompatible, [`Error::DeviceMismatch`].
    pub fn broadcast_arrays(arrays: &[&Self]) -> Result<Vec<Self>> {
        const OP: &str = "broadcast_arrays";
        let Some(first) = arrays.first() else {
            return Ok(Vec::new());
        };
        let mut shape = first.shape().to_vec();
        for a in arrays {
            first.check_device(a, OP)?;
            shape = broadcast_shapes(OP, &shape, a.shape())?;
        }
        arrays.iter().map(|a| a.broadcast_to(&shape)).collect()
    }

    /// Joins arrays along an existing axis (a new array).
    ///
    /// # Errors
    /// An empty list, 0-d arrays, differing ranks ([`Error::InvalidArgument`]), shapes that
    /// differ off the axis ([`Error::ShapeMismatch`] with both shapes),
    /// [`Error::AxisOutOfRange`], [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(4, 0, 1, dev)?.reshape(&[2, 2])?;
    /// let b = Array::<i64, B>::full(&[2, 1], 9, dev)?;
    /// let c = Array::concatenate(&[&a, &b], -1)?;
    /// assert_eq!(c.to_vec()?, vec![0, 1, 9, 2, 3, 9]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn concatenate(arrays: &[&Self], axis: isize) -> Result<Self> {
        const OP: &str = "concatenate";
        let Some(first) = arrays.first() else {
            return Err(Error::invalid(OP, "need at least one array to concatenate"));
        };
        if first.ndim() == 0 {
            return Err(Error::invalid(
                OP,
                "zero-dimensional arrays cannot be concatenated",
            ));
        }
        let ax = normalize_axis(OP, axis, first.ndim())?;
        let mut shape: Vec<u128> = first.shape().iter().map(|&d| d as u128).collect();
        shape[ax] = 0;
        for (i, a) in arrays.iter().enumerate() {
            first.check_device(a, OP)?;
            if a.ndim() != first.ndim() {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "all the input arrays must have same number of dimensions, but the \
                         array at index 0 has shape {:?} and the array at index {i} has shape {:?}",
                        first.shape(),
                        a.shape()
                    ),
                ));
            }
            let off_axis = |s: &[usize]| -> Vec<usize> {
                s.iter()
                    .enumerate()
                    .filter(|&(d, _)| d != ax)
                    .map(|(_, &n)| n)
                    .collect()
            };
            if off_axis(a.shape()) != off_axis(first.shape()) {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: first.shape().to_vec(),
                    rhs: a.shape().to_vec(),
                });
            }
            shape[ax] += a.shape()[ax] as u128;
        }
        let shape = check_wide_shape(OP, &shape, first.itemsize())?;
        if first.shape()[..ax].iter().all(|&d| d == 1) {
            // Each part is one run of the result, in C order: one pass, no zero fill.
            let parts: Vec<_> = arrays.iter().map(|a| (&a.buf, &a.layout)).collect();
            let buf = first.device.concat_flat(&parts)?;
            return Ok(Array::from_contiguous(buf, &shape, &first.device));
        }
        let mut out = Self::empty(&shape, &first.device)?;
        let mut start = 0;
        for a in arrays {
            let len = a.shape()[ax];
            let part = out.layout.slice_axis(ax, start, len, 1);
            out.write_part(&part, a)?;
            start += len;
        }
        Ok(out)
    }

    /// Joins arrays of one shape along a new axis at position `axis` of the result.
    ///
    /// # Errors
    /// An empty list, differing shapes ([`Error::ShapeMismatch`]),
    /// [`Error::AxisOutOfRange`] (against the result's rank).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::zeros(&[3], dev)?;
    /// assert_eq!(Array::stack(&[&a, &a], 1)?.shape(), &[3, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn stack(arrays: &[&Self], axis: isize) -> Result<Self> {
        const OP: &str = "stack";
        let Some(first) = arrays.first() else {
            return Err(Error::invalid(OP, "need at least one array to stack"));
        };
        let ax = normalize_axis(OP, axis, first.ndim() + 1)?;
        let mut parts = Vec::with_capacity(arrays.len());
        for a in arrays {
            if a.shape() != first.shape() {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: first.shape().to_vec(),
                    rhs: a.shape().to_vec(),
                });
            }
            parts.push(a.with_layout(a.layout.insert_axis(ax)));
        }
        let refs: Vec<&Self> = parts.iter().collect();
        Self::concatenate(&refs, ax as isize)
    }

    /// The array with at least one dimension (a 0-d array becomes shape `[1]`; a view).
    pub fn atleast_1d(&self) -> Self {
        match self.ndim() {
            0 => self.with_layout(self.layout.insert_axis(0)),
            _ => self.clone(),
        }
    }

    /// The array with at least two dimensions (`[n]` becomes `[1, n]`; a view).
    pub fn atleast_2d(&self) -> Self {
        match self.ndim() {
            0 | 1 => self.with_layout(self.atleast_1d().layout.insert_axis(0)),
            _ => self.clone(),
        }
    }

    /// The array with at least three dimensions (`[n]` becomes `[1, n, 1]`, `[m, n]` becomes
    /// `[m, n, 1]`; a view).
    pub fn atleast_3d(&self) -> Self {
        match self.ndim() {
            0 | 1 => self.with_layout(self.atleast_2d().layout.insert_axis(2)),
            2 => self.with_layout(self.layout.insert_axis(2)),
            _ => self.clone(),
        }
    }

    /// Joins arrays column-wise: along axis 0 for 1-d arrays, else along axis 1.
    ///
    /// # Errors
    /// As [`Array::concatenate`].
    pub fn hstack(arrays: &[&Self]) -> Result<Self> {
        let parts: Vec<Self> = arrays.iter().map(|a| a.atleast_1d()).collect();
        let refs: Vec<&Self> = parts.iter().collect();
        let axis = if parts.first().is_some_and(|a| a.ndim() == 1) {
            0
        } else {
            1
        };
        Self::concatenate(&refs, axis)
    }

    /// Joins arrays row-wise (along axis 0 after making them at least 2-d).
    ///
    /// # Errors
    /// As [`Array::concatenate`].
    pub fn vstack(arrays: &[&Self]) -> Result<Self> {
        let parts: Vec<Self> = arrays.iter().map(|a| a.atleast_2d()).collect();
        let refs: Vec<&Self> = parts.iter().collect();
        Self::concatenate(&refs, 0)
    }

    /// Joins arrays depth-wise (along axis 2 after making them at least 3-d).
    ///
    /// # Errors
    /// As [`Array::concatenate`].
    pub fn dstack(arrays: &[&Self]) -> Result<Self> {
        let parts: Vec<Self> = arrays.iter().map(|a| a.atleast_3d()).collect();
        let refs: Vec<&Self> = parts.iter().collect();
        Self::concatenate(&refs, 2)
    }

    /// Views of consecutive pieces of `axis` between the given bounds.
    fn pieces(&self, ax: usize, bounds: &[(usize, usize)]) -> Vec<Self> {
        bounds
            .iter()
            .map(|&(s, e)| {
                let len = e.saturating_sub(s);
                self.with_layout(self.layout.slice_axis(ax, s.min(e), len, 1))
            })
            .collect()
    }

    /// Piece bounds for `Sections::Indices` with Python slice semantics.
    fn index_bounds(n: usize, idx: &[isize]) -> Vec<(usize, usize)> {
        let clamp = |i: isize| -> usize {
            let i = if i < 0 { i + n as isize } else { i };
            i.clamp(0, n as isize) as usize
        };
        let mut points = vec![0usize];
        points.extend(idx.iter().map(|&i| clamp(i)));
        points.push(n);
        points.windows(2).map(|w| (w[0], w[1].max(w[0]))).collect()
    }

    /// Splits into views along `axis`: `Sections::N(n)` gives `n` equal pieces,
    /// `Sections::Indices(v)` cuts before each listed position.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `n` is 0 or does not divide the axis,
    /// [`Error::AxisOutOfRange`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(6, 0, 1, dev)?;
    /// let p = a.split(Sections::Indices(vec![1, 4]), 0)?;
    /// assert_eq!(p[1].to_vec()?, vec![1, 2, 3]);
    /// assert!(a.split(4, 0).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn split(&self, sections: impl Into<Sections>, axis: isize) -> Result<Vec<Self>> {
        const OP: &str = "split";
        let sections = sections.into();
        let ax = normalize_axis(OP, axis, self.ndim())?;
        if let Sections::N(k) = sections {
            let n = self.shape()[ax];
            if k == 0 || !n.is_multiple_of(k) {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "array split does not result in an equal division: axis {ax} of \
                         length {n} into {k} sections"
                    ),
                ));
            }
        }
        self.array_split(sections, ax as isize)
    }

    /// As [`Array::split`], but `Sections::N(n)` accepts any `n > 0`: the first `len % n`
    /// pieces get one element more.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `n` is 0, [`Error::AxisOutOfRange`].
    pub fn array_split(&self, sections: impl Into<Sections>, axis: isize) -> Result<Vec<Self>> {
        const OP: &str = "array_split";
        let ax = normalize_axis(OP, axis, self.ndim())?;
        let n = self.shape()[ax];
        let bounds = match sections.into() {
            Sections::N(0) => {
                return Err(Error::invalid(OP, "number sections must be larger than 0"));
            }
            Sections::N(k) => {
                crate::backend::check_host_alloc(k, 2 * std::mem::size_of::<Self>())?;
                let (each, extra) = (n / k, n % k);
                let mut start = 0;
                (0..k)
                    .map(|i| {
                        let len = each + usize::from(i < extra);
                        start += len;
                        (start - len, start)
                    })
                    .collect()
            }
            Sections::Indices(v) => Self::index_bounds(n, &v),
        };
        Ok(self.pieces(ax, &bounds))
    }

    /// Reverses the order of elements along the given axes ([`Axes::All`]: every axis). A view
    /// with negative strides.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`], repeated axes.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(4, 0, 1, dev)?.reshape(&[2, 2])?;
    /// assert_eq!(a.flip(1)?.to_vec()?, vec![1, 0, 3, 2]);
    /// assert_eq!(a.flip(Axes::All)?.to_vec()?, vec![3, 2, 1, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn flip(&self, axes: impl Into<Axes>) -> Result<Self> {
        let axes = axes.into().resolve("flip", self.ndim())?;
        let mut l = self.layout.clone();
        for a in axes {
            let n = l.shape()[a];
            if n > 1 {
                l = l.slice_axis(a, n - 1, n, -1);
            }
        }
        Ok(self.with_layout(l))
    }

    /// Rotates elements by `shift` along `axis` (elements leaving one end come back at the
    /// other); with `None` the flattened array is rolled and the shape restored. A new array.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(5, 0, 1, dev)?;
    /// assert_eq!(a.roll(2, None)?.to_vec()?, vec![3, 4, 0, 1, 2]);
    /// assert_eq!(a.roll(-1, Some(0))?.to_vec()?, vec![1, 2, 3, 4, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn roll(&self, shift: isize, axis: Option<isize>) -> Result<Self> {
        let Some(axis) = axis else {
            let flat = self.ravel()?.roll(shift, Some(0))?;
            return Ok(flat.with_layout(Layout::contiguous(self.shape())));
        };
        let ax = normalize_axis("roll", axis, self.ndim())?;
        let n = self.shape()[ax];
        let mut out = Self::empty(self.shape(), &self.device)?;
        if n == 0 || out.size() == 0 {
            return Ok(out);
        }
        let s = shift.rem_euclid(n as isize) as usize;
        let head = self.with_layout(self.layout.slice_axis(ax, 0, n - s, 1));
        let tail = self.with_layout(self.layout.slice_axis(ax, n - s, s, 1));
        let to_head = out.layout.slice_axis(ax, s, n - s, 1);
        let to_tail = out.layout.slice_axis(ax, 0, s, 1);
        out.write_part(&to_head, &head)?;
        out.write_part(&to_tail, &tail)?;
        Ok(out)
    }

    /// Repeats each element along `axis` (`None`: of the flattened array), either a fixed
    /// number of times or a count per element.
    ///
    /// # Errors
    /// [`Error::Broadcast`] when the per-element counts do not match the axis length,
    /// [`Error::AxisOutOfRange`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// assert_eq!(a.repeat(2, None)?.to_vec()?, vec![1, 1, 2, 2]);
    /// assert_eq!(a.repeat(vec![0, 3], Some(0))?.to_vec()?, vec![2, 2, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn repeat(&self, repeats: impl Into<Repeats>, axis: Option<isize>) -> Result<Self> {
        const OP: &str = "repeat";
        let (x, ax) = match axis {
            None => (self.ravel()?, 0),
            Some(a) => (self.clone(), normalize_axis(OP, a, self.ndim())?),
        };
        let n = x.shape()[ax];
        match repeats.into() {
            Repeats::PerElement(v) if v.len() == 1 => x.repeat(v[0], Some(ax as isize)),
            Repeats::PerElement(v) => {
                if v.len() != n {
                    return Err(Error::Broadcast {
                        op: OP,
                        lhs: vec![n],
                        rhs: vec![v.len()],
                    });
                }
                let total: u128 = v.iter().map(|&c| c as u128).sum();
                let mut wide: Vec<u128> = x.shape().iter().map(|&d| d as u128).collect();
                wide[ax] = total;
                // The index list is as long as the axis, in i64s.
                check_wide_shape(OP, &wide, x.itemsize())?;
                let total = check_wide_shape(OP, &[total], 8)?[0];
                let mut idx = crate::backend::host_vec(total)?;
                for (i, &c) in v.iter().enumerate() {
                    idx.extend(std::iter::repeat_n(i as i64, c));
                }
                let idx = Array::<i64, B>::from_vec(idx, &[total], &self.device)?;
                x.take(&idx, Some(ax as isize))
            }
            Repeats::Each(r) => {
                let mut wide: Vec<u128> = x.shape().iter().map(|&d| d as u128).collect();
                wide[ax] *= r as u128;
                let out_shape = check_wide_shape(OP, &wide, x.itemsize())?;
                // View [.., n, r, ..] with a zero stride on the new axis, copied once.
                let mut shape = x.shape().to_vec();
                let mut strides = x.strides().to_vec();
                shape.insert(ax + 1, r);
                strides.insert(ax + 1, 0);
                let view = Layout::new(shape, strides, x.layout.offset());
                let buf = self.device.copy(&x.buf, &view)?;
                Ok(Array::from_contiguous(buf, &out_shape, &self.device))
            }
        }
    }

    /// Repeats the whole array `reps[i]` times along each axis (NumPy's `tile`; shorter
    /// `reps` or shapes are padded with leading 1s).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// let t = a.tile(&[2, 2])?;
    /// assert_eq!(t.shape(), &[2, 4]);
    /// assert_eq!(t.to_vec()?, vec![1, 2, 1, 2, 1, 2, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::TooBig`] when the tiled shape's bytes exceed `isize::MAX` (or a dimension
    /// overflows), [`Error::InvalidArgument`] for more than 64 dimensions.
    pub fn tile(&self, reps: &[usize]) -> Result<Self> {
        let d = reps.len().max(self.ndim());
        crate::layout::check_ndim("tile", d)?;
        let mut l = self.layout.clone();
        while l.ndim() < d {
            l = l.insert_axis(0);
        }
        let mut r = vec![1usize; d - reps.len()];
        r.extend_from_slice(reps);
        let (mut shape, mut strides, mut wide) = (vec![], vec![], vec![]);
        for ((&ri, &di), &si) in r.iter().zip(l.shape()).zip(l.strides()) {
            shape.extend([ri, di]);
            strides.extend([0, si]);
            wide.push(ri as u128 * di as u128);
        }
        let out_shape = check_wide_shape("tile", &wide, self.itemsize())?;
        let view = Layout::new(shape, strides, l.offset());
        let buf = self.device.copy(&self.buf, &view)?;
        Ok(Array::from_contiguous(buf, &out_shape, &self.device))
    }

    /// Pads with a constant: `pad_width[i] = (before, after)` elements on axis `i`; a single
    /// pair applies to every axis. NumPy's `pad(x, pad_width, constant_values=value)`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `pad_width` has neither 1 nor `ndim` pairs,
    /// [`Error::TooBig`] when the padded shape's bytes exceed `isize::MAX` (or a dimension
    /// overflows).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// assert_eq!(a.pad_constant(&[(1, 2)], 0)?.to_vec()?, vec![0, 1, 2, 0, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn pad_constant(&self, pad_width: &[(usize, usize)], value: T) -> Result<Self> {
        let n = self.ndim();
        let widths: Vec<(usize, usize)> = match pad_width.len() {
            1 => vec![pad_width[0]; n],
            k if k == n => pad_width.to_vec(),
            k => {
                return Err(Error::invalid(
                    "pad",
                    format!(
                        "pad_width has {k} (before, after) pairs for an array of shape {:?} \
                         (expected 1 or {n})",
                        self.shape()
                    ),
                ));
            }
        };
        let wide: Vec<u128> = self
            .shape()
            .iter()
            .zip(&widths)
            .map(|(&d, &(b, a))| d as u128 + b as u128 + a as u128)
            .collect();
        let shape = check_wide_shape("pad", &wide, self.itemsize())?;
        let mut out = Self::full(&shape, value, &self.device)?;
        let mut inner = out.layout.clone();
        for (ax, (&d, &(b, _))) in self.shape().iter().zip(&widths).enumerate() {
            inner = inner.slice_axis(ax, b, d, 1);
        }
        out.write_part(&inner, self)?;
        Ok(out)
    }
}
