//! One `.npy` stream, read from any `Read` (a file, an entry of an `.npz` archive) or
//! written to any `Write`: the header ([`super::header`]), then the elements, converted
//! from and to the file's byte order by `npyz`'s element readers and writers.
//!
//! Large arrays move in pieces of [`CHUNK_BYTES`]: a load reads one piece of the file,
//! decodes it and uploads it into its place in the array's buffer (a fresh buffer written
//! by [`BackendBase::assign`](crate::backend::BackendBase::assign)); a save downloads one piece of the array and writes it.
//! The host never holds more than one piece besides the array itself.

use super::header::{read_full, read_header, typestr_of, Header};
use super::Ctx;
use crate::array::Array;
use crate::backend::{host_vec, ArrayBackend};
use crate::dtype::{DType, Element};
use crate::dynarray::{with_typed, DynArray};
use crate::error::Result;
use crate::layout::Layout;
use crate::slice::SliceArg;
use npyz::{Order, TypeRead, TypeStr, WriterBuilder};
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
        DType::U8 => DynArray::U8(read_elements(r, &h, ctx, dev)?),
        DType::I32 => DynArray::I32(read_elements(r, &h, ctx, dev)?),
        DType::I64 => DynArray::I64(read_elements(r, &h, ctx, dev)?),
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

/// Reads the `h.size` elements after the header into a new array on `dev`, C-ordered, or
/// as a Fortran-ordered view (the transpose of a C-ordered array of the reversed shape)
/// when the file is in Fortran order, as NumPy loads it.
fn read_elements<T: Element + npyz::Deserialize, B: ArrayBackend>(
    r: &mut impl Read,
    h: &Header,
    ctx: &Ctx,
    dev: &B,
) -> Result<Array<T, B>> {
    let reader = T::reader(&npyz::DType::Plain(h.typestr.clone()))
        .map_err(|e| ctx.err(format!("dtype '{}': {e}", h.typestr)))?;
    let n = h.size;
    let item = T::DTYPE.size_of();
    let chunk = (CHUNK_BYTES / item).max(1);
    let mut bytes = host_vec::<u8>(n.min(chunk) * item)?;
    let mut read_piece = |start: usize, len: usize| -> Result<Vec<T>> {
        bytes.resize(len * item, 0);
        let got = read_full(r, &mut bytes).map_err(|e| ctx.err(format!("read failed: {e}")))?;
        if got < bytes.len() {
            let follow = (start * item + got) as u64;
            return Err(ctx.err(size_mismatch(h, follow)));
        }
        let mut out = host_vec::<T>(len)?;
        let mut src = &bytes[..];
        for i in start..start + len {
            let v = reader
                .read_one(&mut src)
                .map_err(|e| ctx.err(format!("element {i}: {e}")))?;
            out.push(v);
        }
        Ok(out)
    };
    let buf = if n <= chunk {
        dev.from_vec(read_piece(0, n)?)?
    } else {
        let mut buf = dev.full(n, T::ZERO)?;
        for start in (0..n).step_by(chunk) {
            let len = chunk.min(n - start);
            let piece = dev.from_vec(read_piece(start, len)?)?;
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

fn write_elements<T: Element + npyz::Serialize, B: ArrayBackend>(
    w: &mut impl Write,
    a: &Array<T, B>,
    ctx: &Ctx,
) -> Result<()> {
    let (data, order) = if a.is_contiguous() {
        (a.clone(), Order::C)
    } else if a.t().is_contiguous() {
        (a.t(), Order::Fortran)
    } else {
        (a.copy()?, Order::C)
    };
    let io_err = |e: std::io::Error| ctx.err(format!("write failed: {e}"));
    let typestr: TypeStr = typestr_of(T::DTYPE)
        .parse()
        .map_err(|e| ctx.err(format!("type string of {}: {e}", T::DTYPE)))?;
    let shape: Vec<u64> = a.shape().iter().map(|&d| d as u64).collect();
    let mut writer = npyz::WriteOptions::<T>::new()
        .dtype(npyz::DType::Plain(typestr))
        .shape(&shape)
        .order(order)
        .writer(w)
        .begin_nd()
        .map_err(io_err)?;
    let n = data.size();
    if n > 0 {
        let flat = data.reshape(&[-1])?;
        let chunk = (CHUNK_BYTES / T::DTYPE.size_of()).max(1);
        for start in (0..n).step_by(chunk) {
            let piece = flat.slice(&[SliceArg::from(start..n.min(start + chunk))])?;
            writer.extend(piece.to_vec()?).map_err(io_err)?;
        }
    }
    writer.finish().map_err(io_err)
}
