//! The one error type of cuprite. Every variant names the operation that failed and carries
//! the shapes, dtypes or axes involved, so a message alone says what went wrong.

use crate::dtype::DType;

/// Result alias used throughout cuprite.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in cuprite.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Two shapes that must be equal (or compatible for the op) are not.
    #[error("{op}: shape mismatch: {lhs:?} vs {rhs:?}")]
    ShapeMismatch {
        op: &'static str,
        lhs: Vec<usize>,
        rhs: Vec<usize>,
    },
    /// Shapes that cannot be broadcast together.
    #[error("{op}: operands could not be broadcast together with shapes {lhs:?} and {rhs:?}")]
    Broadcast {
        op: &'static str,
        lhs: Vec<usize>,
        rhs: Vec<usize>,
    },
    /// An axis outside `-ndim..ndim`.
    #[error("{op}: axis {axis} is out of bounds for an array of dimension {ndim}")]
    AxisOutOfRange {
        op: &'static str,
        axis: isize,
        ndim: usize,
    },
    /// An index outside the bounds of its axis.
    #[error("{op}: index {index} is out of bounds for axis {axis} with size {size}")]
    IndexOutOfRange {
        op: &'static str,
        index: i64,
        axis: usize,
        size: usize,
    },
    /// An argument that makes no sense for the op (the message says which and why).
    #[error("{op}: {msg}")]
    InvalidArgument { op: &'static str, msg: String },
    /// The op does not accept this dtype.
    #[error("{op}: unsupported dtype {dtype}")]
    UnsupportedDType { op: &'static str, dtype: DType },
    /// Arrays living on different devices met in one op.
    #[error("{op}: arrays are on different devices ({lhs} and {rhs}); move one with to_device")]
    DeviceMismatch {
        op: &'static str,
        lhs: String,
        rhs: String,
    },
    /// A device allocation failed even after the cache was freed.
    #[error("out of memory: requested {requested} bytes, {free} bytes free")]
    OutOfMemory { requested: usize, free: usize },
    /// The backend cannot be used on this machine (the reason says what to do).
    #[error("backend {backend} unavailable: {reason}")]
    BackendUnavailable {
        backend: &'static str,
        reason: String,
    },
    /// A backend library call failed.
    #[error("{op}: backend failure: {msg}")]
    Backend { op: &'static str, msg: String },
    /// An array whose element count times its element size exceeds `isize::MAX` bytes (the
    /// limit of every allocation, and NumPy's), including shapes whose dimensions overflow
    /// while the op computes them; `shape` holds the dimensions the op asked for, exactly.
    #[error(
        "{op}: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum \
         possible size (shape {shape:?}, itemsize {itemsize})"
    )]
    TooBig {
        op: &'static str,
        shape: Vec<u128>,
        itemsize: usize,
    },
    /// An array of one dtype where another was asked for (a typed view of a
    /// [`DynArray`](crate::DynArray), a typed load of a file of another dtype).
    #[error("{op}: expected an array of dtype {expected}, found {found}")]
    DTypeMismatch {
        op: &'static str,
        expected: DType,
        found: DType,
    },
    /// Reading or writing a file failed: the file is missing, unreadable or malformed (a
    /// truncated header or data, a wrong magic string, a header whose shape does not match
    /// the data, a dtype cuprite has no element type for) or cannot be written. `path` is the
    /// file as given; `msg` says what is wrong.
    #[error("{op}: {path}: {msg}")]
    Io {
        op: &'static str,
        path: String,
        msg: String,
    },
    /// A linear-algebra routine met a singular or otherwise invalid matrix.
    #[error("{op}: {msg} (batch index {batch})")]
    LinAlg {
        op: &'static str,
        msg: String,
        batch: usize,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidArgument`].
    pub fn invalid(op: &'static str, msg: impl Into<String>) -> Self {
        Error::InvalidArgument {
            op,
            msg: msg.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_op_and_shapes() {
        let e = Error::Broadcast {
            op: "add",
            lhs: vec![2, 3],
            rhs: vec![4],
        };
        assert_eq!(
            e.to_string(),
            "add: operands could not be broadcast together with shapes [2, 3] and [4]"
        );
        let e = Error::UnsupportedDType {
            op: "sort",
            dtype: DType::C64,
        };
        assert_eq!(e.to_string(), "sort: unsupported dtype complex64");
        let e = Error::DTypeMismatch {
            op: "try_into_typed",
            expected: DType::F64,
            found: DType::I32,
        };
        assert_eq!(
            e.to_string(),
            "try_into_typed: expected an array of dtype float64, found int32"
        );
        let e = Error::Io {
            op: "load_npy",
            path: "data/x.npy".into(),
            msg: "truncated header".into(),
        };
        assert_eq!(e.to_string(), "load_npy: data/x.npy: truncated header");
        let e = Error::TooBig {
            op: "zeros",
            shape: vec![1 << 32, 1 << 32],
            itemsize: 8,
        };
        assert_eq!(
            e.to_string(),
            "zeros: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum \
             possible size (shape [4294967296, 4294967296], itemsize 8)"
        );
    }
}
