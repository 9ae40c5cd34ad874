//! Every program on the Cpu backend at a tiny size against an independent reference: a
//! naive scalar loop over `Vec<f64>` or an identity (L U = A, L L^T = A, Q^T Q = I, rows of a
//! softmax summing to 1). No Python needed; sizes are tiny because the test profile of this
//! crate is unoptimised.

use super::*;
use cuprite::Cpu;

/// Runs program `key` with parameters `p` through [`prepare`] and returns its outputs.
fn run(key: &str, p: &[usize]) -> Vec<Vec<f64>> {
    let dev = Cpu::new();
    let mut r = prepare(key, p, &dev).unwrap();
    r.reset().unwrap();
    r.run().unwrap();
    r.outputs().unwrap()
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x - y).abs() <= tol * (1.0 + y.abs()), "[{i}]: {x} vs {y}");
    }
}

/// `v[i*m + j] = f(i, j)`.
fn host(n: usize, m: usize, f: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    (0..n * m).map(|k| f(k / m, k % m)).collect()
}

#[test]
fn jacobi_2d_matches_a_scalar_loop() {
    let (n, t) = (8, 4);
    let nf = n as f64;
    let mut a = host(n, n, |i, j| (i * (j + 2) + 2) as f64 / nf);
    let mut b = host(n, n, |i, j| (i * (j + 3) + 3) as f64 / nf);
    let step = |src: &[f64], dst: &mut [f64]| {
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                let c = |i: usize, j: usize| src[i * n + j];
                dst[i * n + j] =
                    0.2 * (c(i, j) + c(i, j - 1) + c(i, j + 1) + c(i + 1, j) + c(i - 1, j));
            }
        }
    };
    for _ in 1..t {
        step(&a, &mut b);
        step(&b, &mut a);
    }
    close(&run("jacobi_2d", &[n, t])[0], &a, 1e-12);
}

#[test]
fn heat_3d_matches_a_scalar_loop() {
    let (n, t) = (6, 3);
    let idx = |i: usize, j: usize, k: usize| (i * n + j) * n + k;
    let mut a: Vec<f64> = (0..n * n * n)
        .map(|x| {
            let (i, j, k) = (x / (n * n), (x / n) % n, x % n);
            ((i + j + (n - k)) * 10) as f64 / n as f64
        })
        .collect();
    let mut b = a.clone();
    let step = |s: &[f64], d: &mut [f64]| {
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                for k in 1..n - 1 {
                    let c = s[idx(i, j, k)];
                    d[idx(i, j, k)] = 0.125 * (s[idx(i + 1, j, k)] - 2.0 * c + s[idx(i - 1, j, k)])
                        + 0.125 * (s[idx(i, j + 1, k)] - 2.0 * c + s[idx(i, j - 1, k)])
                        + 0.125 * (s[idx(i, j, k + 1)] - 2.0 * c + s[idx(i, j, k - 1)])
                        + c;
                }
            }
        }
    };
    for _ in 1..t {
        step(&a, &mut b);
        step(&b, &mut a);
    }
    close(&run("heat_3d", &[n, t])[0], &a, 1e-12);
}

#[test]
fn fdtd_2d_matches_a_scalar_loop() {
    let (nx, ny, tmax) = (5, 6, 3);
    let mut ex = host(nx, ny, |i, j| (i * (j + 1)) as f64 / nx as f64);
    let mut ey = host(nx, ny, |i, j| (i * (j + 2)) as f64 / ny as f64);
    let mut hz = host(nx, ny, |i, j| (i * (j + 3)) as f64 / nx as f64);
    let at = |i: usize, j: usize| i * ny + j;
    for t in 0..tmax {
        for j in 0..ny {
            ey[at(0, j)] = t as f64;
        }
        for i in 1..nx {
            for j in 0..ny {
                ey[at(i, j)] -= 0.5 * (hz[at(i, j)] - hz[at(i - 1, j)]);
            }
        }
        for i in 0..nx {
            for j in 1..ny {
                ex[at(i, j)] -= 0.5 * (hz[at(i, j)] - hz[at(i, j - 1)]);
            }
        }
        for i in 0..nx - 1 {
            for j in 0..ny - 1 {
                hz[at(i, j)] -=
                    0.7 * (ex[at(i, j + 1)] - ex[at(i, j)] + ey[at(i + 1, j)] - ey[at(i, j)]);
            }
        }
    }
    let out = run("fdtd_2d", &[nx, ny, tmax]);
    close(&out[0], &ex, 1e-12);
    close(&out[1], &ey, 1e-12);
    close(&out[2], &hz, 1e-12);
}

