//! DLPack on `Cpu` through the public API: export and import share memory (pointer
//! equality), keep shape, strides and values (compared with the source array's own
//! `to_vec` and with literal values), keep the memory alive in either drop order, never let
//! one array see another's writes, and refuse a wrong dtype. The test producer with a
//! counting deleter, and malformed tensors, are in `cuprite-cpu`'s `dlpack/tests.rs`.

#![cfg(feature = "cpu")]

use cuprite::dlpack::{DlpackExt, ManagedTensor, RawTensor};
use cuprite::prelude::*;

/// Through C and back: the tensor's pointer, as a consumer would receive it, taken again.
fn through_c(t: ManagedTensor) -> ManagedTensor {
    let raw = t.into_raw();
    // SAFETY: a live tensor cuprite just made; ownership comes straight back.
    unsafe { ManagedTensor::from_raw(raw) }.expect("a tensor cuprite made")
}

fn first_ptr<T: Element>(a: &Array<T, Cpu>) -> *const T {
    a.as_ndarray().unwrap().as_ptr()
}

#[test]
fn round_trip_shares_memory_for_every_view() {
    let a =
        Array::<f64, Cpu>::from_vec((0..24).map(f64::from).collect(), &[2, 3, 4], &Cpu).unwrap();
    let views = [
        a.clone(),
        a.t(),
        a.slice(&s![.., ..;-1, 1..;2]).unwrap(),
        a.slice(&s![-1, 2, ..;-3]).unwrap(),
        a.permute_dims(&[1, 0, 2]).unwrap().flip(-1).unwrap(),
        a.slice(&s![0, 0, 0]).unwrap(),
        a.slice(&s![.., 1..1, ..]).unwrap(),
        a.slice(&s![NEW_AXIS, 1, ..;2, NEW_AXIS]).unwrap(),
        a.slice(&s![0, 0, ..1])
            .unwrap()
            .broadcast_to(&[3, 5])
            .unwrap(),
    ];
    for v in &views {
        let t = through_c(v.to_dlpack());
        assert_eq!(t.version().map(|v| (v.major, v.minor)), Some((1, 1)));
        let shape: Vec<usize> = t.shape().iter().map(|&d| d as usize).collect();
        let strides: Vec<isize> = t.strides().unwrap().iter().map(|&s| s as isize).collect();
        assert_eq!((&shape[..], &strides[..]), (v.shape(), v.strides()));
        let b = Array::<f64, Cpu>::from_dlpack(t).unwrap();
        assert_eq!((b.shape(), b.strides()), (v.shape(), v.strides()));
        assert_eq!(b.to_vec().unwrap(), v.to_vec().unwrap());
        if v.size() > 0 {
            assert_eq!(first_ptr(&b), first_ptr(v), "no copy");
        }
    }
    // Literal values of two of them (NumPy: a[:, ::-1, 1::2] and a[-1, 2, ::-3]).
    let b = Array::<f64, Cpu>::from_dlpack(through_c(views[2].to_dlpack())).unwrap();
    assert_eq!(
        b.to_vec().unwrap(),
        vec![9.0, 11.0, 5.0, 7.0, 1.0, 3.0, 21.0, 23.0, 17.0, 19.0, 13.0, 15.0]
    );
    let b = Array::<f64, Cpu>::from_dlpack(through_c(views[3].to_dlpack_legacy())).unwrap();
    assert_eq!(b.to_vec().unwrap(), vec![23.0, 20.0]);
}

fn round_trips<T: Element>(values: Vec<T>) {
    let a = Array::<T, Cpu>::from_vec(values.clone(), &[values.len()], &Cpu).unwrap();
    let b = Array::<T, Cpu>::from_dlpack(through_c(a.to_dlpack())).unwrap();
    assert_eq!(b.to_vec().unwrap(), values);
    assert_eq!(first_ptr(&b), first_ptr(&a));
    let t = a.to_dlpack();
    assert_eq!(t.dtype(), Some(T::DTYPE));
}

#[test]
fn every_element_type_round_trips() {
    round_trips(vec![true, false]);
    round_trips(vec![3u8, 250]);
    round_trips(vec![-7i32, 9]);
    round_trips(vec![i64::MAX, i64::MIN]);
    round_trips(vec![f32::MIN_POSITIVE, -0.25]);
    round_trips(vec![f64::INFINITY, -2.5]);
    round_trips(vec![c64::new(1.0, -1.0)]);
    round_trips(vec![c128::new(0.0, 3.0)]);
}

