//! cuprite-core: element types, layouts, broadcasting, errors, the backend trait family and
//! the [`Array`] API of cuprite. Core resolves shapes, strides, broadcasting and dtypes once,
//! for every backend, and calls a backend's primitives on flat buffers plus layouts. It never
//! names a backend: `cuprite-cpu` and `cuprite-cuda` implement [`ArrayBackend`].

#![forbid(unsafe_code)]

pub mod array;
pub mod backend;
pub mod copies;
pub mod dtype;
pub mod dynarray;
pub mod error;
pub mod fft;
pub mod fusion;
pub mod io;
pub mod kernel;
pub mod layout;
pub mod ops;
pub mod profiler;
pub mod promote;
pub mod random;
pub mod slice;
pub mod testing;

pub use array::*;
pub use backend::{ArgKind, ArrayBackend, BackendBase, Buf, DeviceTimer};
pub use dtype::{
    ComplexElement, DType, Element, Float, Inexact, Integer, Numeric, Real, Scalar, bf16, c64,
    c128, f16, result_type,
};
pub use dynarray::DynArray;
pub use error::{Error, Result};
pub use io::{load_npz, save_npz};
pub use layout::{Layout, broadcast_shapes};
pub use ops::Bitwise;
pub use promote::Promote;
pub use slice::{ELLIPSIS, NEW_AXIS, SliceArg};
