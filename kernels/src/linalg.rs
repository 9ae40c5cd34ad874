//! The linalg kernel family: the element-wise steps around cuSOLVER's decompositions, on
//! batches of column-major matrices. `tri_copy` keeps one triangle of each matrix and zeroes
//! the rest (Cholesky's `L`, QR's `R`), `conj_transpose` transposes and conjugates each
//! matrix (the SVD of wide matrices), `identity` writes identity matrices, `eig_values_real` and `eig_vectors_real` turn LAPACK's
//! real format of a real matrix's eigenvalues and eigenvectors into complex ones, and
//! `eig_normalise` scales complex eigenvectors to unit norm with their largest component real
//! and positive.
//!
//! ```
//! let src = cuprite_kernels::linalg::program("c128");
//! assert!(src.contains("#define T c128"));
//! assert!(src.contains("eig_vectors_real") && src.contains("tri_copy"));
//! ```

/// The CUDA C source.
pub const SOURCE: &str = include_str!("linalg.cu");

/// The program for element type `t` (`float`, `double`, `c64` or `c128`):
/// `tri_copy(T* out, const T* in, i64 rows_out, i64 rows_in, i64 cols, i64 batch, int upper)`,
/// `conj_transpose(T* out, const T* in, i64 rows, i64 cols, i64 batch)`,
/// `identity(T* out, i64 rows, i64 cols, i64 batch)`,
/// `eig_values_real(CT* w, const R* wri, i64 n, i64 batch)`,
/// `eig_vectors_real(CT* v, const R* vr, const R* wri, i64 n, i64 batch)`,
/// `eig_normalise(CT* v, i64 n, i64 batch)`, where `R` is the real type of `T` and `CT` the
/// complex type of that precision.
/// Each kernel takes these as the fields of one struct passed by value (pointers as `u64`,
/// `in` named `src`), declared above it in the source.
pub fn program(t: &str) -> String {
    crate::program(&[SOURCE], &[("T", t)])
}
