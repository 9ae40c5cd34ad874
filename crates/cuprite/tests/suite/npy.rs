//! `.npy`/`.npz` files against NumPy: the files `scripts/fixtures/npy.py` had NumPy write
//! (every dtype, C and Fortran order, both byte orders, 0-d, empty, archives stored and
//! compressed; bfloat16 as ml_dtypes saves it, `'<V2'`, and as a plain `'|V2'`) load with
//! the values, shapes and dtypes of `npy.json`, bit for bit; damaged files are errors naming
//! the file; save -> load round-trips, and the 16-bit floats save to NumPy's own bytes; and
//! NumPy reads back what cuprite writes (when `python3` with numpy is available: otherwise that test says so and
//! passes, as CI installs no Python packages).

use crate::common::{fixture_names, fixture_path, fixture_vec};
use cuprite::prelude::*;
use cuprite::Scalar;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A NumPy-written fixture file.
fn npy_fixture(file: &str) -> String {
    fixture_path(&format!("npy/{file}"))
}

/// The single-array cases of `npy.json` (file `npy/<case>.npy`).
fn file_cases() -> Vec<String> {
    fixture_names("npy")
        .into_iter()
        .filter(|c| !c.contains('/'))
        .collect()
}

/// The dtype NumPy gave case `case`.
fn fixture_dtype(case: &str) -> DType {
    let path = fixture_path("npy.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap();
    let name = v[case]["dtype"].as_str().unwrap().to_string();
    DType::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .unwrap_or_else(|| panic!("{case}: dtype {name}"))
}

/// The bit patterns of the elements: an exact comparison, NaN and -0.0 included.
fn bits<T: Element>(v: &[T]) -> Vec<(u64, u64)> {
    v.iter()
        .map(|x| match x.to_scalar() {
            Scalar::Bool(b) => (b as u64, 0),
            Scalar::I8(v) => (v as u8 as u64, 0),
            Scalar::U8(v) => (v as u64, 0),
            Scalar::I16(v) => (v as u16 as u64, 0),
            Scalar::U16(v) => (v as u64, 0),
            Scalar::I32(v) => (v as u32 as u64, 0),
            Scalar::U32(v) => (v as u64, 0),
            Scalar::I64(v) => (v as u64, 0),
            Scalar::U64(v) => (v, 0),
            Scalar::F16(v) => (v.to_bits() as u64, 0),
            Scalar::BF16(v) => (v.to_bits() as u64, 0),
            Scalar::F32(v) => (v.to_bits() as u64, 0),
            Scalar::F64(v) => (v.to_bits(), 0),
            Scalar::C64(v) => (v.re.to_bits() as u64, v.im.to_bits() as u64),
            Scalar::C128(v) => (v.re.to_bits(), v.im.to_bits()),
        })
        .collect()
}

/// Checks `a` against fixture case `case`: shape and values, bit for bit.
fn check_typed<T: Element, B: ArrayBackend>(a: &Array<T, B>, case: &str) {
    let (want, shape) = fixture_vec::<T>("npy", case);
    assert_eq!(a.shape(), shape.as_slice(), "shape of {case}");
    assert_eq!(bits(&a.to_vec().unwrap()), bits(&want), "values of {case}");
}

/// Checks `d` against fixture case `case`: dtype, shape and values.
fn check<B: ArrayBackend>(d: &DynArray<B>, case: &str) {
    assert_eq!(d.dtype(), fixture_dtype(case), "dtype of {case}");
    cuprite::with_dtype!(d.dtype(), T => check_typed(&d.clone().try_into_typed::<T>().unwrap(), case));
}

/// True for a view that is Fortran-ordered and not C-ordered (NumPy's `f_contiguous and
/// not c_contiguous`).
fn is_fortran<B: ArrayBackend>(d: &DynArray<B>) -> bool {
    !d.is_contiguous() && d.t().is_contiguous()
}

/// A fresh directory under the system's temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new<B: ArrayBackend>(test: &str, dev: &B) -> Scratch {
        let label = dev.label().replace(':', "_");
        let dir =
            std::env::temp_dir().join(format!("cuprite-npy-{test}-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
    fn files(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every file NumPy wrote loads with its dtype, shape and values, as a `DynArray` and as an
/// `Array` of its type; Fortran-ordered files load as Fortran-ordered views.
fn loads_every_file_numpy_wrote<B: ArrayBackend>(dev: &B) {
    let cases = file_cases();
    assert!(cases.len() >= 30, "npy.json has {} file cases", cases.len());
    for case in &cases {
        let path = npy_fixture(&format!("{case}.npy"));
        let d = DynArray::load_npy(&path, dev).unwrap_or_else(|e| panic!("{e}"));
        check(&d, case);
        let fortran = case.ends_with("_f") || case.ends_with("_be");
        assert_eq!(is_fortran(&d), fortran && d.size() > 0, "order of {case}");
        cuprite::with_dtype!(d.dtype(), T => {
            let a = Array::<T, B>::load_npy(&path, dev).unwrap();
            check_typed(&a, case);
        });
    }
}

/// A typed load of a file of another dtype is an error naming the file and both dtypes.
fn typed_loads_never_cast<B: ArrayBackend>(dev: &B) {
    let path = npy_fixture("float64_c.npy");
    let e = Array::<i32, B>::load_npy(&path, dev).unwrap_err();
    assert!(matches!(e, Error::Io { op: "load_npy", .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&path), "{msg}");
    assert!(msg.contains("holds float64 data, not int32"), "{msg}");
    let e = Array::<c64, B>::load_npy(npy_fixture("complex128_be.npy"), dev).unwrap_err();
    assert!(
        e.to_string().contains("complex128 data, not complex64"),
        "{e}"
    );
    let d = DynArray::load_npy(npy_fixture("uint8_c.npy"), dev).unwrap();
    assert_eq!(
        d.try_into_typed::<bool>().unwrap_err(),
        Error::DTypeMismatch {
            op: "try_into_typed",
            expected: DType::Bool,
            found: DType::U8
        }
    );
}

/// Both archives NumPy wrote (`savez`, `savez_compressed`) load every array by name.
fn loads_numpy_archives<B: ArrayBackend>(dev: &B) {
    for (archive, names) in [
        ("arrays", ["flag", "labels", "x"]),
        ("arrays_compressed", ["bytes", "empty", "z"]),
    ] {
        let arrays = load_npz(npy_fixture(&format!("{archive}.npz")), dev).unwrap();
        assert_eq!(arrays.keys().collect::<Vec<_>>(), names, "{archive}");
        for (name, d) in &arrays {
            check(d, &format!("{archive}/{name}"));
        }
        if archive == "arrays_compressed" {
            assert!(is_fortran(&arrays["z"]));
        }
    }
}

/// Damaged files and unsupported dtypes are `Error::Io` naming the file and the problem.
fn damaged_files_are_errors_naming_the_file<B: ArrayBackend>(dev: &B) {
    let cases = [
        (
            "bad_magic.npy",
            "not a .npy file: it does not start with the magic string",
        ),
        (
            "bad_truncated_header.npy",
            "truncated header: the header is 118 bytes long",
        ),
        (
            "bad_truncated_data.npy",
            "truncated data: the header's shape [3] of float64 needs 24 bytes of data, 20 \
             bytes follow the header",
        ),
        (
            "bad_extra_data.npy",
            "size mismatch: the header's shape [3] of float64 needs 24 bytes of data, 32 \
             bytes follow the header",
        ),
        (
            "bad_shape_mismatch.npy",
            "truncated data: the header's shape [2, 3] of float64 needs 48 bytes",
        ),
        (
            "bad_unicode.npy",
            "unsupported dtype '<U5' (unicode string)",
        ),
        (
            "bad_object.npy",
            "unsupported dtype '|O' (Python objects, pickled)",
        ),
        (
            "bad_datetime.npy",
            "unsupported dtype '<M8[ns]' (datetime64)",
        ),
        ("bad_float128.npy", "unsupported dtype '<f16' (float128)"),
        ("bad_record.npy", "a structured (record) dtype"),
        ("arrays.npz", "not a .npy file"),
        ("missing.npy", "cannot open"),
    ];
    for (file, want) in cases {
        let path = npy_fixture(file);
        let e = DynArray::load_npy(&path, dev).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, Error::Io { .. }), "{file}: {e:?}");
        assert!(
            msg.starts_with(&format!("load_npy: {path}: ")),
            "{file}: {msg}"
        );
        assert!(msg.contains(want), "{file}: {msg}\nshould contain: {want}");
        assert!(Array::<f64, B>::load_npy(&path, dev).is_err(), "{file}");
    }
    let archives = [
        ("bad_truncated.npz", "not an .npz file (a zip archive)"),
        ("float64_c.npy", "not an .npz file (a zip archive)"),
        (
            "bad_entry.npz",
            "entry 'cut.npy': truncated data: the header's shape [3] of float64 needs 24 \
             bytes of data, 16 bytes follow the header",
        ),
        ("missing.npz", "cannot open"),
    ];
    for (file, want) in archives {
        let path = npy_fixture(file);
        let e = load_npz(&path, dev).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("load_npz: {path}: ")),
            "{file}: {msg}"
        );
        assert!(msg.contains(want), "{file}: {msg}\nshould contain: {want}");
    }
}

/// Save -> load gives the same dtype, shape, values and order, for every fixture, for
/// views of them (reversed, strided, transposed) and through archives.
fn save_then_load_round_trips<B: ArrayBackend>(dev: &B) {
    let dir = Scratch::new("roundtrip", dev);
    let mut all = Vec::new();
    for case in file_cases() {
        let d = DynArray::load_npy(npy_fixture(&format!("{case}.npy")), dev).unwrap();
        let path = dir.path(&format!("{case}.npy"));
        d.save_npy(&path).unwrap();
        let back = DynArray::load_npy(&path, dev).unwrap();
        check(&back, &case);
        assert_eq!(is_fortran(&back), is_fortran(&d), "order of {case}");
        cuprite::with_dtype!(d.dtype(), T => {
            let a = d.clone().try_into_typed::<T>().unwrap();
            a.save_npy(&path).unwrap();
            check_typed(&Array::<T, B>::load_npy(&path, dev).unwrap(), &case);
            if a.ndim() > 0 && a.size() > 0 {
                // A reversed, non-contiguous view is saved as its values in C order.
                let v = a.slice(&s![..;-1, ELLIPSIS]).unwrap();
                v.save_npy(&path).unwrap();
                let back = Array::<T, B>::load_npy(&path, dev).unwrap();
                assert_eq!(bits(&back.to_vec().unwrap()), bits(&v.to_vec().unwrap()), "{case}");
                assert!(back.is_contiguous());
            }
        });
        all.push((case, d));
    }
    let named: Vec<(&str, &DynArray<B>)> = all.iter().map(|(c, d)| (c.as_str(), d)).collect();
    for compressed in [false, true] {
        let path = dir.path("all.npz");
        save_npz(&path, &named, compressed).unwrap();
        let back = load_npz(&path, dev).unwrap();
        assert_eq!(back.len(), all.len());
        for (case, d) in &all {
            check(&back[case], case);
            assert_eq!(is_fortran(&back[case]), is_fortran(d), "order of {case}");
        }
    }
    let mut want: Vec<String> = all.iter().map(|(c, _)| format!("{c}.npy")).collect();
    want.push("all.npz".into());
    want.sort();
    assert_eq!(dir.files(), want, "only the saved files, no temporary one");
}

/// A save that fails leaves no file and no temporary behind, and keeps the previous file.
fn failed_saves_leave_nothing_behind<B: ArrayBackend>(dev: &B) {
    let dir = Scratch::new("failed", dev);
    let a = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev).unwrap();
    let d = DynArray::from(a.clone());

    let e = a.save_npy(dir.path("no/such/dir/a.npy")).unwrap_err();
    assert!(
        e.to_string().contains("cannot create the temporary file"),
        "{e}"
    );

    std::fs::create_dir(dir.path("taken")).unwrap();
    let e = a.save_npy(dir.path("taken")).unwrap_err();
    assert!(matches!(e, Error::Io { op: "save_npy", .. }), "{e:?}");
    assert!(
        e.to_string().contains("cannot move the written file"),
        "{e}"
    );
    assert_eq!(dir.files(), ["taken"]);

    let path = dir.path("keep.npz");
    save_npz(&path, &[("a", &d)], true).unwrap();
    let e = save_npz(&path, &[("b", &d), ("b", &d)], true).unwrap_err();
    assert!(e.to_string().contains("the name 'b' is given twice"), "{e}");
    let kept = load_npz(&path, dev).unwrap();
    assert_eq!(kept.keys().collect::<Vec<_>>(), ["a"]);
    assert_eq!(dir.files(), ["keep.npz", "taken"]);
}

