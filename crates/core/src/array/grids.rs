//! NumPy's index tricks `mgrid` and `ogrid`: dense and open grids of `arange` ranges, one
//! range per axis (`np.mgrid[0:R, 0:R]` is `Array::mgrid(&[(0, r, 1), (0, r, 1)], dev)?`).

use super::Array;
use crate::array::Indexing;
use crate::backend::ArrayBackend;
use crate::dtype::Real;
use crate::error::{Error, Result};

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.mgrid[a0:b0:s0, a1:b1:s1, ...]`: for ranges `(start, stop, step)` (each as
    /// [`Array::arange`]) of lengths `n0, n1, ...`, an array of shape `(k, n0, n1, ...)` whose
    /// slice `i` holds range `i`'s values along axis `i` and repeats them along the others.
    ///
    /// # Errors
    /// No range, or a range [`Array::arange`] refuses (zero step).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let g = Array::<i64, B>::mgrid(&[(0, 2, 1), (0, 3, 1)], dev)?; // np.mgrid[0:2, 0:3]
    /// assert_eq!(g.shape(), &[2, 2, 3]);
    /// assert_eq!(g.to_vec()?, vec![0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn mgrid(ranges: &[(T, T, T)], dev: &B) -> Result<Self> {
        let axes = Self::grid_axes("mgrid", ranges, dev)?;
        let refs: Vec<&Self> = axes.iter().collect();
        let dense = Self::meshgrid(&refs, Indexing::Ij)?;
        let refs: Vec<&Self> = dense.iter().collect();
        Self::stack(&refs, 0)
    }

    /// NumPy's `np.ogrid[a0:b0:s0, a1:b1:s1, ...]`: the ranges of [`Array::mgrid`] as open
    /// grids, range `i` shaped `(1, ..., n_i, ..., 1)` so that they broadcast against each
    /// other to the dense grid.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let g = Array::<f64, B>::ogrid(&[(0.0, 1.0, 0.5), (2.0, 5.0, 1.0)], dev)?;
    /// assert_eq!((g[0].shape(), g[1].shape()), (&[2, 1][..], &[1, 3][..]));
    /// assert_eq!((&g[0] + &g[1]).to_vec()?, vec![2.0, 3.0, 4.0, 2.5, 3.5, 4.5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn ogrid(ranges: &[(T, T, T)], dev: &B) -> Result<Vec<Self>> {
        let k = ranges.len();
        Self::grid_axes("ogrid", ranges, dev)?
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let mut shape = vec![1isize; k];
                shape[i] = a.size() as isize;
                a.reshape(&shape)
            })
            .collect()
    }

    /// Each range as a 1-d [`Array::arange`].
    fn grid_axes(op: &'static str, ranges: &[(T, T, T)], dev: &B) -> Result<Vec<Self>> {
        if ranges.is_empty() {
            return Err(Error::invalid(op, "needs at least one range"));
        }
        ranges
            .iter()
            .map(|&(start, stop, step)| Self::arange(start, stop, step, dev))
            .collect()
    }
}
