//! cuprite-python: cuprite arrays to and from Python through DLPack, without copying (the
//! facade's feature `python`, `cuprite::python`).
//!
//! - [`from_dlpack`] / [`from_dlpack_dyn`]: any Python object with `__dlpack__`
//!   (`numpy.ndarray`, `torch.Tensor`, `cupy.ndarray`, JAX arrays, ...) as an
//!   `Array<T, B>` or a `DynArray<B>` over the same memory. The producer is asked for
//!   `__dlpack__(max_version=(1, 1), stream=<cuprite's stream>)` (the stream only for GPU
//!   memory, so that the producer orders its pending writes before cuprite's work), and
//!   again without `max_version` when it rejects the keyword (producers older than DLPack
//!   1.0, which give the legacy struct); the capsule is renamed `"used_dltensor..."` as it
//!   is consumed, as the DLPack Python specification says.
//! - [`to_python`]: a cuprite array as a [`PyArray`] (`cuprite.Array` in Python), which
//!   `np.from_dlpack`, `torch.from_dlpack` and `cupy.from_dlpack` take without copying.
//! - [`DlpackBackend`]: the backends this works for, `Cpu` (feature `cpu`) and `Cuda`
//!   (feature `cuda`).
//!
//! Built with pyo3's `abi3-py39`: one extension serves every CPython from 3.9. An
//! extension module is a `cdylib` of its own (see `examples/python` in the repository);
//! this crate only links into it.
//!
//! ```no_run
//! use cuprite_core::Array;
//! use cuprite_cpu::Cpu;
//! use pyo3::prelude::*;
//!
//! /// `x * 2` for any float64 array with `__dlpack__`, returned without a copy.
//! #[pyfunction]
//! fn double(x: &Bound<'_, PyAny>) -> PyResult<cuprite_python::PyArray> {
//!     let a: Array<f64, Cpu> = cuprite_python::from_dlpack(x, &Cpu)?;
//!     let y = (&a * 2.0).into();
//!     Ok(cuprite_python::to_python(y))
//! }
//! ```

mod backend;
mod capsule;
mod pyarray;

pub use backend::DlpackBackend;
pub use pyarray::PyArray;

use cuprite_core::{Array, DType, DynArray, Element};
use cuprite_dlpack::sys::DLDeviceType;
use cuprite_dlpack::ManagedTensor;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The DLPack version cuprite reads, as `max_version` tells the producer.
const MAX_VERSION: (u32, u32) = (1, 1);

/// `obj` (any object with `__dlpack__`) as an array of `T` on `dev`, over the same memory.
///
/// # Errors
/// `TypeError` when `obj` has no `__dlpack__` or returns no DLPack capsule; `BufferError`
/// when the tensor is not `T`'s dtype (the message names both) or not on `dev`'s device (the
/// backend's `from_dlpack` message), or the producer refuses the export.
pub fn from_dlpack<T: Element, B: DlpackBackend>(
    obj: &Bound<'_, PyAny>,
    dev: &B,
) -> PyResult<Array<T, B>> {
    let t = take_tensor(obj, dev)?;
    B::import(t, dev).map_err(buffer_error)
}

/// `obj` (any object with `__dlpack__`) as an array on `dev` of the element type the
/// tensor holds, over the same memory.
///
/// # Errors
/// As [`from_dlpack`], and `BufferError` for a dtype cuprite has no element type for.
pub fn from_dlpack_dyn<B: DlpackBackend>(obj: &Bound<'_, PyAny>, dev: &B) -> PyResult<DynArray<B>> {
    let t = take_tensor(obj, dev)?;
    fn typed<T: Element, B: DlpackBackend>(t: ManagedTensor, dev: &B) -> PyResult<DynArray<B>> {
        B::import::<T>(t, dev)
            .map(DynArray::from)
            .map_err(buffer_error)
    }
    match t.dtype() {
        Some(DType::Bool) => typed::<bool, B>(t, dev),
        Some(DType::U8) => typed::<u8, B>(t, dev),
        Some(DType::I32) => typed::<i32, B>(t, dev),
        Some(DType::I64) => typed::<i64, B>(t, dev),
        Some(DType::F32) => typed::<f32, B>(t, dev),
        Some(DType::F64) => typed::<f64, B>(t, dev),
        Some(DType::C64) => typed::<cuprite_core::c64, B>(t, dev),
        Some(DType::C128) => typed::<cuprite_core::c128, B>(t, dev),
        None => Err(PyBufferError::new_err(format!(
            "from_dlpack: the tensor holds {}, a type cuprite has no element type for",
            t.dl_dtype()
        ))),
    }
}

/// A cuprite array as a Python object (`cuprite.Array`) that `np.from_dlpack`,
/// `torch.from_dlpack` and `cupy.from_dlpack` view without copying.
pub fn to_python<B: DlpackBackend>(a: DynArray<B>) -> PyArray {
    B::wrap(a)
}

/// Asks `obj` for its tensor: with `max_version` and, for GPU memory, cuprite's stream;
/// again without `max_version` when the producer rejects the keyword.
fn take_tensor<B: DlpackBackend>(obj: &Bound<'_, PyAny>, dev: &B) -> PyResult<ManagedTensor> {
    let py = obj.py();
    if !obj.hasattr("__dlpack__")? {
        return Err(PyTypeError::new_err(format!(
            "from_dlpack: a {} has no __dlpack__ method",
            obj.get_type().name()?
        )));
    }
    // Host memory takes no stream (NumPy refuses one); device memory is ordered before
    // cuprite's stream.
    let on_host = match obj.call_method0("__dlpack_device__") {
        Ok(d) => d.extract::<(i32, i32)>()?.0 == DLDeviceType::CPU.0,
        Err(_) => true,
    };
    let kwargs = PyDict::new(py);
    if !on_host {
        if let Some(s) = dev.import_stream() {
            kwargs.set_item("stream", s)?;
        }
    }
    kwargs.set_item("max_version", MAX_VERSION)?;
    let capsule = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            kwargs.del_item("max_version")?;
            obj.call_method("__dlpack__", (), Some(&kwargs))?
        }
        Err(e) => return Err(e),
    };
    capsule::take(&capsule)
}

fn buffer_error(e: cuprite_core::Error) -> PyErr {
    PyBufferError::new_err(e.to_string())
}
