//! Memory-mapped `.npy` loads on the `Cpu` backend ([`NpyMmapExt`]): the file is mapped
//! read-only and the array's buffer is the mapping itself, so a load reads nothing (the
//! kernel pages the data in when it is first touched) and arrays larger than memory load at
//! once. This is NumPy's `np.load(path, mmap_mode="c")`.
//!
//! - The array is an ordinary `Array<T, Cpu>`: views, reductions and saves read the
//!   mapping; the first write copies the elements into memory of cuprite's own
//!   (copy-on-write, as for every shared buffer), so the file is never written.
//! - A file in Fortran order gives the Fortran-ordered view [`Array::load_npy`] gives.
//! - The mapping lives as long as the last array or view over it, whatever happens to the
//!   file's name: on Linux a mapped file may be renamed or unlinked meanwhile, and saving
//!   over it with `save_npy` is safe too (the save writes a new file and renames it into
//!   place; the mapping keeps the old one).
//! - Refused, with an [`Error::Io`](cuprite_core::Error::Io) naming the file and the
//!   reason: every file [`Array::load_npy`] refuses, data in the other byte order than the
//!   host's (a mapping cannot swap bytes: `load_npy` converts such a file), data whose
//!   offset in the file is not aligned for its element type (NumPy pads the header so that
//!   the data starts on a multiple of 64 bytes), a file longer or shorter than its header
//!   says, and a `bool` file holding bytes other than 0 and 1 (for `bool` alone the bytes
//!   are read once, to check them).
//!
//! The `unsafe` of this file: mapping a file (a mapped file written or truncated by another
//! process changes or removes memory an array reads; the caller promises it is not) and
//! the buffer over the mapping ([`CpuBuffer::from_foreign`]).

use crate::{Cpu, CpuBuffer};
use cuprite_core::io::{io_error, open_npy_region, NpyRegion};
use cuprite_core::{Array, DType, DynArray, Element, Result};
use memmap2::Mmap;
use std::fs::File;
use std::path::Path;
use std::ptr::NonNull;

const OP: &str = "load_npy_mmap";

/// Memory-mapped `.npy` loads for `Array<T, Cpu>` and `DynArray<Cpu>` (see the
/// [module documentation](self)).
///
/// ```
/// use cuprite_core::{Array, DynArray, DType};
/// use cuprite_cpu::{mmap::NpyMmapExt, Cpu};
///
/// let path = std::env::temp_dir().join(format!("cuprite-mmap-doc-{}.npy", std::process::id()));
/// let a = Array::<f64, Cpu>::from_vec((0..6).map(f64::from).collect(), &[2, 3], &Cpu)?;
/// a.save_npy(&path)?;
///
/// // SAFETY: nothing else writes or truncates the file while the arrays live.
/// let m = unsafe { Array::<f64, Cpu>::load_npy_mmap(&path) }?;
/// assert!(m.buffer().is_foreign()); // the mapping, not a copy
/// assert_eq!(m.sum()?.item()?, 15.0);
///
/// let mut w = m.clone();
/// w *= 2.0; // copy-on-write: `w` is in memory now, `m` and the file are unchanged
/// assert_eq!(m.to_vec()?, a.to_vec()?);
///
/// let d = unsafe { DynArray::<Cpu>::load_npy_mmap(&path) }?; // dtype from the file
/// assert_eq!(d.dtype(), DType::F64);
/// let e = unsafe { Array::<f32, Cpu>::load_npy_mmap(&path) }.unwrap_err();
/// assert!(e.to_string().contains("holds float64 data, not float32"));
/// # drop((m, d));
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), cuprite_core::Error>(())
/// ```
pub trait NpyMmapExt: Sized {
    /// Maps the `.npy` file `path` read-only and returns an array over the mapping, without
    /// reading the data (see the [module documentation](self)).
    ///
    /// # Safety
    /// Nobody writes or truncates the file while an array (or view) over the mapping lives:
    /// the array reads the file's pages as they are when touched, and reading a page a
    /// truncation removed kills the process (`SIGBUS`). Renaming or unlinking the file is
    /// fine. This is the contract of every memory map (`memmap2::Mmap::map`).
    ///
    /// # Errors
    /// [`Error::Io`](cuprite_core::Error::Io) naming the file for a file that cannot be
    /// opened or mapped, is not a valid `.npy` file, holds another dtype than the array's
    /// (for `Array<T, Cpu>`), holds big-endian data (on a little-endian host), data not
    /// aligned for its type, fewer or more bytes than its header announces, or a `bool`
    /// byte other than 0 and 1.
    unsafe fn load_npy_mmap(path: impl AsRef<Path>) -> Result<Self>;
}

