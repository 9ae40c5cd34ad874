//! The random-number and Fourier-transform comparison cases, each checked once, untimed,
//! against something the backend did not compute:
//! - `random`: every value in [0, 1), the mean and variance of U(0, 1) within six standard
//!   errors, and on a backend other than `Cpu` the exact bits of the `Cpu` draw from the same
//!   generator state (the generator is counter-based, so the streams must be identical);
//! - `fft`: Parseval's identity over the whole output, and probe bins (a few per transform)
//!   against a direct DFT on the host with exactly reduced twiddle angles.

use crate::cases::{case, download, same_shape, Case};
use crate::data::uniform;
use cuprite::fft::{self, Norm};
use cuprite::random::Generator;
use cuprite::{c128, Array, ArrayBackend, Cpu, Result};

/// The draw checked by [`random_case`]: the generator state before it and the result.
struct Draw<B: ArrayBackend> {
    rng: Generator,
    before: Generator,
    dims: Vec<usize>,
    dev: B,
}

/// `rng.random::<f64>(dims)`, a fresh stretch of the stream per call.
pub fn random_case<B: ArrayBackend>(dev: &B, dims: &[usize]) -> Result<Box<dyn Case>> {
    let rng = Generator::new(7);
    let state = Draw {
        before: rng,
        rng,
        dims: dims.to_vec(),
        dev: dev.clone(),
    };
    Ok(case(
        dev,
        state,
        |s: &mut Draw<B>| {
            s.before = s.rng;
            s.rng.random::<f64, B>(&s.dims, &s.dev)
        },
        |s: &Draw<B>, o: &Array<f64, B>| {
            same_shape(o.shape(), &s.dims)?;
            let got = download(o)?;
            check_uniform(&got)?;
            if s.dev.label() != "cpu" {
                let mut before = s.before;
                let want = before
                    .random::<f64, Cpu>(&s.dims, &Cpu::new())
                    .and_then(|a| a.to_vec())
                    .map_err(|e| format!("Cpu reference draw failed: {e}"))?;
                if let Some(i) = got
                    .iter()
                    .zip(&want)
                    .position(|(g, w)| g.to_bits() != w.to_bits())
                {
                    return Err(format!(
                        "element {i} is {}, the Cpu draw of the same state is {}",
                        got[i], want[i]
                    ));
                }
            }
            Ok(())
        },
    ))
}

/// Values in [0, 1) with the mean (1/2) and variance (1/12) of U(0, 1) within six standard
/// errors.
fn check_uniform(x: &[f64]) -> std::result::Result<(), String> {
    if let Some(i) = x.iter().position(|v| !(0.0..1.0).contains(v)) {
        return Err(format!("element {i} is {}, outside [0, 1)", x[i]));
    }
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    // Standard errors: sqrt(1/12 / n) for the mean, sqrt(1/180 / n) for the variance.
    if (mean - 0.5).abs() > 6.0 * (1.0 / 12.0 / n).sqrt() {
        return Err(format!("mean {mean} of {n} uniforms"));
    }
    if (var - 1.0 / 12.0).abs() > 6.0 * (1.0 / 180.0 / n).sqrt() {
        return Err(format!("variance {var} of {n} uniforms"));
    }
    Ok(())
}

/// `n` complex values with real and imaginary parts uniform in [-1, 1).
fn complex_input(n: usize) -> Vec<c128> {
    let re = uniform(n, -1.0, 1.0, 41);
    let im = uniform(n, -1.0, 1.0, 43);
    re.into_iter()
        .zip(im)
        .map(|(r, i)| c128::new(r, i))
        .collect()
}

/// Bin `k` of the DFT of `x`, summed in f64 with the angle of each term reduced exactly.
fn dft_bin(x: &[c128], k: usize) -> c128 {
    let n = x.len();
    let step = 2.0 * std::f64::consts::PI / n as f64;
    x.iter()
        .enumerate()
        .map(|(j, v)| {
            let (s, c) = (-step * ((j * k % n) as f64)).sin_cos();
            v * c128::new(c, s)
        })
        .sum()
}

/// `fft(x)` along the last axis of a `[batch, n]` (or `[n]`) c128 array.
pub fn fft_case<B: ArrayBackend>(dev: &B, dims: &[usize]) -> Result<Box<dyn Case>> {
    let n = *dims.last().unwrap_or(&1);
    let host = complex_input(dims.iter().product());
    let x = Array::from_slice(&host, dims, dev)?;
    let dims = dims.to_vec();
    Ok(case(
        dev,
        (x, host),
        |(x, _)| fft::fft(x, None, -1, Norm::Backward),
        move |(_, host), o: &Array<c128, B>| {
            same_shape(o.shape(), &dims)?;
            let got = download(o)?;
            check_fft(host, &got, n)
        },
    ))
}

/// Parseval per batch and probe bins against [`dft_bin`].
fn check_fft(x: &[c128], got: &[c128], n: usize) -> std::result::Result<(), String> {
    let rows = x.len() / n.max(1);
    let probes = uniform(8, 0.0, 1.0, 47);
    for (r, (xr, gr)) in x.chunks(n).zip(got.chunks(n)).enumerate() {
        let ex: f64 = xr.iter().map(|v| v.norm_sqr()).sum();
        let eg: f64 = gr.iter().map(|v| v.norm_sqr()).sum();
        if (eg - n as f64 * ex).abs() > 1e-10 * n as f64 * ex {
            return Err(format!(
                "transform {r}: energy {eg}, Parseval says {}",
                n as f64 * ex
            ));
        }
        // A few rows get probed bins (a direct DFT is O(n) per bin).
        if r % (rows / 4).max(1) != 0 {
            continue;
        }
        let mag: f64 = xr.iter().map(|v| v.norm()).sum();
        for p in &probes {
            let k = ((p * n as f64) as usize).min(n - 1);
            let want = dft_bin(xr, k);
            if (gr[k] - want).norm() > 1e-12 * mag.max(1.0) {
                return Err(format!(
                    "transform {r}, bin {k}: {}, a direct DFT gives {want}",
                    gr[k]
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fft_check_rejects_a_wrong_bin_and_accepts_the_dft() {
        let n = 12;
        let x = complex_input(2 * n);
        let mut good: Vec<c128> = x
            .chunks(n)
            .flat_map(|r| (0..n).map(|k| dft_bin(r, k)).collect::<Vec<_>>())
            .collect();
        assert!(check_fft(&x, &good, n).is_ok());
        // A swap of two bins keeps the energy: only the probes can see it.
        let k = ((uniform(8, 0.0, 1.0, 47)[0] * n as f64) as usize).min(n - 1);
        good.swap(k, (k + 1) % n);
        assert!(check_fft(&x, &good, n).is_err());
    }

    #[test]
    fn the_uniform_check_sees_a_shifted_draw() {
        let u = uniform(100_000, 0.0, 1.0, 3);
        assert!(check_uniform(&u).is_ok());
        let shifted: Vec<f64> = u.iter().map(|v| v * 0.99).collect();
        assert!(check_uniform(&shifted).is_err());
        assert!(check_uniform(&[1.0]).is_err());
    }
}
