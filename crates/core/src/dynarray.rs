//! [`DynArray<B>`]: an array whose element type is known only at run time — read from a
//! file (`.npy`, `.npz`, see [`crate::io`]) or handed over by another library. It is an enum
//! with one variant per element type, each holding the typed [`Array<T, B>`]; the typed API
//! stays the main one, and a `DynArray` is what one holds until the dtype is known.
//!
//! What does not depend on the element type works on the `DynArray` itself: `dtype`, the
//! shape, printing (NumPy's, through the typed array), and the dtype-preserving views and
//! copies (`reshape`, `slice`, `t`, `permute_dims`, `copy`, `to_device`). Everything else
//! goes through a typed array: [`DynArray::try_into_typed`] when the dtype must be `T`
//! (an error naming both dtypes otherwise), [`DynArray::astype`] to convert as NumPy's
//! `astype` does, or a `match` on the variants.
//!
//! ```
//! use cuprite_core::{s, Array, DType, DynArray};
//! # fn demo<B: cuprite_core::ArrayBackend>(dev: &B) -> cuprite_core::Result<()> {
//! let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[2, 3], dev)?;
//! let d = DynArray::from(a);
//! assert_eq!((d.dtype(), d.shape()), (DType::I32, &[2, 3][..]));
//!
//! let col = d.slice(&s![.., 1])?; // still int32
//! assert_eq!(col.to_string(), "[2 5]");
//! assert_eq!(format!("{:?}", d.t()), "array([[1, 4],\n       [2, 5],\n       [3, 6]], dtype=int32)");
//!
//! assert_eq!(d.astype::<f64>()?.to_vec()?, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! assert_eq!(d.clone().try_into_typed::<i32>()?.sum()?.item()?, 21);
//! let e = d.try_into_typed::<f32>().unwrap_err();
//! assert_eq!(e.to_string(), "try_into_typed: expected an array of dtype float32, found int32");
//! # Ok(()) }
//! # demo(&cuprite_cpu::Cpu::new()).unwrap();
//! ```

use crate::array::Array;
use crate::backend::{ArrayBackend, BackendBase};
use crate::dtype::{DType, Element, bf16, c64, c128, f16};
use crate::error::{Error, Result};
use crate::slice::SliceArg;
use std::fmt;

/// An array of any element type on the device `B`: one variant per element type, named as
/// [`DType`] names them. Cloning is cheap and shares the buffer, as for [`Array`].
#[derive(Clone)]
pub enum DynArray<B: BackendBase> {
    /// An array of `bool`.
    Bool(Array<bool, B>),
    /// An array of `i8` (NumPy's `int8`).
    I8(Array<i8, B>),
    /// An array of `u8` (NumPy's `uint8`).
    U8(Array<u8, B>),
    /// An array of `i16` (NumPy's `int16`).
    I16(Array<i16, B>),
    /// An array of `u16` (NumPy's `uint16`).
    U16(Array<u16, B>),
    /// An array of `i32` (NumPy's `int32`).
    I32(Array<i32, B>),
    /// An array of `u32` (NumPy's `uint32`).
    U32(Array<u32, B>),
    /// An array of `i64` (NumPy's `int64`).
    I64(Array<i64, B>),
    /// An array of `u64` (NumPy's `uint64`).
    U64(Array<u64, B>),
    /// An array of [`f16`] (NumPy's `float16`).
    F16(Array<f16, B>),
    /// An array of [`bf16`] (ml_dtypes' `bfloat16`).
    BF16(Array<bf16, B>),
    /// An array of `f32` (NumPy's `float32`).
    F32(Array<f32, B>),
    /// An array of `f64` (NumPy's `float64`).
    F64(Array<f64, B>),
    /// An array of [`c64`] (NumPy's `complex64`).
    C64(Array<c64, B>),
    /// An array of [`c128`] (NumPy's `complex128`).
    C128(Array<c128, B>),
}

/// `$body` with `$a` bound to the typed array of whichever variant `$d` is.
macro_rules! with_typed {
    ($d:expr, $a:ident => $body:expr) => {
        match $d {
            $crate::dynarray::DynArray::Bool($a) => $body,
            $crate::dynarray::DynArray::I8($a) => $body,
            $crate::dynarray::DynArray::U8($a) => $body,
            $crate::dynarray::DynArray::I16($a) => $body,
            $crate::dynarray::DynArray::U16($a) => $body,
            $crate::dynarray::DynArray::I32($a) => $body,
            $crate::dynarray::DynArray::U32($a) => $body,
            $crate::dynarray::DynArray::I64($a) => $body,
            $crate::dynarray::DynArray::U64($a) => $body,
            $crate::dynarray::DynArray::F16($a) => $body,
            $crate::dynarray::DynArray::BF16($a) => $body,
            $crate::dynarray::DynArray::F32($a) => $body,
            $crate::dynarray::DynArray::F64($a) => $body,
            $crate::dynarray::DynArray::C64($a) => $body,
            $crate::dynarray::DynArray::C128($a) => $body,
        }
    };
}