impl<T: Element> NpyMmapExt for Array<T, Cpu> {
    unsafe fn load_npy_mmap(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let (file, region) = open_npy_region(OP, path, Some(T::DTYPE))?;
        // SAFETY: the caller's contract is ours.
        unsafe { map_array(path, &file, &region) }
    }
}

impl NpyMmapExt for DynArray<Cpu> {
    unsafe fn load_npy_mmap(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let (file, r) = open_npy_region(OP, path, None)?;
        // SAFETY (every arm): the caller's contract is ours.
        Ok(unsafe {
            match r.dtype {
                DType::Bool => DynArray::Bool(map_array(path, &file, &r)?),
                DType::I8 => DynArray::I8(map_array(path, &file, &r)?),
                DType::U8 => DynArray::U8(map_array(path, &file, &r)?),
                DType::I16 => DynArray::I16(map_array(path, &file, &r)?),
                DType::U16 => DynArray::U16(map_array(path, &file, &r)?),
                DType::I32 => DynArray::I32(map_array(path, &file, &r)?),
                DType::U32 => DynArray::U32(map_array(path, &file, &r)?),
                DType::I64 => DynArray::I64(map_array(path, &file, &r)?),
                DType::U64 => DynArray::U64(map_array(path, &file, &r)?),
                DType::F16 => DynArray::F16(map_array(path, &file, &r)?),
                DType::BF16 => DynArray::BF16(map_array(path, &file, &r)?),
                DType::F32 => DynArray::F32(map_array(path, &file, &r)?),
                DType::F64 => DynArray::F64(map_array(path, &file, &r)?),
                DType::C64 => DynArray::C64(map_array(path, &file, &r)?),
                DType::C128 => DynArray::C128(map_array(path, &file, &r)?),
            }
        })
    }
}

/// An array over the elements `region` locates in `file` (of dtype `T`), mapped read-only.
/// An empty array maps nothing.
///
/// # Safety
/// As [`NpyMmapExt::load_npy_mmap`]: nobody writes or truncates the file while the mapping
/// lives.
unsafe fn map_array<T: Element>(
    path: &Path,
    file: &File,
    region: &NpyRegion,
) -> Result<Array<T, Cpu>> {
    debug_assert_eq!(region.dtype, T::DTYPE);
    let n = region.size();
    let layout = region.layout();
    if n == 0 {
        return Array::from_raw_parts(CpuBuffer::new(Vec::new()), layout, Cpu);
    }
    // SAFETY: the caller promises that nobody writes or truncates the file while the
    // mapping lives; the mapping is read-only, so we never write it either.
    let map = unsafe { Mmap::map(file) }
        .map_err(|e| io_error(OP, path, format!("cannot map the file: {e}")))?;
    // `open_npy_region` checked the file's length; a file that changed since is refused
    // here rather than read past its end.
    let (start, end) = (region.offset, region.offset + region.bytes);
    let data = usize::try_from(start)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(s, e)| map.get(s..e))
        .ok_or_else(|| {
            io_error(
                OP,
                path,
                format!(
                    "truncated data: the file is {} bytes long now, its data needs bytes \
                     {start}..{end}",
                    map.len()
                ),
            )
        })?;
    if !(data.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return Err(io_error(
            OP,
            path,
            format!(
                "the mapped data at {:p} is not aligned for {}",
                data.as_ptr(),
                T::DTYPE
            ),
        ));
    }
    if T::DTYPE == DType::Bool {
        if let Some(i) = data.iter().position(|&b| b > 1) {
            return Err(io_error(
                OP,
                path,
                format!(
                    "element {i} of the bool data is the byte {:#04x} (a bool is 0 or 1)",
                    data[i]
                ),
            ));
        }
    }
    let ptr = NonNull::from(data).cast::<T>();
    // SAFETY: `ptr` is non-null and aligned for `T` (checked), and the `n` elements from it
    // are the `region.bytes = n * size_of::<T>()` bytes of the mapping from `start` (inside
    // it: checked), initialised file bytes, valid for `T` (every bit pattern is a valid
    // integer, float or complex; bools checked above); `n * size_of::<T>()` is the length of
    // a slice, so at most `isize::MAX`. The memory stays mapped until the owner, `map`,
    // drops with the buffer (moving the `Mmap` value does not move the mapping), and nobody
    // writes it: the mapping is read-only, the caller promises the file is not written,
    // and `writable` is false, so a write through the buffer copies it first.
    let buf = unsafe { CpuBuffer::from_foreign(ptr, n, map, false) };
    Array::from_raw_parts(buf, layout, Cpu)
}

#[cfg(test)]
mod tests;
