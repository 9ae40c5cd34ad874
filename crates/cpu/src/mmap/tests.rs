//! Memory-mapped loads: the array's memory is the mapping (its address lies in the file's
//! mapping as the kernel lists it in `/proc/self/maps`), writes copy and leave the file
//! alone, the mapping outlives the file's name, every NumPy-written fixture maps to the
//! values `load_npy` reads (itself checked against NumPy by the suite) or is refused for
//! its byte order, and damaged files are errors naming the file.

use super::NpyMmapExt;
use crate::{Cpu, CpuBuffer};
use cuprite_core::{c128, Array, DType, DynArray, Element, Error};
use std::path::{Path, PathBuf};

/// A fresh directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("cuprite-mmap-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `[start, end)` address ranges the kernel maps from the file `path` (its name as
/// when it was mapped, with " (deleted)" once unlinked).
#[cfg(target_os = "linux")]
fn mapped_ranges(path: &Path, deleted: bool) -> Vec<(usize, usize)> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let mut name = path.display().to_string();
    if deleted {
        name.push_str(" (deleted)");
    }
    maps.lines()
        .filter(|l| l.ends_with(&name))
        .map(|l| {
            let range = l.split_whitespace().next().unwrap();
            let (a, b) = range.split_once('-').unwrap();
            (
                usize::from_str_radix(a, 16).unwrap(),
                usize::from_str_radix(b, 16).unwrap(),
            )
        })
        .collect()
}

/// The address range of the array's buffer.
fn buffer_range<T: Element>(a: &Array<T, Cpu>) -> (usize, usize) {
    let s = a.buffer().as_slice();
    let start = s.as_ptr() as usize;
    (start, start + std::mem::size_of_val(s))
}

/// The values as complex128 (every element type converts exactly), formatted: NaN equals
/// NaN, -0.0 differs from 0.0.
fn values(d: &DynArray<Cpu>) -> String {
    format!("{:?}", d.astype::<c128>().unwrap().to_vec().unwrap())
}