/// A saved file is laid out as NumPy lays it out: magic, version 1.0, a header dict padded
/// to a multiple of 64 bytes ending in a newline, then the little-endian elements.
fn saves_numpy_layout<B: ArrayBackend>(dev: &B) {
    let dir = Scratch::new("layout", dev);
    let a = Array::<i32, B>::from_vec(vec![1, -2, 3, 4, 5, 1 << 20], &[2, 3], dev).unwrap();
    a.save_npy(dir.path("a.npy")).unwrap();
    let bytes = std::fs::read(dir.path("a.npy")).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0);
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.starts_with("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3"));
    assert!(header.ends_with(" \n"), "{header:?}");
    let data: Vec<u8> = a
        .to_vec()
        .unwrap()
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(&bytes[10 + len..], data.as_slice());

    a.t().save_npy(dir.path("t.npy")).unwrap();
    let bytes = std::fs::read(dir.path("t.npy")).unwrap();
    let header = String::from_utf8_lossy(&bytes[10..128]).to_string();
    assert!(
        header.contains("'fortran_order': True, 'shape': (3, 2"),
        "{header}"
    );
    assert_eq!(
        &bytes[128..],
        data.as_slice(),
        "a Fortran file of a.t() holds a's bytes"
    );
}

/// Arrays larger than one 64 MiB piece are written and read piece by piece.
fn large_arrays_move_in_pieces<B: ArrayBackend>(dev: &B) {
    let dir = Scratch::new("large", dev);
    let n = (64 << 20) / 8 * 3 / 2 + 3;
    let a = Array::<i64, B>::ramp(n, -5, 3, dev).unwrap();
    let path = dir.path("large.npy");
    a.save_npy(&path).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 128 + 8 * n as u64);
    let b = Array::<i64, B>::load_npy(&path, dev).unwrap();
    assert_eq!(b.shape(), &[n]);
    let v = b.to_vec().unwrap();
    let bad = (0..n).find(|&i| v[i] != -5 + 3 * i as i64);
    assert_eq!(bad, None, "first wrong element");
}

