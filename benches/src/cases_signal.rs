//! The signal comparison cases, `interp` and `convolve`, each checked once, untimed, against
//! a plain host computation:
//! - `interp`: NumPy's formula (`slope * (x - xp[j]) + fp[j]` in the interval holding `x`,
//!   `fp[0]` and `fp[-1]` outside) within `1e-12` absolute (the values are in [-1, 1]);
//! - `convolve`: the direct sums of products in f64, within `1e-11` times the largest
//!   possible magnitude of an output (`max |a| * sum |v|`): the FFT path's rounding grows
//!   with the transform's length, not with each sum's terms.
//!
//! The inputs are the same bits as `scripts/bench_numpy.py` makes (`crate::data`'s SplitMix64
//! formulas), with the seeds below.

use crate::cases::{case, close, download, same_shape, Case};
use crate::data::uniform;
use crate::workloads::WorkloadId;
use cuprite::{Array, ArrayBackend, ConvolveMode, Interp, Result};

/// The points of the interpolation table (`xp = i / (INTERP_TABLE - 1)`, `fp` uniform in
/// [-1, 1]).
pub const INTERP_TABLE: usize = 100_000;

/// The length of the convolution's kernel.
pub const CONVOLVE_KERNEL: usize = 1000;

/// The seeds of the inputs, shared with `scripts/bench_numpy.py`.
pub mod seeds {
    /// The interpolation's table values and query points (uniform in [-0.1, 1.1): some
    /// left and right of the table).
    pub const INTERP: (u64, u64) = (113, 127);
    /// The convolution's signal and kernel (both uniform in [-1, 1)).
    pub const CONVOLVE: (u64, u64) = (131, 137);
}

/// Prepares the signal workload `id` on `n` elements (query points, or the signal's length).
pub fn signal_case<B: ArrayBackend>(id: WorkloadId, dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let upload = |h: &[f64]| Array::from_slice(h, &[h.len()], dev);
    Ok(match id {
        WorkloadId::InterpF64 => {
            let (sf, sx) = seeds::INTERP;
            let hxp = interp_table_x();
            let hfp = uniform(INTERP_TABLE, -1.0, 1.0, sf);
            let hx = uniform(n, -0.1, 1.1, sx);
            let (x, xp, fp) = (upload(&hx)?, upload(&hxp)?, upload(&hfp)?);
            case(
                dev,
                (x, xp, fp, hx, hxp, hfp),
                |(x, xp, fp, ..)| x.interp(xp, fp, Interp::default()),
                |(_, _, _, hx, hxp, hfp), o: &Array<f64, B>| {
                    same_shape(o.shape(), &[hx.len()])?;
                    let want: Vec<f64> = hx.iter().map(|&v| host_interp(v, hxp, hfp)).collect();
                    close(&download(o)?, &want, |_| 1e-12)
                },
            )
        }
        WorkloadId::ConvolveF64 => {
            let (sa, sv) = seeds::CONVOLVE;
            let ha = uniform(n, -1.0, 1.0, sa);
            let hv = uniform(CONVOLVE_KERNEL, -1.0, 1.0, sv);
            let (a, v) = (upload(&ha)?, upload(&hv)?);
            case(
                dev,
                (a, v, ha, hv),
                |(a, v, ..)| a.convolve(v, ConvolveMode::Full),
                |(_, _, ha, hv), o: &Array<f64, B>| {
                    let want = host_convolve(ha, hv);
                    same_shape(o.shape(), &[want.len()])?;
                    let amax = ha.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                    let bound = 1e-11 * amax * hv.iter().map(|v| v.abs()).sum::<f64>();
                    close(&download(o)?, &want, |_| bound)
                },
            )
        }
        other => {
            return Err(cuprite::Error::invalid(
                "signal_case",
                format!("{} is not a signal workload", other.key()),
            ))
        }
    })
}

/// The table's x-coordinates, `i / (INTERP_TABLE - 1)` (NumPy's
/// `np.arange(m) / (m - 1)`, the same bits).
fn interp_table_x() -> Vec<f64> {
    let last = (INTERP_TABLE - 1) as f64;
    (0..INTERP_TABLE).map(|i| i as f64 / last).collect()
}

/// NumPy's `interp` at one point of an increasing table.
fn host_interp(x: f64, xp: &[f64], fp: &[f64]) -> f64 {
    let last = xp.len() - 1;
    if x < xp[0] {
        return fp[0];
    }
    if x >= xp[last] {
        return fp[last];
    }
    // The interval j with xp[j] <= x < xp[j + 1].
    let j = xp.partition_point(|&e| e <= x) - 1;
    let slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    slope * (x - xp[j]) + fp[j]
}

/// The full convolution by its definition, `y[k] = sum_j a[k - j] v[j]`.
fn host_convolve(a: &[f64], v: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; a.len() + v.len() - 1];
    for (i, &ai) in a.iter().enumerate() {
        for (j, &vj) in v.iter().enumerate() {
            y[i + j] += ai * vj;
        }
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_references_follow_numpy() {
        let xp = [0.0, 1.0, 3.0];
        let fp = [1.0, 3.0, -1.0];
        let got: Vec<f64> = [-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0]
            .iter()
            .map(|&x| host_interp(x, &xp, &fp))
            .collect();
        assert_eq!(got, vec![1.0, 1.0, 2.0, 3.0, 1.0, -1.0, -1.0]);
        assert_eq!(
            host_convolve(&[1.0, 2.0, 3.0], &[0.0, 1.0, 0.5]),
            vec![0.0, 1.0, 2.5, 4.0, 1.5]
        );
        let t = interp_table_x();
        assert_eq!((t[0], t[INTERP_TABLE - 1]), (0.0, 1.0));
    }
}
