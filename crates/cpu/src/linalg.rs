//! [`LinalgOps`] for [`Cpu`]: faer's decompositions (LU with partial pivoting, Cholesky,
//! Householder QR, SVD, self-adjoint and general eigen-decompositions), one matrix of the
//! batch per rayon task; faer parallelises inside a large matrix itself.
//!
//! One large LU (from [`linalg_blocked::BLOCKED_MIN`] columns) and every QR run the
//! blocked scheme of `linalg_blocked.rs` instead: panels on one thread, trailing updates on
//! all. Matrices below [`PAR_MIN_ORDER`] are factored on one thread.
//!
//! Matrices of order [`linalg_small::SMALL_MAX`] or less skip faer for LU, its solve and
//! inverse, and Cholesky: `linalg_small.rs` factors them in place in one buffer for the
//! whole batch.
//!
//! Matrices arrive and leave column-major (the contract of [`LinalgOps`]); faer reads them
//! in place through `MatRef` views. Failures become LAPACK-style `info` codes: core turns
//! them into errors naming the batch index.

#[path = "linalg_blocked.rs"]
mod linalg_blocked;
#[path = "linalg_small.rs"]
mod linalg_small;

use crate::buffer::CpuBuffer;
use crate::par;
use crate::Cpu;
use cuprite_core::backend::{ComplexOf, EigFactors, EighFactors, LinalgOps, SvdFactors};
use cuprite_core::{c128, c64, DType, Error, Inexact, Result};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::{
    cholesky_in_place, cholesky_in_place_scratch, LltError, LltRegularization,
};
use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_left_in_place_scratch,
    apply_block_householder_sequence_on_the_left_in_place_with_conj,
};
use faer::linalg::lu::partial_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::solvers::{Qr, SelfAdjointEigen, Svd};
use faer::linalg::triangular_inverse::invert_unit_lower_triangular;
use faer::linalg::triangular_solve::{
    solve_unit_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{Conj, Mat, MatMut, MatRef, Par, Side};
use rayon::prelude::*;
use std::any::Any;

/// The element types faer decomposes, bridged to cuprite's: f32, f64, c64, c128.
trait Field: Inexact + faer::traits::ComplexField<Real = <Self as Inexact>::RealPart> {
    /// Eigenvalues and (unit-norm) right eigenvectors of a general matrix, or `None` when
    /// the QR algorithm did not converge.
    #[allow(clippy::type_complexity)]
    fn eig(a: MatRef<'_, Self>) -> Option<(Vec<ComplexOf<Self>>, Mat<ComplexOf<Self>>)>;
}

macro_rules! eig_real {
    ($t:ty) => {
        impl Field for $t {
            fn eig(a: MatRef<'_, $t>) -> Option<(Vec<ComplexOf<$t>>, Mat<ComplexOf<$t>>)> {
                let e = faer::linalg::solvers::Eigen::<$t>::new_from_real(a).ok()?;
                let w = (0..a.nrows()).map(|i| e.S()[i]).collect();
                Some((w, e.U().to_owned()))
            }
        }
    };
}
macro_rules! eig_complex {
    ($t:ty, $r:ty) => {
        impl Field for $t {
            fn eig(a: MatRef<'_, $t>) -> Option<(Vec<ComplexOf<$t>>, Mat<ComplexOf<$t>>)> {
                let e = faer::linalg::solvers::Eigen::<$r>::new(a).ok()?;
                let w = (0..a.nrows()).map(|i| e.S()[i]).collect();
                Some((w, e.U().to_owned()))
            }
        }
    };
}
eig_real!(f32);
eig_real!(f64);
eig_complex!(c64, f32);
eig_complex!(c128, f64);

fn dispatch_err(op: &'static str) -> Error {
    Error::Backend {
        op,
        msg: "element type dispatch failed".into(),
    }
}

/// The buffer of `T` as a buffer of `F` (the same type, checked at run time).
fn as_f<'a, T: 'static, F: 'static>(
    x: &'a CpuBuffer<T>,
    op: &'static str,
) -> Result<&'a CpuBuffer<F>> {
    (x as &dyn Any)
        .downcast_ref::<CpuBuffer<F>>()
        .ok_or_else(|| dispatch_err(op))
}

