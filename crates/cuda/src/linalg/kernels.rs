//! Launchers of the kernels of `kernels/src/linalg.cu` (one program per element type): the
//! triangle copy, the conjugate transpose, identity matrices and the conversion and
//! normalisation of eigenvectors. Every launcher checks that the buffers hold what it
//! touches, so a wrong size is an error, never a stray write.

use super::params::{
    ConjTransposeArgs, EigNormaliseArgs, EigValuesRealArgs, EigVectorsRealArgs, IdentityArgs,
    TriCopyArgs,
};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::BLOCK;
use cuprite_core::backend::ComplexOf;
use cuprite_core::{Error, Inexact, Result};

/// Checks that a buffer has at least `need` elements.
pub(super) fn fits<T>(op: &'static str, what: &str, b: &CudaBuffer<T>, need: usize) -> Result<()>
where
    T: cuprite_core::Element,
{
    if b.len() < need {
        return Err(Error::Backend {
            op,
            msg: format!(
                "{what}: a buffer of {} elements where {need} are needed",
                b.len()
            ),
        });
    }
    Ok(())
}

impl Cuda {
    /// The kernel `name` of the linalg program of `T`.
    fn linalg_fn<T: Inexact, P: KernelParams>(&self, name: &str) -> Result<Kernel<'_, P>> {
        let key = format!("linalg|{}", cty::<T>());
        self.kernel(&key, name, || cuprite_kernels::linalg::program(cty::<T>()))
    }

    /// `out` (`batch` matrices of `rows_out x cols`) = the upper (`i <= j`, rows below
    /// `rows_in` only) or lower (`i >= j`) triangle of `input` (`rows_in x cols` each), zeros
    /// elsewhere. `out` may be `input` when `rows_out == rows_in`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tri_copy<T: Inexact>(
        &self,
        op: &'static str,
        out: &CudaBuffer<T>,
        input: &CudaBuffer<T>,
        (rows_out, rows_in, cols): (usize, usize, usize),
        batch: usize,
        upper: bool,
    ) -> Result<()> {
        let total = batch * rows_out * cols;
        if total == 0 {
            return Ok(());
        }
        fits(op, "tri_copy output", out, total)?;
        fits(op, "tri_copy input", input, batch * rows_in * cols)?;
        if upper && rows_out > rows_in {
            return Err(Error::Backend {
                op,
                msg: format!("tri_copy: {rows_out} rows out of {rows_in}"),
            });
        }
        let f = self.linalg_fn::<T, _>("tri_copy")?;
        let (po, pi) = (self.ptr(out)?, self.ptr(input)?);
        let (ro, ri, c, b) = (rows_out as i64, rows_in as i64, cols as i64, batch as i64);
        let up = upper as i32;
        // `tri_copy(T* out, const T* in, i64 rows_out, i64 rows_in, i64 cols,
        // i64 batch, int upper)` writes `total` elements of `out` and reads at most
        // `batch * rows_in * cols` of `input`, both checked above.
        f.launch(
            (self.grid_for(total, 1), 1, 1),
            (BLOCK, 1, 1),
            0,
            &TriCopyArgs {
                out: po,
                src: pi,
                rows_out: ro,
                rows_in: ri,
                cols: c,
                batch: b,
                upper: up,
            },
        )
    }

    /// A new buffer of the conjugate transposes (`cols x rows`) of the `batch` matrices
    /// (`rows x cols`) of `input`.
    pub(super) fn conj_transpose<T: Inexact>(
        &self,
        op: &'static str,
        input: &CudaBuffer<T>,
        rows: usize,
        cols: usize,
        batch: usize,
    ) -> Result<CudaBuffer<T>> {
        let total = batch * rows * cols;
        let out = self.alloc::<T>(total)?;
        if total == 0 {
            return Ok(out);
        }
        fits(op, "conj_transpose input", input, total)?;
        let f = self.linalg_fn::<T, _>("conj_transpose")?;
        let (po, pi) = (self.ptr(&out)?, self.ptr(input)?);
        let (r, c, b) = (rows as i64, cols as i64, batch as i64);
        // `conj_transpose(T* out, const T* in, i64 rows, i64 cols, i64 batch)` reads
        // and writes `total` elements of two distinct buffers of that size.
        f.launch(
            (self.grid_for(total, 1), 1, 1),
            (BLOCK, 1, 1),
            0,
            &ConjTransposeArgs {
                out: po,
                src: pi,
                rows: r,
                cols: c,
                batch: b,
            },
        )?;
        Ok(out)
    }

    /// A new buffer of `batch` identity matrices of `rows x cols`.
    pub(super) fn identities<T: Inexact>(
        &self,
        rows: usize,
        cols: usize,
        batch: usize,
    ) -> Result<CudaBuffer<T>> {
        let total = batch * rows * cols;
        let out = self.alloc::<T>(total)?;
        if total == 0 {
            return Ok(out);
        }
        let f = self.linalg_fn::<T, _>("identity")?;
        let po = self.ptr(&out)?;
        let (r, c, b) = (rows as i64, cols as i64, batch as i64);
        // `identity(T* out, i64 rows, i64 cols, i64 batch)` writes the `total`
        // elements of the new buffer.
        f.launch(
            (self.grid_for(total, 1), 1, 1),
            (BLOCK, 1, 1),
            0,
            &IdentityArgs {
                out: po,
                rows: r,
                cols: c,
                batch: b,
            },
        )?;
        Ok(out)
    }

    /// From LAPACK's real format of the eigenvalues (`wri`: per matrix `n` real parts then
    /// `n` imaginary parts) and, when given, right eigenvectors (`vr`: packed real columns)
    /// of `batch` real matrices: the complex eigenvalues `[batch, n]` and the complex,
    /// normalised eigenvectors (`n x n` each).
    #[allow(clippy::type_complexity)]
    pub(super) fn eig_from_real<T: Inexact>(
        &self,
        op: &'static str,
        wri: &CudaBuffer<T>,
        vr: Option<&CudaBuffer<T>>,
        n: usize,
        batch: usize,
    ) -> Result<(CudaBuffer<ComplexOf<T>>, Option<CudaBuffer<ComplexOf<T>>>)> {
        let w = self.alloc::<ComplexOf<T>>(batch * n)?;
        let v = match vr {
            Some(_) => Some(self.alloc::<ComplexOf<T>>(batch * n * n)?),
            None => None,
        };
        if batch * n == 0 {
            return Ok((w, v));
        }
        if T::DTYPE.is_complex() {
            return Err(Error::Backend {
                op,
                msg: "eigenvalues in LAPACK's real format come from real matrices only".into(),
            });
        }
        fits(op, "eigenvalues", wri, batch * 2 * n)?;
        let (nn, bb) = (n as i64, batch as i64);
        let pwri = self.ptr(wri)?;
        let f = self.linalg_fn::<T, _>("eig_values_real")?;
        let pw = self.ptr(&w)?;
        // `eig_values_real(CT* w, const R* wri, i64 n, i64 batch)` reads
        // `batch * 2n` reals (checked) and writes `batch * n` complex values (the new `w`).
        f.launch(
            (self.grid_for(batch * n, 1), 1, 1),
            (BLOCK, 1, 1),
            0,
            &EigValuesRealArgs {
                w: pw,
                wri: pwri,
                n: nn,
                batch: bb,
            },
        )?;
        if let (Some(vr), Some(v)) = (vr, &v) {
            fits(op, "eigenvectors", vr, batch * n * n)?;
            let f = self.linalg_fn::<T, _>("eig_vectors_real")?;
            let (pv, pvr) = (self.ptr(v)?, self.ptr(vr)?);
            // `eig_vectors_real(CT* v, const R* vr, const R* wri, i64 n, i64 batch)`
            // reads `batch * n * n` reals of `vr` and `batch * 2n` of `wri` (checked) and
            // writes `batch * n * n` complex values of the new `v`.
            f.launch(
                (self.grid_for(batch * n, 1), 1, 1),
                (BLOCK, 1, 1),
                0,
                &EigVectorsRealArgs {
                    v: pv,
                    vr: pvr,
                    wri: pwri,
                    n: nn,
                    batch: bb,
                },
            )?;
        }
        Ok((w, v))
    }

    /// Normalises in place every column of the `batch` complex `n x n` matrices of `v`: unit
    /// norm, the component of largest magnitude real and positive. `T` names the precision
    /// (`ComplexOf<T>` is the element type of `v`).
    pub(super) fn eig_normalise<T: Inexact>(
        &self,
        op: &'static str,
        v: &CudaBuffer<ComplexOf<T>>,
        n: usize,
        batch: usize,
    ) -> Result<()> {
        if batch * n == 0 {
            return Ok(());
        }
        fits(op, "eigenvectors", v, batch * n * n)?;
        let f = self.linalg_fn::<T, _>("eig_normalise")?;
        let pv = self.ptr(v)?;
        let (nn, bb) = (n as i64, batch as i64);
        // `eig_normalise(CT* v, i64 n, i64 batch)` reads and writes the
        // `batch * n * n` complex values of `v` (checked); CT is the complex type of T's
        // precision, the element type of `v`.
        f.launch(
            (self.grid_for(batch * n, 1), 1, 1),
            (BLOCK, 1, 1),
            0,
            &EigNormaliseArgs {
                v: pv,
                n: nn,
                batch: bb,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn linalg_kernels_compile() {
        for t in ["float", "double", "c64", "c128"] {
            let src = cuprite_kernels::linalg::program(t);
            crate::nvrtc::compile_check::assert_compiles(&format!("linalg_{t}.cu"), &src);
        }
    }
}
