//! One `.npy` stream, read from any `Read` (a file, an entry of an `.npz` archive) or
//! written to any `Write`: the header ([`super::header`]), then the elements as raw bytes
//! ([`super::raw`]), swapped in place when the file's byte order is not the host's.
//!
//! On the `Cpu` backend a load reads the file straight into the array's memory. Elsewhere
//! large arrays move in pieces of [`CHUNK_BYTES`]: a load reads one piece of the file and
//! uploads it into its place in the array's buffer (a fresh buffer written by
//! [`BackendBase::assign`](crate::backend::BackendBase::assign)); a save downloads one piece of the array and writes it. The host
//! never holds more than one piece besides the array itself.

use super::Ctx;
use super::header::{Header, read_full, read_header, write_header};
use super::raw::{RawElement, read_elements_into, write_elements_le};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::DType;
use crate::dynarray::{DynArray, with_typed};
use crate::error::Result;
use crate::layout::Layout;
use crate::slice::SliceArg;
use npyz::Endianness;
use std::io::{Read, Write};

/// Bytes of elements moved per piece between the file and the device.
pub(crate) const CHUNK_BYTES: usize = 64 << 20;

/// Reads one `.npy` stream. `stream_len`, when known, is the length of the whole stream
/// (header included): a header announcing more or fewer bytes than follow it is an error
/// before anything is allocated. `want`, when given, is the dtype the caller needs: another
/// one is an error naming both, before the data is read.
pub(crate) fn read_array<B: ArrayBackend>(
    r: &mut impl Read,
    stream_len: Option<u64>,
    want: Option<DType>,
    ctx: &Ctx,
    dev: &B,
) -> Result<DynArray<B>> {
    let h = read_header(r).map_err(|m| ctx.err(m))?;
    if let Some(want) = want.filter(|&w| w != h.dtype) {
        return Err(ctx.err(format!(
            "the file holds {} data, not {want} (load it as a DynArray to take the file's \
             dtype, then convert with astype)",
            h.dtype
        )));
    }
    if let Some(total) = stream_len {
        let follow = total.saturating_sub(h.len);
        if follow != h.data_bytes() {
            return Err(ctx.err(size_mismatch(&h, follow)));
        }
    }
    Ok(match h.dtype {
        DType::Bool => DynArray::Bool(read_elements(r, &h, ctx, dev)?),
        DType::I8 => DynArray::I8(read_elements(r, &h, ctx, dev)?),
        DType::U8 => DynArray::U8(read_elements(r, &h, ctx, dev)?),
        DType::I16 => DynArray::I16(read_elements(r, &h, ctx, dev)?),
        DType::U16 => DynArray::U16(read_elements(r, &h, ctx, dev)?),
        DType::I32 => DynArray::I32(read_elements(r, &h, ctx, dev)?),
        DType::U32 => DynArray::U32(read_elements(r, &h, ctx, dev)?),
        DType::I64 => DynArray::I64(read_elements(r, &h, ctx, dev)?),
        DType::U64 => DynArray::U64(read_elements(r, &h, ctx, dev)?),
        DType::F16 => DynArray::F16(read_elements(r, &h, ctx, dev)?),
        DType::BF16 => DynArray::BF16(read_elements(r, &h, ctx, dev)?),
        DType::F32 => DynArray::F32(read_elements(r, &h, ctx, dev)?),
        DType::F64 => DynArray::F64(read_elements(r, &h, ctx, dev)?),
        DType::C64 => DynArray::C64(read_elements(r, &h, ctx, dev)?),
        DType::C128 => DynArray::C128(read_elements(r, &h, ctx, dev)?),
    })
}

/// The message for data of `follow` bytes where the header announces another size.
fn size_mismatch(h: &Header, follow: u64) -> String {
    let what = if follow < h.data_bytes() {
        "truncated data"
    } else {
        "size mismatch"
    };
    format!(
        "{what}: the header's shape {:?} of {} needs {} bytes of data, {follow} bytes follow \
         the header",
        h.shape,
        h.dtype,
        h.data_bytes()
    )
}

/// Bytes of elements per piece on a backend whose buffers are host memory: the file is read
/// straight into the array's vector, a piece at a time.
const HOST_PIECE_BYTES: usize = 2 << 20;

