//! Parallel loops over slices: the contiguous fast paths split work over rayon above
//! [`PAR_MIN`] elements and stay on the calling thread below it.

use rayon::prelude::*;

/// Below this many elements a loop runs on the calling thread (rayon's fork/join overhead,
/// a few microseconds, exceeds the work). Measured with `benches/benches/par_threshold.rs`
/// on the 2-core development machine: for a contiguous f64 `a + b` the parallel loop was
/// 1.40x slower at 2^15, even at 2^16 and faster from 2^17 (0.88x) to 2^20 (0.44x).
pub const PAR_MIN: usize = 1 << 17;

/// Elements per parallel task.
pub const CHUNK: usize = 1 << 14;

/// `out[i] = f(a[i])`.
pub fn map1<A: Sync, O: Send>(out: &mut [O], a: &[A], f: impl Fn(&A) -> O + Sync) {
    debug_assert_eq!(out.len(), a.len());
    let body = |o: &mut [O], a: &[A]| {
        for (o, x) in o.iter_mut().zip(a) {
            *o = f(x);
        }
    };
    if out.len() < PAR_MIN {
        body(out, a);
    } else {
        out.par_chunks_mut(CHUNK)
            .zip(a.par_chunks(CHUNK))
            .for_each(|(o, a)| body(o, a));
    }
}

/// `out[i] = f(a[i], b[i])`.
pub fn map2<A: Sync, B: Sync, O: Send>(
    out: &mut [O],
    a: &[A],
    b: &[B],
    f: impl Fn(&A, &B) -> O + Sync,
) {
    debug_assert!(out.len() == a.len() && a.len() == b.len());
    let body = |o: &mut [O], a: &[A], b: &[B]| {
        for ((o, x), y) in o.iter_mut().zip(a).zip(b) {
            *o = f(x, y);
        }
    };
    if out.len() < PAR_MIN {
        body(out, a, b);
    } else {
        out.par_chunks_mut(CHUNK)
            .zip(a.par_chunks(CHUNK))
            .zip(b.par_chunks(CHUNK))
            .for_each(|((o, a), b)| body(o, a, b));
    }
}

/// `x[i] = f(x[i])` in place.
pub fn update<A: Send>(x: &mut [A], f: impl Fn(&mut A) + Sync) {
    if x.len() < PAR_MIN {
        x.iter_mut().for_each(f);
    } else {
        x.par_chunks_mut(CHUNK)
            .for_each(|c| c.iter_mut().for_each(&f));
    }
}

/// `x[i] = f(x[i], b[i])` in place.
pub fn update2<A: Send, B: Sync>(x: &mut [A], b: &[B], f: impl Fn(&mut A, &B) + Sync) {
    let body = |x: &mut [A], b: &[B]| {
        for (x, y) in x.iter_mut().zip(b) {
            f(x, y);
        }
    };
    if x.len() < PAR_MIN {
        body(x, b);
    } else {
        x.par_chunks_mut(CHUNK)
            .zip(b.par_chunks(CHUNK))
            .for_each(|(x, b)| body(x, b));
    }
}
