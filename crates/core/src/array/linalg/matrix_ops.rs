//! The remaining matrix functions of `numpy.linalg` and `numpy`: `trace`, `cross`, `kron`
//! and `multi_dot` (a chain of products in the cheapest order), for every numeric type.

use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Numeric;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// The sum along the `offset`-th diagonal of the first two axes (NumPy's `trace`); for
    /// more than two dimensions, one sum per position of the remaining axes.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::arange(0, 9, 1, dev)?.reshape(&[3, 3])?;
    /// assert_eq!(a.trace(0)?.item()?, 12);
    /// assert_eq!(a.trace(1)?.item()?, 6);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn trace(&self, offset: isize) -> Result<Array<T::Accum, B>> {
        self.diagonal(offset)?.sum_axes(-1, false)
    }

    /// The cross product of 3-vectors along `axis` of both operands (NumPy's `cross` with
    /// `axisa = axisb = axisc = axis`); the other axes broadcast.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when either operand's `axis` does not have length 3.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![1.0, 0.0, 0.0], &[3], dev)?;
    /// let y = Array::<f64, B>::from_vec(vec![0.0, 1.0, 0.0], &[3], dev)?;
    /// assert_eq!(x.cross(&y, -1)?.to_vec()?, vec![0.0, 0.0, 1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn cross(&self, other: &Self, axis: isize) -> Result<Self> {
        const OP: &str = "cross";
        self.check_device(other, OP)?;
        let comps = |x: &Self| -> Result<[Self; 3]> {
            let ax = normalize_axis(OP, axis, x.ndim())?;
            if x.shape()[ax] != 3 {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "incompatible dimensions for cross product (dimension must be 3), got \
                         shapes {:?} and {:?}",
                        self.shape(),
                        other.shape()
                    ),
                ));
            }
            let l = x.layout();
            Ok([0, 1, 2].map(|i| x.with_layout(l.index_axis(ax, i))))
        };
        let [a0, a1, a2] = comps(self)?;
        let [b0, b1, b2] = comps(other)?;
        let c0 = a1.try_mul(&b2)?.try_sub(&a2.try_mul(&b1)?)?;
        let c1 = a2.try_mul(&b0)?.try_sub(&a0.try_mul(&b2)?)?;
        let c2 = a0.try_mul(&b1)?.try_sub(&a1.try_mul(&b0)?)?;
        let nd = c0.ndim() as isize + 1;
        let out_axis = if axis < 0 {
            axis + nd
        } else {
            axis.min(nd - 1)
        };
        Array::stack(&[&c0, &c1, &c2], out_axis)
    }

    /// The Kronecker product (NumPy's `kron`): the shapes are aligned at the end (the
    /// shorter padded with leading 1s) and the result's axis `i` has length
    /// `self.shape[i] * other.shape[i]`, block `(i..)` being `self[i..] * other`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// let b = Array::<i32, B>::from_vec(vec![1, 10, 100], &[3], dev)?;
    /// assert_eq!(a.kron(&b)?.to_vec()?, vec![1, 10, 100, 2, 20, 200]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn kron(&self, other: &Self) -> Result<Self> {
        const OP: &str = "kron";
        self.check_device(other, OP)?;
        let nd = self.ndim().max(other.ndim());
        let pad = |s: &[usize]| -> Vec<usize> {
            let mut v = vec![1; nd - s.len()];
            v.extend_from_slice(s);
            v
        };
        let (sa, sb) = (pad(self.shape()), pad(other.shape()));
        // a as [a0, 1, a1, 1, ...] times b as [1, b0, 1, b1, ...], then merge the pairs.
        let interleave = |s: &[usize], first: bool| -> Vec<isize> {
            s.iter()
                .flat_map(|&d| {
                    if first {
                        [d as isize, 1]
                    } else {
                        [1, d as isize]
                    }
                })
                .collect()
        };
        let a = self.reshape(&interleave(&sa, true))?;
        let b = other.reshape(&interleave(&sb, false))?;
        let out: Vec<isize> = sa.iter().zip(&sb).map(|(x, y)| (x * y) as isize).collect();
        a.try_mul(&b)?.reshape(&out)
    }
}

/// The product of a chain of matrices, `arrays[0] @ arrays[1] @ ...`, evaluated in the
/// order that needs the fewest multiplications (NumPy's `linalg.multi_dot`). The first array
/// may be 1-d (a row vector) and the last 1-d (a column vector); the others must be 2-d.
///
/// ```
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let a = Array::<f64, B>::ones(&[10, 100], dev)?;
/// let b = Array::<f64, B>::ones(&[100, 5], dev)?;
/// let c = Array::<f64, B>::ones(&[5, 50], dev)?;
/// let abc = multi_dot(&[&a, &b, &c])?;
/// assert_eq!(abc.shape(), &[10, 50]);
/// assert_eq!(abc.to_vec()?[0], 500.0);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn multi_dot<T: Numeric, B: ArrayBackend>(arrays: &[&Array<T, B>]) -> Result<Array<T, B>> {
    const OP: &str = "multi_dot";
    let k = arrays.len();
    if k < 2 {
        return Err(Error::invalid(
            OP,
            format!("expecting at least two arrays, got {k}"),
        ));
    }
    let first_vec = arrays[0].ndim() == 1;
    let last_vec = arrays[k - 1].ndim() == 1;
    let mut mats: Vec<Array<T, B>> = Vec::with_capacity(k);
    for (i, a) in arrays.iter().enumerate() {
        let m = match (i, a.ndim()) {
            (0, 1) => a.expand_dims(0)?,
            (i, 1) if i == k - 1 => a.expand_dims(-1)?,
            (_, 2) => (*a).clone(),
            (_, d) => {
                return Err(Error::invalid(
                    OP,
                    format!("array {i} is {d}-dimensional; only 2-d arrays (1-d at the ends)"),
                ));
            }
        };
        mats.push(m);
    }
    // dims[i] x dims[i + 1] is the shape of matrix i.
    let mut dims: Vec<usize> = vec![mats[0].shape()[0]];
    for (i, m) in mats.iter().enumerate() {
        if m.shape()[0] != dims[i] {
            return Err(Error::invalid(
                OP,
                format!(
                    "shapes not aligned: array {} has shape {:?} after one with {} columns",
                    i,
                    arrays[i].shape(),
                    dims[i]
                ),
            ));
        }
        dims.push(m.shape()[1]);
    }
    // Classic chain-order dynamic programme: cost[i][j] for the product of i..=j.
    let mut cost = vec![vec![0u128; k]; k];
    let mut split = vec![vec![0usize; k]; k];
    for len in 1..k {
        for i in 0..k - len {
            let j = i + len;
            cost[i][j] = u128::MAX;
            for s in i..j {
                let c = cost[i][s]
                    + cost[s + 1][j]
                    + (dims[i] as u128) * (dims[s + 1] as u128) * (dims[j + 1] as u128);
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = s;
                }
            }
        }
    }
    fn product<T: Numeric, B: ArrayBackend>(
        mats: &[Array<T, B>],
        split: &[Vec<usize>],
        i: usize,
        j: usize,
    ) -> Result<Array<T, B>> {
        if i == j {
            return Ok(mats[i].clone());
        }
        let s = split[i][j];
        product(mats, split, i, s)?.matmul(&product(mats, split, s + 1, j)?)
    }
    let mut out = product(&mats, &split, 0, k - 1)?;
    if last_vec {
        out = out.squeeze(-1)?;
    }
    if first_vec {
        out = out.squeeze(0)?;
    }
    Ok(out)
}
