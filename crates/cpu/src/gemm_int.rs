//! The integer GEMM of the CPU backend (u8, i32, i64 — no BLAS covers them): a blocked,
//! packed, rayon-parallel kernel with wrapping arithmetic, NumPy's overflow semantics.
//!
//! Structure (GotoBLAS-style): the columns are walked in blocks of [`NC`] and the inner
//! dimension in blocks of [`KC`]; each `KC x NC` block of B is packed once (in parallel) into
//! `NR`-wide column panels, then the rows of C are split into blocks of [`MC`] rows, one rayon
//! task each, which packs its rows of A into `MR`-tall panels (zero-padded, so the
//! micro-kernel has no edge cases) and runs an `MR x NR` register-tile micro-kernel that the
//! compiler vectorises. Matrix-vector shapes
//! (`n == 1` or `m == 1`) take direct loops instead of padding a panel.

use super::Mat;
use cuprite_core::Numeric;
use rayon::prelude::*;

/// Rows of C per parallel task.
const MC: usize = 64;
/// Inner-dimension block: an `MR x KC` panel of A and a `KC x NR` panel of B stay in L1.
const KC: usize = 256;
/// Column block: the packed `KC x NC` block of B stays in L2.
const NC: usize = 512;
/// Below this many multiply-adds the product runs on the calling thread.
const PAR_WORK: usize = 1 << 16;

/// `c = a @ b` with wrapping arithmetic; `c` is the row-major `m x n` output.
pub(crate) fn gemm<T: Numeric, const MR: usize, const NR: usize>(
    m: usize,
    k: usize,
    n: usize,
    a: Mat<T>,
    b: Mat<T>,
    c: &mut [T],
) {
    debug_assert_eq!(c.len(), m * n);
    let parallel = m * n * k >= PAR_WORK;
    if n == 1 {
        return gemv_rows(m, k, a, b, c, parallel);
    }
    if m == 1 {
        return gemv_cols(k, n, a, b, c, parallel);
    }
    c.iter_mut().for_each(|x| *x = T::ZERO);
    let kb = KC.min(k);
    let mut bp = vec![T::ZERO; NC.min(n).div_ceil(NR) * NR * kb];
    for j0 in (0..n).step_by(NC) {
        let nc = NC.min(n - j0);
        for p0 in (0..k).step_by(KC) {
            let kc = KC.min(k - p0);
            pack_b::<T, NR>(&mut bp, b, p0, kc, j0, nc, parallel);
            let bp = &bp[..];
            // One task per block of MC rows of C; each packs its rows of A once per block.
            let task = |ap: &mut Vec<T>, (blk, c_rows): (usize, &mut [T])| {
                let (i0, mc) = (blk * MC, c_rows.len() / n);
                pack_a::<T, MR>(ap, a, i0, mc, p0, kc);
                let panels_a = ap.chunks_exact(MR * kc).take(mc.div_ceil(MR));
                for (ip, apanel) in panels_a.enumerate() {
                    let panels_b = bp.chunks_exact(NR * kc).take(nc.div_ceil(NR));
                    for (jp, bpanel) in panels_b.enumerate() {
                        let acc = micro::<T, MR, NR>(apanel, bpanel);
                        let (r0, q0) = (ip * MR, j0 + jp * NR);
                        for (r, row) in acc.iter().enumerate().take(mc - r0) {
                            let dst = &mut c_rows[(r0 + r) * n + q0..];
                            for (d, &v) in dst.iter_mut().zip(row).take(nc - jp * NR) {
                                *d = d.add(v);
                            }
                        }
                    }
                }
            };
            let new_ap = || vec![T::ZERO; MC.min(m).div_ceil(MR) * MR * kb];
            if parallel {
                c.par_chunks_mut(MC * n)
                    .enumerate()
                    .for_each_init(new_ap, task);
            } else {
                let mut ap = new_ap();
                c.chunks_mut(MC * n)
                    .enumerate()
                    .for_each(|x| task(&mut ap, x));
            }
        }
    }
}

/// The register tile: `sum_p a[p, r] * b[p, j]` over packed panels (wrapping).
#[inline(always)]
fn micro<T: Numeric, const MR: usize, const NR: usize>(ap: &[T], bp: &[T]) -> [[T; NR]; MR] {
    let mut acc = [[T::ZERO; NR]; MR];
    for (av, bv) in ap.chunks_exact(MR).zip(bp.chunks_exact(NR)) {
        let (Ok(av), Ok(bv)) = (<&[T; MR]>::try_from(av), <&[T; NR]>::try_from(bv)) else {
            continue;
        };
        for r in 0..MR {
            let x = av[r];
            for j in 0..NR {
                acc[r][j] = acc[r][j].add(x.mul(bv[j]));
            }
        }
    }
    acc
}

/// Packs rows `i0..i0+mc`, columns `p0..p0+kc` of A into `MR`-tall panels, `[panel][p][r]`.
fn pack_a<T: Numeric, const MR: usize>(
    ap: &mut [T],
    a: Mat<T>,
    i0: usize,
    mc: usize,
    p0: usize,
    kc: usize,
) {
    for (ip, panel) in ap
        .chunks_exact_mut(MR * kc)
        .take(mc.div_ceil(MR))
        .enumerate()
    {
        for r in 0..MR {
            let i = ip * MR + r;
            if i < mc {
                for p in 0..kc {
                    panel[p * MR + r] = a.at(i0 + i, p0 + p);
                }
            } else {
                for p in 0..kc {
                    panel[p * MR + r] = T::ZERO;
                }
            }
        }
    }
}

