//! Right-looking blocked LU (partial pivoting) and Householder QR of one large matrix, the
//! way LAPACK's `getrf`/`geqrf` are organised: each panel of `NB` columns is factored on one
//! thread by faer's recursive kernels, and the trailing matrix is updated through faer's
//! parallel triangular solve and GEMM (or block-reflector product), which keep every core
//! busy. faer's own factorisations hand the parallelism down into the panels, where the
//! pieces are too small to split: on 16 cores that made a 1000 x 1000 LU 1.6x and a QR 3x
//! slower than the panel-on-one-thread scheme here.
//!
//! Both write the packed layouts of faer's in-place factorisations (so the solves and `Q`
//! builders of faer read them unchanged): LU as LAPACK's unit-lower `L` below the diagonal
//! and `U` on and above it, QR as Householder vectors below the diagonal, `R` on and above
//! it, and the block reflectors' triangular factors in a `NB x min(m, n)` matrix.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::householder::{
    apply_block_householder_transpose_on_the_left_in_place_scratch,
    apply_block_householder_transpose_on_the_left_in_place_with_conj,
};
use faer::linalg::lu::partial_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::matmul::matmul;
use faer::linalg::qr::no_pivoting::factor::{qr_in_place, qr_in_place_scratch};
use faer::linalg::triangular_solve::solve_unit_lower_triangular_in_place;
use faer::reborrow::*;
use faer::traits::ComplexField;
use faer::{Accum, Conj, Mat, MatMut, Par};
use rayon::prelude::*;

/// Columns per panel. Measured on 16 cores at n = 500..4000: 96-192 are within noise of
/// each other; below 64 the trailing GEMMs get too thin, above 256 the one-thread panels
/// dominate.
pub(super) const NB: usize = 128;

/// From this order on (and for one matrix, not a batch) the blocked LU runs; below it a
/// single panel is the whole matrix and faer's factorisation is as fast.
pub(super) const BLOCKED_MIN: usize = 2 * NB;

/// LU with partial pivoting in place on the column-major `n x n` matrix `a`. Returns
/// LAPACK's pivots: row `i` was swapped with row `ipiv[i] - 1` at step `i`.
///
/// A zero pivot divides by zero (as faer's does): the caller checks the factors.
pub(super) fn lu<F: ComplexField + Copy + Send + Sync>(
    a: &mut [F],
    n: usize,
    par: Par,
) -> Vec<i32> {
    debug_assert_eq!(a.len(), n * n);
    let mut ipiv = vec![0i32; n];
    // Row `i` of column `col` trades places with the row its pivot names.
    let swap = |col: &mut [F], i: usize, p: i32| col.swap(i, (p - 1) as usize);
    let mut j = 0;
    while j < n {
        let b = NB.min(n - j);
        let m = n - j;
        // The panel: rows j.., columns j..j+b, factored on this thread.
        let piv = {
            let full = MatMut::from_column_major_slice_mut(&mut a[..], n, n);
            let panel = full.submatrix_mut(j, j, m, b);
            let (mut fwd, mut bwd) = (vec![0usize; m], vec![0usize; m]);
            let mut scratch = MemBuffer::new(lu_in_place_scratch::<usize, F>(
                m,
                b,
                Par::Seq,
                Default::default(),
            ));
            lu_in_place(
                panel,
                &mut fwd,
                &mut bwd,
                Par::Seq,
                MemStack::new(&mut scratch),
                Default::default(),
            );
            super::ipiv_of(&fwd[..])
        };
        for (i, &p) in piv.iter().take(b).enumerate() {
            ipiv[j + i] = j as i32 + p;
        }
        if j + b < n {
            // The panel's row interchanges on the columns to its right (those to its left
            // get every later panel's in one pass at the end).
            let step = &ipiv[j..j + b];
            a[(j + b) * n..]
                .par_chunks_mut(n)
                .with_min_len(16)
                .for_each(|col| {
                    for (i, &p) in step.iter().enumerate() {
                        swap(col, j + i, p);
                    }
                });
            // U12 = L11^-1 A12, then A22 -= L21 U12.
            let full = MatMut::from_column_major_slice_mut(&mut a[..], n, n);
            let (_, right) = full.split_at_col_mut(j);
            let (panel, rest) = right.split_at_col_mut(b);
            let (_, l) = panel.split_at_row_mut(j);
            let (l11, l21) = l.into_const().split_at_row(b);
            let (_, rest) = rest.split_at_row_mut(j);
            let (mut a12, a22) = rest.split_at_row_mut(b);
            solve_unit_lower_triangular_in_place(l11, a12.rb_mut(), par);
            matmul(a22, Accum::Add, l21, a12.rb(), -F::one_impl(), par);
        }
        j += b;
    }
    // Each column of L gets the interchanges of the panels after its own, in order: one
    // pass over the matrix instead of one per panel.
    a.par_chunks_mut(n)
        .with_min_len(16)
        .enumerate()
        .for_each(|(c, col)| {
            let after = ((c / NB + 1) * NB).min(n);
            for (i, &p) in ipiv.iter().enumerate().skip(after) {
                swap(col, i, p);
            }
        });
    ipiv
}

