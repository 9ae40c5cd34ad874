//! Where the elements of a `.npy` file lie, for a backend that uses them in place instead
//! of reading them (the `Cpu` backend's memory-mapped load): [`open_npy_region`] opens the
//! file, reads and checks its header as [`Array::load_npy`](crate::Array::load_npy) does,
//! and checks what using the bytes as they lie needs besides: the data's byte order is the
//! host's, its offset in the file is aligned for the element type, and the file holds
//! exactly the bytes the header announces. Every refusal is an [`Error::Io`] naming the file
//! and the reason. Core reads no element here; the backend maps the file it is handed.

use super::header::read_header;
use super::{Ctx, open};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use npyz::Endianness;
use std::fs::File;
use std::path::Path;

/// The elements of a `.npy` file as they lie in it, checked for use in place: native byte
/// order, an offset aligned for the element type, exactly [`NpyRegion::bytes`] bytes after
/// the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyRegion {
    /// The element type.
    pub dtype: DType,
    /// The array's shape.
    pub shape: Vec<usize>,
    /// True when the file is in Fortran (column-major) order.
    pub fortran_order: bool,
    /// Byte offset of the first element from the start of the file.
    pub offset: u64,
    /// Bytes of data: the number of elements times the element size.
    pub bytes: u64,
}

impl NpyRegion {
    /// Number of elements.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// The array's layout over the elements as they lie: C-contiguous, or for a file in
    /// Fortran order the Fortran-ordered view that [`Array::load_npy`](crate::Array::load_npy)
    /// gives (the transpose of the C-contiguous layout of the reversed shape).
    pub fn layout(&self) -> Layout {
        if self.fortran_order {
            let reversed: Vec<usize> = self.shape.iter().rev().copied().collect();
            Layout::contiguous(&reversed).transposed()
        } else {
            Layout::contiguous(&self.shape)
        }
    }
}

/// The alignment an element type needs in memory (a complex number that of its parts).
pub fn dtype_align(dtype: DType) -> usize {
    match dtype {
        DType::C64 | DType::C128 => dtype.size_of() / 2,
        _ => dtype.size_of(),
    }
}

/// Opens the `.npy` file `path` and checks that its elements can be used in place (see the
/// [module documentation](crate::io)); the open file, positioned after the header, and where its
/// elements lie. `op` names the caller in errors; `want`, when given, is the dtype the
/// caller needs (another one is an error naming both).
///
/// # Errors
/// [`Error::Io`] naming the file for a file that cannot be read or is not a valid `.npy`
/// file (as for [`Array::load_npy`](crate::Array::load_npy)), holds another dtype than
/// `want`, holds data in the other byte order than the host's, whose data offset is not
/// aligned for its element type, or whose length is not the header's plus the data's.
pub fn open_npy_region(
    op: &'static str,
    path: &Path,
    want: Option<DType>,
) -> Result<(File, NpyRegion)> {
    let ctx = Ctx::new(op, path);
    let (file, len) = open(&ctx, path)?;
    let h = read_header(&mut &file).map_err(|m| ctx.err(m))?;
    if let Some(want) = want.filter(|&w| w != h.dtype) {
        return Err(ctx.err(format!(
            "the file holds {} data, not {want} (map it as a DynArray to take the file's \
             dtype)",
            h.dtype
        )));
    }
    let order = h.typestr.endianness();
    if order != Endianness::Irrelevant && order != Endianness::of_machine() {
        return Err(ctx.err(format!(
            "the file's data is {} ('{}'), this host is {}: a mapping cannot swap bytes; \
             load it with load_npy, which converts",
            endian_name(order),
            h.typestr,
            endian_name(Endianness::of_machine())
        )));
    }
    let align = dtype_align(h.dtype) as u64;
    if !h.len.is_multiple_of(align) {
        return Err(ctx.err(format!(
            "the data starts at byte {} of the file, not aligned for {} ({align} bytes); load \
             it with load_npy",
            h.len, h.dtype
        )));
    }
    let follow = len.saturating_sub(h.len);
    if follow != h.data_bytes() {
        let what = if follow < h.data_bytes() {
            "truncated data"
        } else {
            "size mismatch"
        };
        return Err(ctx.err(format!(
            "{what}: the header's shape {:?} of {} needs {} bytes of data, {follow} bytes \
             follow the header",
            h.shape,
            h.dtype,
            h.data_bytes()
        )));
    }
    Ok((
        file,
        NpyRegion {
            dtype: h.dtype,
            bytes: h.data_bytes(),
            shape: h.shape,
            fortran_order: h.fortran_order,
            offset: h.len,
        },
    ))
}

fn endian_name(e: Endianness) -> &'static str {
    match e {
        Endianness::Big => "big-endian",
        Endianness::Little => "little-endian",
        Endianness::Irrelevant => "of no byte order",
    }
}

/// [`Error::Io`] for `op` on `path` with `msg`, for a backend's own steps of a load in
/// place (mapping the file, checking the mapped elements).
pub fn io_error(op: &'static str, path: &Path, msg: impl std::fmt::Display) -> Error {
    Ctx::new(op, path).err(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cuprite-region-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    /// A version 1.0 file with `header` padded so the data starts at byte `start`.
    fn npy(header: &str, start: usize, data: &[u8]) -> Vec<u8> {
        let mut v = super::super::header::MAGIC.to_vec();
        v.extend([1, 0]);
        let mut text = header.to_string();
        while 10 + text.len() + 1 < start {
            text.push(' ');
        }
        text.push('\n');
        v.extend((text.len() as u16).to_le_bytes());
        v.extend(text.as_bytes());
        v.extend(data);
        v
    }

    #[test]
    fn regions_and_refusals() {
        let h = "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }";
        let p = scratch("ok", &npy(h, 128, &[0; 48]));
        let (_, r) = open_npy_region("t", &p, Some(DType::F64)).unwrap();
        assert_eq!((r.offset, r.bytes, r.size()), (128, 48, 6));
        assert_eq!(r.layout().shape(), &[2, 3]);
        assert_eq!(r.layout().strides(), &[1, 2]);
        let e = open_npy_region("t", &p, Some(DType::F32)).unwrap_err();
        assert!(
            e.to_string().contains("holds float64 data, not float32"),
            "{e}"
        );

        let p = scratch("short", &npy(h, 128, &[0; 40]));
        let e = open_npy_region("t", &p, None).unwrap_err().to_string();
        assert!(
            e.contains("truncated data") && e.contains(&p.display().to_string()),
            "{e}"
        );

        let p = scratch("odd", &npy(h, 131, &[0; 48]));
        let e = open_npy_region("t", &p, None).unwrap_err().to_string();
        assert!(
            e.contains("starts at byte 131") && e.contains("not aligned"),
            "{e}"
        );
        let b = "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }";
        let p = scratch("bytes", &npy(b, 131, &[1, 2, 3]));
        assert_eq!(open_npy_region("t", &p, None).unwrap().1.offset, 131);

        let be = "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }";
        let p = scratch("be", &npy(be, 128, &[0; 8]));
        let e = open_npy_region("t", &p, None).unwrap_err().to_string();
        assert!(
            e.contains("big-endian ('>i4')") && e.contains("load_npy"),
            "{e}"
        );
        assert_eq!(dtype_align(DType::C128), 8);
        assert_eq!(dtype_align(DType::Bool), 1);
        std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
    }
}
