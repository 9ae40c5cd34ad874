//! The NaN-ignoring statistics (`nanprod`, `nanvar`/`nanstd`, `nanargmin`/`nanargmax`) on a
//! GPU against the CPU backend, through the `Array` API on the same data and views (strided,
//! transposed, reversed, broadcast), every element type, NaN-filled and all-NaN lanes, empty
//! and 0-d inputs. Ignored by default (they need a CUDA device and NVRTC); without a device
//! they print why and pass.

use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::{c128, c64, s, Array, Axes, Element, Scalar};
use cuprite_cpu::Cpu;

fn close<T: Element>(a: T, b: T) -> bool {
    let f = |x: f64, y: f64, tol: f64| {
        (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= tol * x.abs().max(y.abs())
    };
    match (a.to_scalar(), b.to_scalar()) {
        (Scalar::F32(x), Scalar::F32(y)) => f(x as f64, y as f64, 1e-5),
        (Scalar::F64(x), Scalar::F64(y)) => f(x, y, 1e-11),
        (Scalar::C64(x), Scalar::C64(y)) => {
            f(x.re as f64, y.re as f64, 1e-5) && f(x.im as f64, y.im as f64, 1e-5)
        }
        (Scalar::C128(x), Scalar::C128(y)) => f(x.re, y.re, 1e-11) && f(x.im, y.im, 1e-11),
        _ => a == b,
    }
}

#[track_caller]
fn check<T: Element>(g: &Array<T, Cuda>, c: &Array<T, Cpu>, what: &str) {
    assert_eq!(g.shape(), c.shape(), "{what}: shapes");
    let (gv, cv) = (g.to_vec().unwrap(), c.to_vec().unwrap());
    if let Some(i) = gv.iter().zip(&cv).position(|(a, b)| !close(*a, *b)) {
        panic!(
            "{what} ({}): at {i}: gpu {:?} vs cpu {:?}",
            T::DTYPE,
            gv[i],
            cv[i]
        );
    }
}

/// Data of shape [6, 40, 9]: small integers, NaN in some places, every lane of [2, .., 4]
/// NaN (an all-NaN lane along axis 1).
fn data<T: Element>() -> Vec<T> {
    let (a, b, c) = (6, 40, 9);
    (0..a * b * c)
        .map(|n| {
            let (i, k) = (n / (b * c), n % c);
            let v = ((n * 37) % 11) as f64 - 5.0;
            let nan = (n % 7 == 3) || (i == 2 && k == 4);
            let s = match T::DTYPE {
                d if d.is_complex() => Scalar::C128(c128::new(
                    v,
                    if nan { f64::NAN } else { (n % 5) as f64 - 2.0 },
                )),
                d if d.is_float() => Scalar::F64(if nan { f64::NAN } else { v / 4.0 }),
                _ => Scalar::F64(v.abs()),
            };
            T::from_scalar(s)
        })
        .collect()
}

fn views<T: Element, B: cuprite_core::ArrayBackend>(a: &Array<T, B>) -> Vec<Array<T, B>> {
    vec![
        a.clone(),
        a.transpose(),
        a.slice(&s![.., 38..0;-3]).unwrap(),
        a.slice(&s![0..3])
            .unwrap()
            .broadcast_to(&[2, 3, 40, 9])
            .unwrap(),
    ]
}

fn check_type<T: Element>(dev: &Cuda, cpu: &Cpu) {
    let v = data::<T>();
    let g = Array::<T, Cuda>::from_vec(v.clone(), &[6, 40, 9], dev).unwrap();
    let c = Array::<T, Cpu>::from_vec(v, &[6, 40, 9], cpu).unwrap();
    for (gv, cv) in views(&g).iter().zip(views(&c)) {
        let nd = cv.ndim() as isize;
        let axes: Vec<Axes> = vec![
            Axes::All,
            0.into(),
            (nd - 1).into(),
            1.into(),
            [0isize, nd - 1].into(),
        ];
        for ax in axes {
            for keep in [false, true] {
                let what = format!("{ax:?} keepdims {keep} of {:?}", cv.shape());
                check(
                    &gv.nanprod_axes(ax.clone(), keep).unwrap(),
                    &cv.nanprod_axes(ax.clone(), keep).unwrap(),
                    &format!("nanprod {what}"),
                );
                for ddof in [0.0, 1.0, 39.0] {
                    check(
                        &gv.nanvar_axes(ax.clone(), ddof, keep).unwrap(),
                        &cv.nanvar_axes(ax.clone(), ddof, keep).unwrap(),
                        &format!("nanvar ddof {ddof} {what}"),
                    );
                }
                check(
                    &gv.nanstd_axes(ax.clone(), 1.0, keep).unwrap(),
                    &cv.nanstd_axes(ax.clone(), 1.0, keep).unwrap(),
                    &format!("nanstd {what}"),
                );
            }
        }
        for axis in 0..nd {
            for keep in [false, true] {
                let (gr, cr) = (gv.nanargmin_axis(axis, keep), cv.nanargmin_axis(axis, keep));
                assert_eq!(gr.is_ok(), cr.is_ok(), "nanargmin errors along {axis}");
                if let (Ok(gr), Ok(cr)) = (gr, cr) {
                    check(&gr, &cr, &format!("nanargmin along {axis}"));
                }
                let (gr, cr) = (gv.nanargmax_axis(axis, keep), cv.nanargmax_axis(axis, keep));
                assert_eq!(gr.is_ok(), cr.is_ok(), "nanargmax errors along {axis}");
                if let (Ok(gr), Ok(cr)) = (gr, cr) {
                    check(&gr, &cr, &format!("nanargmax along {axis}"));
                }
            }
        }
        check(
            &gv.nanargmin().unwrap(),
            &cv.nanargmin().unwrap(),
            "nanargmin",
        );
        check(
            &gv.nanargmax().unwrap(),
            &cv.nanargmax().unwrap(),
            "nanargmax",
        );
    }
    // Empty and 0-d inputs.
    let ge = Array::<T, Cuda>::from_vec(vec![], &[3, 0], dev).unwrap();
    let ce = Array::<T, Cpu>::from_vec(vec![], &[3, 0], cpu).unwrap();
    for ax in [Axes::All, 0.into(), 1.into()] {
        check(
            &ge.nanvar_axes(ax.clone(), 0.0, false).unwrap(),
            &ce.nanvar_axes(ax.clone(), 0.0, false).unwrap(),
            "nanvar of empty",
        );
        check(
            &ge.nanprod_axes(ax.clone(), true).unwrap(),
            &ce.nanprod_axes(ax, true).unwrap(),
            "nanprod of empty",
        );
    }
    assert!(ge.nanargmin().is_err() && ge.nanargmax_axis(1, false).is_err());
    let g0 = g.slice(&s![1, 2, 3]).unwrap();
    let c0 = c.slice(&s![1, 2, 3]).unwrap();
    check(
        &g0.nanvar(0.0).unwrap(),
        &c0.nanvar(0.0).unwrap(),
        "nanvar 0-d",
    );
    check(
        &g0.nanprod().unwrap(),
        &c0.nanprod().unwrap(),
        "nanprod 0-d",
    );
    check(
        &g0.nanargmax().unwrap(),
        &c0.nanargmax().unwrap(),
        "nanargmax 0-d",
    );
}

#[test]
#[ignore = "needs a CUDA device"]
fn nan_statistics_match_the_cpu() {
    let Some(dev) = gpu() else { return };
    let cpu = Cpu::new();
    check_type::<bool>(&dev, &cpu);
    check_type::<u8>(&dev, &cpu);
    check_type::<i32>(&dev, &cpu);
    check_type::<i64>(&dev, &cpu);
    check_type::<f32>(&dev, &cpu);
    check_type::<f64>(&dev, &cpu);
    check_type::<c64>(&dev, &cpu);
    check_type::<c128>(&dev, &cpu);
}
