//! Text files on every backend: `savetxt` writes the bytes NumPy's `np.savetxt` writes for
//! the same array and options (files under `tests/fixtures/text/`, made by
//! `scripts/fixtures/text.py`), `loadtxt` and `genfromtxt` read NumPy's files into NumPy's
//! values and shapes, and bad files are errors naming the file, line and column.

use crate::common;

use common::{fixture_path, fixture_vec};
use cuprite::io::{LoadTxt, SaveTxt};
use cuprite::prelude::*;

const TOPIC: &str = "text";

fn file(name: &str) -> String {
    fixture_path(&format!("text/{name}"))
}

/// A fresh path in the temporary directory.
fn tmp(name: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "cuprite-text-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

fn check<T: Element, B: ArrayBackend>(x: Array<T, B>, name: &str) {
    let (want, shape) = fixture_vec::<T>(TOPIC, name);
    assert_eq!(x.shape(), &shape[..], "{name}: shape");
    let got = x.to_vec().unwrap();
    let same = got
        .iter()
        .zip(&want)
        .all(|(g, w)| g == w || (g.is_nan_value() && w.is_nan_value()));
    assert!(
        same && got.len() == want.len(),
        "{name}: {got:?} vs {want:?}"
    );
}

/// Saves `a` with `opts` and compares the bytes with NumPy's file `name`.
fn same_bytes<T: Element, B: ArrayBackend>(a: &Array<T, B>, opts: &SaveTxt, name: &str) {
    let p = tmp(name);
    a.savetxt(&p, opts).unwrap();
    let ours = std::fs::read_to_string(&p).unwrap();
    std::fs::remove_file(&p).unwrap();
    let numpy = std::fs::read_to_string(file(name)).unwrap();
    assert_eq!(ours, numpy, "{name}");
}

fn saves_as_numpy<B: ArrayBackend>(dev: &B) {
    let mut v: Vec<f64> = (0..6).map(|i| (i as f64 - 2.5) * 1.5e-3).collect();
    v[5] = 1e100;
    let a = Array::<f64, B>::from_vec(v, &[2, 3], dev).unwrap();
    same_bytes(&a, &SaveTxt::default(), "default.txt");
    let csv = SaveTxt {
        fmt: "%.3f".into(),
        delimiter: ",".into(),
        header: "x,y,z\nsecond".into(),
        footer: "end".into(),
        ..SaveTxt::default()
    };
    same_bytes(&a, &csv, "csv.txt");
    let ints = Array::<i64, B>::from_vec(vec![3, -1, 40000, 0], &[4], dev).unwrap();
    let d = SaveTxt {
        fmt: "%d".into(),
        ..SaveTxt::default()
    };
    same_bytes(&ints, &d, "ints.txt");
    let z =
        Array::<c128, B>::from_vec(vec![c128::new(1.0, 2.0), c128::new(-0.5, -1e-3)], &[2], dev)
            .unwrap();
    same_bytes(&z, &SaveTxt::default(), "complex.txt");
    let g = Array::<f64, B>::from_vec(vec![0.0001, 123456.0, 1234567.0, -2.5e-7], &[2, 2], dev)
        .unwrap();
    let general = SaveTxt {
        fmt: "%10.4g".into(),
        delimiter: ";".into(),
        ..SaveTxt::default()
    };
    same_bytes(&g, &general, "general.txt");
    // A transposed view is saved in its logical order.
    let p = tmp("t.txt");
    a.t().savetxt(&p, &csv).unwrap();
    let back = Array::<f64, B>::loadtxt(&p, &LoadTxt::default().delimiter(','), dev).unwrap();
    assert_eq!(back.shape(), &[3, 2]);
    std::fs::remove_file(&p).unwrap();
}

fn loads_as_numpy<B: ArrayBackend>(dev: &B) {
    let comma = LoadTxt::default().delimiter(',');
    check(
        Array::<f64, B>::loadtxt(file("default.txt"), &LoadTxt::default(), dev).unwrap(),
        "load_default",
    );
    check(
        Array::<f64, B>::loadtxt(file("csv.txt"), &comma, dev).unwrap(),
        "load_csv",
    );
    let cols = comma.clone().usecols(&[2, 0]).max_rows(1);
    check(
        Array::<f64, B>::loadtxt(file("csv.txt"), &cols, dev).unwrap(),
        "load_csv_cols",
    );
    check(
        Array::<i64, B>::loadtxt(file("ints.txt"), &LoadTxt::default(), dev).unwrap(),
        "load_ints",
    );
    let two = LoadTxt::default().ndmin(2);
    check(
        Array::<i64, B>::loadtxt(file("ints.txt"), &two, dev).unwrap(),
        "load_ints_2d",
    );
    check(
        Array::<c128, B>::loadtxt(file("complex.txt"), &LoadTxt::default(), dev).unwrap(),
        "load_complex",
    );
    let semi = LoadTxt::default().delimiter(';');
    check(
        Array::<f64, B>::loadtxt(file("general.txt"), &semi, dev).unwrap(),
        "load_general",
    );
    check(
        Array::<f64, B>::genfromtxt(file("missing.csv"), &comma, f64::NAN, dev).unwrap(),
        "gen_missing",
    );
    check(
        Array::<f64, B>::genfromtxt(file("missing.csv"), &comma, -1.0, dev).unwrap(),
        "gen_missing_fill",
    );
    // One value: 0-d (1-d with ndmin 1); an empty file: shape [0].
    let p = tmp("one.txt");
    std::fs::write(&p, "# only\n  7.5 \n").unwrap();
    let one = Array::<f32, B>::loadtxt(&p, &LoadTxt::default(), dev).unwrap();
    assert_eq!(
        (one.shape(), one.to_vec().unwrap()),
        (&[] as &[usize], vec![7.5])
    );
    let one = Array::<f32, B>::loadtxt(&p, &LoadTxt::default().ndmin(1), dev).unwrap();
    assert_eq!(one.shape(), &[1]);
    std::fs::write(&p, "").unwrap();
    assert_eq!(
        Array::<f32, B>::loadtxt(&p, &LoadTxt::default(), dev)
            .unwrap()
            .shape(),
        &[0]
    );
    std::fs::remove_file(&p).unwrap();
}

fn bad_files_and_options<B: ArrayBackend>(dev: &B) {
    let p = tmp("bad.txt");
    let load = |text: &str, opts: &LoadTxt| {
        std::fs::write(&p, text).unwrap();
        Array::<i32, B>::loadtxt(&p, opts, dev)
            .unwrap_err()
            .to_string()
    };
    let d = LoadTxt::default();
    let err = load("1 2\n3 x\n", &d);
    assert!(
        err.contains("loadtxt") && err.contains("line 2, column 1") && err.contains("\"x\""),
        "{err}"
    );
    let err = load("1 2\n3\n", &d);
    assert!(
        err.contains("line 2") && err.contains("1 columns where the first row has 2"),
        "{err}"
    );
    let err = load("1.5\n", &d);
    assert!(err.contains("int32"), "{err}");
    let err = load("3000000000\n", &d);
    assert!(err.contains("out of the range"), "{err}");
    let err = load("1 2\n", &d.clone().usecols(&[5]));
    assert!(err.contains("column 5 is out of range"), "{err}");
    let err = load("1 2\n", &d.clone().ndmin(3));
    assert!(err.contains("ndmin"), "{err}");
    std::fs::remove_file(&p).unwrap();
    let missing = Array::<f64, B>::loadtxt(tmp("absent.txt"), &d, dev)
        .unwrap_err()
        .to_string();
    assert!(missing.contains("cannot read"), "{missing}");

    // A bad format or a 0-d/3-d array writes nothing, and an existing file stays.
    let out = tmp("keep.txt");
    std::fs::write(&out, "before").unwrap();
    let a = Array::<f64, B>::zeros(&[2, 2], dev).unwrap();
    for fmt in ["%q", "%e %e", "plain"] {
        let opts = SaveTxt {
            fmt: fmt.into(),
            ..SaveTxt::default()
        };
        let err = a.savetxt(&out, &opts).unwrap_err().to_string();
        assert!(
            err.contains("savetxt") && err.contains("unsupported format"),
            "{err}"
        );
    }
    assert!(Array::<f64, B>::zeros(&[2, 2, 2], dev)
        .unwrap()
        .savetxt(&out, &SaveTxt::default())
        .is_err());
    assert!(Array::<f64, B>::scalar(1.0, dev)
        .unwrap()
        .savetxt(&out, &SaveTxt::default())
        .is_err());
    let no_dir = std::env::temp_dir()
        .join("cuprite-no-such-dir")
        .join("x.txt");
    assert!(a.savetxt(&no_dir, &SaveTxt::default()).is_err());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "before");
    std::fs::remove_file(&out).unwrap();
}

cuprite::test_backends!(saves_as_numpy, loads_as_numpy, bad_files_and_options);
