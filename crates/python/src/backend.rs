//! [`DlpackBackend`]: what the bridge needs of a backend, for `Cpu` and `Cuda` — the
//! device it names in DLPack, the stream a producer must order its writes before, and the
//! backend's own DLPack import and export.

use cuprite_core::{Array, ArrayBackend, Element, Result};
use cuprite_dlpack::sys::DLDevice;
use cuprite_dlpack::{Form, ManagedTensor};

mod sealed {
    pub trait Sealed {}
}

/// A backend whose arrays cross to Python through DLPack: `Cpu` (feature `cpu`) and `Cuda`
/// (feature `cuda`). Sealed.
pub trait DlpackBackend: ArrayBackend + Send + Sync + 'static + sealed::Sealed {
    /// The device arrays of this handle live on, as DLPack names it.
    fn dl_device(&self) -> DLDevice;

    /// The stream to pass as `stream=` to a producer's `__dlpack__` (cuprite's stream on
    /// `Cuda`), `None` on the host (where the protocol wants `None`).
    fn import_stream(&self) -> Option<i64>;

    /// The backend's `from_dlpack` (no copy).
    ///
    /// # Errors
    /// As the backend's `DlpackExt::from_dlpack`.
    fn import<T: Element>(t: ManagedTensor, dev: &Self) -> Result<Array<T, Self>>;

    /// The backend's export for a consumer that passed `stream` (the protocol's argument).
    ///
    /// # Errors
    /// A `stream` the backend cannot honour; as the backend's export otherwise.
    fn export<T: Element>(
        a: &Array<T, Self>,
        stream: Option<i64>,
        form: Form,
    ) -> Result<ManagedTensor>;
}

#[cfg(feature = "cpu")]
mod cpu {
    use super::*;
    use cuprite_core::Error;
    use cuprite_cpu::dlpack::DlpackExt;
    use cuprite_cpu::Cpu;
    use cuprite_dlpack::sys::DLDeviceType;

    impl sealed::Sealed for Cpu {}

    impl DlpackBackend for Cpu {
        fn dl_device(&self) -> DLDevice {
            DLDevice {
                device_type: DLDeviceType::CPU,
                device_id: 0,
            }
        }

        fn import_stream(&self) -> Option<i64> {
            None
        }

        fn import<T: Element>(t: ManagedTensor, _dev: &Cpu) -> Result<Array<T, Cpu>> {
            Array::from_dlpack(t)
        }

        fn export<T: Element>(
            a: &Array<T, Cpu>,
            stream: Option<i64>,
            form: Form,
        ) -> Result<ManagedTensor> {
            if let Some(s) = stream {
                return Err(Error::invalid(
                    "__dlpack__",
                    format!("stream {s} for host memory (the protocol wants None there)"),
                ));
            }
            Ok(match form {
                Form::Versioned => a.to_dlpack(),
                Form::Legacy => a.to_dlpack_legacy(),
            })
        }
    }
}

#[cfg(feature = "cuda")]
mod cuda {
    use super::*;
    use cuprite_cuda::dlpack::{ConsumerStream, DlpackExt};
    use cuprite_cuda::Cuda;

    impl sealed::Sealed for Cuda {}

    impl DlpackBackend for Cuda {
        fn dl_device(&self) -> DLDevice {
            Cuda::dl_device(self)
        }

        fn import_stream(&self) -> Option<i64> {
            Some(self.dlpack_stream() as i64)
        }

        fn import<T: Element>(t: ManagedTensor, dev: &Cuda) -> Result<Array<T, Cuda>> {
            Array::from_dlpack(t, dev)
        }

        fn export<T: Element>(
            a: &Array<T, Cuda>,
            stream: Option<i64>,
            form: Form,
        ) -> Result<ManagedTensor> {
            // SAFETY: the protocol's contract: a consumer passes a live stream of the
            // device it reads on (1 and 2 being the default streams).
            let consumer = unsafe { ConsumerStream::from_protocol(stream) }?;
            a.to_dlpack_stream(consumer, form)
        }
    }
}
