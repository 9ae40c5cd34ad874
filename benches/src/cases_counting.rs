//! The counting, scatter and set comparison cases: `histogram`, `bincount`, `add.at`, `isin`,
//! `intersect1d` and a two-key `lexsort`, each checked once, untimed, against a plain host
//! computation:
//! - `histogram`: the edges as NumPy's `linspace` makes them (`i * step + first`, the last
//!   edge exactly the maximum) within a few ulps, and the counts exactly, each value in the
//!   bin whose edges hold it (`edges[b] <= x < edges[b + 1]`, the last bin closed), which is
//!   where NumPy's corrected scaling puts it;
//! - `bincount`, `isin`, `intersect1d`: exact, from a table over the value range;
//! - `add.at`: each of the 1000 sums within `1e-9` of the sum of its magnitudes of a
//!   compensated host sum (the device adds in another order); the destination is reset to
//!   zeros, untimed, before each run;
//! - `lexsort`: exactly the stable host sort of the indices by (primary, secondary).
//!
//! The inputs are the same bits as `scripts/bench_numpy.py` makes (`crate::data`'s SplitMix64
//! formulas), with the seeds below.

use crate::cases::{
    case, case_with_reset, close, download, exact, host_sum, same_shape, Case, SUM_RTOL,
};
use crate::data::{normal, uniform, uniform_i64};
use crate::workloads::WorkloadId;
use cuprite::{Array, ArrayBackend, Result};

/// The bins of the histogram workload.
pub const HISTOGRAM_BINS: usize = 100;

/// The values of the bincount and lexsort keys, and the length of the add.at destination.
pub const RANGE: i64 = 1000;

/// The seeds of the inputs, shared with `scripts/bench_numpy.py`.
pub mod seeds {
    /// The histogram's normal values (this seed and the 11 after it).
    pub const HISTOGRAM: u64 = 61;
    /// The bincount's values.
    pub const BINCOUNT: u64 = 73;
    /// The add.at indices and values.
    pub const ADD_AT: (u64, u64) = (79, 83);
    /// The isin elements and test elements.
    pub const ISIN: (u64, u64) = (89, 97);
    /// The two arrays of intersect1d.
    pub const INTERSECT1D: (u64, u64) = (101, 103);
    /// The lexsort's primary (i64) and secondary (f64) keys.
    pub const LEXSORT: (u64, u64) = (107, 109);
}

