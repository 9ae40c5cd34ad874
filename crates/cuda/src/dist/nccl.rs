//! The NCCL library, loaded at run time: whether it is there, its version, its unique ids,
//! the element types and reduction ops it carries, and its status codes turned into
//! cuprite's errors. Builds need no NCCL; a machine without it gets a clear `Err` from the
//! first call that needs it.

use cudarc::nccl::sys;
use cuprite_core::{DType, Element, Error, Result};
use std::sync::OnceLock;

/// Loads libnccl once: its version (`major * 10000 + minor * 100 + patch`), or why it cannot
/// be used.
pub(crate) fn loaded(op: &'static str) -> Result<i32> {
    static VERSION: OnceLock<std::result::Result<i32, String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            // SAFETY: only probes whether the library can be opened.
            if !unsafe { sys::is_culib_present() } {
                return Err("libnccl.so.2 could not be loaded (install NCCL, e.g. the \
                            nvidia-nccl-cu13 wheel or the libnccl2 package, or add its \
                            directory to LD_LIBRARY_PATH)"
                    .into());
            }
            std::panic::catch_unwind(|| {
                let mut v = 0i32;
                // SAFETY: writes one int.
                let r = unsafe { sys::ncclGetVersion(&mut v) };
                (r, v)
            })
            .map_err(|_| "the NCCL library lacks ncclGetVersion".to_string())
            .and_then(|(r, v)| {
                if r == sys::ncclResult_t::ncclSuccess {
                    Ok(v)
                } else {
                    Err(format!("ncclGetVersion failed: {r:?}"))
                }
            })
        })
        .clone()
        .map_err(|reason| Error::Backend { op, msg: reason })
}

/// The version code of the NCCL library this process loads (`ncclGetVersion`: 22803 for
/// 2.28.3), loading it on the first call.
///
/// # Errors
/// No NCCL library, or one without `ncclGetVersion`.
pub fn nccl_version() -> Result<i32> {
    loaded("nccl_version")
}

/// The message of a failed NCCL call `what`: NCCL's text for the status, and its last error
/// (which often names the cause) when it has one.
pub(crate) fn check(op: &'static str, what: &str, r: sys::ncclResult_t) -> Result<()> {
    if r == sys::ncclResult_t::ncclSuccess {
        return Ok(());
    }
    // SAFETY: both return static or library-owned NUL-terminated strings (or null).
    let text = |p: *const std::ffi::c_char| {
        if p.is_null() {
            String::new()
        } else {
            unsafe { std::ffi::CStr::from_ptr(p) }
                .to_string_lossy()
                .into_owned()
        }
    };
    let status = text(unsafe { sys::ncclGetErrorString(r) });
    let last = text(unsafe { sys::ncclGetLastError(std::ptr::null_mut()) });
    let mut msg = format!("{what} failed: {status} ({r:?})");
    if !last.is_empty() {
        msg.push_str(": ");
        msg.push_str(&last);
    }
    Err(Error::Backend { op, msg })
}

/// NCCL's unique id: made by one rank (rank 0), handed to every rank of the communicator to
/// be created (through a [`Rendezvous`](super::Rendezvous), or any channel of your own).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UniqueId(pub(crate) [u8; 128]);

impl std::fmt::Debug for UniqueId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "UniqueId(")?;
        for b in &self.0[..8] {
            write!(f, "{b:02x}")?;
        }
        write!(f, "..)")
    }
}

impl UniqueId {
    /// A new id (`ncclGetUniqueId`: it also opens the socket NCCL's bootstrap listens on).
    ///
    /// # Errors
    /// No NCCL on this machine, or NCCL's own failure.
    pub fn new() -> Result<UniqueId> {
        const OP: &str = "UniqueId::new";
        loaded(OP)?;
        let mut id = sys::ncclUniqueId { internal: [0; 128] };
        // SAFETY: writes the 128-byte id.
        check(OP, "ncclGetUniqueId", unsafe {
            sys::ncclGetUniqueId(&mut id)
        })?;
        Ok(UniqueId(id.internal.map(|c| c as u8)))
    }

    /// The id's 128 bytes.
    pub fn as_bytes(&self) -> &[u8; 128] {
        &self.0
    }

    /// An id from its 128 bytes (as [`as_bytes`](Self::as_bytes) gave them on rank 0).
    ///
    /// # Errors
    /// A slice of another length.
    pub fn from_bytes(b: &[u8]) -> Result<UniqueId> {
        let a: [u8; 128] = b.try_into().map_err(|_| {
            Error::invalid(
                "UniqueId::from_bytes",
                format!("an NCCL unique id has 128 bytes, got {}", b.len()),
            )
        })?;
        Ok(UniqueId(a))
    }

    pub(crate) fn raw(&self) -> sys::ncclUniqueId {
        sys::ncclUniqueId {
            internal: self.0.map(|b| b as std::ffi::c_char),
        }
    }
}

