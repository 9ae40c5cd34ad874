//! `numpy.linalg` on arrays: decompositions ([`decomp`]: `cholesky`, `qr`, `svd`, `eigh`,
//! `eig`), solvers and inverses ([`solve`]: `solve`, `inv`, `det`, `slogdet`, `lstsq`,
//! `pinv`, `matrix_rank`, `matrix_power`), norms ([`norms`]: `norm`, `vector_norm`,
//! `matrix_norm`, `cond`) and the remaining products ([`matrix_ops`]: `trace`, `cross`,
//! `kron`, `multi_dot`).
//!
//! Every function works on stacks of matrices: the last two axes are the matrix, the leading
//! axes a batch, as in NumPy. Core moves each operand into the column-major batch order of
//! the [`LinalgOps`](crate::backend::LinalgOps) primitives (one copy; `inv`, `det` and
//! `slogdet` factor the transposes instead, which a C-contiguous array already is in that
//! order, so they copy nothing), calls the primitive,
//! reads the per-matrix status codes and returns the factors as views in the caller's order.
//! A singular or non-positive-definite matrix is an [`Error::LinAlg`] naming the op and the
//! batch index (the flat index into the leading axes), never a silent NaN.

mod decomp;
mod matrix_ops;
mod norms;
mod solve;

pub use decomp::QrMode;
pub use matrix_ops::multi_dot;
pub use norms::MatrixNorm;

use super::Array;
use crate::backend::{ArrayBackend, BackendBase};
use crate::dtype::{Element, Inexact};
use crate::error::{Error, Result};
use crate::layout::{Layout, shape_size};

/// A stack of matrices in the primitives' order: `batch` column-major `rows x cols`
/// matrices, one after the other.
pub(crate) struct Batch<T: Element, B: BackendBase> {
    pub buf: B::Buffer<T>,
    /// The leading (batch) axes of the caller's array.
    pub lead: Vec<usize>,
    pub rows: usize,
    pub cols: usize,
}

impl<T: Element, B: BackendBase> Batch<T, B> {
    /// Number of matrices.
    pub fn count(&self) -> usize {
        shape_size(&self.lead)
    }
}

/// The shape `lead + tail`.
pub(crate) fn with_tail(lead: &[usize], tail: &[usize]) -> Vec<usize> {
    let mut s = lead.to_vec();
    s.extend_from_slice(tail);
    s
}

/// A batch of column-major `rows x cols` matrices as an array of shape
/// `lead + [rows, cols]` (a transposed view of the buffer: no copy).
pub(crate) fn from_batch<T: Element, B: ArrayBackend>(
    buf: B::Buffer<T>,
    lead: &[usize],
    rows: usize,
    cols: usize,
    dev: &B,
) -> Result<Array<T, B>> {
    Array::from_contiguous(buf, &with_tail(lead, &[cols, rows]), dev).swapaxes(-1, -2)
}