/// A buffer of `F` handed back as a buffer of `T` (the same type, checked at run time).
fn back<F: 'static, T: 'static>(x: CpuBuffer<F>, op: &'static str) -> Result<CpuBuffer<T>> {
    let boxed: Box<dyn Any> = Box::new(x);
    boxed
        .downcast::<CpuBuffer<T>>()
        .map(|b| *b)
        .map_err(|_| dispatch_err(op))
}

/// Calls `$f::<F>` with `F` the concrete type of `T`.
macro_rules! dispatch {
    ($op:expr, $t:ty, $f:ident($($arg:expr),*)) => {
        match <$t>::DTYPE {
            DType::F32 => $f::<$t, f32>($($arg),*),
            DType::F64 => $f::<$t, f64>($($arg),*),
            DType::C64 => $f::<$t, c64>($($arg),*),
            DType::C128 => $f::<$t, c128>($($arg),*),
            dtype => Err(Error::UnsupportedDType { op: $op, dtype }),
        }
    };
}

/// An error naming `op` when a buffer of `len` elements is shorter than the `need` elements
/// of `what`.
fn fits(op: &'static str, what: &str, len: usize, need: usize) -> Result<()> {
    if len < need {
        return Err(Error::Backend {
            op,
            msg: format!("{what}: a buffer of {len} elements where {need} are needed"),
        });
    }
    Ok(())
}

/// NaN in any inexact type (the value of a failed factorisation).
fn nan<F: Inexact>() -> F {
    F::from_real(<F::RealPart as num_traits::Float>::nan())
}

/// `m` column-major.
fn colmajor<F: Copy>(m: MatRef<'_, F>) -> Vec<F> {
    let mut out = Vec::with_capacity(m.nrows() * m.ncols());
    for j in 0..m.ncols() {
        match m.col(j).try_as_col_major() {
            Some(col) => out.extend_from_slice(col.as_slice()),
            None => out.extend(m.col(j).iter().copied()),
        }
    }
    out
}