/// How a reducing collective combines the ranks' elements (NCCL's `ncclRedOp_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// The sum.
    Sum,
    /// The product.
    Prod,
    /// The largest (for bool: any).
    Max,
    /// The smallest (for bool: all).
    Min,
    /// The mean over the ranks (float and complex types).
    Avg,
}

impl ReduceOp {
    pub(crate) fn raw(self) -> sys::ncclRedOp_t {
        match self {
            ReduceOp::Sum => sys::ncclRedOp_t::ncclSum,
            ReduceOp::Prod => sys::ncclRedOp_t::ncclProd,
            ReduceOp::Max => sys::ncclRedOp_t::ncclMax,
            ReduceOp::Min => sys::ncclRedOp_t::ncclMin,
            ReduceOp::Avg => sys::ncclRedOp_t::ncclAvg,
        }
    }
}

/// How a reduction `op` of elements `T` travels: NCCL's type and how many of its scalars
/// make one element (complex numbers are two floats, reduced part by part: right for sums
/// and means only).
///
/// # Errors
/// Types NCCL cannot reduce with `op`, naming both.
pub(crate) fn reduce_type<T: Element>(
    op: &'static str,
    red: ReduceOp,
) -> Result<(sys::ncclDataType_t, usize)> {
    use sys::ncclDataType_t::*;
    let refuse = |why: &str| {
        Err(Error::invalid(
            op,
            format!("{red:?} of {} elements: {why}", T::DTYPE),
        ))
    };
    let t = match T::DTYPE {
        DType::I8 => ncclInt8,
        DType::U8 => ncclUint8,
        DType::I32 => ncclInt32,
        DType::U32 => ncclUint32,
        DType::I64 => ncclInt64,
        DType::U64 => ncclUint64,
        DType::F16 => ncclFloat16,
        DType::BF16 => ncclBfloat16,
        DType::F32 => ncclFloat32,
        DType::F64 => ncclFloat64,
        DType::Bool => {
            return match red {
                ReduceOp::Max | ReduceOp::Min => Ok((ncclUint8, 1)),
                _ => refuse("bool reduces with Max (any) or Min (all) only"),
            };
        }
        DType::C64 | DType::C128 => {
            let part = if T::DTYPE == DType::C64 {
                ncclFloat32
            } else {
                ncclFloat64
            };
            return match red {
                ReduceOp::Sum | ReduceOp::Avg => Ok((part, 2)),
                _ => refuse("complex numbers reduce with Sum or Avg only"),
            };
        }
        DType::I16 | DType::U16 => return refuse("NCCL has no 16-bit integer type"),
    };
    if red == ReduceOp::Avg
        && !matches!(T::DTYPE, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    {
        return refuse("Avg takes float or complex elements (use Sum and divide)");
    }
    Ok((t, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::{bf16, c128, c64, f16};

    #[test]
    fn reductions_travel_as_nccls_types_or_are_refused() {
        use sys::ncclDataType_t::*;
        assert_eq!(
            reduce_type::<f64>("t", ReduceOp::Avg).unwrap(),
            (ncclFloat64, 1)
        );
        assert_eq!(
            reduce_type::<bf16>("t", ReduceOp::Max).unwrap(),
            (ncclBfloat16, 1)
        );
        assert_eq!(
            reduce_type::<f16>("t", ReduceOp::Prod).unwrap(),
            (ncclFloat16, 1)
        );
        assert_eq!(
            reduce_type::<u64>("t", ReduceOp::Min).unwrap(),
            (ncclUint64, 1)
        );
        assert_eq!(
            reduce_type::<c64>("t", ReduceOp::Sum).unwrap(),
            (ncclFloat32, 2)
        );
        assert_eq!(
            reduce_type::<c128>("t", ReduceOp::Avg).unwrap(),
            (ncclFloat64, 2)
        );
        assert_eq!(
            reduce_type::<bool>("t", ReduceOp::Max).unwrap(),
            (ncclUint8, 1)
        );
        for (e, want) in [
            (
                reduce_type::<bool>("all_reduce", ReduceOp::Sum),
                "all_reduce: Sum of bool elements: bool reduces with Max",
            ),
            (
                reduce_type::<c64>("reduce", ReduceOp::Max),
                "reduce: Max of complex64 elements: complex numbers",
            ),
            (
                reduce_type::<i16>("all_reduce", ReduceOp::Sum),
                "Sum of int16 elements: NCCL has no 16-bit",
            ),
            (
                reduce_type::<i32>("all_reduce", ReduceOp::Avg),
                "Avg of int32 elements: Avg takes float",
            ),
        ] {
            let e = e.unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn unique_ids_round_trip_through_bytes() {
        let id = UniqueId::from_bytes(&[7u8; 128]).unwrap();
        assert_eq!(id.as_bytes(), &[7u8; 128]);
        assert_eq!(UniqueId::from_bytes(id.as_bytes()).unwrap(), id);
        let e = UniqueId::from_bytes(&[0; 12]).unwrap_err().to_string();
        assert!(e.contains("128 bytes, got 12"), "{e}");
        assert_eq!(format!("{id:?}"), "UniqueId(0707070707070707..)");
    }
}