/// Reads per-matrix status codes and turns the first non-zero one into an error.
pub(crate) fn check_info<B: ArrayBackend>(
    dev: &B,
    info: &B::Buffer<i32>,
    count: usize,
    op: &'static str,
    msg: impl Fn(i32) -> String,
) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let codes = dev.to_vec(info, &Layout::contiguous(&[count]))?;
    match codes.iter().position(|&c| c != 0) {
        Some(batch) => Err(Error::LinAlg {
            op,
            msg: msg(codes[batch]),
            batch,
        }),
        None => Ok(()),
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// An error naming `op` for the 16-bit floats, which LAPACK-style decompositions do not
    /// take (NumPy refuses float16 in `numpy.linalg` too): cast to f32 first.
    pub(crate) fn lapack_dtype(&self, op: &'static str) -> Result<()> {
        if T::DTYPE.is_half() {
            return Err(Error::UnsupportedDType {
                op,
                dtype: T::DTYPE,
            });
        }
        Ok(())
    }

    /// The matrix dimensions: (leading axes, rows, cols), or an error for fewer than two
    /// dimensions.
    pub(crate) fn matrix_dims(&self, op: &'static str) -> Result<(Vec<usize>, usize, usize)> {
        let s = self.shape();
        if s.len() < 2 {
            return Err(Error::invalid(
                op,
                format!(
                    "{}-dimensional array given; array must be at least two-dimensional",
                    s.len()
                ),
            ));
        }
        let r = s.len();
        Ok((s[..r - 2].to_vec(), s[r - 2], s[r - 1]))
    }

    /// Like [`Array::matrix_dims`], requiring square matrices.
    pub(crate) fn square_dims(&self, op: &'static str) -> Result<(Vec<usize>, usize)> {
        let (lead, m, n) = self.matrix_dims(op)?;
        if m != n {
            return Err(Error::invalid(
                op,
                format!(
                    "last 2 dimensions of the array must be square, got shape {:?}",
                    self.shape()
                ),
            ));
        }
        Ok((lead, n))
    }

    /// The matrices in the primitives' column-major batch order (one copy).
    pub(crate) fn to_batch(&self, op: &'static str) -> Result<Batch<T, B>> {
        let (lead, rows, cols) = self.matrix_dims(op)?;
        let t = self.swapaxes(-1, -2)?;
        let buf = self.device().copy(t.buffer(), t.layout())?;
        Ok(Batch {
            buf,
            lead,
            rows,
            cols,
        })
    }

    /// The transposes of the matrices of `self`, in the primitives' order: row-major
    /// matrices read column-major are their transposes, so this is `self`'s own buffer when
    /// it is C-contiguous from the buffer's start, else one plain copy (no transposing
    /// gather). For the functions that `A^T` answers as well: `inv(A) = inv(A^T)^T`,
    /// `det(A) = det(A^T)`.
    pub(crate) fn to_batch_transposed(&self, op: &'static str) -> Result<Batch<T, B>> {
        let (lead, rows, cols) = self.matrix_dims(op)?;
        let buf = match self.layout().contiguous_offset() {
            Some(0) => self.buffer().clone(),
            _ => self.device().copy(self.buffer(), self.layout())?,
        };
        Ok(Batch {
            buf,
            lead,
            rows: cols,
            cols: rows,
        })
    }

    /// An [`Error::LinAlg`] naming `op` and the first matrix that holds a NaN or an
    /// infinity: the iterative decompositions (SVD, eigen-decompositions) do not converge on
    /// such input and would return NaNs, where NumPy raises.
    pub(crate) fn check_finite(&self, op: &'static str) -> Result<()> {
        if self.size() == 0 {
            return Ok(());
        }
        let finite = self.isfinite()?.all_axes([-2isize, -1], false)?.to_vec()?;
        match finite.iter().position(|&f| !f) {
            Some(batch) => Err(Error::LinAlg {
                op,
                msg: "array must not contain infs or NaNs".into(),
                batch,
            }),
            None => Ok(()),
        }
    }

    /// Identity matrices of shape `lead + [n, n]` (the factors of empty decompositions).
    pub(crate) fn eyes(lead: &[usize], n: usize, dev: &B) -> Result<Self> {
        Array::<T, B>::eye(n, None, 0, dev)?
            .broadcast_to(&with_tail(lead, &[n, n]))?
            .copy()
    }

    /// The diagonals of the last two axes, as a view of shape `lead + [min(m, n)]`.
    pub(crate) fn diagonals(&self) -> Self {
        let l = self.layout();
        let r = l.ndim();
        let (m, n) = (l.shape()[r - 2], l.shape()[r - 1]);
        let mut shape = l.shape()[..r - 2].to_vec();
        shape.push(m.min(n));
        let mut strides = l.strides()[..r - 2].to_vec();
        strides.push(l.strides()[r - 2] + l.strides()[r - 1]);
        self.with_layout(Layout::new(shape, strides, l.offset()))
    }
}