/// Packs rows `p0..p0+kc`, columns `j0..j0+nc` of B into `NR`-wide panels, `[panel][p][j]`.
fn pack_b<T: Numeric, const NR: usize>(
    bp: &mut [T],
    b: Mat<T>,
    p0: usize,
    kc: usize,
    j0: usize,
    nc: usize,
    parallel: bool,
) {
    let pack = |(jp, panel): (usize, &mut [T])| {
        for (p, dst) in panel.chunks_exact_mut(NR).enumerate() {
            for (j, d) in dst.iter_mut().enumerate() {
                let q = jp * NR + j;
                *d = if q < nc {
                    b.at(p0 + p, j0 + q)
                } else {
                    T::ZERO
                };
            }
        }
    };
    let panels = nc.div_ceil(NR);
    if parallel {
        bp.par_chunks_exact_mut(NR * kc)
            .take(panels)
            .enumerate()
            .for_each(pack);
    } else {
        bp.chunks_exact_mut(NR * kc)
            .take(panels)
            .enumerate()
            .for_each(pack);
    }
}

/// `c[i] = sum_p a[i, p] * b[p, 0]` (matrix times vector), in parallel over rows.
fn gemv_rows<T: Numeric>(m: usize, k: usize, a: Mat<T>, b: Mat<T>, c: &mut [T], par: bool) {
    let row = |i: usize| -> T {
        if a.cs == 1 && b.rs == 1 {
            let ra = &a.data[(a.off as isize + i as isize * a.rs) as usize..][..k];
            let rb = &b.data[b.off..][..k];
            ra.iter()
                .zip(rb)
                .fold(T::ZERO, |s, (&x, &y)| s.add(x.mul(y)))
        } else {
            (0..k).fold(T::ZERO, |s, p| s.add(a.at(i, p).mul(b.at(p, 0))))
        }
    };
    if par {
        c.par_iter_mut()
            .with_min_len(64)
            .enumerate()
            .for_each(|(i, o)| *o = row(i));
    } else {
        c.iter_mut().enumerate().for_each(|(i, o)| *o = row(i));
    }
    debug_assert_eq!(c.len(), m);
}

/// `c[j] = sum_p a[0, p] * b[p, j]` (vector times matrix), in parallel over column blocks.
fn gemv_cols<T: Numeric>(k: usize, n: usize, a: Mat<T>, b: Mat<T>, c: &mut [T], par: bool) {
    let block = |(blk, out): (usize, &mut [T])| {
        let j0 = blk * 1024;
        out.iter_mut().for_each(|x| *x = T::ZERO);
        for p in 0..k {
            let x = a.at(0, p);
            if b.cs == 1 {
                let start = (b.off as isize + p as isize * b.rs) as usize + j0;
                let len = out.len();
                for (o, &y) in out.iter_mut().zip(&b.data[start..start + len]) {
                    *o = o.add(x.mul(y));
                }
            } else {
                for (j, o) in out.iter_mut().enumerate() {
                    *o = o.add(x.mul(b.at(p, j0 + j)));
                }
            }
        }
    };
    if par {
        c.par_chunks_mut(1024).enumerate().for_each(block);
    } else {
        c.chunks_mut(1024).enumerate().for_each(block);
    }
    debug_assert_eq!(c.len(), n);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(m: usize, k: usize, n: usize, a: Mat<i32>, b: Mat<i32>) -> Vec<i32> {
        let mut c = vec![0i32; m * n];
        for i in 0..m {
            for j in 0..n {
                for p in 0..k {
                    c[i * n + j] = c[i * n + j].wrapping_add(a.at(i, p).wrapping_mul(b.at(p, j)));
                }
            }
        }
        c
    }

    #[test]
    fn blocked_kernel_matches_triple_loop_on_strided_operands() {
        // Sizes straddling MC, KC, NC and the register tile; A read transposed, B reversed.
        let (m, k, n) = (MC + 3, KC + 5, NC + 7);
        let da: Vec<i32> = (0..m * k)
            .map(|i| (i as i32).wrapping_mul(2_654_435_761u32 as i32))
            .collect();
        let db: Vec<i32> = (0..k * n).map(|i| (i as i32 * 7919) % 1013 - 500).collect();
        let a = Mat {
            data: &da,
            off: 0,
            rs: 1,
            cs: m as isize,
        };
        let b = Mat {
            data: &db,
            off: k * n - 1,
            rs: -(n as isize),
            cs: -1,
        };
        let mut c = vec![7i32; m * n];
        gemm::<i32, 4, 16>(m, k, n, a, b, &mut c);
        assert_eq!(c, naive(m, k, n, a, b));
        let mut v = vec![0i32; m];
        gemm::<i32, 4, 16>(m, k, 1, a, b, &mut v);
        assert_eq!(v, naive(m, k, 1, a, b));
        let mut r = vec![0i32; n];
        gemm::<i32, 4, 16>(1, k, n, a, b, &mut r);
        assert_eq!(r, naive(1, k, n, a, b));
    }
}
