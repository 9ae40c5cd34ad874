//! Arrays in and out of NumPy's files: `.npy` (one array) and `.npz` (a zip archive of
//! named `.npy` arrays, stored or deflate-compressed), read and written as NumPy's
//! `np.load`, `np.save`, `np.savez` and `np.savez_compressed` do; and text files, as
//! `np.loadtxt`, `np.genfromtxt` and `np.savetxt` (`text.rs`).
//!
//! - [`Array::load_npy`] reads a file of the array's own dtype (a file of another dtype is
//!   an error naming both: nothing is cast silently); [`DynArray::load_npy`] takes the
//!   dtype from the file; [`load_npz`] reads every array of an archive by name.
//! - [`Array::save_npy`], [`DynArray::save_npy`] and [`save_npz`] write little-endian
//!   files NumPy reads back.
//!
//! Every element type of cuprite is read and written (`bool`, `uint8`, `int32`, `int64`,
//! `float32`, `float64`, `complex64`, `complex128`), in either byte order on load, 0-d and
//! empty arrays included. A file in Fortran order loads as NumPy loads it: a Fortran-ordered
//! view with the same values, no copy; a Fortran-contiguous array is saved in Fortran order,
//! any other view in C order.
//!
//! A load never panics on a bad file: a missing or unreadable file, a wrong magic string, a
//! truncated header or data, a header whose shape does not match the bytes that follow, a
//! dtype cuprite has no element type for (strings, objects, dates, records, `int16`, ...)
//! are [`Error::Io`] naming the file and what is wrong. A save writes a temporary file
//! beside the target and renames it into place, so a failed save leaves neither a partial
//! file nor its temporary behind, and the previous file, if any, is untouched.
//!
//! Elements move as raw bytes (swapped in place for a file of the other byte order), never
//! one by one. On a backend whose buffers are host memory (`Cpu`) a load reads the file
//! straight into the array's memory. Elsewhere large arrays move in pieces of 64 MiB: a load
//! reads and uploads one piece at a time into the array's buffer, a save downloads and
//! writes one piece at a time, so the host holds one piece besides the array.
//!
//! A backend that can use a file's bytes in place instead (the `Cpu` backend maps the file
//! into memory: `load_npy_mmap` of `cuprite_cpu::mmap`) gets the checked position of the
//! elements from [`open_npy_region`].
//!
//! ```
//! use cuprite_core::{io, Array, DType, DynArray};
//! # fn demo<B: cuprite_core::ArrayBackend>(dev: &B) -> cuprite_core::Result<()> {
//! let dir = std::env::temp_dir().join(format!("cuprite-io-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//!
//! let a = Array::<f32, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
//! a.save_npy(dir.join("a.npy"))?;
//! assert_eq!(Array::<f32, B>::load_npy(dir.join("a.npy"), dev)?.to_vec()?, a.to_vec()?);
//! let d = DynArray::load_npy(dir.join("a.npy"), dev)?; // dtype from the file
//! assert_eq!(d.dtype(), DType::F32);
//! let e = Array::<f64, B>::load_npy(dir.join("a.npy"), dev).unwrap_err();
//! assert!(e.to_string().contains("the file holds float32 data, not float64"));
//!
//! let labels = DynArray::from(Array::<i64, B>::from_vec(vec![0, 1], &[2], dev)?);
//! io::save_npz(dir.join("ab.npz"), &[("a", &d), ("labels", &labels)], true)?;
//! let arrays = io::load_npz(dir.join("ab.npz"), dev)?;
//! assert_eq!(arrays.keys().collect::<Vec<_>>(), ["a", "labels"]);
//! assert_eq!(arrays["labels"].to_string(), "[0 1]");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok(()) }
//! # demo(&cuprite_cpu::Cpu::new()).unwrap();
//! ```

mod header;
mod npy;
mod npz;
mod raw;
mod region;
mod text;

pub use npz::{load_npz, save_npz};
pub use region::{NpyRegion, dtype_align, io_error, open_npy_region};
pub use text::{LoadTxt, SaveTxt};

use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::dynarray::DynArray;
use crate::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::BufReader;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where an I/O error happened: the op, the file and, in an archive, the entry.
pub(crate) struct Ctx {
    op: &'static str,
    path: String,
    entry: Option<String>,
}

impl Ctx {
    pub(crate) fn new(op: &'static str, path: &Path) -> Ctx {
        Ctx {
            op,
            path: path.display().to_string(),
            entry: None,
        }
    }

