//! DLPack on a GPU: Cuda-to-Cuda round trips (same device memory, values and strides of
//! every kind of view), the refusals (dtype, device type and id, bool bytes), the deleter
//! called once whichever of an array and its views drops last, copy-on-write of imported
//! memory, the stream handshake, and 10^4 exchanges that release every tensor and every
//! export's hold on the memory. Ignored by default (they need a CUDA device and NVRTC);
//! without a device they print why and pass.

use super::{ConsumerStream, DlpackExt, Form, ManagedTensor, RawTensor};
use crate::test_support::gpu;
use crate::{Cuda, CudaBuffer};
use cuprite_core::{c64, s, Array, DType, Element, Error};
use cuprite_dlpack::sys::{DLDevice, DLDeviceType, DLPACK_FLAG_BITMASK_IS_COPIED};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A producer's owner guard that counts its drops (the deleter's calls).
struct Counted<O>(Arc<AtomicUsize>, #[allow(dead_code)] O);

impl<O> Drop for Counted<O> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// `a`'s memory exported as another library would: a versioned tensor on `device`, typed
/// `dtype`, whose deleter bumps `count`.
fn foreign<T: Element>(
    a: &Array<T, Cuda>,
    dtype: DType,
    device: DLDevice,
    count: &Arc<AtomicUsize>,
) -> ManagedTensor {
    a.device().synchronize_device().unwrap();
    let buf: CudaBuffer<T> = a.buffer().clone();
    let base = std::ptr::without_provenance_mut(buf.device_ptr() as usize);
    // SAFETY: the layout fits the buffer, kept alive by the owner; the tests read it as
    // `dtype` only where its bytes are valid for it (or to see the import refuse them).
    unsafe {
        cuprite_dlpack::export(
            Counted(count.clone(), buf),
            base,
            a.layout(),
            dtype,
            device,
            Form::Versioned,
            true,
        )
    }
}

fn cuda(dev: &Cuda) -> DLDevice {
    DLDevice {
        device_type: DLDeviceType::CUDA,
        device_id: dev.ordinal() as i32,
    }
}

fn count(c: &Arc<AtomicUsize>) -> usize {
    c.load(Ordering::SeqCst)
}

fn msg<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    match r {
        Err(e) => e.to_string(),
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn round_trips_share_device_memory_for_every_view() {
    let Some(dev) = gpu() else { return };
    let a = Array::<f64, Cuda>::from_vec((0..24).map(f64::from).collect(), &[4, 6], &dev).unwrap();
    let views = [
        a.clone(),
        a.t(),
        a.slice(&s![..;-1, 1..;2]).unwrap(),
        a.slice(&s![2, ..;-1]).unwrap(),
        a.slice(&s![1..2, 3..4]).unwrap().reshape(&[]).unwrap(),
        a.slice(&s![.., 0..1])
            .unwrap()
            .broadcast_to(&[4, 3])
            .unwrap(),
        a.slice(&s![.., 0..0]).unwrap(),
    ];
    for v in &views {
        let want = v.to_vec().unwrap();
        for (i, form) in [Form::Versioned, Form::Legacy].into_iter().enumerate() {
            let t = if i == 0 {
                v.to_dlpack().unwrap()
            } else {
                v.to_dlpack_stream(ConsumerStream::NoSync, form).unwrap()
            };
            let shape: Vec<i64> = v.shape().iter().map(|&d| d as i64).collect();
            let strides: Vec<i64> = v.strides().iter().map(|&s| s as i64).collect();
            assert_eq!(t.shape(), &shape[..]);
            assert_eq!(t.strides(), Some(&strides[..]));
            assert_eq!(t.device(), cuda(&dev));
            assert_eq!(t.is_read_only(), form == Form::Versioned);
            let first = v.buffer().device_ptr() + 8 * v.layout().offset() as u64;
            if v.size() > 0 {
                assert_eq!(t.data_ptr() as u64, first, "{:?}", v.layout());
            } else {
                assert!(t.data_ptr().is_null());
            }
            let b = Array::<f64, Cuda>::from_dlpack(t, &dev).unwrap();
            assert_eq!(b.shape(), v.shape());
            assert_eq!(b.to_vec().unwrap(), want, "{:?}", v.layout());
            if v.size() > 0 {
                // The same element 0, no copy.
                let got = b.buffer().device_ptr() + 8 * b.layout().offset() as u64;
                assert_eq!(got, first);
                assert!(b.buffer().is_foreign());
            }
        }
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn every_element_type_round_trips() {
    let Some(dev) = gpu() else { return };
    fn check<T: Element>(dev: &Cuda, v: Vec<T>) {
        let a = Array::<T, Cuda>::from_vec(v.clone(), &[v.len()], dev).unwrap();
        let b = Array::<T, Cuda>::from_dlpack(a.to_dlpack().unwrap(), dev).unwrap();
        assert_eq!(b.to_vec().unwrap(), v, "{}", T::DTYPE);
        assert_eq!(b.buffer().device_ptr(), a.buffer().device_ptr());
    }
    check(&dev, vec![true, false, true]);
    check(&dev, vec![1u8, 255]);
    check(&dev, vec![-1i32, 7]);
    check(&dev, vec![i64::MIN, 3]);
    check(&dev, vec![1.5f32, -0.0]);
    check(&dev, vec![f64::MAX, 2.0]);
    check(&dev, vec![c64::new(1.0, -2.0)]);
    check(&dev, vec![cuprite_core::c128::new(0.5, 3.0)]);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn a_wrong_dtype_device_or_bool_byte_is_refused_and_the_tensor_released() {
    let Some(dev) = gpu() else { return };
    let c = Arc::new(AtomicUsize::new(0));
    let a = Array::<f64, Cuda>::ones(&[3], &dev).unwrap();
    let t = foreign(&a, DType::F64, cuda(&dev), &c);
    assert_eq!(
        msg(Array::<f32, Cuda>::from_dlpack(t, &dev)),
        "from_dlpack: the tensor holds float64 (kDLFloat 64) but the array's element type is \
         float32 (kDLFloat 32)"
    );
    let cpu = DLDevice {
        device_type: DLDeviceType::CPU,
        device_id: 0,
    };
    let m = msg(Array::<f64, Cuda>::from_dlpack(
        foreign(&a, DType::F64, cpu, &c),
        &dev,
    ));
    assert!(
        m.starts_with("from_dlpack: the tensor lives on kDLCPU device 0;"),
        "{m}"
    );
    let other = DLDevice {
        device_type: DLDeviceType::CUDA,
        device_id: dev.ordinal() as i32 + 1,
    };
    let m = msg(Array::<f64, Cuda>::from_dlpack(
        foreign(&a, DType::F64, other, &c),
        &dev,
    ));
    assert!(
        m.contains(&format!("kDLCUDA device {}", dev.ordinal() + 1)),
        "{m}"
    );
    // A host array's tensor.
    let h = cuprite_cpu::dlpack::DlpackExt::to_dlpack(
        &Array::<f64, cuprite_cpu::Cpu>::zeros(&[2], &cuprite_cpu::Cpu).unwrap(),
    );
    assert!(msg(Array::<f64, Cuda>::from_dlpack(h, &dev)).contains("kDLCPU"));
    // Bytes that are not bools, typed as kDLBool.
    let bytes = Array::<u8, Cuda>::from_vec(vec![1, 0, 2], &[3], &dev).unwrap();
    let m = msg(Array::<bool, Cuda>::from_dlpack(
        foreign(&bytes, DType::Bool, cuda(&dev), &c),
        &dev,
    ));
    assert!(m.contains("byte 0x02"), "{m}");
    assert_eq!(count(&c), 4);
    // Managed memory of this device is taken.
    let managed = DLDevice {
        device_type: DLDeviceType::CUDA_MANAGED,
        ..cuda(&dev)
    };
    let b = Array::<f64, Cuda>::from_dlpack(foreign(&a, DType::F64, managed, &c), &dev).unwrap();
    assert_eq!(b.to_vec().unwrap(), vec![1.0; 3]);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn the_deleter_runs_once_after_the_last_array_or_view() {
    let Some(dev) = gpu() else { return };
    let a =
        Array::<f32, Cuda>::from_vec((0..6).map(|i| i as f32).collect(), &[2, 3], &dev).unwrap();
    for array_first in [true, false] {
        let c = Arc::new(AtomicUsize::new(0));
        let b =
            Array::<f32, Cuda>::from_dlpack(foreign(&a, DType::F32, cuda(&dev), &c), &dev).unwrap();
        let v = b.t();
        let w = (&v * 2.0).sum().unwrap(); // queued work reading the memory
        let (first, second) = if array_first { (b, v) } else { (v, b) };
        drop(first);
        assert_eq!(count(&c), 0);
        drop(second);
        assert_eq!(count(&c), 1);
        assert_eq!(w.item().unwrap(), 30.0);
    }
    // Released at once: an error, and a tensor of size 0.
    let c = Arc::new(AtomicUsize::new(0));
    let e = Array::<f32, Cuda>::zeros(&[0, 3], &dev).unwrap();
    let b = Array::<f32, Cuda>::from_dlpack(foreign(&e, DType::F32, cuda(&dev), &c), &dev).unwrap();
    assert_eq!((b.shape(), count(&c)), (&[0, 3][..], 1));
    // The exported tensor keeps cuprite's memory alive until its deleter (seen through a
    // second holder of the memory: the device-wide in-use counter would also count the
    // crate's other tests, which allocate beside this one).
    let x = Array::<f64, Cuda>::ones(&[1000], &dev).unwrap();
    let probe = x.buffer().clone();
    let t = x.to_dlpack().unwrap();
    drop(x);
    assert!(!probe.is_unique(), "the tensor holds the memory");
    let raw = t.into_raw();
    // SAFETY: cuprite's own live tensor, handed back to be released.
    drop(unsafe { ManagedTensor::from_raw(raw) }.unwrap());
    assert!(probe.is_unique(), "the deleter let go of the memory");
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn writes_copy_first_unless_the_tensor_is_handed_over() {
    let Some(dev) = gpu() else { return };
    let a = Array::<f64, Cuda>::from_vec(vec![1.0, 2.0, 3.0], &[3], &dev).unwrap();
    let mut b = Array::<f64, Cuda>::from_dlpack(a.to_dlpack().unwrap(), &dev).unwrap();
    b += 10.0;
    assert_eq!(b.to_vec().unwrap(), vec![11.0, 12.0, 13.0]);
    assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0, 3.0]);
    assert_ne!(b.buffer().device_ptr(), a.buffer().device_ptr());
    assert!(!b.buffer().is_foreign());

    // into_dlpack of unshared memory: writable, and flagged IS_COPIED here as a producer
    // that copied would: the import writes in place.
    let c = Array::<f64, Cuda>::from_vec(vec![1.0, 2.0], &[2], &dev).unwrap();
    let ptr = c.buffer().device_ptr();
    let t = c.into_dlpack(ConsumerStream::NoSync).unwrap();
    assert!(!t.is_read_only());
    let RawTensor::Versioned(mut p) = t.into_raw() else {
        panic!("versioned")
    };
    // SAFETY: the live tensor cuprite made; the consumer owns it and may set its flags.
    let t = unsafe {
        p.as_mut().flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
        ManagedTensor::from_raw(RawTensor::Versioned(p)).unwrap()
    };
    let mut d = Array::<f64, Cuda>::from_dlpack(t, &dev).unwrap();
    d *= 2.0;
    assert_eq!(d.buffer().device_ptr(), ptr);
    assert_eq!(d.to_vec().unwrap(), vec![2.0, 4.0]);
    // Shared memory is exported read-only.
    let e = Array::<f64, Cuda>::ones(&[2], &dev).unwrap();
    let _keep = e.clone();
    assert!(e
        .into_dlpack(ConsumerStream::NoSync)
        .unwrap()
        .is_read_only());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn the_consumer_stream_waits_for_pending_writes() {
    let Some(dev) = gpu() else { return };
    let s = dev.new_stream().unwrap();
    let on_s = dev.with_stream(&s).unwrap();
    let n = 1 << 24;
    for round in 0..5 {
        // Long work on cuprite's stream, then a consumer on `s` that sees only the tensor.
        let mut a = Array::<f32, Cuda>::ones(&[n], &dev).unwrap();
        for _ in 0..20 {
            a = &a * 1.0 + 1.0;
        }
        // SAFETY: `s` is a live stream of the device for the whole export.
        let consumer = unsafe { ConsumerStream::from_raw(s.inner.raw() as usize as u64) };
        let t = a
            .to_dlpack_stream(consumer.unwrap(), Form::Versioned)
            .unwrap();
        let b = Array::<f32, Cuda>::from_dlpack(t, &on_s).unwrap();
        assert_eq!(
            b.sum().unwrap().item().unwrap(),
            21.0 * n as f32,
            "round {round}"
        );
    }
    // The import side: a producer on `s` hands over a tensor for `dev`'s stream.
    let x = Array::<f32, Cuda>::full(&[n], 2.0, &on_s).unwrap();
    // SAFETY: `dev`'s stream is live.
    let to_dev = unsafe { ConsumerStream::from_raw(dev.dlpack_stream()) }.unwrap();
    let t = x.to_dlpack_stream(to_dev, Form::Versioned).unwrap();
    let y = Array::<f32, Cuda>::from_dlpack(t, &dev).unwrap();
    assert_eq!(y.sum().unwrap().item().unwrap(), 2.0 * n as f32);
    assert_ne!(dev.dlpack_stream(), on_s.dlpack_stream());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn ten_thousand_exchanges_leak_no_device_memory() {
    let Some(dev) = gpu() else { return };
    let a = Array::<f32, Cuda>::ones(&[256, 256], &dev).unwrap();
    dev.synchronize_device().unwrap();
    let c = Arc::new(AtomicUsize::new(0));
    for i in 0..10_000 {
        let t = if i % 2 == 0 {
            a.t()
                .to_dlpack_stream(ConsumerStream::Legacy, Form::Versioned)
        } else {
            a.to_dlpack_stream(ConsumerStream::NoSync, Form::Legacy)
        }
        .unwrap();
        let b = Array::<f32, Cuda>::from_dlpack(t, &dev).unwrap();
        let f =
            Array::<f32, Cuda>::from_dlpack(foreign(&b, DType::F32, cuda(&dev), &c), &dev).unwrap();
        if i % 1000 == 0 {
            assert_eq!(f.sum().unwrap().item().unwrap(), 65536.0);
        }
    }
    dev.synchronize_device().unwrap();
    // Every foreign tensor was released, and every export's clone of `a`'s memory is gone
    // (the device-wide in-use counter is not used: the crate's other tests allocate
    // beside this one).
    assert_eq!(count(&c), 10_000);
    assert!(
        a.buffer().is_unique(),
        "an exported tensor still holds a's memory"
    );
}