fn ramp(n: usize, shape: &[usize]) -> Array<f64, Cpu> {
    let v = (0..n).map(|i| i as f64 * 0.5 - 3.0).collect();
    Array::from_vec(v, shape, &Cpu).unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn the_array_is_the_mapping() {
    let dir = Scratch::new("ptr");
    let path = dir.path("a.npy");
    ramp(3 * 1000, &[3, 1000]).save_npy(&path).unwrap();
    let path = path.canonicalize().unwrap();
    let m = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap();
    assert!(m.buffer().is_foreign());
    assert_eq!(m.shape(), &[3, 1000]);
    let (lo, hi) = buffer_range(&m);
    let ranges = mapped_ranges(&path, false);
    assert!(
        ranges.iter().any(|&(a, b)| a <= lo && hi <= b),
        "buffer {lo:#x}..{hi:#x} outside the file's mappings {ranges:x?}"
    );
    // NumPy's header pads the data to 64 bytes: the elements start 128 bytes in.
    assert!(ranges.iter().any(|&(a, _)| lo - a == 128), "{ranges:x?}");
    assert_eq!(
        m.to_vec().unwrap(),
        ramp(3000, &[3, 1000]).to_vec().unwrap()
    );
    drop(m);
    assert!(mapped_ranges(&path, false).is_empty(), "unmapped on drop");
}

#[test]
fn writes_copy_and_leave_the_file() {
    let dir = Scratch::new("cow");
    let path = dir.path("a.npy");
    ramp(12, &[3, 4]).save_npy(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let m = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap();
    let mut w = m.clone();
    w *= 2.0;
    let mut v = m.t();
    v.fill(7.0).unwrap();
    assert!(
        m.buffer().is_foreign(),
        "the original still reads the mapping"
    );
    assert!(!w.buffer().is_foreign() && !v.buffer().is_foreign());
    assert_eq!(m.to_vec().unwrap(), ramp(12, &[3, 4]).to_vec().unwrap());
    assert_eq!(
        w.to_vec().unwrap(),
        (&ramp(12, &[3, 4]) * 2.0).to_vec().unwrap()
    );
    assert_eq!(v.to_vec().unwrap(), vec![7.0; 12]);
    drop((m, w, v));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
    let again = Array::<f64, Cpu>::load_npy(&path, &Cpu).unwrap();
    assert_eq!(again.to_vec().unwrap(), ramp(12, &[3, 4]).to_vec().unwrap());

    // The only user of the mapping copies too (the mapping is read-only).
    let mut only = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap();
    only += 1.0;
    assert!(!only.buffer().is_foreign());
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn the_mapping_outlives_the_name() {
    let dir = Scratch::new("unlink");
    let path = dir.path("a.npy");
    ramp(100, &[100]).save_npy(&path).unwrap();
    let path = path.canonicalize().unwrap();
    let m = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap();
    let moved = dir.path("b.npy");
    std::fs::rename(&path, &moved).unwrap();
    assert_eq!(m.to_vec().unwrap(), ramp(100, &[100]).to_vec().unwrap());
    std::fs::remove_file(&moved).unwrap();
    // A new file under the old name changes nothing either.
    Array::<f64, Cpu>::full(&[100], 9.0, &Cpu)
        .unwrap()
        .save_npy(&path)
        .unwrap();
    assert_eq!(
        m.sum().unwrap().item().unwrap(),
        ramp(100, &[100]).sum().unwrap().item().unwrap()
    );
    #[cfg(target_os = "linux")]
    {
        let moved = moved.canonicalize().unwrap_or(moved);
        let (lo, hi) = buffer_range(&m);
        let ranges = mapped_ranges(&moved, true);
        assert!(
            ranges.iter().any(|&(a, b)| a <= lo && hi <= b),
            "{ranges:x?}"
        );
    }
    assert!(m.buffer().is_foreign());
}

#[test]
fn saving_over_the_mapped_file_is_safe() {
    let dir = Scratch::new("resave");
    let path = dir.path("a.npy");
    ramp(100, &[100]).save_npy(&path).unwrap();
    let m = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap();
    // `save_npy` writes a new file and renames it over the old one: the mapping keeps the
    // old file, and a write through `m` (copy-on-write) goes nowhere near either.
    (&m * -1.0).save_npy(&path).unwrap();
    assert_eq!(m.to_vec().unwrap(), ramp(100, &[100]).to_vec().unwrap());
    let now = Array::<f64, Cpu>::load_npy(&path, &Cpu).unwrap();
    assert_eq!(
        now.to_vec().unwrap(),
        (&ramp(100, &[100]) * -1.0).to_vec().unwrap()
    );
}

#[test]
fn empty_zero_d_and_fortran() {
    let dir = Scratch::new("shapes");
    let empty = dir.path("empty.npy");
    Array::<i64, Cpu>::zeros(&[2, 0, 3], &Cpu)
        .unwrap()
        .save_npy(&empty)
        .unwrap();
    let e = unsafe { Array::<i64, Cpu>::load_npy_mmap(&empty) }.unwrap();
    assert_eq!((e.shape(), e.size()), (&[2, 0, 3][..], 0));

    let scalar = dir.path("scalar.npy");
    Array::<c128, Cpu>::from_vec(vec![c128::new(1.5, -2.0)], &[], &Cpu)
        .unwrap()
        .save_npy(&scalar)
        .unwrap();
    let s = unsafe { Array::<c128, Cpu>::load_npy_mmap(&scalar) }.unwrap();
    assert_eq!(s.ndim(), 0);
    assert!(s.buffer().is_foreign());
    assert_eq!(s.item().unwrap(), c128::new(1.5, -2.0));

    let fortran = dir.path("f.npy");
    let c = ramp(24, &[4, 6]);
    c.t().save_npy(&fortran).unwrap(); // a Fortran-contiguous view: saved in Fortran order
    let f = unsafe { Array::<f64, Cpu>::load_npy_mmap(&fortran) }.unwrap();
    assert!(f.buffer().is_foreign());
    assert_eq!(f.shape(), &[6, 4]);
    assert!(
        !f.is_contiguous() && f.t().is_contiguous(),
        "a Fortran-ordered view"
    );
    assert_eq!(f.to_vec().unwrap(), c.t().to_vec().unwrap());
    let d = unsafe { DynArray::<Cpu>::load_npy_mmap(&fortran) }.unwrap();
    assert_eq!((d.dtype(), d.shape()), (DType::F64, &[6, 4][..]));
}

/// The NumPy-written fixtures of the suite (`scripts/fixtures/npy.py`).
fn fixture_dir() -> PathBuf {
    let dir = std::env::var("CUPRITE_FIXTURES_DIR")
        .unwrap_or_else(|_| format!("{}/../cuprite/tests/fixtures", env!("CARGO_MANIFEST_DIR")));
    PathBuf::from(dir).join("npy")
}

#[test]
fn numpy_files_map_as_they_load() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "npy"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{} fixture files", files.len());
    let (mut mapped, mut swapped) = (0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let loaded = DynArray::load_npy(path, &Cpu);
        let m = unsafe { DynArray::<Cpu>::load_npy_mmap(path) };
        match (loaded, m) {
            (Ok(l), Ok(m)) => {
                assert_eq!((m.dtype(), m.shape()), (l.dtype(), l.shape()), "{name}");
                assert_eq!(m.is_contiguous(), l.is_contiguous(), "{name}");
                assert_eq!(values(&m), values(&l), "{name}");
                mapped += 1;
            }
            (Ok(l), Err(e)) => {
                // Only multi-byte big-endian data is refused.
                let msg = e.to_string();
                assert!(
                    name.ends_with("_be.npy") && l.itemsize() > 1,
                    "{name}: {msg}"
                );
                assert!(
                    msg.contains("big-endian") && msg.contains("load_npy"),
                    "{msg}"
                );
                assert!(msg.contains(&path.display().to_string()), "{msg}");
                swapped += 1;
            }
            (Err(_), Err(e)) => {
                assert!(
                    matches!(
                        e,
                        Error::Io {
                            op: "load_npy_mmap",
                            ..
                        }
                    ),
                    "{e:?}"
                );
                assert!(e.to_string().contains(&path.display().to_string()), "{e}");
            }
            (Err(e), Ok(_)) => panic!("{name}: load_npy refuses it ({e}), the mapping takes it"),
        }
    }
    assert!(
        mapped >= 25 && swapped >= 5,
        "{mapped} mapped, {swapped} refused"
    );
    let e = unsafe { Array::<i32, Cpu>::load_npy_mmap(fixture_dir().join("float64_c.npy")) }
        .unwrap_err();
    assert!(
        e.to_string().contains("holds float64 data, not int32"),
        "{e}"
    );
}

#[test]
fn damaged_files_are_errors_naming_the_file() {
    let dir = Scratch::new("bad");
    let path = dir.path("t.npy");
    ramp(1000, &[1000]).save_npy(&path).unwrap();
    let len = std::fs::metadata(&path).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(len - 8).unwrap();
    drop(f);
    let e = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("truncated data") && msg.contains(&path.display().to_string()),
        "{msg}"
    );

    let missing = dir.path("missing.npy");
    let e = unsafe { DynArray::<Cpu>::load_npy_mmap(&missing) }.unwrap_err();
    assert!(e.to_string().contains("cannot open"), "{e}");

    // A bool file holding a byte other than 0 and 1.
    let bools = dir.path("bools.npy");
    Array::<u8, Cpu>::from_vec(vec![0, 1, 2], &[3], &Cpu)
        .unwrap()
        .save_npy(&bools)
        .unwrap();
    let mut bytes = std::fs::read(&bools).unwrap();
    let at = bytes.windows(5).position(|w| w == b"'|u1'").unwrap();
    bytes[at + 2] = b'b';
    std::fs::write(&bools, &bytes).unwrap();
    let e = unsafe { Array::<bool, Cpu>::load_npy_mmap(&bools) }.unwrap_err();
    assert!(
        e.to_string()
            .contains("element 2 of the bool data is the byte 0x02"),
        "{e}"
    );
}

#[test]
fn a_mapped_buffer_is_shared_like_any() {
    let dir = Scratch::new("share");
    let path = dir.path("a.npy");
    ramp(10, &[10]).save_npy(&path).unwrap();
    let m = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }.unwrap();
    let buf: CpuBuffer<f64> = m.buffer().clone();
    assert!(buf.is_shared());
    drop(m);
    assert_eq!(buf.as_slice()[3], ramp(10, &[10]).to_vec().unwrap()[3]);
}
