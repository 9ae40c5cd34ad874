//! Copies made for copy-on-write, counted and, on request, logged.
//!
//! An array and its views share one buffer; a write into an array whose buffer another
//! array still shares first copies the whole buffer for the writer (so the other array
//! keeps its values). That copy is correct but can turn a loop of scalar updates into
//! whole-array copies; this module makes it visible:
//!
//! - [`stats`]: how many such copies were made in this process and how many bytes they
//!   moved (read before and after a loop to see whether it copies);
//! - the environment variable `CUPRITE_LOG_COPIES=BYTES`: every copy of at least `BYTES`
//!   bytes prints one line to stderr naming the op, the shape written and the buffer's size
//!   (`CUPRITE_LOG_COPIES=0` logs them all).
//!
//! ```
//! use cuprite_core::copies;
//! # use cuprite_core::*;
//! # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
//! let mut a = Array::<f64, B>::zeros(&[100, 100], dev)?;
//! let before = copies::stats();
//! let d = a.slice(&s![3, 3])?; // a view: shares a's buffer
//! a.slice_mut(&s![5, 3])?.zip_op_inplace(ops::Add, &d)?; // `d` alive: a is copied
//! assert!(copies::stats().count > before.count);
//! // Given by value, the operand is copied alone (8 bytes) and `a` is written in place.
//! let mid = copies::stats();
//! let d = a.slice(&s![3, 3])?;
//! a.slice_mut(&s![5, 3])?.zip_op_inplace(ops::Add, d)?;
//! assert_eq!(copies::stats().count, mid.count);
//! # Ok(()) }
//! # demo(&cuprite_cpu::Cpu::new()).unwrap();
//! ```

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

static COUNT: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// Copy-on-write copies made since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyStats {
    /// Number of whole-buffer copies made before a write.
    pub count: u64,
    /// Bytes they copied.
    pub bytes: u64,
}

/// The copies counted so far (every backend, every thread).
pub fn stats() -> CopyStats {
    CopyStats {
        count: COUNT.load(Ordering::Relaxed),
        bytes: BYTES.load(Ordering::Relaxed),
    }
}

/// The smallest copy that is logged (`CUPRITE_LOG_COPIES`), read once per process.
fn log_threshold() -> Option<u64> {
    static T: OnceLock<Option<u64>> = OnceLock::new();
    *T.get_or_init(|| {
        std::env::var("CUPRITE_LOG_COPIES")
            .ok()?
            .trim()
            .parse()
            .ok()
    })
}

/// Counts (and logs, above the threshold) a copy of a shared buffer of `bytes` bytes made
/// so that `op` can write `shape` in place.
pub(crate) fn record(op: &str, shape: &[usize], bytes: usize) {
    COUNT.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
    if log_threshold().is_some_and(|t| bytes as u64 >= t) {
        eprintln!(
            "cuprite: {op} into shape {shape:?} copied its whole buffer ({bytes} bytes) first: \
             another array still shares it (copy-on-write). Drop that array before writing, \
             or pass an operand that views the same array by value."
        );
    }
}
