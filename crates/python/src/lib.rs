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
//! - [`to_python`] / [`to_python_dyn`]: a cuprite array as a [`PyArray`] (`cuprite.Array`
//!   in Python), which `np.from_dlpack`, `torch.from_dlpack` and `cupy.from_dlpack` take
//!   without copying.
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
//!     Ok(cuprite_python::to_python(&a * 2.0))
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
    let Some(dtype) = t.dtype() else {
        return Err(PyBufferError::new_err(format!(
            "from_dlpack: the tensor holds {}, a type cuprite has no element type for",
            t.dl_dtype()
        )));
    };
    struct Import<'a, B>(ManagedTensor, &'a B);
    impl<B: DlpackBackend> ForDtype for Import<'_, B> {
        type Out = PyResult<DynArray<B>>;
        fn call<T: Element>(self) -> Self::Out {
            let Import(t, dev) = self;
            B::import::<T>(t, dev)
                .map(DynArray::from)
                .map_err(buffer_error)
        }
    }
    for_dtype(dtype, Import(t, dev))
}

/// A cuprite array as a Python object (`cuprite.Array`) that `np.from_dlpack`,
/// `torch.from_dlpack` and `cupy.from_dlpack` view without copying.
pub fn to_python<T: Element, B: DlpackBackend>(a: Array<T, B>) -> PyArray
where
    Array<T, B>: Send + Sync,
{
    PyArray::new(Box::new(a))
}

/// [`to_python`] of an array whose element type is known at run time.
pub fn to_python_dyn<B: DlpackBackend>(a: DynArray<B>) -> PyArray {
    struct Wrap<B: DlpackBackend>(DynArray<B>);
    impl<B: DlpackBackend> ForDtype for Wrap<B> {
        type Out = PyArray;
        fn call<T: Element>(self) -> PyArray {
            match self.0.try_into_typed::<T>() {
                Ok(a) => to_python(a),
                Err(_) => unreachable!("a DynArray holds an array of its own dtype"),
            }
        }
    }
    let dtype = a.dtype();
    for_dtype(dtype, Wrap(a))
}

/// Something to do with the element type a [`DType`] names.
trait ForDtype {
    type Out;
    fn call<T: Element>(self) -> Self::Out;
}

/// `f.call::<T>()` for the element type `T` of `dtype`: the one match from run-time dtypes
/// to types in the crate.
fn for_dtype<F: ForDtype>(dtype: DType, f: F) -> F::Out {
    cuprite_core::with_dtype!(dtype, T => f.call::<T>())
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