fn spd(n: usize) -> Vec<f64> {
    host(n, n, |i, j| {
        frac(i, j, n) + if i == j { n as f64 } else { 0.0 }
    })
}

#[test]
fn lu_factors_reproduce_the_matrix() {
    let n = 7;
    let f = &run("lu", &[n])[0];
    let a = spd(n);
    for i in 0..n {
        for j in 0..n {
            // (L U)[i, j] with L unit lower (below the diagonal of f) and U upper.
            let s: f64 = (0..=i.min(j))
                .map(|k| {
                    let l = if k == i { 1.0 } else { f[i * n + k] };
                    l * f[k * n + j]
                })
                .sum();
            assert!((s - a[i * n + j]).abs() < 1e-10, "({i},{j}): {s}");
        }
    }
}

#[test]
fn cholesky_factor_reproduces_the_matrix() {
    let n = 7;
    let f = &run("cholesky", &[n])[0];
    let a = spd(n);
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..=j).map(|k| f[i * n + k] * f[j * n + k]).sum();
            assert!((s - a[i * n + j]).abs() < 1e-10, "({i},{j}): {s}");
        }
    }
}

#[test]
fn gramschmidt_gives_orthonormal_q_and_q_r_equal_a() {
    let (m, n) = (9, 6);
    let out = run("gramschmidt", &[m, n]);
    let (q, r) = (&out[0], &out[1]);
    let a = host(m, n, |i, j| frac(i, j, m) + if i == j { 2.0 } else { 0.0 });
    for j in 0..n {
        for k in 0..n {
            let qtq: f64 = (0..m).map(|i| q[i * n + j] * q[i * n + k]).sum();
            let want = if j == k { 1.0 } else { 0.0 };
            assert!((qtq - want).abs() < 1e-10, "Q^T Q ({j},{k}) = {qtq}");
        }
    }
    for i in 0..m {
        for j in 0..n {
            let qr: f64 = (0..n).map(|k| q[i * n + k] * r[k * n + j]).sum();
            assert!((qr - a[i * n + j]).abs() < 1e-10);
        }
    }
}

#[test]
fn covariance_matches_a_scalar_loop() {
    let (m, n) = (5, 8);
    let data = host(n, m, |i, j| (i * j) as f64 / m as f64);
    let mean: Vec<f64> = (0..m)
        .map(|j| (0..n).map(|i| data[i * m + j]).sum::<f64>() / n as f64)
        .collect();
    let cov = host(m, m, |a, b| {
        (0..n)
            .map(|i| (data[i * m + a] - mean[a]) * (data[i * m + b] - mean[b]))
            .sum::<f64>()
            / (n as f64 - 1.0)
    });
    close(&run("covariance", &[m, n])[0], &cov, 1e-10);
}

#[test]
fn softmax_rows_sum_to_one_and_match_a_scalar_loop() {
    let (r, c) = (4, 7);
    let out = &run("softmax", &[r, c])[0];
    let x = host(r, c, |i, j| frac(i, j, c) * 10.0);
    for i in 0..r {
        let row = &x[i * c..(i + 1) * c];
        let mx = row.iter().copied().fold(f64::MIN, f64::max);
        let s: f64 = row.iter().map(|v| (v - mx).exp()).sum();
        for j in 0..c {
            assert!((out[i * c + j] - (row[j] - mx).exp() / s).abs() < 1e-12);
        }
        let total: f64 = out[i * c..(i + 1) * c].iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}

#[test]
fn mlp_matches_a_scalar_loop() {
    let p = [3, 5, 4, 6, 2];
    let out = &run("mlp", &p)[0];
    let mut x = host(p[0], p[1], |i, j| frac(i, j, p[1]));
    for l in 0..3 {
        let (fi, fo) = (p[l + 1], p[l + 2]);
        let w = host(fi, fo, |i, j| {
            (((i + 2 * j) % 7) as f64 - 3.0) / (3 * fi) as f64
        });
        let y = host(p[0], fo, |b, j| {
            (0..fi).map(|k| x[b * fi + k] * w[k * fo + j]).sum::<f64>()
                + ((j % 5) as f64 - 2.0) / 10.0
        });
        x = if l < 2 {
            y.iter().map(|v| v.max(0.0)).collect()
        } else {
            let mut s = y.clone();
            for b in 0..p[0] {
                let row = &y[b * fo..(b + 1) * fo];
                let mx = row.iter().copied().fold(f64::MIN, f64::max);
                let tot: f64 = row.iter().map(|v| (v - mx).exp()).sum();
                for j in 0..fo {
                    s[b * fo + j] = (row[j] - mx).exp() / tot;
                }
            }
            s
        };
    }
    close(out, &x, 1e-12);
}

#[test]
fn gesummv_matches_a_scalar_loop() {
    let n = 6;
    let y: Vec<f64> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let x = (j % n) as f64 / n as f64;
                    1.5 * frac(i, j, n) * x + 1.2 * (((i * j + 2) % n) as f64 / n as f64) * x
                })
                .sum()
        })
        .collect();
    close(&run("gesummv", &[n])[0], &y, 1e-12);
}

