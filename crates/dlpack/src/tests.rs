//! The shared export and import on host memory: what the exported struct holds, the deleter
//! dropping the owner once, and what `import` accepts and refuses for a backend's
//! [`Accept`] (a CUDA-like backend included: the checks need no GPU, only the tensor's
//! fields).

use crate::sys::*;
use crate::{export, import, Accept, Form, ManagedTensor, RawTensor};
use cuprite_core::{DType, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// An owner that counts its drops.
struct Counted(Arc<AtomicUsize>, #[allow(dead_code)] Vec<f64>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

const CUDA1: DLDevice = DLDevice {
    device_type: DLDeviceType::CUDA,
    device_id: 1,
};

/// A CUDA-like backend's acceptance: device memory of device 1.
const ON_CUDA1: Accept<'static> = Accept {
    device_types: &[DLDeviceType::CUDA, DLDeviceType::CUDA_MANAGED],
    device_id: Some(1),
    wants: "cuda:1 takes kDLCUDA or kDLCUDAManaged memory of device 1",
};

/// A versioned tensor of 12 f64 over a counted vector, seen through `layout`.
fn tensor(
    layout: &Layout,
    device: DLDevice,
    form: Form,
    drops: &Arc<AtomicUsize>,
) -> ManagedTensor {
    let v: Vec<f64> = (0..12).map(f64::from).collect();
    let base = v.as_ptr().cast_mut().cast();
    let owner = Counted(drops.clone(), v);
    // SAFETY: the layouts of these tests fit 12 elements, which the owner keeps alive and
    // nobody writes.
    unsafe { export(owner, base, layout, DType::F64, device, form, true) }
}

#[test]
fn export_points_at_element_zero_and_the_deleter_drops_the_owner_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    // [[11, 9, 7], [5, 3, 1]]: a reversed, strided view, element 0 at buffer index 11.
    let view = Layout::contiguous(&[2, 6])
        .slice_axis(0, 1, 2, -1)
        .slice_axis(1, 5, 3, -2);
    let t = tensor(&view, CUDA1, Form::Versioned, &drops);
    assert_eq!(t.shape(), &[2, 3]);
    assert_eq!(t.strides(), Some(&[-6, -2][..]));
    assert_eq!(
        (t.byte_offset(), t.flags()),
        (0, DLPACK_FLAG_BITMASK_READ_ONLY)
    );
    assert_eq!(t.device(), CUDA1);
    assert_eq!(t.dtype(), Some(DType::F64));
    let plan = import(&t, DType::F64, &ON_CUDA1).unwrap();
    let span = plan.span.unwrap();
    // The span runs from element 1 (the lowest reached) to element 11, inclusive.
    assert_eq!(span.len, 11);
    assert_eq!(
        t.data_ptr() as usize - span.base as usize,
        10 * std::mem::size_of::<f64>()
    );
    assert!(!span.writable);
    assert_eq!(plan.layout.offset(), 10);
    assert_eq!(plan.layout.strides(), &[-6, -2]);
    let raw = t.into_raw();
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    // SAFETY: cuprite's own live tensor, handed back.
    drop(unsafe { ManagedTensor::from_raw(raw) }.unwrap());
    assert_eq!(drops.load(Ordering::SeqCst), 1);

    let t = tensor(&Layout::contiguous(&[0, 3]), CUDA1, Form::Legacy, &drops);
    assert!(t.data_ptr().is_null() && t.version().is_none());
    let plan = import(&t, DType::F64, &ON_CUDA1).unwrap();
    assert!(plan.span.is_none());
    assert!(matches!(t.into_raw(), RawTensor::Legacy(_)));
    assert_eq!(
        drops.load(Ordering::SeqCst),
        1,
        "into_raw never calls the deleter"
    );
}

#[test]
fn import_names_what_it_found() {
    let drops = Arc::new(AtomicUsize::new(0));
    let t = tensor(&Layout::contiguous(&[3]), CUDA1, Form::Versioned, &drops);
    let e = import(&t, DType::F32, &ON_CUDA1).unwrap_err().to_string();
    assert_eq!(
        e,
        "from_dlpack: the tensor holds float64 (kDLFloat 64) but the array's element type is \
         float32 (kDLFloat 32)"
    );
    let on_cuda0 = Accept {
        device_id: Some(0),
        ..ON_CUDA1
    };
    let e = import(&t, DType::F64, &on_cuda0).unwrap_err().to_string();
    assert!(
        e.starts_with("from_dlpack: the tensor lives on kDLCUDA device 1;"),
        "{e}"
    );
    let host = tensor(
        &Layout::contiguous(&[3]),
        DLDevice {
            device_type: DLDeviceType::CPU,
            device_id: 0,
        },
        Form::Versioned,
        &drops,
    );
    let e = import(&host, DType::F64, &ON_CUDA1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("kDLCPU device 0; cuda:1 takes"), "{e}");
    // Misaligned: element 0 one byte into the memory is refused for every element type.
    let v = vec![0u8; 17];
    let base = v.as_ptr().cast_mut().wrapping_add(1).cast();
    // SAFETY: the owner keeps 16 bytes from `base` alive, unwritten.
    let t = unsafe {
        export(
            v,
            base,
            &Layout::contiguous(&[2]),
            DType::C64,
            CUDA1,
            Form::Versioned,
            true,
        )
    };
    let e = import(&t, DType::C64, &ON_CUDA1).unwrap_err().to_string();
    assert!(e.contains("not aligned for complex64 (4 bytes)"), "{e}");
}
