//! Tests of the import side against tensors made by a test producer written here as C would
//! write one (its own memory, shape, strides and a deleter that counts its calls), and of
//! the export side read back through the raw structs.

use super::sys::*;
use super::{DlpackExt, ManagedTensor, RawTensor};
use crate::Cpu;
use cuprite_core::{c128, c64, s, Array, Element, Error};
use std::ffi::c_void;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The producer's block: the managed struct first, then what it points to.
#[repr(C)]
struct Producer<M, T> {
    managed: M,
    data: Vec<T>,
    shape: Vec<i64>,
    strides: Vec<i64>,
    deleted: Arc<AtomicUsize>,
}

/// What a test tensor looks like; `Spec::new` gives a C-contiguous host tensor of the data's
/// own dtype.
#[derive(Clone)]
struct Spec {
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    /// Element index of `data + byte_offset` in the producer's vector.
    first: usize,
    device: DLDeviceType,
    dtype: Option<DLDataType>,
    ndim: Option<i32>,
    null_shape: bool,
    null_data: bool,
    extra_byte_offset: u64,
    version: DLPackVersion,
    flags: u64,
}

impl Spec {
    fn new(shape: &[i64]) -> Self {
        Spec {
            shape: shape.to_vec(),
            strides: None,
            first: 0,
            device: DLDeviceType::CPU,
            dtype: None,
            ndim: None,
            null_shape: false,
            null_data: false,
            extra_byte_offset: 0,
            version: DLPackVersion::CURRENT,
            flags: 0,
        }
    }
    fn strides(mut self, s: &[i64], first: usize) -> Self {
        self.strides = Some(s.to_vec());
        self.first = first;
        self
    }
}

/// A counter of deleter calls.
fn counter() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

unsafe extern "C" fn delete_versioned<T>(p: *mut DLManagedTensorVersioned) {
    // SAFETY: `p` is a block leaked by `versioned`, freed once here.
    let b = unsafe { Box::from_raw(p.cast::<Producer<DLManagedTensorVersioned, T>>()) };
    b.deleted.fetch_add(1, Ordering::SeqCst);
}

unsafe extern "C" fn delete_legacy<T>(p: *mut DLManagedTensor) {
    // SAFETY: `p` is a block leaked by `legacy`, freed once here.
    let b = unsafe { Box::from_raw(p.cast::<Producer<DLManagedTensor, T>>()) };
    b.deleted.fetch_add(1, Ordering::SeqCst);
}

/// The plain tensor of `spec` over `data` (pointers into the block are set by `leak`).
fn tensor<T: Element>(spec: &Spec) -> DLTensor {
    DLTensor {
        data: null_mut(),
        device: DLDevice {
            device_type: spec.device,
            device_id: 0,
        },
        ndim: spec.ndim.unwrap_or(spec.shape.len() as i32),
        dtype: spec.dtype.unwrap_or(super::dtype_to_dl(T::DTYPE)),
        shape: null_mut(),
        strides: null_mut(),
        byte_offset: 0,
    }
}

/// Leaks the block and points the tensor into it; returns the block's address.
fn leak<M, T>(
    block: Producer<M, T>,
    spec: &Spec,
    t: impl Fn(&mut M) -> &mut DLTensor,
) -> *mut Producer<M, T> {
    let raw = Box::into_raw(Box::new(block));
    // SAFETY: `raw` is the fresh allocation just leaked.
    let b = unsafe { &mut *raw };
    let shape = b.shape.as_mut_ptr();
    let strides = b.strides.as_mut_ptr();
    let data = b.data.as_mut_ptr();
    let tt = t(&mut b.managed);
    tt.shape = if spec.null_shape { null_mut() } else { shape };
    tt.strides = if spec.strides.is_some() {
        strides
    } else {
        null_mut()
    };
    if !spec.null_data {
        // `data` is the vector's start; `byte_offset` leads to element `first`.
        tt.data = data.cast::<c_void>();
        tt.byte_offset = (spec.first * std::mem::size_of::<T>()) as u64 + spec.extra_byte_offset;
    }
    raw
}

