//! The checks every backend makes before it views a DLPack tensor's memory, and what they
//! give: the core [`Layout`] of the view over the span of memory the tensor reaches
//! (negative strides included) and that span's lowest address. The backend then wraps the
//! span in a buffer of its own that keeps the tensor (its owner guard), so the producer's
//! deleter runs when the last array using the memory drops.

use crate::managed::ManagedTensor;
use crate::sys::DLDeviceType;
use cuprite_core::layout::{c_strides, check_shape};
use cuprite_core::{DType, Error, Layout, Result};

const OP: &str = "from_dlpack";

/// The devices a backend takes memory of.
#[derive(Clone, Copy, Debug)]
pub struct Accept<'a> {
    /// Device types whose memory the backend reads directly.
    pub device_types: &'a [DLDeviceType],
    /// The device id the tensor must have (`None`: any).
    pub device_id: Option<i32>,
    /// What the backend takes, for the error message ("a Cpu array takes host memory
    /// (kDLCPU, ...): copy it to the host first").
    pub wants: &'a str,
}

/// What [`import()`] found: the view, and the memory it reaches (`None` for size 0).
#[derive(Debug)]
pub struct ImportPlan {
    /// The view's shape and strides, its offset the index of the element at index 0 in the
    /// span (`-lowest`, in elements).
    pub layout: Layout,
    /// The memory the view reaches; `None` for a tensor of size 0 (no memory to borrow:
    /// the backend makes an empty buffer of its own and drops the tensor).
    pub span: Option<Span>,
}

/// The span of memory a tensor's view reaches.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// The lowest element the view reaches: non-null, aligned for the element type, with
    /// `len` elements after it inside the address space (and the provenance of `data`).
    pub base: *mut u8,
    /// Elements from `base` to the highest one reached, inclusive.
    pub len: usize,
    /// True when the producer handed the memory over for writing: a versioned tensor
    /// flagged `IS_COPIED` and not `READ_ONLY`. Any other is copied on the first write.
    pub writable: bool,
}

