//! The host side of the `dtypes` bench: the deterministic inputs and the independent host
//! computations every GPU result is checked against once, untimed — Freivalds' test of the
//! 16-bit products in f64, exact comparisons for the copy and `a + b`, the f16 sum against
//! the exact sum, and the u16 pipeline recomputed in f32. `scripts/bench_dtypes.py` checks
//! CuPy's and PyTorch's results with the same tolerances.

use cuprite::{bf16, f16, Numeric};
use cuprite_benches::data;

/// Unit roundoff of f32, the accumulator of every product and sum here.
pub const U_F32: f64 = 1.0 / (1u64 << 24) as f64;

/// The 16-bit float types of the bench: how their inputs are made and read back.
pub trait Half: Numeric {
    /// The type's name in the table (`f16`, `bf16`).
    const NAME: &'static str;
    /// Unit roundoff of the type (half an ulp of 1): 2^-11 for f16, 2^-8 for bf16.
    const U: f64;
    /// The value nearest `x`.
    fn from_f32(x: f32) -> Self;
    /// The exact value.
    fn to_f64(self) -> f64;
}

impl Half for f16 {
    const NAME: &'static str = "f16";
    const U: f64 = 1.0 / 2048.0;
    fn from_f32(x: f32) -> Self {
        f16::from_f32(x)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
}

impl Half for bf16 {
    const NAME: &'static str = "bf16";
    const U: f64 = 1.0 / 256.0;
    fn from_f32(x: f32) -> Self {
        bf16::from_f32(x)
    }
    fn to_f64(self) -> f64 {
        bf16::to_f64(self)
    }
}

/// `n` values uniform in `[-1, 1)` from `seed`, rounded to `T`.
pub fn uniform_half<T: Half>(n: usize, seed: u64) -> Vec<T> {
    data::uniform_f32(n, -1.0, 1.0, seed)
        .into_iter()
        .map(T::from_f32)
        .collect()
}

/// The `side x side` u16 image: integers uniform in `[1000, 60000]` (a pipeline whose
/// minimum and maximum are not the type's limits).
pub fn image_u16(side: usize, seed: u64) -> Vec<u16> {
    data::uniform(side * side, 1000.0, 60001.0, seed)
        .into_iter()
        .map(|v| v as u16)
        .collect()
}

/// `mat` (row-major `m x m`) times `v`, in f64; with `abs`, `|mat| v`.
fn mat_vec<T: Half>(mat: &[T], v: &[f64], m: usize, abs: bool) -> Vec<f64> {
    mat.chunks_exact(m)
        .map(|row| {
            row.iter()
                .zip(v)
                .map(|(&a, &x)| {
                    let a = a.to_f64();
                    if abs {
                        a.abs() * x
                    } else {
                        a * x
                    }
                })
                .sum()
        })
        .collect()
}

/// Freivalds' test of `c = a b` (row-major `m x m` matrices of a 16-bit type, products
/// accumulated in f32 and rounded once to the type): `C r` against `A (B r)` in f64 for `r`
/// of random signs. Row `i` may be off by `8 (U ||C_i||_2 + 2^-24 (|A| |B| 1)_i)`: each
/// output is the exact product rounded once (at most `U |c_ij|`, signs of `r` random, so 8
/// standard deviations of their sum) after an f32 accumulation (the last term, a
/// first-order bound of its error). `Err` names the first row off, prefixed
/// `WRONG RESULT`.
pub fn check_product<T: Half>(
    what: &str,
    c: &[T],
    a: &[T],
    b: &[T],
    m: usize,
) -> Result<(), String> {
    if c.len() != m * m {
        return Err(format!(
            "WRONG RESULT: {what}: {} elements, expected {}",
            c.len(),
            m * m
        ));
    }
    let r: Vec<f64> = data::uniform(m, -1.0, 1.0, 23)
        .into_iter()
        .map(f64::signum)
        .collect();
    let cr = mat_vec(c, &r, m, false);
    let abr = mat_vec(a, &mat_vec(b, &r, m, false), m, false);
    let bound = mat_vec(a, &mat_vec(b, &vec![1.0; m], m, true), m, true);
    for i in 0..m {
        let norm = c[i * m..(i + 1) * m]
            .iter()
            .map(|&x| x.to_f64() * x.to_f64())
            .sum::<f64>()
            .sqrt();
        let tol = 8.0 * (T::U * norm + U_F32 * bound[i]);
        let off = (cr[i] - abr[i]).abs();
        if off.is_nan() || off > tol {
            return Err(format!(
                "WRONG RESULT: {what}: row {i} of C r is {}, expected {} (tolerance {tol:.3e})",
                cr[i], abr[i]
            ));
        }
    }
    Ok(())
}

/// `Err` (`WRONG RESULT`) naming the first element where `got` and `want` differ bit for
/// bit (or in length).
pub fn check_equal<T: Half>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "WRONG RESULT: {what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    match got
        .iter()
        .zip(want)
        .position(|(g, w)| g.to_f64().to_bits() != w.to_f64().to_bits())
    {
        None => Ok(()),
        Some(i) => Err(format!(
            "WRONG RESULT: {what}: element {i} is {}, expected {}",
            got[i].to_f64(),
            want[i].to_f64()
        )),
    }
}