/// A bool byte other than 0 or 1 is an error naming the element, as NumPy's own files never
/// hold one.
fn bad_elements_are_errors<B: ArrayBackend>(dev: &B) {
    let dir = Scratch::new("elements", dev);
    let path = dir.path("b.npy");
    Array::<bool, B>::from_vec(vec![true, false, true], &[3], dev)
        .unwrap()
        .save_npy(&path)
        .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[128 + 1] = 7;
    std::fs::write(&path, &bytes).unwrap();
    let e = Array::<bool, B>::load_npy(&path, dev).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("element 1: invalid value for bool: 7"),
        "{e}"
    );
}

/// The script NumPy runs on what cuprite wrote: every `<case>.npy` against the fixture NumPy
/// wrote (dtype, shape, bytes, Fortran order), every `<archive>.<stored|compressed>.npz`
/// against NumPy's archive (names, arrays, compression).
const NUMPY_CHECK: &str = r#"
import os, sys, zipfile
import numpy as np
out, fixtures = sys.argv[1], sys.argv[2]
def native(a):
    return a.astype(a.dtype.newbyteorder("="))
def check(ours, theirs, name):
    want = native(theirs)
    assert ours.dtype == want.dtype and ours.dtype.byteorder in "=|<", (name, ours.dtype, theirs.dtype)
    assert ours.shape == want.shape, (name, ours.shape, want.shape)
    assert np.ascontiguousarray(ours).tobytes() == np.ascontiguousarray(want).tobytes(), (name, ours, want)
    if theirs.flags.f_contiguous and not theirs.flags.c_contiguous:
        assert ours.flags.f_contiguous, (name, "not Fortran-ordered")