fn versioned<T: Element>(
    data: Vec<T>,
    spec: &Spec,
    deleted: &Arc<AtomicUsize>,
) -> *mut DLManagedTensorVersioned {
    let block = Producer {
        managed: DLManagedTensorVersioned {
            version: spec.version,
            manager_ctx: null_mut(),
            deleter: Some(delete_versioned::<T>),
            flags: spec.flags,
            dl_tensor: tensor::<T>(spec),
        },
        data,
        shape: spec.shape.clone(),
        strides: spec.strides.clone().unwrap_or_default(),
        deleted: deleted.clone(),
    };
    leak(block, spec, |m| &mut m.dl_tensor).cast()
}

fn legacy<T: Element>(
    data: Vec<T>,
    spec: &Spec,
    deleted: &Arc<AtomicUsize>,
) -> *mut DLManagedTensor {
    let block = Producer {
        managed: DLManagedTensor {
            dl_tensor: tensor::<T>(spec),
            manager_ctx: null_mut(),
            deleter: Some(delete_legacy::<T>),
        },
        data,
        shape: spec.shape.clone(),
        strides: spec.strides.clone().unwrap_or_default(),
        deleted: deleted.clone(),
    };
    leak(block, spec, |m| &mut m.dl_tensor).cast()
}

/// Imports a versioned test tensor of `D`s (its structure checks included) as
/// `Array<T, Cpu>`.
fn import_as<T: Element, D: Element>(
    data: Vec<D>,
    spec: &Spec,
    deleted: &Arc<AtomicUsize>,
) -> Result<Array<T, Cpu>, Error> {
    let p = versioned(data, spec, deleted);
    // SAFETY: `p` is a live test tensor whose memory outlives its deleter call.
    let t = unsafe { ManagedTensor::from_raw_versioned(p) }?;
    Array::from_dlpack(t)
}

fn import_versioned<T: Element>(
    data: Vec<T>,
    spec: &Spec,
    deleted: &Arc<AtomicUsize>,
) -> Result<Array<T, Cpu>, Error> {
    import_as(data, spec, deleted)
}

fn import_legacy<T: Element>(
    data: Vec<T>,
    spec: &Spec,
    deleted: &Arc<AtomicUsize>,
) -> Result<Array<T, Cpu>, Error> {
    let p = legacy(data, spec, deleted);
    // SAFETY: as in `import_as`.
    let t = unsafe { ManagedTensor::from_raw_legacy(p) }?;
    Array::from_dlpack(t)
}

fn count(c: &Arc<AtomicUsize>) -> usize {
    c.load(Ordering::SeqCst)
}

