//! [`PyArray`]: a cuprite array as a Python object that NumPy, PyTorch and CuPy take through
//! `np.from_dlpack` / `torch.from_dlpack` / `cupy.from_dlpack`, without copying: it
//! implements `__dlpack__(stream=None, max_version=None, dl_device=None, copy=None)` and
//! `__dlpack_device__()` as the Python array API specifies them.

use crate::backend::DlpackBackend;
use crate::capsule;
use cuprite_core::{Array, DType, Element};
use cuprite_dlpack::sys::DLDevice;
use cuprite_dlpack::{Form, ManagedTensor};
use pyo3::exceptions::PyBufferError;
use pyo3::prelude::*;

/// What the Python object needs of the typed array it holds, whatever its element type
/// and backend.
pub(crate) trait Exportable: Send + Sync {
    /// The backend's export for a consumer that passed `stream`.
    fn export(&self, stream: Option<i64>, form: Form) -> PyResult<ManagedTensor>;
    /// The device, as DLPack names it.
    fn dl_device(&self) -> DLDevice;
    /// The `stream` argument that exports without waiting: `None` on the host, -1 on a GPU.
    fn no_wait(&self) -> Option<i64>;
    fn shape(&self) -> Vec<usize>;
    fn dtype(&self) -> DType;
}

impl<T: Element, B: DlpackBackend> Exportable for Array<T, B>
where
    Array<T, B>: Send + Sync,
{
    fn export(&self, stream: Option<i64>, form: Form) -> PyResult<ManagedTensor> {
        B::export(self, stream, form).map_err(|e| PyBufferError::new_err(e.to_string()))
    }
    fn dl_device(&self) -> DLDevice {
        self.device().dl_device()
    }
    fn no_wait(&self) -> Option<i64> {
        self.device().import_stream().map(|_| -1)
    }
    fn shape(&self) -> Vec<usize> {
        Array::shape(self).to_vec()
    }
    fn dtype(&self) -> DType {
        T::DTYPE
    }
}

/// A cuprite array handed to Python (`cuprite.Array`): pass it to `np.from_dlpack`,
/// `torch.from_dlpack` or `cupy.from_dlpack`, which view its memory without copying. Make
/// one with [`to_python`](crate::to_python) or [`to_python_dyn`](crate::to_python_dyn).
#[pyclass(name = "Array", module = "cuprite", frozen)]
pub struct PyArray {
    array: Box<dyn Exportable>,
}

impl PyArray {
    pub(crate) fn new(array: Box<dyn Exportable>) -> PyArray {
        PyArray { array }
    }
}

#[pymethods]
impl PyArray {
    /// The DLPack capsule of the array's memory (no copy): `"dltensor_versioned"` when the
    /// consumer passes `max_version` of 1 or more, the legacy `"dltensor"` otherwise. On a
    /// GPU the consumer's `stream` waits for cuprite's pending writes. `copy=True` is
    /// refused (cuprite exports without copying), as is a `dl_device` other than the
    /// array's.
    #[pyo3(signature = (stream=None, max_version=None, dl_device=None, copy=None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<i64>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if copy == Some(true) {
            return Err(PyBufferError::new_err(
                "__dlpack__: cuprite exports without copying (copy=True): copy the array first",
            ));
        }
        let here = self.__dlpack_device__();
        if let Some(want) = dl_device {
            if want != here {
                return Err(PyBufferError::new_err(format!(
                    "__dlpack__: the array lives on device {here:?}, not {want:?}"
                )));
            }
        }
        let form = match max_version {
            Some((major, _)) if major >= 1 => Form::Versioned,
            _ => Form::Legacy,
        };
        capsule::wrap(py, self.array.export(stream, form)?)
    }

    /// `(device_type, device_id)` as DLPack numbers them: `(1, 0)` on the host, `(2, n)` on
    /// GPU `n`.
    fn __dlpack_device__(&self) -> (i32, i32) {
        let d = self.array.dl_device();
        (d.device_type.0, d.device_id)
    }

    /// The shape.
    #[getter]
    fn shape(&self) -> Vec<usize> {
        self.array.shape()
    }

    /// NumPy's name of the element type (`"float64"`).
    #[getter]
    fn dtype(&self) -> &'static str {
        self.array.dtype().name()
    }

    /// The address of the element at index 0 (host or device), the `data` of its DLPack
    /// tensor: compare it with the consumer's pointer to see that nothing was copied.
    #[getter]
    fn data_ptr(&self) -> PyResult<usize> {
        let t = self.array.export(self.array.no_wait(), Form::Versioned)?;
        Ok(t.data_ptr() as usize)
    }

    fn __repr__(&self) -> String {
        let (kind, id) = self.__dlpack_device__();
        let dev = if kind == 1 {
            "cpu".to_string()
        } else {
            format!("cuda:{id}")
        };
        format!(
            "cuprite.Array(shape={:?}, dtype={}, device={dev})",
            self.shape(),
            self.dtype()
        )
    }
}