n = 0
for f in sorted(os.listdir(out)):
    path = os.path.join(out, f)
    if f.endswith(".npy"):
        check(np.load(path), np.load(os.path.join(fixtures, f)), f)
        n += 1
    elif f.endswith(".npz"):
        source, kind, _ = f.split(".")
        method = zipfile.ZIP_DEFLATED if kind == "compressed" else zipfile.ZIP_STORED
        assert all(i.compress_type == method for i in zipfile.ZipFile(path).infolist()), f
        with np.load(path) as ours, np.load(os.path.join(fixtures, source + ".npz")) as theirs:
            assert sorted(ours.files) == sorted(theirs.files), (f, ours.files, theirs.files)
            for k in theirs.files:
                check(ours[k], theirs[k], f + "/" + k)
                n += 1
print(f"numpy read {n} arrays back")
"#;

/// NumPy reads what cuprite writes: every fixture saved as `.npy` and both archives saved
/// stored and compressed, compared by NumPy with the files NumPy wrote.
fn numpy_reads_what_cuprite_writes<B: ArrayBackend>(dev: &B) {
    let has_numpy = Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_numpy {
        println!(
            "note: python3 with numpy not found; NumPy's read-back of cuprite's files skipped"
        );
        return;
    }
    let dir = Scratch::new("numpy", dev);
    for case in file_cases() {
        let d = DynArray::load_npy(npy_fixture(&format!("{case}.npy")), dev).unwrap();
        d.save_npy(dir.path(&format!("{case}.npy"))).unwrap();
    }
    for archive in ["arrays", "arrays_compressed"] {
        let arrays = load_npz(npy_fixture(&format!("{archive}.npz")), dev).unwrap();
        let named: Vec<(&str, &DynArray<B>)> =
            arrays.iter().map(|(k, v)| (k.as_str(), v)).collect();
        save_npz(dir.path(&format!("{archive}.stored.npz")), &named, false).unwrap();
        save_npz(dir.path(&format!("{archive}.compressed.npz")), &named, true).unwrap();
    }
    let fixtures = fixture_path("npy");
    let out = Command::new("python3")
        .args(["-c", NUMPY_CHECK])
        .arg(&dir.0)
        .arg(Path::new(&fixtures))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "NumPy could not read cuprite's files:\n{text}"
    );
    let arrays = file_cases().len() + 2 * 6;
    assert!(
        text.contains(&format!("numpy read {arrays} arrays back")),
        "{text}"
    );
}

