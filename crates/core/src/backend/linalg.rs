//! Decomposition primitives of `linalg`: LU, Cholesky, QR, SVD and the Hermitian and general
//! eigen-decompositions, on batches of matrices. Everything else in `linalg` (`solve`,
//! `inv`, `det`, `pinv`, `lstsq`, `norm`, `cond`, ...) is composed by core from these and
//! the other primitives.
//!
//! Matrices are passed the way LAPACK and cuSOLVER store them: a batch of `rows x cols`
//! matrices, each **column-major** and contiguous, one after the other (element `(i, j)` of
//! matrix `b` at `b * rows * cols + j * rows + i`). Core transposes views into this order
//! before the call and back after it. Every output is a new buffer in the same order.
//!
//! Numerical failures are not errors here: each routine that can fail returns an `info`
//! buffer (one `i32` per matrix, LAPACK's convention: 0 = success) that core reads and turns
//! into [`Error::LinAlg`](crate::Error::LinAlg) naming the op and the batch index.

use super::memory::BackendBase;
use crate::dtype::{Float, Inexact};
use crate::error::Result;

/// The complex type with the precision of `T` (c64 for f32 and c64, c128 for f64 and c128).
pub type ComplexOf<T> = <<T as Inexact>::RealPart as Float>::Complex;

/// The factors of [`LinalgOps::svd`].
pub struct SvdFactors<B: BackendBase, T: Inexact> {
    /// Singular values, `[batch, min(m, n)]`, non-negative and non-increasing.
    pub s: B::Buffer<T::RealPart>,
    /// Left singular vectors, `m x m` (full) or `m x k`, when asked for.
    pub u: Option<B::Buffer<T>>,
    /// Conjugate-transposed right singular vectors, `n x n` (full) or `k x n`, when asked
    /// for.
    pub vh: Option<B::Buffer<T>>,
    /// Per matrix: 0, or the number of superdiagonals that did not converge.
    pub info: B::Buffer<i32>,
}

/// The factors of [`LinalgOps::eigh`].
pub struct EighFactors<B: BackendBase, T: Inexact> {
    /// Eigenvalues, `[batch, n]`, ascending.
    pub w: B::Buffer<T::RealPart>,
    /// Orthonormal eigenvectors as columns (`n x n`), when asked for.
    pub v: Option<B::Buffer<T>>,
    /// Per matrix: 0, or > 0 when the algorithm did not converge.
    pub info: B::Buffer<i32>,
}

/// The factors of [`LinalgOps::eig`].
pub struct EigFactors<B: BackendBase, T: Inexact> {
    /// Eigenvalues, `[batch, n]`, in no particular order.
    pub w: B::Buffer<ComplexOf<T>>,
    /// Right eigenvectors as columns (`n x n`), each of unit Euclidean norm, when asked for.
    pub v: Option<B::Buffer<ComplexOf<T>>>,
    /// Per matrix: 0, or > 0 when the QR algorithm did not converge.
    pub info: B::Buffer<i32>,
}

/// Batched dense decompositions. `batch` may be 0 and matrix sizes may be 0 (core passes
/// such cases through and the outputs are empty). Inputs are never modified.
pub trait LinalgOps: BackendBase {
    /// LU factorisation with partial pivoting (LAPACK `getrf`) of `batch` square `n x n`
    /// matrices. Returns the packed factors (unit-lower `L` below the diagonal, `U` on and
    /// above it, same order as `a`) and the pivots `[batch, n]`: row `i` was swapped with
    /// row `ipiv[i] - 1` (1-based, as LAPACK). A zero pivot is not an error: `U` then has a
    /// zero on its diagonal.
    fn lu_factor<T: Inexact>(
        &self,
        a: &Self::Buffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i32>)>;

    /// Solves `A X = B` from [`LinalgOps::lu_factor`]'s output (LAPACK `getrs`); `b` is a
    /// batch of `n x nrhs` matrices. Returns `X` in the same order as `b`.
    fn lu_solve<T: Inexact>(
        &self,
        lu: &Self::Buffer<T>,
        ipiv: &Self::Buffer<i32>,
        b: &Self::Buffer<T>,
        batch: usize,
        n: usize,
        nrhs: usize,
    ) -> Result<Self::Buffer<T>>;

    /// The inverses of `batch` `n x n` matrices from [`LinalgOps::lu_factor`]'s output
    /// (LAPACK `getri`), in the same order. Every `U` has a non-zero diagonal (core checks).
    /// The default solves against the identity (`getrs`, as NumPy's `inv` does); a backend
    /// may invert the triangles instead.
    fn lu_inverse<T: Inexact>(
        &self,
        lu: &Self::Buffer<T>,
        ipiv: &Self::Buffer<i32>,
        batch: usize,
        n: usize,
    ) -> Result<Self::Buffer<T>>
    where
        Self: crate::backend::ArrayBackend,
    {
        let eye = crate::Array::<T, Self>::eye(n, None, 0, self)?.broadcast_to(&[batch, n, n])?;
        let eye = self.copy(eye.buffer(), eye.layout())?;
        self.lu_solve(lu, ipiv, &eye, batch, n, n)
    }

    /// Cholesky factor `L` of Hermitian positive-definite matrices (LAPACK `potrf`, reading
    /// the lower triangle): `A = L L^H` with the strict upper triangle of `L` zero. `info`
    /// is `k > 0` when the leading minor of order `k` is not positive definite (`L` is then
    /// unspecified for that matrix).
    fn cholesky<T: Inexact>(
        &self,
        a: &Self::Buffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<i32>)>;

    /// Householder QR (LAPACK `geqrf` then `orgqr`/`ungqr`) of `m x n` matrices. With
    /// `complete`, `Q` is `m x m` and `R` is `m x n`; otherwise `Q` is `m x k` and `R` is
    /// `k x n` with `k = min(m, n)`. `R` is upper triangular (zeros below).
    fn qr<T: Inexact>(
        &self,
        a: &Self::Buffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        complete: bool,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<T>)>;

    /// Singular value decomposition `A = U diag(s) Vh` of `m x n` matrices: singular values
    /// only (`vectors = None`), or with `U` and `Vh` full (`Some(true)`: `m x m`, `n x n`)
    /// or reduced (`Some(false)`: `m x k`, `k x n`).
    fn svd<T: Inexact>(
        &self,
        a: &Self::Buffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        vectors: Option<bool>,
    ) -> Result<SvdFactors<Self, T>>;

    /// Eigenvalues (ascending) and optionally orthonormal eigenvectors of Hermitian `n x n`
    /// matrices, reading the lower triangle only (LAPACK `syevd`/`heevd`).
    fn eigh<T: Inexact>(
        &self,
        a: &Self::Buffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EighFactors<Self, T>>;

    /// Eigenvalues and optionally right eigenvectors (unit norm) of general `n x n`
    /// matrices (LAPACK `geev`); complex even for real input.
    fn eig<T: Inexact>(
        &self,
        a: &Self::Buffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EigFactors<Self, T>>;
}