#[test]
fn nbody_matches_a_scalar_loop() {
    let (n, nt, dt, soft) = (6, 3, 0.01, 0.1);
    let mass: Vec<f64> = (0..n)
        .map(|i| (20 * (1 + i % 3)) as f64 / n as f64)
        .collect();
    let mut pos = host(n, 3, |i, k| ((i * (2 * k + 3) + k) % 97) as f64 / 97.0);
    let mut vel = host(n, 3, |i, k| ((i * (k + 1) + 1) % 13) as f64 / 13.0 - 0.5);
    let acc = |pos: &[f64]| {
        let mut a = vec![0.0; n * 3];
        for i in 0..n {
            for j in 0..n {
                let d: Vec<f64> = (0..3).map(|k| pos[j * 3 + k] - pos[i * 3 + k]).collect();
                let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + soft * soft;
                for k in 0..3 {
                    a[i * 3 + k] += d[k] * r2.powf(-1.5) * mass[j];
                }
            }
        }
        a
    };
    let mm = mass.iter().sum::<f64>() / n as f64;
    for k in 0..3 {
        let mv = (0..n).map(|i| mass[i] * vel[i * 3 + k]).sum::<f64>() / n as f64;
        for i in 0..n {
            vel[i * 3 + k] -= mv / mm;
        }
    }
    let mut a = acc(&pos);
    for _ in 0..nt {
        (0..n * 3).for_each(|x| vel[x] += a[x] * dt / 2.0);
        (0..n * 3).for_each(|x| pos[x] += vel[x] * dt);
        a = acc(&pos);
        (0..n * 3).for_each(|x| vel[x] += a[x] * dt / 2.0);
    }
    let out = run("nbody", &[n, nt]);
    close(&out[0], &pos, 1e-10);
    close(&out[1], &vel, 1e-10);
}

#[test]
fn mandelbrot_matches_a_scalar_loop() {
    let (xn, yn, maxiter) = (9, 7, 12);
    let out = run("mandelbrot", &[xn, yn, maxiter]);
    let lin = |a: f64, b: f64, n: usize, k: usize| a + k as f64 * (b - a) / (n - 1) as f64;
    let mut wrong = 0;
    for r in 0..yn {
        for c in 0..xn {
            let cc = c128::new(lin(-2.25, 0.75, xn, c), lin(-1.25, 1.25, yn, r));
            let (mut z, mut it) = (c128::new(0.0, 0.0), 0i64);
            for k in 0..maxiter {
                if z.norm() < 2.0 {
                    it = k as i64;
                    z = z * z + cc;
                }
            }
            if it == maxiter as i64 - 1 {
                it = 0;
            }
            wrong += usize::from(out[1][r * xn + c] != it as f64);
        }
    }
    assert!(wrong <= 1, "{wrong} escape counts differ");
    assert_eq!(out[0].len(), 2 * xn * yn);
}