/// The 16-bit float files: typed and dynamic loads of float16 (`'<f2'`, Fortran order,
/// `'>f2'`) and of bfloat16 (`'<V2'` as ml_dtypes saves it, `'|V2'`), and saves that give
/// NumPy's own file byte for byte.
fn half_files_match_numpy<B: ArrayBackend>(dev: &B) {
    let f = Array::<f16, B>::load_npy(npy_fixture("float16_c.npy"), dev).unwrap();
    let want = [f64::NAN, f64::INFINITY, -6e-8, -0.0, 0.1, 65504.0].map(f16::from_f64);
    assert_eq!(bits(&f.to_vec().unwrap()), bits(&want));
    assert_eq!(f.shape(), &[2, 3]);
    let be = Array::<f16, B>::load_npy(npy_fixture("float16_be.npy"), dev).unwrap();
    let want: Vec<f16> = (0..8).map(|i| f16::from_f64(-(i as f64))).collect();
    assert_eq!(be.shape(), &[2, 2, 2]);
    assert!(
        !be.is_contiguous() && be.t().is_contiguous(),
        "Fortran order"
    );
    assert_eq!(
        bits(&be.to_vec().unwrap()),
        bits(&want),
        "float16_be in C order"
    );
    for file in ["bfloat16_c.npy", "bfloat16_void.npy"] {
        let b = Array::<bf16, B>::load_npy(npy_fixture(file), dev).unwrap();
        let want = [
            f64::NAN,
            f64::NEG_INFINITY,
            9.183549615799121e-41,
            -0.0,
            0.1,
            3.3895313892515355e38,
        ]
        .map(|v| bf16::from_f32(v as f32));
        assert_eq!(bits(&b.to_vec().unwrap()), bits(&want), "{file}");
        let d = DynArray::load_npy(npy_fixture(file), dev).unwrap();
        assert_eq!(d.dtype(), DType::BF16, "{file}");
    }
    let e = Array::<bf16, B>::load_npy(npy_fixture("float16_c.npy"), dev).unwrap_err();
    assert!(
        e.to_string().contains("holds float16 data, not bfloat16"),
        "{e}"
    );
    let e = Array::<f16, B>::load_npy(npy_fixture("bfloat16_c.npy"), dev).unwrap_err();
    assert!(
        e.to_string().contains("holds bfloat16 data, not float16"),
        "{e}"
    );

    let dir = Scratch::new("halfs", dev);
    for (source, numpy_file) in [
        ("float16_c", "float16_c"),
        ("float16_f", "float16_f"),
        ("scalar_float16", "scalar_float16"),
        ("bfloat16_c", "bfloat16_c"),
        ("bfloat16_f", "bfloat16_f"),
        ("bfloat16_void", "bfloat16_c"),
        ("scalar_bfloat16", "scalar_bfloat16"),
    ] {
        let numpy = std::fs::read(npy_fixture(&format!("{numpy_file}.npy"))).unwrap();
        let d = DynArray::load_npy(npy_fixture(&format!("{source}.npy")), dev).unwrap();
        let path = dir.path(&format!("{source}.dyn.npy"));
        d.save_npy(&path).unwrap();
        assert!(
            std::fs::read(&path).unwrap() == numpy,
            "{source}: DynArray save"
        );
        cuprite::with_dtype!(d.dtype(), T => {
            let a = d.clone().try_into_typed::<T>().unwrap();
            let path = dir.path(&format!("{source}.typed.npy"));
            a.save_npy(&path).unwrap();
            assert!(std::fs::read(&path).unwrap() == numpy, "{source}: typed save");
            let back = Array::<T, B>::load_npy(&path, dev).unwrap();
            assert_eq!(bits(&back.to_vec().unwrap()), bits(&a.to_vec().unwrap()), "{source}");
            assert_eq!(back.shape(), a.shape(), "{source}");
        });
    }
}

