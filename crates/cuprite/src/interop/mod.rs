//! Conversions between cuprite arrays and `ndarray` arrays.
//!
//! - [`NdarrayExt`] (any backend): `to_ndarray` and `from_ndarray` copy; on a device
//!   backend they are the explicit transfers.
//! - [`NdarrayCpuExt`] (`Cpu` only): no copies. `as_ndarray` and `as_ndarray_mut` view the
//!   array's memory through its layout (any strides, negative ones included), the mutable
//!   view after copy-on-write; `from_ndarray_owned` takes an owned ndarray array's vector
//!   as the buffer.

use cuprite_core::{Array, ArrayBackend, Element, Result};
use ndarray::{ArrayD, IxDyn};

#[cfg(feature = "cpu")]
mod zero_copy;
#[cfg(feature = "cpu")]
pub use zero_copy::NdarrayCpuExt;

/// `to_ndarray` / `from_ndarray` for arrays of any backend. Both copy: on a device backend
/// they are explicit transfers. On `Cpu`, [`NdarrayCpuExt`] shares memory instead.
pub trait NdarrayExt<T: Element, B: ArrayBackend>: Sized {
    /// Copies the array into an owned `ndarray::ArrayD` (C order).
    fn to_ndarray(&self) -> Result<ArrayD<T>>;
    /// Copies an ndarray array (any layout, any dimensionality) onto `dev`.
    fn from_ndarray<S, D>(a: &ndarray::ArrayBase<S, D>, dev: &B) -> Result<Self>
    where
        S: ndarray::Data<Elem = T>,
        D: ndarray::Dimension;
}

impl<T: Element, B: ArrayBackend> NdarrayExt<T, B> for Array<T, B> {
    fn to_ndarray(&self) -> Result<ArrayD<T>> {
        let data = self.to_vec()?;
        Ok(ArrayD::from_shape_vec(IxDyn(self.shape()), data)
            .expect("to_vec returns exactly size() elements in C order"))
    }

    fn from_ndarray<S, D>(a: &ndarray::ArrayBase<S, D>, dev: &B) -> Result<Self>
    where
        S: ndarray::Data<Elem = T>,
        D: ndarray::Dimension,
    {
        let data: Vec<T> = a.iter().copied().collect();
        Array::from_vec(data, a.shape(), dev)
    }
}