/// The spacing of f16 values at `|v|` (2^-24 among the subnormals).
pub fn f16_ulp(v: f64) -> f64 {
    let e = if v == 0.0 {
        -14.0
    } else {
        v.abs().log2().floor().max(-14.0)
    };
    (e - 10.0).exp2()
}

/// The exact sum of `x` (every partial sum of at most 2^28 f16 values is exact in f64:
/// multiples of 2^-24 below 2^28 need at most 52 bits) and the sum of `|x|`.
pub fn exact_sum(x: &[f16]) -> (f64, f64) {
    x.iter().fold((0.0, 0.0), |(s, a), &v| {
        let v = v.to_f64();
        (s + v, a + v.abs())
    })
}

/// The tolerance of an f16 sum accumulated in f32 and rounded once: one f16 ulp of the
/// exact sum (the final rounding, with room for the f32 error to push it to the next
/// neighbour) plus `2^-24 sum |x|`, a generous allowance for the f32 accumulation (a blocked
/// or tree summation of zero-mean data errs by about `2^-24 sqrt(depth sum x^2)`).
pub fn sum_tolerance(exact: f64, abs_sum: f64) -> f64 {
    f16_ulp(exact) + U_F32 * abs_sum
}

/// Checks an f16 sum against the exact one: `Ok(|error|)` within [`sum_tolerance`], else
/// `WRONG RESULT`.
pub fn check_sum(what: &str, got: f16, exact: f64, abs_sum: f64) -> Result<f64, String> {
    let err = (got.to_f64() - exact).abs();
    let tol = sum_tolerance(exact, abs_sum);
    if err.is_nan() || err > tol {
        return Err(format!(
            "WRONG RESULT: {what} is {}, the exact sum is {exact} (tolerance {tol:.3e})",
            got.to_f64()
        ));
    }
    Ok(err)
}

/// The u16 pipeline on the host, in the same f32 operations as on the device:
/// `y = x as f32; lo = min y; hi = max y; scale = 65535 / (hi - lo);
/// out = ((y - lo) * scale) as u16` (truncation toward zero, saturating).
pub fn pipeline_host(x: &[u16]) -> Vec<u16> {
    let lo = x.iter().copied().min().unwrap_or(0) as f32;
    let hi = x.iter().copied().max().unwrap_or(0) as f32;
    let scale = 65535.0f32 / (hi - lo);
    x.iter()
        .map(|&v| ((v as f32 - lo) * scale) as u16)
        .collect()
}

/// Checks the pipeline's output against [`pipeline_host`] of its input: every pixel equal
/// or off by one (the final cast truncates, so a last-bit difference of the f32 value
/// just below an integer moves it by one). `Ok(pixels off by one)`, else `WRONG RESULT`.
pub fn check_pipeline(what: &str, got: &[u16], x: &[u16]) -> Result<usize, String> {
    let want = pipeline_host(x);
    if got.len() != want.len() {
        return Err(format!(
            "WRONG RESULT: {what}: {} pixels, expected {}",
            got.len(),
            want.len()
        ));
    }
    let mut off_by_one = 0;
    for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
        match g.abs_diff(w) {
            0 => {}
            1 => off_by_one += 1,
            _ => {
                return Err(format!(
                    "WRONG RESULT: {what}: pixel {i} is {g}, expected {w} (input {})",
                    x[i]
                ))
            }
        }
    }
    Ok(off_by_one)
}