cuprite::test_backends!(
    loads_every_file_numpy_wrote,
    typed_loads_never_cast,
    loads_numpy_archives,
    damaged_files_are_errors_naming_the_file,
    save_then_load_round_trips,
    failed_saves_leave_nothing_behind,
    saves_numpy_layout,
    large_arrays_move_in_pieces,
    bad_elements_are_errors,
    numpy_reads_what_cuprite_writes,
    half_files_match_numpy,
);

/// Memory-mapped loads on the CPU: every file NumPy wrote in the host's byte order maps
/// with NumPy's dtype, shape, values (bit for bit) and order, without a copy; a file of
/// multi-byte big-endian data is refused, naming the file and pointing at `load_npy`.
#[cfg(feature = "cpu")]
#[test]
fn mapped_loads_match_numpy() {
    let (mut mapped, mut refused) = (0, 0);
    for case in file_cases() {
        let path = npy_fixture(&format!("{case}.npy"));
        let dtype = fixture_dtype(&case);
        match unsafe { DynArray::<Cpu>::load_npy_mmap(&path) } {
            Ok(d) => {
                check(&d, &case);
                let fortran = case.ends_with("_f") || case.ends_with("_be");
                assert_eq!(is_fortran(&d), fortran && d.size() > 0, "order of {case}");
                cuprite::with_dtype!(dtype, T => {
                    let a = unsafe { Array::<T, Cpu>::load_npy_mmap(&path) }.unwrap();
                    assert_eq!(a.buffer().is_foreign(), a.size() > 0, "{case} is mapped");
                    check_typed(&a, &case);
                });
                mapped += 1;
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    case.ends_with("_be") && dtype.size_of() > 1,
                    "{case}: {msg}"
                );
                assert!(msg.contains(&path) && msg.contains("big-endian"), "{msg}");
                assert!(msg.contains("load it with load_npy"), "{msg}");
                refused += 1;
            }
        }
    }
    // One big-endian file per dtype wider than a byte but bfloat16, whose files NumPy
    // writes as raw bytes ('<V2' from ml_dtypes), in the host's order.
    let wide = DType::ALL
        .iter()
        .filter(|&&d| d.size_of() > 1 && d != DType::BF16)
        .count();
    assert!(
        mapped >= 25 && refused == wide,
        "{mapped} mapped, {refused} refused (want {wide})"
    );
}
