//! `DynArray`: every element type keeps its dtype through the dtype-preserving views and
//! copies, converts as `astype` does, refuses a typed view of another dtype, and prints as
//! its typed array does.

use cuprite::prelude::*;
use cuprite::Scalar;

/// A 2x3 array holding 0..6 of every element type, in `DType::ALL` order.
fn each_dtype<B: ArrayBackend>(dev: &B) -> Vec<DynArray<B>> {
    fn make<T: Element, B: ArrayBackend>(dev: &B) -> DynArray<B> {
        let data = (0..6).map(|i| T::from_scalar(Scalar::I64(i))).collect();
        Array::<T, B>::from_vec(data, &[2, 3], dev).unwrap().into()
    }
    vec![
        make::<bool, B>(dev),
        make::<i8, B>(dev),
        make::<u8, B>(dev),
        make::<i16, B>(dev),
        make::<u16, B>(dev),
        make::<i32, B>(dev),
        make::<u32, B>(dev),
        make::<i64, B>(dev),
        make::<u64, B>(dev),
        make::<f16, B>(dev),
        make::<bf16, B>(dev),
        make::<f32, B>(dev),
        make::<f64, B>(dev),
        make::<c64, B>(dev),
        make::<c128, B>(dev),
    ]
}

fn every_variant_keeps_its_dtype_through_views<B: ArrayBackend>(dev: &B) {
    let all = each_dtype(dev);
    let dtypes: Vec<DType> = all.iter().map(|d| d.dtype()).collect();
    assert_eq!(dtypes, DType::ALL);
    for d in &all {
        let dt = d.dtype();
        assert_eq!((d.shape(), d.ndim(), d.size()), (&[2, 3][..], 2, 6), "{dt}");
        assert_eq!((d.itemsize(), d.nbytes()), (dt.size_of(), 6 * dt.size_of()));
        assert_eq!(d.device(), dev);
        let reshaped = d.reshape(&[3, -1]).unwrap();
        let sliced = d.slice(&s![.., 1..]).unwrap();
        let transposed = d.t();
        let permuted = d.permute_dims(&[1, 0]).unwrap();
        let views = [
            &reshaped,
            &sliced,
            &transposed,
            &d.transpose(),
            &permuted,
            &d.copy().unwrap(),
            &transposed.to_contiguous().unwrap(),
            &d.to_device(dev).unwrap(),
        ];
        for v in views {
            assert_eq!(v.dtype(), dt);
        }
        assert_eq!(reshaped.shape(), &[3, 2]);
        assert_eq!(sliced.shape(), &[2, 2]);
        assert_eq!(transposed.shape(), &[3, 2]);
        assert!(!transposed.is_contiguous());
        assert!(transposed.to_contiguous().unwrap().is_contiguous());
        let want: &[i64] = if dt == DType::Bool {
            &[1, 1, 1, 1]
        } else {
            &[1, 2, 4, 5]
        };
        assert_eq!(
            sliced.astype::<i64>().unwrap().to_vec().unwrap(),
            want,
            "{dt}"
        );
        let want: &[f64] = if dt == DType::Bool {
            &[0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
        } else {
            &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
        };
        assert_eq!(
            permuted.astype::<f64>().unwrap().to_vec().unwrap(),
            want,
            "{dt}"
        );
    }
}

fn astype_converts_as_numpy<B: ArrayBackend>(dev: &B) {
    let z = Array::<c128, B>::from_vec(
        vec![
            c128::new(-2.7, 1.0),
            c128::new(0.0, 3.0),
            c128::new(300.5, 0.0),
        ],
        &[3],
        dev,
    )
    .unwrap();
    let d = DynArray::from(z);
    // np.array([-2.7+1j, 3j, 300.5]).astype(...): real part, truncated; nonzero is true.
    assert_eq!(
        d.astype::<f64>().unwrap().to_vec().unwrap(),
        [-2.7, 0.0, 300.5]
    );
    assert_eq!(d.astype::<i32>().unwrap().to_vec().unwrap(), [-2, 0, 300]);
    assert_eq!(
        d.astype::<bool>().unwrap().to_vec().unwrap(),
        [true, true, true]
    );
}

fn typed_access_checks_the_dtype<B: ArrayBackend>(dev: &B) {
    let d: DynArray<B> = Array::<u8, B>::from_vec(vec![7, 8], &[2], dev)
        .unwrap()
        .into();
    assert!(matches!(d, DynArray::U8(_)));
    let a = d.clone().try_into_typed::<u8>().unwrap();
    assert_eq!(a.to_vec().unwrap(), [7, 8]);
    let e = d.try_into_typed::<i64>().unwrap_err();
    assert_eq!(
        e,
        Error::DTypeMismatch {
            op: "try_into_typed",
            expected: DType::I64,
            found: DType::U8
        }
    );
    assert_eq!(
        e.to_string(),
        "try_into_typed: expected an array of dtype int64, found uint8"
    );
}

fn prints_as_the_typed_array<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::from_vec(vec![1.0, 2.5, -3.0, 4.0], &[2, 2], dev).unwrap();
    let d = DynArray::from(a.clone());
    assert_eq!(d.to_string(), a.to_string());
    assert_eq!(d.to_string(), "[[ 1.   2.5]\n [-3.   4. ]]");
    assert_eq!(format!("{d:?}"), format!("{a:?}"));
    let s = DynArray::from(Array::<c64, B>::scalar(c64::new(1.0, -2.0), dev).unwrap());
    assert_eq!((s.to_string(), s.ndim()), ("(1-2j)".to_string(), 0));
    assert_eq!(format!("{s:?}"), "array(1.-2.j, dtype=complex64)");
}

cuprite::test_backends!(
    every_variant_keeps_its_dtype_through_views,
    astype_converts_as_numpy,
    typed_access_checks_the_dtype,
    prints_as_the_typed_array,
);