#[test]
fn azimint_hist_matches_a_scalar_histogram() {
    let (n, npt) = (100, 8);
    let out = &run("azimint_hist", &[n, npt])[0];
    let w = 10i64;
    let r: Vec<f64> = (0..n as i64)
        .map(|i| (((i / w - 5).pow(2) + (i % w - 5).pow(2)) as f64).sqrt())
        .collect();
    let d: Vec<f64> = (0..n)
        .map(|i| ((i * 31 + 7) % 101) as f64 / 101.0)
        .collect();
    let (lo, hi) = (0.0, r.iter().copied().fold(0.0, f64::max));
    let (mut cnt, mut sum) = (vec![0.0; npt], vec![0.0; npt]);
    for (x, v) in r.iter().zip(&d) {
        let b = (((x - lo) / (hi - lo) * npt as f64) as usize).min(npt - 1);
        cnt[b] += 1.0;
        sum[b] += v;
    }
    let want: Vec<f64> = sum.iter().zip(&cnt).map(|(s, c)| s / c).collect();
    close(out, &want, 1e-12);
}

#[test]
fn spmv_coo_matches_a_scalar_loop() {
    let (n, k) = (13, 3);
    let mut y = vec![0.0; n];
    for p in 0..n * k {
        let (row, col) = (p / k, ((p / k) * 31 + (p % k) * 97 + 7) % n);
        y[row] += ((p * 13) % 17 + 1) as f64 / 17.0 * ((col % 11 + 1) as f64 / 11.0);
    }
    close(&run("spmv_coo", &[n, k])[0], &y, 1e-12);
}

#[test]
fn cavity_flow_keeps_its_boundaries_and_stays_finite() {
    let n = 7;
    let out = run("cavity_flow", &[n, 3, 4]);
    let (u, v, p) = (&out[0], &out[1], &out[2]);
    for j in 0..n {
        assert_eq!(u[(n - 1) * n + j], 1.0, "the lid moves");
        assert_eq!(u[j], 0.0);
        assert_eq!(v[j], 0.0);
        assert_eq!(p[(n - 1) * n + j], 0.0);
    }
    assert!(u.iter().chain(v).chain(p).all(|x| x.is_finite()));
    // The lid drives the row below it forward.
    assert!(u[(n - 2) * n + n / 2] > 0.0);
}

#[test]
fn micro_statements_match_scalar_loops() {
    let dev = Cpu::new();
    let n = 10;
    let mut a =
        Array::<f64, Cpu>::from_vec((0..n).map(|i| i as f64).collect(), &[n], &dev).unwrap();
    let mut b = a.copy().unwrap();
    micro::stencil1d_loop(&mut a, &mut b, 1).unwrap();
    // After one step and the swap, `a` holds the new values.
    let got = a.to_vec().unwrap();
    for (i, g) in got.iter().enumerate().take(n - 1).skip(1) {
        assert!((g - i as f64).abs() < 1e-12);
    }
    for owned in [false, true] {
        let mut m = factor::spd_init::<Cpu>(5, &dev).unwrap();
        let orig = m.to_vec().unwrap();
        if owned {
            micro::lu_diag_div_owned(&mut m).unwrap();
        } else {
            micro::lu_diag_div(&mut m).unwrap();
        }
        let got = m.to_vec().unwrap();
        for i in 0..5 {
            for j in 0..5 {
                let want = if j < i {
                    orig[i * 5 + j] / orig[j * 5 + j]
                } else {
                    orig[i * 5 + j]
                };
                assert_eq!(got[i * 5 + j], want);
            }
        }
        for p in PROGRAMS.iter().filter(|p| p.micro) {
            assert!(
                micro::case(p.key, p.small.to_vec(), &dev).is_some(),
                "{}",
                p.key
            );
        }
    }
}

#[test]
fn the_check_counts_differences() {
    let d = def("mandelbrot").unwrap();
    let r = vec![vec![1.0; 1000]];
    let mut g = r.clone();
    g[0][3] = 2.0;
    assert!(
        runner::check_outputs(d, &g, &r).is_ok(),
        "one in 1000 is allowed"
    );
    g[0][4] = 2.0;
    g[0][5] = 2.0;
    assert!(runner::check_outputs(d, &g, &r).is_err());
    let lu = def("lu").unwrap();
    assert!(runner::check_outputs(lu, &[vec![f64::NAN]], &[vec![f64::NAN]]).is_ok());
    assert!(runner::check_outputs(lu, &[vec![1.0]], &[vec![1.0, 2.0]]).is_err());
}