fn msg(r: Result<impl std::fmt::Debug, Error>) -> String {
    match r {
        Err(e) => e.to_string(),
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

#[test]
fn legacy_import_shares_memory_and_deletes_once_after_the_last_view() {
    let deleted = counter();
    let data: Vec<f64> = (0..6).map(f64::from).collect();
    let ptr = data.as_ptr();
    let a = import_legacy(data, &Spec::new(&[2, 3]), &deleted).unwrap();
    assert_eq!(a.buffer().as_slice().as_ptr(), ptr, "no copy");
    assert!(a.buffer().is_foreign());
    assert_eq!(a.to_vec().unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    // The array drops first, a view of it last.
    let v = a.t();
    drop(a);
    assert_eq!(count(&deleted), 0);
    assert_eq!(v.to_vec().unwrap(), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    drop(v);
    assert_eq!(count(&deleted), 1);
}

#[test]
fn a_view_dropped_before_the_array_keeps_the_producer_alive() {
    let deleted = counter();
    let a = import_versioned(vec![1i32, 2, 3, 4], &Spec::new(&[4]), &deleted).unwrap();
    let v = a.slice(&s![1..3]).unwrap();
    assert_eq!((&v + 10).to_vec().unwrap(), vec![12, 13]);
    drop(v);
    assert_eq!(count(&deleted), 0);
    assert_eq!(a.sum().unwrap().item().unwrap(), 10);
    drop(a);
    assert_eq!(count(&deleted), 1);
}

#[test]
fn negative_strides_and_byte_offsets_are_read_in_place() {
    let deleted = counter();
    // A [3, 2] view of 8 elements: rows backwards from element 6, columns forwards by 1,
    // through a byte offset into the producer's allocation.
    let data: Vec<c64> = (0..8).map(|i| c64::new(i as f32, -(i as f32))).collect();
    let base = data.as_ptr();
    let spec = Spec::new(&[3, 2]).strides(&[-3, 1], 6);
    let a = import_versioned(data, &spec, &deleted).unwrap();
    assert_eq!(a.strides(), &[-3, 1]);
    let want: Vec<c64> = [6, 7, 3, 4, 0, 1]
        .iter()
        .map(|&i| c64::new(i as f32, -(i as f32)))
        .collect();
    assert_eq!(a.to_vec().unwrap(), want);
    // The buffer starts at the lowest element the view reaches (element 0 here) and spans
    // up to the highest (element 7).
    assert_eq!(a.buffer().as_slice().as_ptr(), base);
    assert_eq!(a.buffer().len(), 8);
    drop(a);
    assert_eq!(count(&deleted), 1);
}

#[test]
fn null_strides_mean_c_order_and_zero_strides_broadcast() {
    let deleted = counter();
    let a = import_legacy(vec![1u8, 2, 3], &Spec::new(&[1, 3]), &deleted).unwrap();
    assert_eq!(a.strides(), &[3, 1]);
    let b = import_legacy(
        vec![7i64, 8],
        &Spec::new(&[3, 2]).strides(&[0, 1], 0),
        &deleted,
    )
    .unwrap();
    assert_eq!(b.to_vec().unwrap(), vec![7, 8, 7, 8, 7, 8]);
    drop((a, b));
    assert_eq!(count(&deleted), 2);
}

#[test]
fn every_element_type_round_trips_through_a_producer() {
    fn check<T: Element>(values: Vec<T>) {
        let deleted = counter();
        let n = values.len() as i64;
        let a = import_versioned(values.clone(), &Spec::new(&[n]), &deleted).unwrap();
        assert_eq!(a.to_vec().unwrap(), values);
        drop(a);
        assert_eq!(count(&deleted), 1);
    }
    check(vec![true, false, true]);
    check(vec![0u8, 255]);
    check(vec![i32::MIN, 0, i32::MAX]);
    check(vec![i64::MIN, -1]);
    check(vec![1.5f32, -0.0]);
    check(vec![f64::MAX, f64::MIN_POSITIVE]);
    check(vec![c64::new(1.0, 2.0)]);
    check(vec![c128::new(-1.0, 0.5)]);
}

#[test]
fn a_zero_dimensional_and_an_empty_tensor() {
    let deleted = counter();
    let a = import_versioned(vec![4.5f64], &Spec::new(&[]), &deleted).unwrap();
    assert_eq!((a.shape(), a.item().unwrap()), (&[][..], 4.5));
    drop(a);
    assert_eq!(count(&deleted), 1);
    // Size 0: nothing to borrow, the producer is released at once.
    let mut spec = Spec::new(&[2, 0, 3]);
    spec.null_data = true;
    let e = import_versioned(Vec::<f32>::new(), &spec, &deleted).unwrap();
    assert_eq!(e.shape(), &[2, 0, 3]);
    assert_eq!(count(&deleted), 2);
    assert!(e.to_vec().unwrap().is_empty());
}

#[test]
fn a_write_copies_first_and_the_producer_memory_is_unchanged() {
    let deleted = counter();
    let p = versioned(vec![1.0f64, 2.0, 3.0], &Spec::new(&[3]), &deleted);
    // SAFETY: `p` is a live test tensor.
    let data = unsafe { (*p).dl_tensor.data.cast::<f64>() };
    // SAFETY: as above.
    let mut a =
        Array::<f64, Cpu>::from_dlpack(unsafe { ManagedTensor::from_raw_versioned(p) }.unwrap())
            .unwrap();
    let b = a.clone();
    a *= 2.0;
    assert_eq!(a.to_vec().unwrap(), vec![2.0, 4.0, 6.0]);
    assert!(!a.buffer().is_foreign());
    assert_eq!(count(&deleted), 0, "b still reads the producer's memory");
    // SAFETY: the producer is alive while `b` is.
    assert_eq!(unsafe { *data.add(2) }, 3.0);
    assert_eq!(b.to_vec().unwrap(), vec![1.0, 2.0, 3.0]);
    drop(b);
    assert_eq!(count(&deleted), 1);
    // A lone array copies out on its first write, which releases the producer.
    let deleted = counter();
    let mut c = import_legacy(vec![1i32, 2], &Spec::new(&[2]), &deleted).unwrap();
    c.fill(5).unwrap();
    assert_eq!(count(&deleted), 1);
    assert_eq!(c.to_vec().unwrap(), vec![5, 5]);
}

#[test]
fn a_copied_writable_tensor_is_written_in_place() {
    let deleted = counter();
    let mut spec = Spec::new(&[3]);
    spec.flags = DLPACK_FLAG_BITMASK_IS_COPIED;
    let data = vec![1.0f32, 2.0, 3.0];
    let ptr = data.as_ptr();
    let mut a = import_versioned(data, &spec, &deleted).unwrap();
    a += 1.0;
    assert_eq!(a.buffer().as_slice().as_ptr(), ptr, "written in place");
    assert!(a.buffer().is_foreign());
    assert_eq!(a.to_vec().unwrap(), vec![2.0, 3.0, 4.0]);
    drop(a);
    assert_eq!(count(&deleted), 1);
    // The same with READ_ONLY: copied.
    spec.flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
    let data = vec![1.0f32, 2.0, 3.0];
    let ptr = data.as_ptr();
    let mut a = import_versioned(data, &spec, &deleted).unwrap();
    a += 1.0;
    assert_ne!(a.buffer().as_slice().as_ptr(), ptr);
    assert_eq!(count(&deleted), 2);
}

#[test]
fn a_wrong_dtype_or_device_is_an_error_and_the_tensor_is_released() {
    let deleted = counter();
    let r = import_as::<f32, f64>(vec![1.0], &Spec::new(&[1]), &deleted);
    assert_eq!(
        msg(r),
        "from_dlpack: the tensor holds float64 (kDLFloat 64) but the array's element type is \
         float32 (kDLFloat 32)"
    );
    assert_eq!(count(&deleted), 1);
    let mut spec = Spec::new(&[1]);
    spec.dtype = Some(DLDataType {
        code: DLDataTypeCode::FLOAT,
        bits: 8,
        lanes: 1,
    });
    let m = msg(import_versioned(vec![0i32], &spec, &deleted));
    assert!(
        m.contains("kDLFloat 8, a type cuprite has no element type for"),
        "{m}"
    );
    assert!(m.contains("int32"), "{m}");
    let mut spec = Spec::new(&[1]);
    spec.device = DLDeviceType::CUDA;
    let m = msg(import_legacy(vec![1.0f64], &spec, &deleted));
    assert!(m.contains("kDLCUDA device 0"), "{m}");
    let mut spec = Spec::new(&[2]);
    spec.dtype = Some(DLDataType {
        code: DLDataTypeCode::FLOAT,
        bits: 64,
        lanes: 2,
    });
    assert!(msg(import_versioned(vec![1.0f64; 4], &spec, &deleted)).contains("kDLFloat 64x2"));
    assert_eq!(count(&deleted), 4);
}

#[test]
fn malformed_tensors_are_errors_and_released_once() {
    let deleted = counter();
    let mut bad = Vec::new();
    let mut s = Spec::new(&[2]);
    s.version = DLPackVersion { major: 2, minor: 0 };
    bad.push((s, "another ABI"));
    let mut s = Spec::new(&[2]);
    s.ndim = Some(-1);
    bad.push((s, "-1 dimensions"));
    let mut s = Spec::new(&[2]);
    s.null_shape = true;
    bad.push((s, "NULL shape"));
    bad.push((Spec::new(&[2, -3]), "negative extent -3"));
    let mut s = Spec::new(&[2]);
    s.null_data = true;
    bad.push((s, "NULL data pointer"));
    let mut s = Spec::new(&[2]);
    s.extra_byte_offset = 2;
    bad.push((s, "not aligned for float64"));
    bad.push((
        Spec::new(&[2, 2]).strides(&[1 << 62, 1 << 62], 0),
        "spans more memory",
    ));
    let mut s = Spec::new(&[2]);
    s.extra_byte_offset = u64::MAX - 7;
    bad.push((s, "reaches outside the address space"));
    bad.push((Spec::new(&[1 << 62, 4]), "array is too big"));
    let n = bad.len();
    for (spec, want) in bad {
        let m = msg(import_versioned(vec![1.0f64, 2.0], &spec, &deleted));
        assert!(m.starts_with("from_dlpack: ") && m.contains(want), "{m}");
    }
    assert_eq!(count(&deleted), n);
    // SAFETY: null is refused before anything is read.
    assert!(unsafe { ManagedTensor::from_raw_versioned(null_mut()) }.is_err());
    // SAFETY: as above.
    assert!(unsafe { ManagedTensor::from_raw_legacy(null_mut()) }.is_err());
}

#[test]
fn a_bool_tensor_must_hold_zeros_and_ones() {
    let deleted = counter();
    let mut spec = Spec::new(&[3]);
    spec.dtype = Some(super::dtype_to_dl(cuprite_core::DType::Bool));
    // A u8 producer whose bytes are not all bools, typed as kDLBool.
    let p = versioned(vec![1u8, 2, 0], &spec, &deleted);
    // SAFETY: a live test tensor.
    let t = unsafe { ManagedTensor::from_raw_versioned(p) }.unwrap();
    assert!(msg(Array::<bool, Cpu>::from_dlpack(t)).contains("byte 0x02"));
    assert_eq!(count(&deleted), 1);
}

#[test]
fn a_null_deleter_is_allowed() {
    let mut data = [1.0f64, 2.0];
    let mut shape = [2i64];
    let mut m = DLManagedTensorVersioned {
        version: DLPackVersion::CURRENT,
        manager_ctx: null_mut(),
        deleter: None,
        flags: DLPACK_FLAG_BITMASK_READ_ONLY,
        dl_tensor: DLTensor {
            data: data.as_mut_ptr().cast(),
            device: DLDevice {
                device_type: DLDeviceType::CPU,
                device_id: 0,
            },
            ndim: 1,
            dtype: super::dtype_to_dl(cuprite_core::DType::F64),
            shape: shape.as_mut_ptr(),
            strides: null_mut(),
            byte_offset: 0,
        },
    };
    // SAFETY: everything outlives the array, which drops in this scope.
    let t = unsafe { ManagedTensor::from_raw_versioned(&mut m) }.unwrap();
    assert!(t.is_read_only() && !t.is_copied());
    let a = Array::<f64, Cpu>::from_dlpack(t).unwrap();
    assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0]);
}

#[test]
fn export_fills_the_struct_from_the_view() {
    let a = Array::<i32, Cpu>::from_vec((0..12).collect(), &[3, 4], &Cpu).unwrap();
    let v = a.slice(&s![1..;1, ..;-2]).unwrap(); // [[7, 5], [11, 9]]
    let t = v.to_dlpack();
    let raw = t.into_raw();
    let RawTensor::Versioned(p) = raw else {
        panic!("to_dlpack gives a versioned tensor")
    };
    {
        // SAFETY: a live tensor cuprite made; read before its deleter runs.
        let m = unsafe { p.as_ref() };
        assert_eq!(m.version, DLPackVersion { major: 1, minor: 1 });
        assert_eq!(m.flags, DLPACK_FLAG_BITMASK_READ_ONLY);
        assert_eq!(m.manager_ctx, p.as_ptr().cast::<c_void>());
        let d = &m.dl_tensor;
        assert_eq!(d.device.device_type, DLDeviceType::CPU);
        assert_eq!(d.ndim, 2);
        assert_eq!(
            d.dtype,
            DLDataType {
                code: DLDataTypeCode::INT,
                bits: 32,
                lanes: 1
            }
        );
        assert_eq!(d.byte_offset, 0);
        // SAFETY: `ndim` integers each, alive with the tensor.
        let (shape, strides) = unsafe {
            (
                std::slice::from_raw_parts(d.shape, 2),
                std::slice::from_raw_parts(d.strides, 2),
            )
        };
        assert_eq!((shape, strides), (&[2i64, 2][..], &[4i64, -2][..]));
        let first = d.data.cast::<i32>().cast_const();
        assert_eq!(first, a.buffer().as_slice()[7..].as_ptr());
        // SAFETY: element [1, 1] is at 4 - 2 elements from the first, inside the buffer.
        assert_eq!(unsafe { *first.offset(4 - 2) }, 9);
    }
    assert!(a.buffer().is_shared());
    drop(v);
    // SAFETY: the tensor is cuprite's own and still live.
    drop(unsafe { ManagedTensor::from_raw(raw) }.unwrap());
    assert!(!a.buffer().is_shared(), "the deleter dropped the clone");
}

#[test]
fn into_dlpack_hands_over_unshared_memory_for_writing() {
    let a = Array::<f64, Cpu>::from_vec(vec![1.0, 2.0, 3.0], &[3], &Cpu).unwrap();
    let ptr = a.buffer().as_slice().as_ptr();
    let t = a.into_dlpack();
    assert!(!t.is_read_only());
    assert_eq!(t.data_ptr().cast_const().cast::<f64>(), ptr);
    let RawTensor::Versioned(p) = t.into_raw() else {
        panic!("versioned")
    };
    // SAFETY: the consumer owns the writable tensor: write an element, then release it.
    unsafe {
        *p.as_ref().dl_tensor.data.cast::<f64>().add(1) = 20.0;
        (p.as_ref().deleter.unwrap())(p.as_ptr());
    }
    // Shared or broadcast: read-only.
    let a = Array::<f64, Cpu>::from_vec(vec![1.0, 2.0], &[2], &Cpu).unwrap();
    let b = a.clone();
    assert!(a.into_dlpack().is_read_only());
    assert!(b
        .broadcast_to(&[3, 2])
        .unwrap()
        .into_dlpack()
        .is_read_only());
    // Size 0: NULL data.
    let e = Array::<u8, Cpu>::zeros(&[0, 4], &Cpu).unwrap();
    assert!(e.to_dlpack().data_ptr().is_null());
}

#[test]
fn the_legacy_export_round_trips() {
    let a = Array::<bool, Cpu>::from_vec(vec![true, false, false, true], &[2, 2], &Cpu).unwrap();
    let t = a.t().to_dlpack_legacy();
    assert_eq!((t.version(), t.flags()), (None, 0));
    assert_eq!(t.strides(), Some(&[1i64, 2][..]));
    let RawTensor::Legacy(p) = t.into_raw() else {
        panic!("legacy")
    };
    // SAFETY: cuprite's own live tensor.
    let back = unsafe { ManagedTensor::from_raw_legacy(p.as_ptr()) }.unwrap();
    let b = Array::<bool, Cpu>::from_dlpack(back).unwrap();
    assert_eq!(b.to_vec().unwrap(), vec![true, false, false, true]);
    assert_eq!(
        b.buffer().as_slice().as_ptr(),
        a.buffer().as_slice().as_ptr()
    );
    drop(a);
    assert_eq!(b.sum().unwrap().item().unwrap(), 2);
}
