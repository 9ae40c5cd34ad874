//! NaN-ignoring scans, [`Array::nancumsum`] and [`Array::nancumprod`] (NumPy's
//! `np.nancumsum`/`np.nancumprod`), and NaN replacement with given values, [`Array::nan_to_num_with`] (the defaults,
//! `nan_to_num`, are an op of the registry). Each replaces NaN by the scan's identity (0 for the sum,
//! 1 for the product; a complex value with a NaN part as a whole) with `isnan` and `where`,
//! then runs `cumsum`/`cumprod`, so every backend runs it with its kernels. Bool and integers
//! hold no NaN: their scans are `cumsum`/`cumprod`, in the same accumulation types (`i64`
//! for bool and signed integers, `u64` for unsigned ones), as NumPy's.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Scalar};
use crate::error::Result;
use crate::layout::normalize_axis;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The array with every NaN replaced by `identity`, after checking `axis` on behalf of
    /// `op` (a 0-d array scans as one element, as NumPy).
    fn nan_replaced(&self, op: &'static str, axis: Option<isize>, identity: f64) -> Result<Self> {
        if let Some(a) = axis {
            normalize_axis(op, a, self.ndim().max(1))?;
        }
        if !(T::DTYPE.is_float() || T::DTYPE.is_complex()) {
            return Ok(self.clone());
        }
        let id = Array::scalar(T::from_scalar(Scalar::F64(identity)), self.device())?;
        Array::where_(&self.isnan()?, &id, self)
    }

    /// Running sum along `axis` (`None`: over the flattened array) treating NaN as zero
    /// (NumPy's `np.nancumsum`), in the accumulation type. A leading run of NaN sums to 0.
    ///
    /// # Errors
    /// `axis` out of range.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![f64::NAN, 1.0, 2.0, f64::NAN, 3.0, 4.0], &[2, 3], dev)?;
    /// assert_eq!(a.nancumsum(Some(1))?.to_vec()?, vec![0.0, 1.0, 3.0, 0.0, 3.0, 7.0]);
    /// assert_eq!(a.nancumsum(None)?.to_vec()?, vec![0.0, 1.0, 3.0, 3.0, 6.0, 10.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nancumsum(&self, axis: Option<isize>) -> Result<Array<T::Accum, B>> {
        self.nan_replaced("nancumsum", axis, 0.0)?.cumsum(axis)
    }

    /// Running product along `axis` (`None`: over the flattened array) treating NaN as one
    /// (NumPy's `np.nancumprod`), in the accumulation type.
    ///
    /// # Errors
    /// `axis` out of range.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::from_vec(vec![2.0, f32::NAN, 3.0], &[3], dev)?;
    /// assert_eq!(a.nancumprod(Some(0))?.to_vec()?, vec![2.0, 2.0, 6.0]);
    /// let i = Array::<u8, B>::from_vec(vec![200, 3], &[2], dev)?;
    /// assert_eq!(i.nancumprod(None)?.to_vec()?, vec![200u64, 600]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nancumprod(&self, axis: Option<isize>) -> Result<Array<T::Accum, B>> {
        self.nan_replaced("nancumprod", axis, 1.0)?.cumprod(axis)
    }
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// NaN replaced by `nan`, positive infinity by `posinf` (`None`: the type's largest
    /// finite value) and negative infinity by `neginf` (`None`: the type's most negative
    /// finite value), NumPy's `np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)`;
    /// the replacements are rounded to the type. Composed from `isnan`/`isposinf`/
    /// `isneginf` and `where`; with NumPy's defaults, [`Array::nan_to_num`] is one kernel.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f32, B>::from_vec(vec![f32::NAN, f32::INFINITY, -f32::INFINITY, -0.5], &[4], dev)?;
    /// assert_eq!(x.nan_to_num_with(0.0, None, None)?.to_vec()?, vec![0.0, f32::MAX, f32::MIN, -0.5]);
    /// assert_eq!(x.nan_to_num_with(-1.0, Some(9.0), Some(-9.0))?.to_vec()?, vec![-1.0, 9.0, -9.0, -0.5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nan_to_num_with(
        &self,
        nan: f64,
        posinf: Option<f64>,
        neginf: Option<f64>,
    ) -> Result<Self> {
        let dev = self.device();
        let value = |v: Option<f64>, default: T| -> Result<Self> {
            let v = v.map_or(default, |v| T::from_scalar(Scalar::F64(v)));
            Array::scalar(v, dev)
        };
        let big = value(posinf, <T as num_traits::Float>::max_value())?;
        let small = value(neginf, <T as num_traits::Float>::min_value())?;
        let out = Array::where_(&self.isnan()?, &value(Some(nan), T::ZERO)?, self)?;
        let out = Array::where_(&self.isposinf()?, &big, &out)?;
        Array::where_(&self.isneginf()?, &small, &out)
    }
}
