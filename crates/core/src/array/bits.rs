//! Bit packing: [`Array::packbits`] (the truth of bool or integer elements, eight to a
//! `u8`) and [`Array::unpackbits`] (each `u8` back to eight 0/1 `u8`s), NumPy's
//! `np.packbits`/`np.unpackbits` with their `axis`, `count` and [`BitOrder`]. Both are
//! composed from views, casts, concatenation, shifts and sums, so every backend runs them
//! with its existing kernels.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::{BitAnd, Mul};

/// The order of the bits in a byte (NumPy's `bitorder`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BitOrder {
    /// `'big'`: the first element is the most significant bit (NumPy's default).
    #[default]
    Big,
    /// `'little'`: the first element is the least significant bit.
    Little,
}

impl BitOrder {
    /// The weight (as a shift) of bit `i` of a byte, `i` in `0..8`.
    fn shifts(self) -> Vec<u8> {
        match self {
            BitOrder::Big => (0..8).rev().collect(),
            BitOrder::Little => (0..8).collect(),
        }
    }
}

/// The array the bit ops work on, with the axis to work along: flattened for `None`, a 0-d
/// array as one element.
fn source<T: Element, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    axis: Option<isize>,
) -> Result<(Array<T, B>, usize)> {
    match axis {
        None => Ok((a.reshape(&[-1])?, 0)),
        Some(ax) if a.ndim() == 0 => Ok((a.reshape(&[1])?, normalize_axis(op, ax, 1)?)),
        Some(ax) => Ok((a.clone(), normalize_axis(op, ax, a.ndim())?)),
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Packs the truth of the elements along `axis` (`None`: of the flattened array) into
    /// bytes, eight to a `u8`, padding the axis with zeros to a multiple of 8 (NumPy's
    /// `np.packbits(a, axis, bitorder)`). The axis shrinks to `ceil(n / 8)`.
    ///
    /// # Errors
    /// Float or complex elements (NumPy accepts integers and bool only), `axis` out of
    /// range.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![1, 0, 1, 0, 0, 1], &[2, 3], dev)?;
    /// assert_eq!(a.packbits(Some(1), BitOrder::Big)?.to_vec()?, vec![160, 32]);
    /// assert_eq!(a.packbits(None, BitOrder::Big)?.to_vec()?, vec![164]);
    /// assert_eq!(a.packbits(Some(0), BitOrder::Little)?.to_vec()?, vec![1, 0, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn packbits(&self, axis: Option<isize>, bitorder: BitOrder) -> Result<Array<u8, B>> {
        const OP: &str = "packbits";
        if T::DTYPE.is_float() || T::DTYPE.is_complex() {
            return Err(Error::invalid(
                OP,
                format!(
                    "expected an input array of integer or boolean data type, got {}",
                    T::DTYPE
                ),
            ));
        }
        let (src, ax) = source(OP, self, axis)?;
        let last = src.moveaxis(&[ax as isize], &[-1])?;
        let bits: Array<u8, B> = last.astype::<bool>()?.astype()?;
        let n = bits.shape()[bits.ndim() - 1];
        let bytes = n.div_ceil(8);
        let lead = bits.shape()[..bits.ndim() - 1].to_vec();
        let padded = if n.is_multiple_of(8) {
            bits
        } else {
            let mut pad_shape = lead.to_vec();
            pad_shape.push(bytes * 8 - n);
            let pad = Array::<u8, B>::zeros(&pad_shape, self.device())?;
            Array::concatenate(&[&bits, &pad], -1)?
        };
        let mut grouped: Vec<isize> = lead.iter().map(|&d| d as isize).collect();
        grouped.extend([bytes as isize, 8]);
        let weights: Vec<u8> = bitorder.shifts().iter().map(|&s| 1u8 << s).collect();
        let w = Array::<u8, B>::from_vec(weights, &[8], self.device())?;
        let packed: Array<u8, B> = padded
            .reshape(&grouped)?
            .zip_op(Mul, &w)?
            .sum_axes(-1, false)?
            .astype()?;
        packed.moveaxis(&[-1], &[ax as isize])
    }
}

impl<B: ArrayBackend> Array<u8, B> {
    /// Unpacks every byte along `axis` (`None`: of the flattened array) into eight 0/1
    /// elements (NumPy's `np.unpackbits(a, axis, count, bitorder)`). `count` keeps the first
    /// `count` bits along the axis (padding with zeros past the end); a negative `count`
    /// drops that many from the end.
    ///
    /// # Errors
    /// `axis` out of range, a negative `count` larger than the number of bits.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![5, 255], &[2], dev)?;
    /// assert_eq!(a.unpackbits(None, Some(-3), BitOrder::Big)?.to_vec()?,
    ///            vec![0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1]);
    /// let a = Array::<u8, B>::from_vec(vec![6], &[1, 1], dev)?;
    /// assert_eq!(a.unpackbits(Some(1), Some(4), BitOrder::Little)?.to_vec()?, vec![0, 1, 1, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unpackbits(
        &self,
        axis: Option<isize>,
        count: Option<isize>,
        bitorder: BitOrder,
    ) -> Result<Array<u8, B>> {
        const OP: &str = "unpackbits";
        let (src, ax) = source(OP, self, axis)?;
        let last = src.moveaxis(&[ax as isize], &[-1])?;
        let n = last.shape()[last.ndim() - 1];
        let total = n
            .checked_mul(8)
            .ok_or_else(|| Error::invalid(OP, format!("{n} bytes overflow the bit count")))?;
        let mut shape: Vec<isize> = last.shape().iter().map(|&d| d as isize).collect();
        shape.push(1);
        let shifts = Array::<u8, B>::from_vec(bitorder.shifts(), &[8], self.device())?;
        let one = Array::<u8, B>::scalar(1, self.device())?;
        let bits = last
            .reshape(&shape)?
            .right_shift(&shifts)?
            .zip_op(BitAnd, &one)?;
        let lead = &last.shape()[..last.ndim() - 1];
        let mut flat: Vec<isize> = lead.iter().map(|&d| d as isize).collect();
        flat.push(total as isize);
        let bits = bits.reshape(&flat)?;
        let keep = match count {
            None => total,
            Some(c) if c >= 0 => c as usize,
            Some(c) => total.checked_sub(c.unsigned_abs()).ok_or_else(|| {
                Error::invalid(
                    OP,
                    format!("-count larger than number of elements ({c} for {total} bits)"),
                )
            })?,
        };
        let out = if keep <= total {
            let idx: Vec<crate::slice::SliceArg> = (0..bits.ndim())
                .map(|i| crate::slice::SliceArg::Range {
                    start: None,
                    stop: (i == bits.ndim() - 1).then_some(keep as isize),
                    step: 1,
                })
                .collect();
            bits.slice(&idx)?
        } else {
            let mut pad_shape = lead.to_vec();
            pad_shape.push(keep - total);
            let pad = Array::<u8, B>::zeros(&pad_shape, self.device())?;
            Array::concatenate(&[&bits, &pad], -1)?
        };
        out.moveaxis(&[-1], &[ax as isize])
    }
}
