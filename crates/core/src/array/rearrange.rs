//! NumPy's shape helpers built on the general ones: `fliplr`, `flipud`, `rot90`,
//! `matrix_transpose`, `column_stack`, `append`, `hsplit`/`vsplit`/`dsplit` and `unstack`.
//! Each is a view or one concatenation/split, so it runs on every backend and every element
//! type; bad input is an error naming the NumPy function.

use super::Array;
use super::manip::Sections;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::slice::SliceArg;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Needs at least `min` dimensions for `op`.
    fn at_least(&self, op: &'static str, min: usize) -> Result<()> {
        if self.ndim() < min {
            return Err(Error::invalid(
                op,
                format!(
                    "the input must have at least {min} dimension{}, got shape {:?}",
                    if min == 1 { "" } else { "s" },
                    self.shape()
                ),
            ));
        }
        Ok(())
    }

    /// The array with its columns (axis 1) reversed, a view (NumPy's `np.fliplr`; at least
    /// 2-d).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// assert_eq!(a.fliplr()?.to_vec()?, vec![2, 1, 4, 3]);
    /// assert_eq!(a.flipud()?.to_vec()?, vec![3, 4, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn fliplr(&self) -> Result<Self> {
        self.at_least("fliplr", 2)?;
        self.flip(1)
    }

    /// The array with its rows (axis 0) reversed, a view (NumPy's `np.flipud`; at least
    /// 1-d).
    pub fn flipud(&self) -> Result<Self> {
        self.at_least("flipud", 1)?;
        self.flip(0)
    }

    /// The array rotated by `k` quarter turns in the plane of `axes`, from the first axis
    /// towards the second (NumPy's `np.rot90(m, k, axes)`; `k` may be negative), a view.
    /// The axes must differ and exist.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// assert_eq!(a.rot90(1, [0, 1])?.to_vec()?, vec![2, 4, 1, 3]);
    /// assert_eq!(a.rot90(-1, [0, 1])?.to_vec()?, vec![3, 1, 4, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn rot90(&self, k: isize, axes: [isize; 2]) -> Result<Self> {
        const OP: &str = "rot90";
        self.at_least(OP, 2)?;
        let nd = self.ndim();
        let a0 = normalize_axis(OP, axes[0], nd)?;
        let a1 = normalize_axis(OP, axes[1], nd)?;
        if a0 == a1 {
            return Err(Error::invalid(
                OP,
                format!("the axes must differ, got {axes:?} for {nd} dimensions"),
            ));
        }
        let mut order: Vec<isize> = (0..nd as isize).collect();
        order.swap(a0, a1);
        match k.rem_euclid(4) {
            0 => Ok(self.clone()),
            2 => self.flip(vec![a0 as isize, a1 as isize]),
            1 => self.flip(a1 as isize)?.permute_dims(&order),
            _ => self.permute_dims(&order)?.flip(a1 as isize),
        }
    }

    /// The last two axes swapped, a view (NumPy's `np.matrix_transpose`, `a.mT`; at least
    /// 2-d).
    pub fn matrix_transpose(&self) -> Result<Self> {
        self.at_least("matrix_transpose", 2)?;
        self.swapaxes(-2, -1)
    }

    /// 1-d and 0-d arrays as columns, wider ones as they are, joined along axis 1 (NumPy's
    /// `np.column_stack`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![3.0, 4.0], &[2], dev)?;
    /// let m = Array::column_stack(&[&a, &b])?;
    /// assert_eq!((m.shape(), m.to_vec()?), (&[2usize, 2][..], vec![1.0, 3.0, 2.0, 4.0]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn column_stack(arrays: &[&Self]) -> Result<Self> {
        if arrays.is_empty() {
            return Err(Error::invalid("column_stack", "needs at least one array"));
        }
        let cols: Vec<Self> = arrays
            .iter()
            .map(|a| match a.ndim() {
                0 => a.reshape(&[1, 1]),
                1 => a.reshape(&[-1, 1]),
                _ => Ok((*a).clone()),
            })
            .collect::<Result<_>>()?;
        let refs: Vec<&Self> = cols.iter().collect();
        Self::concatenate(&refs, 1)
    }

    /// `values` placed after the array along `axis`, or, with `None`, both flattened and
    /// joined (NumPy's `np.append`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// let v = Array::<i64, B>::from_vec(vec![5, 6], &[1, 2], dev)?;
    /// assert_eq!(a.append(&v, None)?.to_vec()?, vec![1, 2, 3, 4, 5, 6]);
    /// assert_eq!(a.append(&v, Some(0))?.shape(), &[3, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn append(&self, values: &Self, axis: Option<isize>) -> Result<Self> {
        match axis {
            None => Self::concatenate(&[&self.ravel()?, &values.ravel()?], 0),
            Some(ax) => Self::concatenate(&[self, values], ax),
        }
    }

    /// Splits along axis 1, or along axis 0 for 1-d arrays (NumPy's `np.hsplit`).
    pub fn hsplit(&self, sections: impl Into<Sections>) -> Result<Vec<Self>> {
        self.at_least("hsplit", 1)?;
        self.split(sections, if self.ndim() > 1 { 1 } else { 0 })
    }

    /// Splits along axis 0 (NumPy's `np.vsplit`; at least 2-d).
    pub fn vsplit(&self, sections: impl Into<Sections>) -> Result<Vec<Self>> {
        self.at_least("vsplit", 2)?;
        self.split(sections, 0)
    }

    /// Splits along axis 2 (NumPy's `np.dsplit`; at least 3-d).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::zeros(&[2, 3, 4], dev)?;
    /// let parts = a.dsplit(2)?;
    /// assert_eq!((parts.len(), parts[1].shape()), (2, &[2usize, 3, 2][..]));
    /// assert!(a.slice(&s![0]).unwrap().dsplit(2).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn dsplit(&self, sections: impl Into<Sections>) -> Result<Vec<Self>> {
        self.at_least("dsplit", 3)?;
        self.split(sections, 2)
    }

    /// The views along `axis`, one per index, each without that axis (NumPy's `np.unstack`;
    /// at least 1-d).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[2, 3], dev)?;
    /// let cols = a.unstack(1)?;
    /// assert_eq!((cols.len(), cols[2].to_vec()?), (3, vec![3, 6]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unstack(&self, axis: isize) -> Result<Vec<Self>> {
        const OP: &str = "unstack";
        self.at_least(OP, 1)?;
        let ax = normalize_axis(OP, axis, self.ndim())?;
        (0..self.shape()[ax])
            .map(|i| {
                let args: Vec<SliceArg> = (0..self.ndim())
                    .map(|d| {
                        if d == ax {
                            SliceArg::Index(i as isize)
                        } else {
                            SliceArg::Range {
                                start: None,
                                stop: None,
                                step: 1,
                            }
                        }
                    })
                    .collect();
                self.slice(&args)
            })
            .collect()
    }
}