/// Reads the `h.size` elements after the header into a new array on `dev`, C-ordered, or
/// as a Fortran-ordered view (the transpose of a C-ordered array of the reversed shape)
/// when the file is in Fortran order, as NumPy loads it.
///
/// On a backend whose buffers are host memory ([`BackendBase::HOST_MEMORY`](crate::backend::BackendBase::HOST_MEMORY)) and for arrays
/// of at most one piece, the elements are read straight into one vector that becomes the
/// buffer; elsewhere each piece of [`CHUNK_BYTES`] is read, uploaded and written into its
/// place in the device buffer.
fn read_elements<T: RawElement, B: ArrayBackend>(
    r: &mut impl Read,
    h: &Header,
    ctx: &Ctx,
    dev: &B,
) -> Result<Array<T, B>> {
    let n = h.size;
    let item = T::DTYPE.size_of();
    let swap = match h.typestr.endianness() {
        Endianness::Little => cfg!(target_endian = "big"),
        Endianness::Big => cfg!(target_endian = "little"),
        Endianness::Irrelevant => false,
    };
    let mut scratch = Vec::new();
    // Reads the piece of elements `start..` into `v`, or says where the data ended.
    let mut read_piece = |v: &mut [T], start: usize| -> Result<()> {
        let got = read_elements_into(r, v, swap, start, &mut scratch).map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidData {
                ctx.err(e)
            } else {
                ctx.err(format!("read failed: {e}"))
            }
        })?;
        if got < std::mem::size_of_val(v) {
            let follow = (start * item + got) as u64;
            return Err(ctx.err(size_mismatch(h, follow)));
        }
        Ok(())
    };
    let buf = if B::HOST_MEMORY || n <= CHUNK_BYTES / item {
        let mut v = dev.zeroed_host_vec::<T>(n)?;
        let chunk = (HOST_PIECE_BYTES / item).max(1);
        for (k, piece) in v.chunks_mut(chunk).enumerate() {
            read_piece(piece, k * chunk)?;
        }
        dev.from_vec(v)?
    } else {
        let mut buf = dev.full(n, T::ZERO)?;
        let chunk = (CHUNK_BYTES / item).max(1);
        for start in (0..n).step_by(chunk) {
            let len = chunk.min(n - start);
            let mut v = dev.zeroed_host_vec::<T>(len)?;
            read_piece(&mut v, start)?;
            let piece = dev.from_vec(v)?;
            let dst = Layout::new(vec![len], vec![1], start);
            dev.assign(&mut buf, &dst, &piece, &Layout::contiguous(&[len]))?;
        }
        buf
    };
    let mut extra = [0u8; 1];
    if read_full(r, &mut extra).map_err(|e| ctx.err(format!("read failed: {e}")))? > 0 {
        return Err(ctx.err(format!(
            "size mismatch: more data follows the {} bytes the header's shape {:?} of {} needs",
            h.data_bytes(),
            h.shape,
            h.dtype
        )));
    }
    if h.fortran_order {
        let reversed: Vec<usize> = h.shape.iter().rev().copied().collect();
        Ok(Array::from_contiguous(buf, &reversed, dev).t())
    } else {
        Ok(Array::from_contiguous(buf, &h.shape, dev))
    }
}

/// Writes `a` as one `.npy` stream: little-endian, in C order, or in Fortran order when `a`
/// is a Fortran-contiguous view (as NumPy's `save` does), without copying it first.
pub(crate) fn write_array<B: ArrayBackend>(
    w: &mut impl Write,
    a: &DynArray<B>,
    ctx: &Ctx,
) -> Result<()> {
    with_typed!(a, a => write_elements(w, a, ctx))
}

fn write_elements<T: RawElement, B: ArrayBackend>(
    w: &mut impl Write,
    a: &Array<T, B>,
    ctx: &Ctx,
) -> Result<()> {
    let (data, fortran_order) = if a.is_contiguous() {
        (a.clone(), false)
    } else if a.t().is_contiguous() {
        (a.t(), true)
    } else {
        (a.copy()?, false)
    };
    let io_err = |e: std::io::Error| ctx.err(format!("write failed: {e}"));
    write_header(w, T::DTYPE, a.shape(), fortran_order).map_err(io_err)?;
    let n = data.size();
    if n > 0 {
        let flat = data.reshape(&[-1])?;
        let piece_bytes = if B::HOST_MEMORY {
            HOST_PIECE_BYTES
        } else {
            CHUNK_BYTES
        };
        let chunk = (piece_bytes / T::DTYPE.size_of()).max(1);
        let mut scratch = Vec::new();
        for start in (0..n).step_by(chunk) {
            let piece = flat.slice(&[SliceArg::from(start..n.min(start + chunk))])?;
            write_elements_le(w, &piece.to_vec()?, &mut scratch).map_err(io_err)?;
        }
    }
    Ok(())
}