#[test]
fn memory_stays_alive_in_either_drop_order() {
    let keep = Array::<i64, Cpu>::arange(0, 6, 1, &Cpu).unwrap();
    // The source first, then the import.
    let a = keep.reshape(&[2, 3]).unwrap();
    let b = Array::<i64, Cpu>::from_dlpack(through_c(a.t().to_dlpack())).unwrap();
    drop(a);
    assert_eq!(b.to_vec().unwrap(), vec![0, 3, 1, 4, 2, 5]);
    drop(b);
    assert!(
        !keep.buffer().is_shared(),
        "everything else let go of the memory"
    );
    // The import first, then the source.
    let a = keep.reshape(&[3, 2]).unwrap();
    let b = Array::<i64, Cpu>::from_dlpack(through_c(a.to_dlpack())).unwrap();
    drop(b);
    assert!(keep.buffer().is_shared());
    drop(a);
    assert!(!keep.buffer().is_shared());
    // An exported tensor outlives every array.
    let t = keep.slice(&s![..;-1]).unwrap().to_dlpack();
    let first = t.data_ptr();
    drop(keep);
    let b = Array::<i64, Cpu>::from_dlpack(t).unwrap();
    assert_eq!(first_ptr(&b).cast_mut().cast(), first);
    assert_eq!(b.to_vec().unwrap(), vec![5, 4, 3, 2, 1, 0]);
}

#[test]
fn ten_thousand_exchanges_leave_nothing_behind() {
    let a = Array::<f32, Cpu>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], &Cpu).unwrap();
    let mut total = 0.0;
    for i in 0..10_000 {
        let t = if i % 2 == 0 {
            a.t().to_dlpack()
        } else {
            a.to_dlpack_legacy()
        };
        let b = Array::<f32, Cpu>::from_dlpack(through_c(t)).unwrap();
        total += b.slice(&s![1, 0]).unwrap().item().unwrap();
    }
    // a.T[1, 0] = a[0, 1] = 2 on even turns, a[1, 0] = 3 on odd ones.
    assert_eq!(total, 25_000.0);
    assert!(!a.buffer().is_shared(), "every exported clone was dropped");
}

#[test]
fn writes_never_reach_another_array() {
    let a = Array::<f64, Cpu>::from_vec(vec![1.0, 2.0, 3.0], &[3], &Cpu).unwrap();
    let mut b = Array::<f64, Cpu>::from_dlpack(through_c(a.to_dlpack())).unwrap();
    b *= 10.0;
    assert_eq!(b.to_vec().unwrap(), vec![10.0, 20.0, 30.0]);
    assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0, 3.0]);
    assert!(
        !a.buffer().is_shared(),
        "the write copied and let go of the memory"
    );
    // into_dlpack of an unshared array: writable, the same memory.
    let ptr = first_ptr(&a);
    let t = a.into_dlpack();
    assert!(!t.is_read_only());
    assert_eq!(t.data_ptr().cast_const().cast(), ptr);
}

#[test]
fn a_wrong_dtype_is_an_error_naming_both() {
    let a = Array::<i32, Cpu>::from_vec(vec![1, 2], &[2], &Cpu).unwrap();
    let e = Array::<i64, Cpu>::from_dlpack(a.to_dlpack()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "from_dlpack: the tensor holds int32 (kDLInt 32) but the array's element type is \
         int64 (kDLInt 64)"
    );
    assert!(!a.buffer().is_shared(), "the refused tensor was released");
    let e = Array::<bool, Cpu>::from_dlpack(a.to_dlpack_legacy()).unwrap_err();
    assert!(e
        .to_string()
        .contains("but the array's element type is bool"));
}

#[test]
fn raw_tensors_name_their_struct() {
    let a = Array::<u8, Cpu>::zeros(&[2], &Cpu).unwrap();
    for (t, versioned) in [(a.to_dlpack(), true), (a.to_dlpack_legacy(), false)] {
        let raw = t.into_raw();
        assert_eq!(matches!(raw, RawTensor::Versioned(_)), versioned);
        // SAFETY: cuprite's own live tensor, taken back to be released.
        drop(unsafe { ManagedTensor::from_raw(raw) }.unwrap());
    }
    assert!(!a.buffer().is_shared());
}