/// Runs `f` on each `rows x cols` matrix of `a`, in parallel, and concatenates what it
/// returns for each matrix: `K` outputs of the element type, one of another type (`X`:
/// pivots or real values) and an info code.
#[allow(clippy::type_complexity)]
fn per_matrix<F: Field, X: Send, const K: usize>(
    a: &[F],
    batch: usize,
    rows: usize,
    cols: usize,
    f: impl Fn(MatRef<'_, F>) -> ([Vec<F>; K], Vec<X>, i32) + Sync,
) -> ([Vec<F>; K], Vec<X>, Vec<i32>) {
    let size = rows * cols;
    let one = |b: usize| {
        f(MatRef::from_column_major_slice(
            &a[b * size..(b + 1) * size],
            rows,
            cols,
        ))
    };
    let parts: Vec<([Vec<F>; K], Vec<X>, i32)> = batch_map(batch, rows.max(cols), one);
    if let [_] = &parts[..] {
        // One matrix: its outputs are the result, without a copy.
        let (o, x, i) = parts.into_iter().next().expect("one part");
        return (o, x, vec![i]);
    }
    let mut outs: [Vec<F>; K] = std::array::from_fn(|_| Vec::new());
    let mut xs = Vec::new();
    let mut info = Vec::with_capacity(batch);
    for (o, x, i) in parts {
        for (dst, src) in outs.iter_mut().zip(o) {
            dst.extend(src);
        }
        xs.extend(x);
        info.push(i);
    }
    (outs, xs, info)
}

/// `one(k)` for every matrix `k` of a batch of `batch` matrices of order `n`, in order, one
/// matrix per rayon task. A single matrix too small for faer's parallel kernels
/// ([`PAR_MIN_ORDER`]) runs on the calling thread: the hand-over to a worker and back cost a
/// 200 x 200 Cholesky a third of its time. A larger one still runs as a rayon task, so that
/// faer's parallel kernels fork from inside the pool (called from outside it, each of their
/// many small joins waits for a worker; a 1000 x 1000 LU on 16 cores took 22.6 instead of
/// 17.5 ms).
fn batch_map<R: Send>(batch: usize, n: usize, one: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    if batch == 1 && n < PAR_MIN_ORDER {
        vec![one(0)]
    } else {
        (0..batch).into_par_iter().map(one).collect()
    }
}

/// The outputs of a batch's matrices, in order: one matrix's is moved, not copied.
fn joined<F: Clone>(mut parts: Vec<Vec<F>>) -> Vec<F> {
    if parts.len() == 1 {
        parts.pop().unwrap_or_default()
    } else {
        parts.concat()
    }
}

/// LAPACK's pivot sequence for the row permutation `fwd` (row `i` of `P A` is row `fwd[i]`
/// of `A`): `ipiv[i] - 1` is the row swapped with row `i` at step `i`.
fn ipiv_of(fwd: &[usize]) -> Vec<i32> {
    let n = fwd.len();
    let mut at: Vec<usize> = (0..n).collect(); // at[p] = original row now at position p
    let mut pos: Vec<usize> = (0..n).collect(); // pos[r] = position of original row r
    let mut ipiv = Vec::with_capacity(n);
    for (i, &want) in fwd.iter().enumerate() {
        let j = pos[want];
        ipiv.push((j + 1) as i32);
        let (ri, rj) = (at[i], at[j]);
        at.swap(i, j);
        pos[ri] = j;
        pos[rj] = i;
    }
    ipiv
}

/// Below this order one matrix is factored (or solved) on one thread: faer's parallel
/// LU of a 200 x 200 matrix took 4.6x its sequential time on 16 cores (0.96 against
/// 0.21 ms), the solves for its inverse 1.8x; from 300 on the threads win.
const PAR_MIN_ORDER: usize = 256;

/// The parallelism for `batch` matrices of order `n`: every thread inside one large matrix,
/// one thread per matrix otherwise (the batch itself runs one matrix per rayon task).
fn par_for(batch: usize, n: usize) -> Par {
    if batch == 1 && n >= PAR_MIN_ORDER {
        faer::get_global_parallelism()
    } else {
        Par::Seq
    }
}

fn lu_factor_imp<T: Inexact, F: Field>(
    a: &CpuBuffer<T>,
    batch: usize,
    n: usize,
) -> Result<(CpuBuffer<T>, CpuBuffer<i32>)> {
    const OP: &str = "lu_factor";
    let a = as_f::<T, F>(a, OP)?.as_slice();
    // Chunks folded without an early exit, so the test vectorises.
    let finite_chunk = |c: &[F]| {
        c.iter()
            .fold(true, |ok, x| ok & num_complex::ComplexFloat::is_finite(*x))
    };
    let finite = |v: &[F]| {
        if par::serial(v.len()) {
            v.chunks(1 << 15).all(finite_chunk)
        } else {
            v.par_chunks(1 << 15).all(finite_chunk)
        }
    };
    let par = par_for(batch, n);
    let ([lu], ipiv, _) = per_matrix(a, batch, n, n, |m| {
        // LAPACK's packed layout in place (unit-lower L below the diagonal, U on and above).
        let mut lu = colmajor(m);
        let ipiv = if batch == 1 && n >= linalg_blocked::BLOCKED_MIN {
            linalg_blocked::lu(&mut lu, n, par)
        } else {
            let (mut fwd, mut bwd) = (vec![0usize; n], vec![0usize; n]);
            let mut scratch = MemBuffer::new(lu_in_place_scratch::<usize, F>(
                n,
                n,
                par,
                Default::default(),
            ));
            lu_in_place(
                MatMut::from_column_major_slice_mut(&mut lu, n, n),
                &mut fwd,
                &mut bwd,
                par,
                MemStack::new(&mut scratch),
                Default::default(),
            );
            ipiv_of(&fwd)
        };
        // faer divides by a zero pivot (NaN spreads through the factors); redo singular
        // matrices the LAPACK way so their U shows the zero.
        if !finite(&lu) && finite(&colmajor(m)) {
            let mut lu = colmajor(m);
            let mut ipiv = vec![0; n];
            linalg_small::getf2(&mut lu, &mut ipiv, n);
            return ([lu], ipiv, 0);
        }
        ([lu], ipiv, 0)
    });
    Ok((back(CpuBuffer::new(lu), OP)?, CpuBuffer::new(ipiv)))
}

fn lu_solve_imp<T: Inexact, F: Field>(
    lu: &CpuBuffer<T>,
    ipiv: &CpuBuffer<i32>,
    b: &CpuBuffer<T>,
    batch: usize,
    n: usize,
    nrhs: usize,
) -> Result<CpuBuffer<T>> {
    const OP: &str = "lu_solve";
    let lu = as_f::<T, F>(lu, OP)?.as_slice();
    let b = as_f::<T, F>(b, OP)?.as_slice();
    let ipiv = ipiv.as_slice();
    let (nn, nk) = (n * n, n * nrhs);
    let par = par_for(batch, n);
    let one = |k: usize| {
        let f = MatRef::from_column_major_slice(&lu[k * nn..(k + 1) * nn], n, n);
        let mut x = b[k * nk..(k + 1) * nk].to_vec();
        // P b: LAPACK's row interchanges, column by column (contiguous in memory).
        let permute = |col: &mut [F]| {
            for (i, &p) in ipiv[k * n..(k + 1) * n].iter().enumerate() {
                col.swap(i, (p - 1) as usize);
            }
        };
        if par::serial(x.len()) {
            x.chunks_exact_mut(n.max(1)).for_each(permute);
        } else {
            x.par_chunks_exact_mut(n.max(1))
                .with_min_len(64)
                .for_each(permute);
        }
        let mut xm = MatMut::from_column_major_slice_mut(&mut x, n, nrhs);
        // The packed factors serve both solves: the unit-lower one ignores the diagonal
        // and everything above it, the upper one everything below the diagonal.
        solve_unit_lower_triangular_in_place(f, xm.as_mut(), par);
        solve_upper_triangular_in_place(f, xm.as_mut(), par);
        x
    };
    let parts: Vec<Vec<F>> = batch_map(batch, n, one);
    back(CpuBuffer::new(joined(parts)), OP)
}

/// `A^-1 = U^-1 L^-1 P` from the packed factors (LAPACK's `getri`): `L^-1` by faer's
/// recursive triangular inverse (n^3/3 flops), then the upper solve against it (n^3), then
/// the pivots' column interchanges in reverse order. Solving against the identity instead
/// costs 2n^3, and faer's own `inverse` (both triangles inverted, then their product) ran
/// slower on 16 threads at order 1000 (13.7 ms against 9.2 for the two solves and 8.8 for
/// this; at 2000: 54, 53, 39).
fn lu_inverse_imp<T: Inexact, F: Field>(
    lu: &CpuBuffer<T>,
    ipiv: &CpuBuffer<i32>,
    batch: usize,
    n: usize,
) -> Result<CpuBuffer<T>> {
    const OP: &str = "lu_inverse";
    let lu = as_f::<T, F>(lu, OP)?.as_slice();
    let ipiv = ipiv.as_slice();
    let nn = n * n;
    let par = par_for(batch, n);
    let one = |k: usize| {
        let f = MatRef::from_column_major_slice(&lu[k * nn..(k + 1) * nn], n, n);
        let mut x = vec![F::zero(); nn];
        let mut xm = MatMut::from_column_major_slice_mut(&mut x, n, n);
        // L^-1 (unit lower triangular; only its strict lower part is written).
        invert_unit_lower_triangular(xm.as_mut(), f, par);
        for j in 0..n {
            xm[(j, j)] = F::one();
        }
        // U^-1 L^-1: the upper solve reads the packed factors on and above the diagonal.
        solve_upper_triangular_in_place(f, xm.as_mut(), par);
        // Times P = P_{n-1} ... P_0: column j swapped with column ipiv[j] - 1, last first.
        for (j, &p) in ipiv[k * n..(k + 1) * n].iter().enumerate().rev() {
            let (lo, hi) = (j.min(p as usize - 1), j.max(p as usize - 1));
            if lo != hi {
                let (left, right) = x.split_at_mut(hi * n);
                left[lo * n..(lo + 1) * n].swap_with_slice(&mut right[..n]);
            }
        }
        x
    };
    let parts: Vec<Vec<F>> = batch_map(batch, n, one);
    back(CpuBuffer::new(joined(parts)), OP)
}

fn cholesky_imp<T: Inexact, F: Field>(
    a: &CpuBuffer<T>,
    batch: usize,
    n: usize,
) -> Result<(CpuBuffer<T>, CpuBuffer<i32>)> {
    const OP: &str = "cholesky";
    let a = as_f::<T, F>(a, OP)?.as_slice();
    let par = par_for(batch, n);
    let ([l], _, info) = per_matrix::<F, (), 1>(a, batch, n, n, |m| {
        // faer's LLT reads and overwrites the lower triangle; the upper one is cleared.
        let mut l = colmajor(m);
        let mut scratch =
            MemBuffer::new(cholesky_in_place_scratch::<F>(n, par, Default::default()));
        let done = cholesky_in_place(
            MatMut::from_column_major_slice_mut(&mut l, n, n),
            LltRegularization {
                dynamic_regularization_delta: F::zero().re(),
                dynamic_regularization_epsilon: F::zero().re(),
            },
            par,
            MemStack::new(&mut scratch),
            Default::default(),
        );
        match done {
            Ok(_) => {
                for (j, col) in l.chunks_exact_mut(n).enumerate() {
                    col[..j].iter_mut().for_each(|x| *x = F::zero());
                }
                ([l], Vec::new(), 0)
            }
            Err(LltError::NonPositivePivot { index }) => {
                ([vec![nan::<F>(); n * n]], Vec::new(), index as i32 + 1)
            }
        }
    });
    Ok((back(CpuBuffer::new(l), OP)?, CpuBuffer::new(info)))
}

fn qr_imp<T: Inexact, F: Field>(
    a: &CpuBuffer<T>,
    batch: usize,
    m: usize,
    n: usize,
    complete: bool,
) -> Result<(CpuBuffer<T>, CpuBuffer<T>)> {
    const OP: &str = "qr";
    let a = as_f::<T, F>(a, OP)?.as_slice();
    let k = m.min(n);
    let rr = if complete { m } else { k };
    let ([q, r], _, _) = per_matrix::<F, (), 2>(a, batch, m, n, |x| {
        if let Some(qr) = qr_blocked(x, rr, par_for(batch, k)) {
            return qr;
        }
        let f = Qr::new(x);
        let q = if complete {
            f.compute_Q()
        } else {
            f.compute_thin_Q()
        };
        let rf = f.R();
        let r = Mat::from_fn(rr, n, |i, j| {
            if i <= j && i < rf.nrows() {
                rf[(i, j)]
            } else {
                F::zero()
            }
        });
        ([colmajor(q.as_ref()), colmajor(r.as_ref())], Vec::new(), 0)
    });
    Ok((back(CpuBuffer::new(q), OP)?, back(CpuBuffer::new(r), OP)?))
}

/// A QR through [`linalg_blocked::qr`] with parallelism `par`: `Q` (`m x rr`) and `R`
/// (`rr x n`), column-major, with `rr` either `m` (complete) or `min(m, n)` (reduced), or
/// `None` for a rank-deficient matrix (faer's QR factors those).
#[allow(clippy::type_complexity)]
fn qr_blocked<F: Field>(
    x: MatRef<'_, F>,
    rr: usize,
    par: Par,
) -> Option<([Vec<F>; 2], Vec<()>, i32)> {
    let (m, n) = x.shape();
    let k = m.min(n);
    let mut f = x.to_owned();
    let h = linalg_blocked::qr(&mut f, par)?;
    let mut q = Mat::<F>::identity(m, rr);
    let req = apply_block_householder_sequence_on_the_left_in_place_scratch::<F>(
        m,
        linalg_blocked::NB,
        rr,
    );
    apply_block_householder_sequence_on_the_left_in_place_with_conj(
        f.as_ref().submatrix(0, 0, m, k),
        h.as_ref(),
        Conj::No,
        q.as_mut(),
        par,
        MemStack::new(&mut MemBuffer::new(req)),
    );
    let r = Mat::from_fn(rr, n, |i, j| if i <= j { f[(i, j)] } else { F::zero() });
    Some(([colmajor(q.as_ref()), colmajor(r.as_ref())], Vec::new(), 0))
}

fn svd_imp<T: Inexact, F: Field>(
    a: &CpuBuffer<T>,
    batch: usize,
    m: usize,
    n: usize,
    vectors: Option<bool>,
) -> Result<SvdFactors<Cpu, T>> {
    const OP: &str = "svd";
    let a = as_f::<T, F>(a, OP)?.as_slice();
    let k = m.min(n);
    let ([u, vh], s, info) = per_matrix::<F, F::RealPart, 2>(a, batch, m, n, |x| {
        let failed = |len_u, len_v| {
            let nan = nan::<F>();
            (
                [vec![nan; len_u], vec![nan; len_v]],
                vec![<F::RealPart as num_traits::Float>::nan(); k],
                1,
            )
        };
        match vectors {
            None => match x.singular_values() {
                Ok(s) => ([Vec::new(), Vec::new()], s, 0),
                Err(_) => failed(0, 0),
            },
            Some(full) => {
                let f = if full { Svd::new(x) } else { Svd::new_thin(x) };
                let (cu, rv) = if full { (m, n) } else { (k, k) };
                match f {
                    Ok(f) => {
                        let s = (0..k).map(|i| f.S()[i].re()).collect();
                        let v = f.V();
                        // Vh = V^H: (cols of V) -> rows.
                        let vh =
                            Mat::from_fn(rv, n, |i, j| num_complex::ComplexFloat::conj(v[(j, i)]));
                        ([colmajor(f.U()), colmajor(vh.as_ref())], s, 0)
                    }
                    Err(_) => failed(m * cu, rv * n),
                }
            }
        }
    });
    Ok(SvdFactors {
        s: back(CpuBuffer::new(s), OP)?,
        u: vectors.map(|_| back(CpuBuffer::new(u), OP)).transpose()?,
        vh: vectors.map(|_| back(CpuBuffer::new(vh), OP)).transpose()?,
        info: CpuBuffer::new(info),
    })
}

fn eigh_imp<T: Inexact, F: Field>(
    a: &CpuBuffer<T>,
    batch: usize,
    n: usize,
    vectors: bool,
) -> Result<EighFactors<Cpu, T>> {
    const OP: &str = "eigh";
    let a = as_f::<T, F>(a, OP)?.as_slice();
    let ([v], w, info) = per_matrix::<F, F::RealPart, 1>(a, batch, n, n, |x| {
        let failed = || {
            (
                [vec![nan::<F>(); if vectors { n * n } else { 0 }]],
                vec![<F::RealPart as num_traits::Float>::nan(); n],
                1,
            )
        };
        if vectors {
            match SelfAdjointEigen::new(x, Side::Lower) {
                Ok(e) => {
                    let w = (0..n).map(|i| e.S()[i].re()).collect();
                    ([colmajor(e.U())], w, 0)
                }
                Err(_) => failed(),
            }
        } else {
            match x.self_adjoint_eigenvalues(Side::Lower) {
                Ok(w) => ([Vec::new()], w, 0),
                Err(_) => failed(),
            }
        }
    });
    Ok(EighFactors {
        w: back(CpuBuffer::new(w), OP)?,
        v: vectors.then(|| back(CpuBuffer::new(v), OP)).transpose()?,
        info: CpuBuffer::new(info),
    })
}

/// Scales every column of `v` (`n x n`) to unit Euclidean norm with its largest component
/// real and positive, LAPACK `geev`'s normalisation, so the vectors are unique for simple
/// eigenvalues.
fn normalise_columns<C: Inexact>(v: &mut [C], n: usize) {
    use num_complex::ComplexFloat;
    use num_traits::{Float, Zero};
    for col in v.chunks_mut(n.max(1)) {
        let mut sq = C::RealPart::zero();
        let mut big = C::zero();
        for &x in col.iter() {
            let a = ComplexFloat::abs(x);
            sq = sq + a * a;
            if a > ComplexFloat::abs(big) {
                big = x;
            }
        }
        let norm = Float::sqrt(sq);
        let mag = ComplexFloat::abs(big);
        if norm == C::RealPart::zero() || mag == C::RealPart::zero() {
            continue;
        }
        // conj(big) / |big| rotates the largest component onto the positive real axis.
        let scale = ComplexFloat::conj(big) / C::from_real(mag * norm);
        for x in col.iter_mut() {
            *x = *x * scale;
        }
    }
}

fn eig_imp<T: Inexact, F: Field>(
    a: &CpuBuffer<T>,
    batch: usize,
    n: usize,
    vectors: bool,
) -> Result<EigFactors<Cpu, T>> {
    const OP: &str = "eig";
    let a = as_f::<T, F>(a, OP)?.as_slice();
    let nn = n * n;
    let nan = nan::<ComplexOf<F>>();
    #[allow(clippy::type_complexity)]
    let parts: Vec<(Vec<ComplexOf<F>>, Vec<ComplexOf<F>>, i32)> = (0..batch)
        .into_par_iter()
        .map(|k| {
            let x = MatRef::from_column_major_slice(&a[k * nn..(k + 1) * nn], n, n);
            match F::eig(x) {
                Some((w, v)) => {
                    let mut v = if vectors {
                        colmajor(v.as_ref())
                    } else {
                        Vec::new()
                    };
                    normalise_columns(&mut v, n);
                    (w, v, 0)
                }
                None => (vec![nan; n], vec![nan; if vectors { nn } else { 0 }], 1),
            }
        })
        .collect();
    let mut w = Vec::with_capacity(batch * n);
    let mut v = Vec::with_capacity(if vectors { batch * nn } else { 0 });
    let mut info = Vec::with_capacity(batch);
    for (pw, pv, i) in parts {
        w.extend(pw);
        v.extend(pv);
        info.push(i);
    }
    Ok(EigFactors {
        w: back(CpuBuffer::new(w), OP)?,
        v: vectors.then(|| back(CpuBuffer::new(v), OP)).transpose()?,
        info: CpuBuffer::new(info),
    })
}

impl LinalgOps for Cpu {
    fn lu_factor<T: Inexact>(
        &self,
        a: &CpuBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<i32>)> {
        if n <= linalg_small::SMALL_MAX {
            fits("lu_factor", "the matrices", a.len(), batch * n * n)?;
            let (f, piv) = linalg_small::lu(a.as_slice(), batch, n);
            return Ok((CpuBuffer::new(f), CpuBuffer::new(piv)));
        }
        dispatch!("lu_factor", T, lu_factor_imp(a, batch, n))
    }

    fn lu_solve<T: Inexact>(
        &self,
        lu: &CpuBuffer<T>,
        ipiv: &CpuBuffer<i32>,
        b: &CpuBuffer<T>,
        batch: usize,
        n: usize,
        nrhs: usize,
    ) -> Result<CpuBuffer<T>> {
        if n <= linalg_small::SMALL_MAX {
            const OP: &str = "lu_solve";
            fits(OP, "the factors", lu.len(), batch * n * n)?;
            fits(OP, "the pivots", ipiv.len(), batch * n)?;
            fits(OP, "the right-hand sides", b.len(), batch * n * nrhs)?;
            let (f, p) = (lu.as_slice(), ipiv.as_slice());
            let x = linalg_small::solve(f, p, Some(b.as_slice()), batch, n, nrhs);
            return Ok(CpuBuffer::new(x));
        }
        dispatch!("lu_solve", T, lu_solve_imp(lu, ipiv, b, batch, n, nrhs))
    }

    fn lu_inverse<T: Inexact>(
        &self,
        lu: &CpuBuffer<T>,
        ipiv: &CpuBuffer<i32>,
        batch: usize,
        n: usize,
    ) -> Result<CpuBuffer<T>> {
        if n <= linalg_small::SMALL_MAX {
            fits("lu_inverse", "the factors", lu.len(), batch * n * n)?;
            fits("lu_inverse", "the pivots", ipiv.len(), batch * n)?;
            let x = linalg_small::solve(lu.as_slice(), ipiv.as_slice(), None, batch, n, n);
            return Ok(CpuBuffer::new(x));
        }
        dispatch!("lu_inverse", T, lu_inverse_imp(lu, ipiv, batch, n))
    }

    fn cholesky<T: Inexact>(
        &self,
        a: &CpuBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<i32>)> {
        if n <= linalg_small::SMALL_MAX {
            fits("cholesky", "the matrices", a.len(), batch * n * n)?;
            let (l, info) = linalg_small::cholesky(a.as_slice(), batch, n);
            return Ok((CpuBuffer::new(l), CpuBuffer::new(info)));
        }
        dispatch!("cholesky", T, cholesky_imp(a, batch, n))
    }

    fn qr<T: Inexact>(
        &self,
        a: &CpuBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        complete: bool,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<T>)> {
        dispatch!("qr", T, qr_imp(a, batch, m, n, complete))
    }

    fn svd<T: Inexact>(
        &self,
        a: &CpuBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        vectors: Option<bool>,
    ) -> Result<SvdFactors<Cpu, T>> {
        dispatch!("svd", T, svd_imp(a, batch, m, n, vectors))
    }

    fn eigh<T: Inexact>(
        &self,
        a: &CpuBuffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EighFactors<Cpu, T>> {
        dispatch!("eigh", T, eigh_imp(a, batch, n, vectors))
    }

    fn eig<T: Inexact>(
        &self,
        a: &CpuBuffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EigFactors<Cpu, T>> {
        dispatch!("eig", T, eig_imp(a, batch, n, vectors))
    }
}

#[cfg(test)]
mod tests {
    use super::ipiv_of;
    use crate::{Cpu, CpuBuffer};
    use cuprite_core::backend::LinalgOps;
    use cuprite_core::c128;

    /// Column-major matrices with entries in [-0.5, 0.5) (an LCG).
    pub(super) fn random(len: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..len)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
            })
            .collect()
    }

    /// The largest `|A X - I|` over a batch of column-major `n x n` matrices.
    fn residual<T>(a: &[T], x: &[T], batch: usize, n: usize) -> f64
    where
        T: Copy + std::ops::Mul<Output = T> + std::ops::Add<Output = T> + Default,
        T: Into<c128>,
    {
        let mut worst = 0.0f64;
        for k in 0..batch {
            let (a, x) = (&a[k * n * n..], &x[k * n * n..]);
            for i in 0..n {
                for j in 0..n {
                    let mut s = T::default();
                    for p in 0..n {
                        s = s + a[p * n + i] * x[j * n + p];
                    }
                    let want = if i == j { 1.0 } else { 0.0 };
                    let d: c128 = s.into();
                    worst = worst.max((d - c128::new(want, 0.0)).norm());
                }
            }
        }
        worst
    }

    /// `lu_inverse` inverts through the triangles: `A X = I` within rounding for a batch of
    /// small matrices (one thread each), one matrix large enough for the blocked, parallel
    /// LU, and complex matrices; the same as solving against the identity.
    #[test]
    fn the_inverse_from_the_factors_inverts() {
        let cpu = Cpu::new();
        for (batch, n) in [(3usize, 7usize), (1, 300)] {
            let a = random(batch * n * n, n as u64);
            let (lu, ipiv) = cpu.lu_factor(&CpuBuffer::new(a.clone()), batch, n).unwrap();
            let x = cpu.lu_inverse(&lu, &ipiv, batch, n).unwrap();
            let r = residual(&a, x.as_slice(), batch, n);
            assert!(r < 1e-9 * n as f64, "batch {batch}, n {n}: |A X - I| = {r}");
            let mut eye = vec![0.0; batch * n * n];
            for k in 0..batch {
                (0..n).for_each(|i| eye[k * n * n + i * n + i] = 1.0);
            }
            let y = cpu
                .lu_solve(&lu, &ipiv, &CpuBuffer::new(eye), batch, n, n)
                .unwrap();
            let d = x
                .as_slice()
                .iter()
                .zip(y.as_slice())
                .map(|(p, q)| (p - q).abs());
            assert!(d.fold(0.0, f64::max) < 1e-9 * n as f64);
        }
        let re = random(2 * 9 * 9, 5);
        let im = random(2 * 9 * 9, 6);
        let a: Vec<c128> = re.iter().zip(&im).map(|(&r, &i)| c128::new(r, i)).collect();
        let (lu, ipiv) = cpu.lu_factor(&CpuBuffer::new(a.clone()), 2, 9).unwrap();
        let x = cpu.lu_inverse(&lu, &ipiv, 2, 9).unwrap();
        assert!(residual(&a, x.as_slice(), 2, 9) < 1e-11);
    }

    #[test]
    fn unblocked_lu_keeps_zero_pivots() {
        // [[0, 0], [0, 1]] column-major: singular, U = [[0, 1]...] after no swap.
        let mut a = vec![0.0f64, 0.0, 0.0, 1.0];
        let mut ipiv = vec![0; 2];
        super::linalg_small::getf2(&mut a, &mut ipiv, 2);
        assert_eq!(ipiv, vec![1, 2]);
        assert!(a.iter().all(|x| x.is_finite()));
        assert_eq!(a[0], 0.0);
        // [[1, 2], [3, 4]]: pivots on 3, L21 = 1/3, U = [[3, 4], [0, 2/3]].
        let mut a = vec![1.0f64, 3.0, 2.0, 4.0];
        super::linalg_small::getf2(&mut a, &mut ipiv, 2);
        assert_eq!(ipiv, vec![2, 2]);
        assert_eq!(a[0], 3.0);
        assert!((a[1] - 1.0 / 3.0).abs() < 1e-15);
        assert!((a[3] - 2.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn pivot_sequences_replay_the_permutation() {
        for fwd in [
            vec![0, 1, 2],
            vec![2, 0, 1],
            vec![1, 2, 0, 3],
            vec![3, 2, 1, 0],
        ] {
            let ipiv = ipiv_of(&fwd);
            let mut rows: Vec<usize> = (0..fwd.len()).collect();
            for (i, &p) in ipiv.iter().enumerate() {
                rows.swap(i, (p - 1) as usize);
            }
            assert_eq!(rows, fwd);
        }
    }
}
