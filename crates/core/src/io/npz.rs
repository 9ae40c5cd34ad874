//! `.npz` archives: a zip file whose entries `<name>.npy` are arrays (NumPy's `np.savez`,
//! `np.savez_compressed`, `np.load` of an archive). Entries are read and written one at a
//! time through [`super::npy`], straight from and into the archive.

use super::{Ctx, npy, write_atomically};
use crate::backend::ArrayBackend;
use crate::dynarray::DynArray;
use crate::error::Result;
use std::collections::BTreeMap;
use std::io::{BufReader, BufWriter};
use std::path::Path;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

/// Reads every array of an `.npz` archive onto `dev`, by name (the entry's name without
/// `.npy`), each with the dtype its entry has. Entries whose names do not end in `.npy` are
/// skipped, as NumPy lists only those.
///
/// # Errors
/// [`Error::Io`](crate::Error::Io) naming the file (and the entry) for a file that cannot
/// be read, is not a zip archive, or has an entry that is not a valid `.npy` stream of a
/// dtype cuprite has (see the [module documentation](crate::io));
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) when an array does not fit on `dev`.
pub fn load_npz<B: ArrayBackend>(
    path: impl AsRef<Path>,
    dev: &B,
) -> Result<BTreeMap<String, DynArray<B>>> {
    let path = path.as_ref();
    let ctx = Ctx::new("load_npz", path);
    let (file, _) = super::open(&ctx, path)?;
    let mut zip = ZipArchive::new(BufReader::new(file))
        .map_err(|e| ctx.err(format!("not an .npz file (a zip archive): {e}")))?;
    let mut arrays = BTreeMap::new();
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| ctx.err(format!("entry {i}: {e}")))?;
        let file_name = entry.name().to_string();
        let Some(name) = npyz::npz::array_name_from_file_name(&file_name) else {
            continue;
        };
        let entry_ctx = ctx.entry(&file_name);
        let len = entry.size();
        let array = npy::read_array(&mut entry, Some(len), None, &entry_ctx, dev)?;
        if arrays.insert(name.to_string(), array).is_some() {
            return Err(entry_ctx.err(format!("a second array named '{name}'")));
        }
    }
    Ok(arrays)
}

/// Writes named arrays as an `.npz` archive: entry `<name>.npy` for each, deflate-compressed
/// when `compressed` (NumPy's `np.savez_compressed`), stored otherwise (`np.savez`). The
/// archive is written under a temporary name and renamed into place when complete.
///
/// ```
/// # use cuprite_core::{io, Array, DynArray};
/// # fn demo<B: cuprite_core::ArrayBackend>(dev: &B) -> cuprite_core::Result<()> {
/// let path = std::env::temp_dir().join(format!("cuprite-npz-doc-{}.npz", std::process::id()));
/// let x = DynArray::from(Array::<f64, B>::linspace(0.0, 1.0, 5, true, dev)?);
/// let e = io::save_npz(&path, &[("x", &x), ("x", &x)], false).unwrap_err();
/// assert!(e.to_string().ends_with("the name 'x' is given twice"));
/// assert!(!path.exists());
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
///
/// # Errors
/// [`Error::Io`](crate::Error::Io) naming the file for a name given twice or a file that
/// cannot be written; nothing is left behind and a previous file of that name is kept.
pub fn save_npz<B: ArrayBackend>(
    path: impl AsRef<Path>,
    arrays: &[(&str, &DynArray<B>)],
    compressed: bool,
) -> Result<()> {
    let path = path.as_ref();
    let ctx = Ctx::new(
        if compressed {
            "save_npz (compressed)"
        } else {
            "save_npz"
        },
        path,
    );
    for (i, (name, _)) in arrays.iter().enumerate() {
        if arrays[..i].iter().any(|(n, _)| n == name) {
            return Err(ctx.err(format!("the name '{name}' is given twice")));
        }
    }
    let method = if compressed {
        CompressionMethod::Deflated
    } else {
        CompressionMethod::Stored
    };
    write_atomically(&ctx, path, |file| {
        let zip_err = |e: zip::result::ZipError| ctx.err(format!("write failed: {e}"));
        let mut zip = ZipWriter::new(BufWriter::new(file));
        for (name, a) in arrays {
            let file_name = npyz::npz::file_name_from_array_name(name);
            // Zip64 sizes for entries that may reach 4 GiB (the header adds a few bytes).
            let large = a.nbytes() as u64 >= u64::from(u32::MAX) - (1 << 20);
            let options = SimpleFileOptions::default()
                .compression_method(method)
                .unix_permissions(0o644)
                .large_file(large);
            zip.start_file(file_name.as_str(), options)
                .map_err(zip_err)?;
            npy::write_array(&mut zip, a, &ctx.entry(&file_name))?;
        }
        let w = zip.finish().map_err(zip_err)?;
        w.into_inner()
            .map_err(|e| ctx.err(format!("write failed: {}", e.error())))?;
        Ok(())
    })
}