/// Prepares the counting or set workload `id` on `n` elements (per input).
pub fn counting_case<B: ArrayBackend>(id: WorkloadId, dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let upload = |h: &[i64]| Array::from_slice(h, &[h.len()], dev);
    Ok(match id {
        WorkloadId::HistogramF64 => histogram_case(dev, normal(n, seeds::HISTOGRAM))?,
        WorkloadId::BincountI64 => {
            let host = uniform_i64(n, 0, RANGE, seeds::BINCOUNT);
            let k = upload(&host)?;
            case(
                dev,
                (k, host),
                |(k, _)| k.bincount(0),
                |(_, host), o: &Array<i64, B>| {
                    let want = host_bincount(host);
                    same_shape(o.shape(), &[want.len()])?;
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::AddAtF64 => add_at_case(dev, n)?,
        WorkloadId::IsinI64 => {
            let (sa, st) = seeds::ISIN;
            let ha = uniform_i64(n, 0, 2 * n as i64, sa);
            let ht = uniform_i64(n, 0, 2 * n as i64, st);
            let (a, t) = (upload(&ha)?, upload(&ht)?);
            case(
                dev,
                (a, t, ha, ht),
                |(a, t, _, _)| a.isin(t, false, false),
                move |(_, _, ha, ht), o: &Array<bool, B>| {
                    same_shape(o.shape(), &[n])?;
                    let present = table(ht, 2 * n);
                    let want: Vec<bool> = ha.iter().map(|&v| present[v as usize]).collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::Intersect1dI64 => {
            let (sa, sb) = seeds::INTERSECT1D;
            let ha = uniform_i64(n, 0, 2 * n as i64, sa);
            let hb = uniform_i64(n, 0, 2 * n as i64, sb);
            let (a, b) = (upload(&ha)?, upload(&hb)?);
            case(
                dev,
                (a, b, ha, hb),
                |(a, b, _, _)| a.intersect1d(b, false),
                move |(_, _, ha, hb), o: &Array<i64, B>| {
                    let (in_a, in_b) = (table(ha, 2 * n), table(hb, 2 * n));
                    let want: Vec<i64> = (0..2 * n)
                        .filter(|&v| in_a[v] && in_b[v])
                        .map(|v| v as i64)
                        .collect();
                    same_shape(o.shape(), &[want.len()])?;
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::Lexsort2Keys => lexsort_case(dev, n)?,
        other => {
            return Err(cuprite::Error::invalid(
                "counting_case",
                format!("{} is not a counting workload", other.key()),
            ))
        }
    })
}

/// `present[v]`: whether `v` occurs in `xs` (values in `0..len`).
fn table(xs: &[i64], len: usize) -> Vec<bool> {
    let mut present = vec![false; len];
    for &v in xs {
        present[v as usize] = true;
    }
    present
}

/// NumPy's `bincount` of non-negative values, by a plain loop.
fn host_bincount(xs: &[i64]) -> Vec<i64> {
    let len = xs.iter().max().map_or(0, |&m| m as usize + 1);
    let mut counts = vec![0i64; len];
    for &v in xs {
        counts[v as usize] += 1;
    }
    counts
}

/// NumPy's `histogram(x, bins)` with the range of the data: the counts and the edges
/// (`linspace(min, max, bins + 1)`, computed as NumPy's `i * step + min`, the last edge set
/// to `max`; a range of one value is widened by 0.5 on each side).
fn host_histogram(x: &[f64], bins: usize) -> (Vec<i64>, Vec<f64>) {
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo == hi {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    };
    let step = (hi - lo) / bins as f64;
    let mut edges: Vec<f64> = (0..=bins).map(|i| i as f64 * step + lo).collect();
    edges[bins] = hi;
    let mut counts = vec![0i64; bins];
    for &v in x {
        let b = edges.partition_point(|&e| e <= v).saturating_sub(1);
        counts[b.min(bins - 1)] += 1;
    }
    (counts, edges)
}

/// Checks a histogram against [`host_histogram`]: counts exactly, edges within a few ulps.
fn check_histogram(x: &[f64], counts: &[i64], edges: &[f64]) -> std::result::Result<(), String> {
    let (want_counts, want_edges) = host_histogram(x, HISTOGRAM_BINS);
    let scale = want_edges[0].abs().max(want_edges[HISTOGRAM_BINS].abs());
    close(edges, &want_edges, |_| 4.0 * f64::EPSILON * scale).map_err(|e| format!("edges: {e}"))?;
    exact(counts, &want_counts).map_err(|e| format!("counts: {e}"))
}

/// `x.histogram(100, None)`: the counts and the edges.
fn histogram_case<B: ArrayBackend>(dev: &B, host: Vec<f64>) -> Result<Box<dyn Case>> {
    let x = Array::from_slice(&host, &[host.len()], dev)?;
    Ok(case(
        dev,
        (x, host),
        |(x, _)| x.histogram(HISTOGRAM_BINS, None),
        |(_, host), (counts, edges): &(Array<i64, B>, Array<f64, B>)| {
            same_shape(counts.shape(), &[HISTOGRAM_BINS])?;
            same_shape(edges.shape(), &[HISTOGRAM_BINS + 1])?;
            check_histogram(host, &download(counts)?, &download(edges)?)
        },
    ))
}

/// The state of the add.at case: the zeros the destination is reset to, the destination, the
/// indices and values, and their host copies.
struct AddAt<B: ArrayBackend> {
    zeros: Array<f64, B>,
    a: Array<f64, B>,
    idx: Array<i64, B>,
    v: Array<f64, B>,
    hidx: Vec<i64>,
    hv: Vec<f64>,
}

/// `a.add_at(&idx, &v)` into `a = zeros(1000)`, reset untimed before each run.
fn add_at_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let (si, sv) = seeds::ADD_AT;
    let hidx = uniform_i64(n, 0, RANGE, si);
    let hv = uniform(n, -1.0, 1.0, sv);
    let zeros = Array::<f64, B>::zeros(&[RANGE as usize], dev)?;
    let state = AddAt {
        a: zeros.copy()?,
        zeros,
        idx: Array::from_slice(&hidx, &[n], dev)?,
        v: Array::from_slice(&hv, &[n], dev)?,
        hidx,
        hv,
    };
    Ok(case_with_reset(
        dev,
        state,
        |s: &mut AddAt<B>| s.a.assign(&s.zeros),
        |s: &mut AddAt<B>| s.a.add_at(&s.idx, &s.v),
        |s: &AddAt<B>, _: &()| {
            same_shape(s.a.shape(), &[RANGE as usize])?;
            let mut bins: Vec<Vec<f64>> = vec![Vec::new(); RANGE as usize];
            for (&i, &v) in s.hidx.iter().zip(&s.hv) {
                bins[i as usize].push(v);
            }
            let lanes: Vec<(f64, f64)> = bins.iter().map(|b| host_sum(b.iter().copied())).collect();
            let want: Vec<f64> = lanes.iter().map(|l| l.0).collect();
            close(&download(&s.a)?, &want, |i| SUM_RTOL * lanes[i].1)
        },
    ))
}

/// NumPy's `lexsort((f, k))` (`k` primary): `k.argsort_after(&f.argsort(0)?, 0)`, the
/// documented form for keys of two element types.
fn lexsort_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let (sk, sf) = seeds::LEXSORT;
    let hk = uniform_i64(n, 0, RANGE, sk);
    let hf = uniform(n, 0.0, 1.0, sf);
    let k = Array::from_slice(&hk, &[n], dev)?;
    let f = Array::from_slice(&hf, &[n], dev)?;
    Ok(case(
        dev,
        (k, f, hk, hf),
        |(k, f, _, _)| k.argsort_after(&f.argsort(0)?, 0),
        move |(_, _, hk, hf), o: &Array<i64, B>| {
            same_shape(o.shape(), &[n])?;
            let mut want: Vec<i64> = (0..n as i64).collect();
            want.sort_by(|&i, &j| {
                let (i, j) = (i as usize, j as usize);
                hk[i].cmp(&hk[j]).then(hf[i].total_cmp(&hf[j]))
            });
            exact(&download(o)?, &want)
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_histogram_follows_the_edges() {
        let x = [0.0, 1.0, 2.0, 3.0, 4.0, 2.5, 1.25];
        let (counts, edges) = host_histogram(&x, 4);
        assert_eq!(edges, [0.0, 1.0, 2.0, 3.0, 4.0]);
        // The last bin includes its right edge.
        assert_eq!(counts, [1, 2, 2, 2]);
        let (c, e) = host_histogram(&[5.0, 5.0], 2);
        assert_eq!(e, [4.5, 5.0, 5.5]);
        assert_eq!(c, [0, 2]);
    }

    #[test]
    fn the_histogram_check_sees_a_moved_count() {
        let x = normal(10_000, seeds::HISTOGRAM);
        let (mut counts, edges) = host_histogram(&x, HISTOGRAM_BINS);
        assert_eq!(counts.iter().sum::<i64>(), 10_000);
        assert!(check_histogram(&x, &counts, &edges).is_ok());
        counts[40] -= 1;
        counts[41] += 1;
        assert!(check_histogram(&x, &counts, &edges).is_err());
    }

    #[test]
    fn every_case_checks_out_on_the_cpu() {
        let dev = cuprite::Cpu::new();
        for id in [
            WorkloadId::HistogramF64,
            WorkloadId::BincountI64,
            WorkloadId::AddAtF64,
            WorkloadId::IsinI64,
            WorkloadId::Intersect1dI64,
            WorkloadId::Lexsort2Keys,
        ] {
            let mut c = counting_case(id, &dev, 3000).unwrap();
            for _ in 0..2 {
                c.reset().unwrap();
                c.run().unwrap();
                assert_eq!(c.check(), Ok(()), "{}", id.key());
            }
        }
        assert!(counting_case(WorkloadId::Sum, &dev, 10).is_err());
    }

    #[test]
    fn add_at_needs_its_reset() {
        let dev = cuprite::Cpu::new();
        let mut c = counting_case(WorkloadId::AddAtF64, &dev, 3000).unwrap();
        c.reset().unwrap();
        c.run().unwrap();
        c.run().unwrap();
        assert!(c.check().unwrap_err().contains("expected"));
    }

    #[test]
    fn the_host_bincount_and_table_count_every_value() {
        assert_eq!(host_bincount(&[0, 2, 2, 5]), [1, 0, 2, 0, 0, 1]);
        assert_eq!(table(&[1, 3], 4), [false, true, false, true]);
    }
}