/// Householder QR in place on the `m x n` matrix `a`: the factors of faer's `qr_in_place`
/// with block size [`NB`]. Returns the block reflectors' triangular factors, or `None`
/// when a panel is rank-deficient (faer's QR then skips columns, which this scheme does
/// not follow: the caller factors the matrix with faer's own QR instead).
pub(super) fn qr<F: ComplexField>(a: &mut Mat<F>, par: Par) -> Option<Mat<F>> {
    let (m, n) = a.shape();
    let k = m.min(n);
    let mut h = Mat::<F>::zeros(NB, k);
    let mut scratch = MemBuffer::new(
        qr_in_place_scratch::<F>(m, n, NB, Par::Seq, Default::default())
            .or(apply_block_householder_transpose_on_the_left_in_place_scratch::<F>(m, NB, n)),
    );
    let mut j = 0;
    while j < k {
        let b = NB.min(k - j);
        let panel = a.as_mut().submatrix_mut(j, j, m - j, b);
        let hp = h.as_mut().submatrix_mut(0, j, b, b);
        let info = qr_in_place(
            panel,
            hp,
            Par::Seq,
            MemStack::new(&mut scratch),
            Default::default(),
        );
        if info.rank < b {
            return None;
        }
        if j + b < n {
            let (left, right) = a.as_mut().split_at_col_mut(j + b);
            let basis = left.into_const().submatrix(j, j, m - j, b);
            let trailing = right.submatrix_mut(j, 0, m - j, n - j - b);
            apply_block_householder_transpose_on_the_left_in_place_with_conj(
                basis,
                h.as_ref().submatrix(0, j, b, b),
                Conj::Yes,
                trailing,
                par,
                MemStack::new(&mut scratch),
            );
        }
        j += b;
    }
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::super::tests::random;
    use super::*;
    use faer::linalg::householder::{
        apply_block_householder_sequence_on_the_left_in_place_scratch,
        apply_block_householder_sequence_on_the_left_in_place_with_conj,
    };

    /// `P A = L U` within rounding, with `P` the pivots' permutation, on an order that is
    /// not a multiple of the panel width (three panels, the last one partial).
    #[test]
    fn blocked_lu_reconstructs_the_permuted_matrix() {
        let n = 2 * NB + 37;
        let a0 = random(n * n, 3);
        let mut f = a0.clone();
        let ipiv = lu(&mut f, n, Par::rayon(0));
        // perm[i]: the row of A that is row i of P A.
        let mut perm: Vec<usize> = (0..n).collect();
        for (i, &p) in ipiv.iter().enumerate() {
            assert!(p as usize > i && p as usize <= n, "pivot {p} at step {i}");
            perm.swap(i, (p - 1) as usize);
        }
        let mut seen = vec![false; n];
        perm.iter().for_each(|&p| seen[p] = true);
        assert!(seen.iter().all(|&s| s));
        let at = |i: usize, j: usize| f[j * n + i];
        let mut worst = 0.0f64;
        for i in (0..n).step_by(7) {
            for j in 0..n {
                let lu: f64 = (0..=i.min(j))
                    .map(|p| {
                        if p == i {
                            at(i, j)
                        } else {
                            at(i, p) * at(p, j)
                        }
                    })
                    .sum();
                worst = worst.max((lu - a0[j * n + perm[i]]).abs());
            }
        }
        assert!(worst < 1e-11, "max |PA - LU| = {worst}");
        // Partial pivoting: every multiplier is at most 1 in magnitude.
        assert!((0..n).all(|j| (j + 1..n).all(|i| at(i, j).abs() <= 1.0)));
    }

    /// `Q R = A` and `Q^T Q = I` within rounding, for a tall and a wide matrix whose
    /// smaller side is not a multiple of the panel width.
    #[test]
    fn blocked_qr_reconstructs_the_matrix() {
        for (m, n) in [(2 * NB + 45, 2 * NB + 9), (2 * NB + 3, 3 * NB)] {
            let a0 = Mat::<f64>::from_fn(m, n, {
                let r = random(m * n, 5);
                move |i, j| r[j * m + i]
            });
            let mut f = a0.clone();
            let h = qr(&mut f, Par::rayon(0)).expect("full rank");
            let k = m.min(n);
            let mut q = Mat::<f64>::identity(m, k);
            let req =
                apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(m, NB, k);
            apply_block_householder_sequence_on_the_left_in_place_with_conj(
                f.as_ref().submatrix(0, 0, m, k),
                h.as_ref(),
                Conj::No,
                q.as_mut(),
                Par::Seq,
                MemStack::new(&mut MemBuffer::new(req)),
            );
            let r = Mat::<f64>::from_fn(k, n, |i, j| if i <= j { f[(i, j)] } else { 0.0 });
            let qr = &q * &r;
            let qtq = q.transpose() * &q;
            let mut worst = 0.0f64;
            for j in 0..n {
                for i in 0..m {
                    worst = worst.max((qr[(i, j)] - a0[(i, j)]).abs());
                }
            }
            for j in 0..k {
                for i in 0..k {
                    let want = if i == j { 1.0 } else { 0.0 };
                    worst = worst.max((qtq[(i, j)] - want).abs());
                }
            }
            assert!(worst < 1e-12, "{m} x {n}: max error {worst}");
        }
    }

    /// A rank-deficient panel is reported, not factored differently from faer.
    #[test]
    fn blocked_qr_reports_rank_deficient_panels() {
        let n = 2 * NB;
        let mut a = Mat::<f64>::from_fn(n, n, |i, j| {
            if j == 3 {
                0.0
            } else {
                ((i * 31 + j * 17) % 13) as f64
            }
        });
        assert!(qr(&mut a, Par::Seq).is_none());
    }
}
