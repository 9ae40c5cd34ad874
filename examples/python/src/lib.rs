//! `cuprite_normalize`: an example Python extension built on cuprite's Python bridge. It
//! takes any array with `__dlpack__` (a NumPy array, a PyTorch tensor, a CuPy array, on the
//! host or on a GPU) without copying, runs the normalisation of the notebooks this project
//! grew from — `(m - m.mean(axis=0)) / m.std(axis=0)` — on the backend where the memory
//! lives, and returns a `cuprite.Array` that `np.from_dlpack`, `torch.from_dlpack` and
//! `cupy.from_dlpack` view without copying. `view(x)` returns the input itself, to show
//! that nothing is copied either way. See README.md for the build and `normalize.py`.

use cuprite_core::DynArray;
use cuprite_python::{from_dlpack_dyn, to_python_dyn, DlpackBackend, PyArray};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The pipeline on float arrays: each column minus its mean, over its standard deviation.
macro_rules! normalise {
    ($m:expr) => {{
        let m = $m;
        let mean = m.mean_axes(0, true).map_err(value_error)?;
        let std = m.std_axes(0, 0.0, true).map_err(value_error)?;
        let centred = m.try_sub(&mean).map_err(value_error)?;
        DynArray::from(centred.try_div(&std).map_err(value_error)?)
    }};
}

fn value_error(e: cuprite_core::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn normalize_on<B: DlpackBackend>(x: &Bound<'_, PyAny>, dev: &B) -> PyResult<PyArray> {
    let out = match from_dlpack_dyn(x, dev)? {
        DynArray::F64(m) => normalise!(m),
        DynArray::F32(m) => normalise!(m),
        d => {
            return Err(PyTypeError::new_err(format!(
                "normalize takes float32 or float64 arrays, not {}",
                d.dtype().name()
            )))
        }
    };
    Ok(to_python_dyn(out))
}

/// The DLPack device of `x`: `(1, 0)` on the host, `(2, n)` on GPU `n`.
fn device_of(x: &Bound<'_, PyAny>) -> PyResult<(i32, i32)> {
    x.call_method0("__dlpack_device__")?.extract()
}

/// Runs `$body` with `$dev` the backend holding `x`'s memory.
macro_rules! on_device_of {
    ($x:expr, $dev:ident => $body:expr) => {{
        match device_of($x)? {
            (1, _) => {
                let $dev = &cuprite_cpu::Cpu;
                $body
            }
            #[cfg(feature = "cuda")]
            (2, id) => {
                let $dev = &cuprite_cuda::Cuda::new(id as usize).map_err(value_error)?;
                $body
            }
            (kind, id) => Err(PyValueError::new_err(format!(
                "device ({kind}, {id}) is not one this build of cuprite_normalize takes \
                 (build it with --features cuda for GPU arrays)"
            ))),
        }
    }};
}

/// `(x - x.mean(axis=0)) / x.std(axis=0)` on the device of `x`, which is read in place.
#[pyfunction]
fn normalize(x: &Bound<'_, PyAny>) -> PyResult<PyArray> {
    on_device_of!(x, dev => normalize_on(x, dev))
}

/// `x` itself as a `cuprite.Array`: the same memory, imported and exported without a copy.
#[pyfunction]
fn view(x: &Bound<'_, PyAny>) -> PyResult<PyArray> {
    on_device_of!(x, dev => Ok(to_python_dyn(from_dlpack_dyn(x, dev)?)))
}

/// Bytes of device memory cuprite's buffers hold on GPU `device` now (for leak checks).
#[pyfunction]
#[pyo3(signature = (device=0))]
fn cuda_memory_in_use(device: usize) -> PyResult<usize> {
    #[cfg(feature = "cuda")]
    {
        Ok(cuprite_cuda::Cuda::new(device)
            .map_err(value_error)?
            .memory_in_use())
    }
    #[cfg(not(feature = "cuda"))]
    {
        Err(PyValueError::new_err(format!(
            "cuda_memory_in_use({device}): this build of cuprite_normalize has no CUDA \
             backend (build it with --features cuda)"
        )))
    }
}

#[pymodule]
fn cuprite_normalize(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(view, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_memory_in_use, m)?)?;
    m.add_class::<PyArray>()?;
    Ok(())
}
