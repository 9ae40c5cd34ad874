//! Parallel loops over slices: the contiguous fast paths split work over rayon above
//! [`PAR_MIN`] elements and stay on the calling thread below it.

use crate::simd;
use cuprite_core::Element;
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Below this many elements a loop runs on the calling thread (rayon's fork/join overhead,
/// a few microseconds, exceeds the work). Measured with `benches/benches/par_threshold.rs`
/// on the 2-core development machine: for a contiguous f64 `a + b` the parallel loop was
/// 1.40x slower at 2^15, even at 2^16 and faster from 2^17 (0.88x) to 2^20 (0.44x).
pub const PAR_MIN: usize = 1 << 17;

/// Whether a loop over `n` elements runs on the calling thread: below [`PAR_MIN`], or when
/// rayon's pool has a single thread (`RAYON_NUM_THREADS=1`), where handing the loop to
/// that thread would only add two context switches per op.
#[inline]
pub fn serial(n: usize) -> bool {
    n < PAR_MIN || one_thread()
}

/// Whether rayon's pool has a single thread: loops with thresholds of their own (in work
/// rather than elements) then stay on the calling thread too.
#[inline]
pub fn one_thread() -> bool {
    rayon::current_num_threads() < 2
}

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
    if serial(out.len()) {
        body(out, a);
    } else {
        out.par_chunks_mut(CHUNK)
            .zip(a.par_chunks(CHUNK))
            .for_each(|(o, a)| body(o, a));
    }
}

/// `out[i] = f(a[i])` into uninitialised slots: every slot of `out` is written (the lengths
/// must agree; they are checked, so a short input can never leave a slot unwritten).
pub fn map1_uninit<A: Element, O: Element>(
    out: &mut [MaybeUninit<O>],
    a: &[A],
    f: impl Fn(&A) -> O + Sync + Clone,
) {
    assert_eq!(out.len(), a.len(), "map1_uninit: lengths differ");
    let body = |o: &mut [MaybeUninit<O>], a: &[A]| {
        // A local copy: what `f` captured by value (a scalar operand) stays in registers
        // instead of being reloaded after every store (the stores might alias it).
        let f = f.clone();
        simd::wide_for::<A, O, _>(|| {
            for (o, x) in o.iter_mut().zip(a) {
                o.write(f(x));
            }
        })
    };
    if serial(out.len()) {
        body(out, a);
    } else {
        out.par_chunks_mut(CHUNK)
            .zip(a.par_chunks(CHUNK))
            .for_each(|(o, a)| body(o, a));
    }
}

/// `out[i] = f(&run[i * step])` into uninitialised slots, every slot written: a forward
/// strided view read stepped (`x[::2]`), `run` holding its elements (at least
/// `(out.len() - 1) * step + 1`). A step of 2 reads pairs, which vectorise as interleaved
/// loads (`x[::2] * 2` of 1M f64 at one thread: 0.55 ms read one by one, NumPy 0.38 ms).
pub fn map_stepped_uninit<A: Element, O: Element>(
    out: &mut [MaybeUninit<O>],
    run: &[A],
    step: usize,
    f: impl Fn(&A) -> O + Sync + Clone,
) {
    let n = out.len();
    assert!(
        step > 0 && (n == 0 || run.len() > (n - 1) * step),
        "map_stepped_uninit: run too short"
    );
    let body = |o: &mut [MaybeUninit<O>], r: &[A]| {
        let f = f.clone();
        simd::wide_for::<A, O, _>(|| {
            if step == 2 && r.len() >= 2 * o.len() {
                for (o, pair) in o.iter_mut().zip(r.chunks_exact(2)) {
                    o.write(f(&pair[0]));
                }
            } else {
                for (o, x) in o.iter_mut().zip(r.iter().step_by(step)) {
                    o.write(f(x));
                }
            }
        })
    };
    if serial(n) {
        body(out, run);
    } else {
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, o)| body(o, &run[c * CHUNK * step..]));
    }
}

/// `out[i] = g(i)` into uninitialised slots, every slot written (the strided gathers: `g`
/// reads element `i` of a view).
pub fn generate_uninit<O: Element>(
    out: &mut [MaybeUninit<O>],
    g: impl Fn(usize) -> O + Sync + Clone,
) {
    let body = |start: usize, o: &mut [MaybeUninit<O>]| {
        let g = g.clone();
        simd::wide_for::<O, O, _>(|| {
            for (k, o) in o.iter_mut().enumerate() {
                o.write(g(start + k));
            }
        })
    };
    if serial(out.len()) {
        body(0, out);
    } else {
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, o)| body(c * CHUNK, o));
    }
}

/// `out[i] = f(a[i], b[i])` into uninitialised slots, every slot written (lengths checked,
/// as [`map1_uninit`]).
pub fn map2_uninit<A: Element, B: Element, O: Element>(
    out: &mut [MaybeUninit<O>],
    a: &[A],
    b: &[B],
    f: impl Fn(&A, &B) -> O + Sync + Clone,
) {
    assert!(
        out.len() == a.len() && a.len() == b.len(),
        "map2_uninit: lengths differ"
    );
    let body = |o: &mut [MaybeUninit<O>], a: &[A], b: &[B]| {
        let f = f.clone();
        simd::wide_for::<A, O, _>(|| {
            for ((o, x), y) in o.iter_mut().zip(a).zip(b) {
                o.write(f(x, y));
            }
        })
    };
    if serial(out.len()) {
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
    if serial(x.len()) {
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
    if serial(x.len()) {
        body(x, b);
    } else {
        x.par_chunks_mut(CHUNK)
            .zip(b.par_chunks(CHUNK))
            .for_each(|(x, b)| body(x, b));
    }
}