/// Checks a tensor for a backend that takes elements of `dtype` from memory `accept`s, and
/// gives the view and the span it reaches. The tensor stays the caller's (dropping it
/// releases the producer; on `Err` the caller drops it).
///
/// # Errors
/// [`Error::InvalidArgument`] naming `from_dlpack` for a dtype other than `dtype` (the
/// message names both), a device `accept` refuses (the message names the tensor's), a view
/// that does not fit the address space or is not aligned for the element type, or a NULL
/// data pointer; [`Error::TooBig`](cuprite_core::Error::TooBig) for a shape over
/// `isize::MAX` bytes.
pub fn import(t: &ManagedTensor, dtype: DType, accept: &Accept<'_>) -> Result<ImportPlan> {
    check_dtype(t, dtype)?;
    check_device(t, accept)?;
    let itemsize = dtype.size_of();
    // Extents are not negative (checked when the tensor was taken) and strides are i64,
    // which is isize on the 64-bit hosts cuprite runs on; a 32-bit host checks.
    let shape: Vec<usize> = t
        .shape()
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| too_wide(t)))
        .collect::<Result<_>>()?;
    // Rank and byte size first: C strides of a checked shape cannot overflow.
    check_shape(OP, &shape, itemsize)?;
    let strides: Vec<isize> = match t.strides() {
        Some(s) => s
            .iter()
            .map(|&s| isize::try_from(s).map_err(|_| too_wide(t)))
            .collect::<Result<_>>()?,
        None => c_strides(&shape),
    };
    // The span of elements the view reaches, relative to the element at index 0: `lo <= 0`
    // with negative strides. Wide arithmetic: nothing here overflows.
    let Some((lo, hi)) = Layout::new(shape.clone(), strides.clone(), 0).span() else {
        let layout = Layout::checked(OP, shape, strides, 0, itemsize, 0)?;
        return Ok(ImportPlan { layout, span: None });
    };
    let too_big = || {
        Error::invalid(
            OP,
            format!(
                "a tensor of shape {shape:?} and strides {strides:?} spans more memory than \
                 an array may ({} bytes at most)",
                isize::MAX
            ),
        )
    };
    let (Ok(len), Ok(offset)) = (usize::try_from(hi - lo), usize::try_from(-lo)) else {
        return Err(too_big());
    };
    let Some(span_bytes) = len
        .checked_mul(itemsize)
        .filter(|&b| b <= isize::MAX as usize)
    else {
        return Err(too_big());
    };
    let layout = Layout::checked(OP, shape, strides, offset, itemsize, len)?;

    let data = t.data_ptr().cast::<u8>();
    if data.is_null() {
        return Err(Error::invalid(
            OP,
            format!("a tensor of shape {:?} with a NULL data pointer", t.shape()),
        ));
    }
    // The lowest byte the view reaches: `data + byte_offset - offset * itemsize`, checked
    // as addresses, built with `wrapping_*` so that the pointer keeps `data`'s provenance.
    let Ok(byte_offset) = usize::try_from(t.byte_offset()) else {
        return Err(too_wide(t));
    };
    let below = offset * itemsize; // <= span_bytes
    let base_addr = (data as usize)
        .checked_add(byte_offset)
        .and_then(|a| a.checked_sub(below))
        .filter(|a| a.checked_add(span_bytes).is_some())
        .ok_or_else(|| {
            Error::invalid(
                OP,
                format!(
                    "the data pointer {data:p} with byte offset {byte_offset} and a span of \
                     {span_bytes} bytes reaches outside the address space"
                ),
            )
        })?;
    let align = align_of(dtype);
    if base_addr % align != 0 {
        return Err(Error::invalid(
            OP,
            format!(
                "the elements at {:#x} are not aligned for {} ({} bytes)",
                base_addr,
                dtype.name(),
                align
            ),
        ));
    }
    if base_addr == 0 {
        // The address of a live allocation is never 0; a tensor claiming one is refused.
        return Err(Error::invalid(OP, "the elements start at address 0"));
    }
    let base = data.wrapping_add(byte_offset).wrapping_sub(below);
    // Only a versioned tensor the producer copied for us alone, and did not flag read-only,
    // may be written in place; any other is copied on the first write.
    let writable = t.version().is_some() && t.is_copied() && !t.is_read_only();
    Ok(ImportPlan {
        layout,
        span: Some(Span {
            base,
            len,
            writable,
        }),
    })
}

/// The alignment of an element type: its size, or half of it for a complex pair.
fn align_of(dtype: DType) -> usize {
    match dtype {
        DType::C64 | DType::C128 => dtype.size_of() / 2,
        _ => dtype.size_of(),
    }
}

/// The tensor's dtype must be `want` (one lane).
fn check_dtype(t: &ManagedTensor, want: DType) -> Result<()> {
    let want_dl = crate::dtype_to_dl(want);
    let got = t.dl_dtype();
    if got == want_dl {
        return Ok(());
    }
    let name = match t.dtype() {
        Some(d) => format!("{} ({got})", d.name()),
        None => format!("{got}, a type cuprite has no element type for"),
    };
    Err(Error::invalid(
        OP,
        format!(
            "the tensor holds {name} but the array's element type is {} ({want_dl})",
            want.name()
        ),
    ))
}

/// The memory must be of a device the backend takes.
fn check_device(t: &ManagedTensor, accept: &Accept<'_>) -> Result<()> {
    let dev = t.device();
    let id_ok = accept.device_id.is_none_or(|id| id == dev.device_id);
    if accept.device_types.contains(&dev.device_type) && id_ok {
        return Ok(());
    }
    Err(Error::invalid(
        OP,
        format!(
            "the tensor lives on {:?} device {}; {}",
            dev.device_type, dev.device_id, accept.wants
        ),
    ))
}

fn too_wide(t: &ManagedTensor) -> Error {
    Error::invalid(
        OP,
        format!(
            "shape {:?}, strides {:?} or byte offset {} do not fit this host's pointer width",
            t.shape(),
            t.strides(),
            t.byte_offset()
        ),
    )
}
