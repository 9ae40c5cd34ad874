//! Measures where splitting a contiguous loop over rayon starts to pay: `out = a + b` on f64
//! at sizes 2^10..2^20, on the calling thread versus over rayon (in chunks of 2^14 elements,
//! as `cuprite-cpu`'s `par.rs` does, and in one chunk per thread), plus cuprite's own `a + b`
//! (which switches at `PAR_MIN`). Prints the medians and the crossover; informs `PAR_MIN`.
//!
//! `cargo bench -p cuprite-benches --bench par_threshold`

use cuprite::{Array, Cpu};
use cuprite_benches::data;
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// Elements per rayon task in `cuprite-cpu`'s `par.rs`.
const CHUNK: usize = 1 << 14;

fn seq(out: &mut [f64], a: &[f64], b: &[f64]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x + y;
    }
}

fn par(out: &mut [f64], a: &[f64], b: &[f64], chunk: usize) {
    out.par_chunks_mut(chunk)
        .zip(a.par_chunks(chunk))
        .zip(b.par_chunks(chunk))
        .for_each(|((o, a), b)| seq(o, a, b));
}

/// Minimum over 15 samples of the time per call in microseconds; each sample repeats `f`
/// enough times to last about 2 ms. The minimum, not the median: on a shared 2-core machine
/// other processes only ever add time, and the question is the intrinsic cost.
fn time_us(mut f: impl FnMut()) -> f64 {
    let t0 = Instant::now();
    f();
    let once = t0.elapsed().as_secs_f64().max(1e-8);
    let reps = ((2e-3 / once) as usize).clamp(1, 100_000);
    for _ in 0..reps {
        f();
    }
    let mut samples: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / reps as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[0]
}

fn main() {
    let threads = rayon::current_num_threads();
    println!("rayon threads: {threads}; times in microseconds per call (minimum of 15 samples)");
    println!(
        "| n | sequential | rayon, 2^14 chunks | rayon, 1 chunk/thread | best parallel / sequential | cuprite a + b |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    let dev = Cpu::new();
    let mut crossover = None;
    for k in 10..=20 {
        let n = 1usize << k;
        let a = data::sin_wave(n);
        let b = data::uniform(n, -1.0, 1.0, 9);
        let mut out = vec![0.0; n];
        let t_seq = time_us(|| seq(black_box(&mut out), black_box(&a), black_box(&b)));
        let t_chunk = time_us(|| par(black_box(&mut out), &a, &b, CHUNK));
        let t_split = time_us(|| par(black_box(&mut out), &a, &b, n.div_ceil(threads)));
        let (xa, xb) = (
            Array::from_slice(&a, &[n], &dev).unwrap(),
            Array::from_slice(&b, &[n], &dev).unwrap(),
        );
        let t_cup = time_us(|| {
            black_box(xa.try_add(&xb).unwrap());
        });
        let best = t_chunk.min(t_split);
        let ratio = best / t_seq;
        // A win is at least 5% (below that the two are within the noise of a shared VM).
        if ratio < 0.95 && crossover.is_none() {
            crossover = Some(k);
        } else if ratio >= 0.95 {
            crossover = None;
        }
        println!(
            "| 2^{k} = {n} | {t_seq:.2} | {t_chunk:.2} | {t_split:.2} | {ratio:.2} | {t_cup:.2} |"
        );
    }
    match crossover {
        Some(k) => println!(
            "\ncrossover: parallel wins by 5% or more from 2^{k} = {} elements on (PAR_MIN is 2^15)",
            1usize << k
        ),
        None => println!("\nno crossover up to 2^20: parallel never wins by 5% or more"),
    }
}