/// The variant of `$d` rebuilt around `$body` (an `Array` of the same element type, maybe
/// of another backend), with `$a` bound to the typed array.
macro_rules! map_typed {
    ($d:expr, $a:ident => $body:expr) => {
        match $d {
            $crate::dynarray::DynArray::Bool($a) => $crate::dynarray::DynArray::Bool($body),
            $crate::dynarray::DynArray::I8($a) => $crate::dynarray::DynArray::I8($body),
            $crate::dynarray::DynArray::U8($a) => $crate::dynarray::DynArray::U8($body),
            $crate::dynarray::DynArray::I16($a) => $crate::dynarray::DynArray::I16($body),
            $crate::dynarray::DynArray::U16($a) => $crate::dynarray::DynArray::U16($body),
            $crate::dynarray::DynArray::I32($a) => $crate::dynarray::DynArray::I32($body),
            $crate::dynarray::DynArray::U32($a) => $crate::dynarray::DynArray::U32($body),
            $crate::dynarray::DynArray::I64($a) => $crate::dynarray::DynArray::I64($body),
            $crate::dynarray::DynArray::U64($a) => $crate::dynarray::DynArray::U64($body),
            $crate::dynarray::DynArray::F16($a) => $crate::dynarray::DynArray::F16($body),
            $crate::dynarray::DynArray::BF16($a) => $crate::dynarray::DynArray::BF16($body),
            $crate::dynarray::DynArray::F32($a) => $crate::dynarray::DynArray::F32($body),
            $crate::dynarray::DynArray::F64($a) => $crate::dynarray::DynArray::F64($body),
            $crate::dynarray::DynArray::C64($a) => $crate::dynarray::DynArray::C64($body),
            $crate::dynarray::DynArray::C128($a) => $crate::dynarray::DynArray::C128($body),
        }
    };
}
pub(crate) use with_typed;

impl<T: Element, B: BackendBase> From<Array<T, B>> for DynArray<B> {
    fn from(a: Array<T, B>) -> Self {
        T::into_dyn(a)
    }
}

impl<B: BackendBase> DynArray<B> {
    /// The element type.
    pub fn dtype(&self) -> DType {
        with_typed!(self, a => a.dtype())
    }
    /// The shape.
    pub fn shape(&self) -> &[usize] {
        with_typed!(self, a => a.shape())
    }
    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        with_typed!(self, a => a.ndim())
    }
    /// Number of elements.
    pub fn size(&self) -> usize {
        with_typed!(self, a => a.size())
    }
    /// Size of one element in bytes.
    pub fn itemsize(&self) -> usize {
        self.dtype().size_of()
    }
    /// Total bytes of the elements.
    pub fn nbytes(&self) -> usize {
        self.size() * self.itemsize()
    }
    /// The device the array lives on.
    pub fn device(&self) -> &B {
        with_typed!(self, a => a.device())
    }
    /// True when the view is C-contiguous.
    pub fn is_contiguous(&self) -> bool {
        with_typed!(self, a => a.is_contiguous())
    }

    /// The typed array, when the element type is `T`.
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] naming `T`'s dtype and the array's; nothing is converted
    /// (see [`DynArray::astype`] for that).
    pub fn try_into_typed<T: Element>(self) -> Result<Array<T, B>> {
        T::from_dyn(self).map_err(|d| Error::DTypeMismatch {
            op: "try_into_typed",
            expected: T::DTYPE,
            found: d.dtype(),
        })
    }

    /// Converts every element to `T`, as [`Array::astype`] (NumPy's `astype`: float to int
    /// truncates, complex to real drops the imaginary part, nonzero is true). A new array
    /// even when the dtype is already `T`.
    pub fn astype<T: Element>(&self) -> Result<Array<T, B>> {
        with_typed!(self, a => a.astype::<T>())
    }

    /// A C-contiguous copy (shares nothing with `self`), see [`Array::copy`].
    pub fn copy(&self) -> Result<Self> {
        Ok(map_typed!(self, a => a.copy()?))
    }

    /// Copies the array to another device (of any backend), see [`Array::to_device`].
    pub fn to_device<B2: ArrayBackend>(&self, dev: &B2) -> Result<DynArray<B2>> {
        Ok(map_typed!(self, a => a.to_device(dev)?))
    }
}

impl<B: ArrayBackend> DynArray<B> {
    /// A new shape with the same elements in C order, see [`Array::reshape`].
    pub fn reshape(&self, shape: &[isize]) -> Result<Self> {
        Ok(map_typed!(self, a => a.reshape(shape)?))
    }

    /// Basic indexing with [`s!`](crate::s) (a view), see [`Array::slice`].
    pub fn slice(&self, args: &[SliceArg]) -> Result<Self> {
        Ok(map_typed!(self, a => a.slice(args)?))
    }

    /// Axes reversed (a view).
    pub fn t(&self) -> Self {
        map_typed!(self, a => a.t())
    }

    /// Axes reversed (a view); same as [`DynArray::t`].
    pub fn transpose(&self) -> Self {
        self.t()
    }

    /// Axes reordered (a view), see [`Array::permute_dims`].
    pub fn permute_dims(&self, axes: &[isize]) -> Result<Self> {
        Ok(map_typed!(self, a => a.permute_dims(axes)?))
    }

    /// `self` if already C-contiguous, else a C-contiguous copy.
    pub fn to_contiguous(&self) -> Result<Self> {
        Ok(map_typed!(self, a => a.to_contiguous()?))
    }
}

/// Prints like NumPy's `print(a)`, as the typed array does.
impl<B: BackendBase> fmt::Display for DynArray<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_typed!(self, a => fmt::Display::fmt(a, f))
    }
}

/// Prints like NumPy's `repr(a)`, as the typed array does.
impl<B: BackendBase> fmt::Debug for DynArray<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_typed!(self, a => fmt::Debug::fmt(a, f))
    }
}