    /// The same op and file, for the archive entry `name`.
    pub(crate) fn entry(&self, name: &str) -> Ctx {
        Ctx {
            op: self.op,
            path: self.path.clone(),
            entry: Some(name.to_string()),
        }
    }

    /// [`Error::Io`] with `msg`, prefixed with the entry's name inside an archive.
    pub(crate) fn err(&self, msg: impl std::fmt::Display) -> Error {
        let msg = match &self.entry {
            Some(entry) => format!("entry '{entry}': {msg}"),
            None => msg.to_string(),
        };
        Error::Io {
            op: self.op,
            path: self.path.clone(),
            msg,
        }
    }
}

/// Opens `path` for reading; its length.
fn open(ctx: &Ctx, path: &Path) -> Result<(File, u64)> {
    let file = File::open(path).map_err(|e| ctx.err(format!("cannot open: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| ctx.err(format!("cannot read: {e}")))?;
    if meta.is_dir() {
        return Err(ctx.err("is a directory"));
    }
    Ok((file, meta.len()))
}

/// Writes the file `path` through `write`, into a temporary file of the same directory
/// renamed into place once it is complete and synced; on any error the temporary file is
/// removed and `path` is left as it was.
fn write_atomically(ctx: &Ctx, path: &Path, write: impl FnOnce(&File) -> Result<()>) -> Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| ctx.err("not a file name"))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = dir.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| {
            ctx.err(format!(
                "cannot create the temporary file {}: {e}",
                tmp.display()
            ))
        })?;
    let written = write(&file).and_then(|()| {
        file.sync_all()
            .map_err(|e| ctx.err(format!("write failed: {e}")))
    });
    drop(file);
    let done = written.and_then(|()| {
        fs::rename(&tmp, path).map_err(|e| {
            ctx.err(format!(
                "cannot move the written file {} into place: {e}",
                tmp.display()
            ))
        })
    });
    if done.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    done
}

/// Writes one array as a `.npy` file.
fn save_npy_file<B: ArrayBackend>(ctx: &Ctx, path: &Path, a: &DynArray<B>) -> Result<()> {
    write_atomically(ctx, path, |file| {
        let mut w = std::io::BufWriter::new(file);
        npy::write_array(&mut w, a, ctx)?;
        w.into_inner()
            .map_err(|e| ctx.err(format!("write failed: {}", e.error())))?;
        Ok(())
    })
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Reads a `.npy` file of this element type onto `dev` (NumPy's `np.load`). A file in
    /// Fortran order gives a Fortran-ordered view (the values are the same).
    ///
    /// # Errors
    /// [`Error::Io`] naming the file for a file that cannot be read, is not a valid `.npy`
    /// file (see the [module documentation](crate::io)), or holds another dtype than `T`
    /// (the message names both; load it with [`DynArray::load_npy`] to take the file's
    /// dtype); [`Error::OutOfMemory`] when the array does not fit on `dev`.
    pub fn load_npy(path: impl AsRef<Path>, dev: &B) -> Result<Self> {
        let path = path.as_ref();
        let ctx = Ctx::new("load_npy", path);
        let (file, len) = open(&ctx, path)?;
        let mut r = BufReader::new(file);
        npy::read_array(&mut r, Some(len), Some(T::DTYPE), &ctx, dev)?.try_into_typed()
    }

    /// Writes the array as a `.npy` file (NumPy's `np.save`): little-endian, in C order, or
    /// in Fortran order for a Fortran-contiguous view. The file is written under a temporary
    /// name and renamed into place when complete.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file when it cannot be written (nothing is left behind).
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        save_npy_file(&Ctx::new("save_npy", path), path, &self.clone().into())
    }
}

impl<B: ArrayBackend> DynArray<B> {
    /// Reads a `.npy` file onto `dev`, with the dtype the file has (NumPy's `np.load`).
    ///
    /// # Errors
    /// [`Error::Io`] naming the file for a file that cannot be read or is not a valid `.npy`
    /// file of a dtype cuprite has (see the [module documentation](crate::io));
    /// [`Error::OutOfMemory`] when the array does not fit on `dev`.
    pub fn load_npy(path: impl AsRef<Path>, dev: &B) -> Result<Self> {
        let path = path.as_ref();
        let ctx = Ctx::new("load_npy", path);
        let (file, len) = open(&ctx, path)?;
        npy::read_array(&mut BufReader::new(file), Some(len), None, &ctx, dev)
    }

    /// Writes the array as a `.npy` file, as [`Array::save_npy`].
    ///
    /// # Errors
    /// [`Error::Io`] naming the file when it cannot be written (nothing is left behind).
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        save_npy_file(&Ctx::new("save_npy", path), path, self)
    }
}
