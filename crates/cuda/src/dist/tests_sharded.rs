//! Sharded arrays against the same ops on one GPU, on three meshes: one NCCL rank, and
//! three and four ranks simulated on one GPU (device copies in place of NCCL, so the
//! algorithms that split, cut and exchange rows run with several ranks, shards of unequal
//! length and empty shards). Every result is compared with the single-GPU op on the whole
//! array; random draws and sorts bit for bit. Runs where a GPU is (ignored elsewhere); the
//! NCCL mesh also needs NCCL.

use super::*;
use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::random::Generator;
use cuprite_core::testing::{assert_allclose, assert_array_equal};
use cuprite_core::{Array, Result};
use std::rc::Rc;

/// A mesh and what it is.
type Named = (String, Rc<Mesh>);

/// The meshes under test on the first GPU: one NCCL rank (when NCCL loads), and three and
/// four simulated ranks.
fn meshes() -> Option<(Cuda, Vec<Named>)> {
    let dev = gpu()?;
    let mut out = Vec::new();
    match Mesh::new(std::slice::from_ref(&dev)) {
        Ok(m) => out.push(("one NCCL rank".to_string(), m)),
        Err(e) => eprintln!("the NCCL mesh is skipped: {e}"),
    }
    for n in [3, 4] {
        out.push((
            format!("{n} simulated ranks"),
            Mesh::simulated(vec![dev.clone(); n]),
        ));
    }
    Some((dev, out))
}

/// Distinct f64 values with NaN, infinities, signed zeros and repeats among them.
fn awkward(n: usize, seed: u64) -> Vec<f64> {
    let mut g = Generator::new(seed);
    let dev = cuprite_cpu::Cpu;
    let u = g.random::<f64, _>(&[n], &dev).unwrap().to_vec().unwrap();
    u.iter()
        .enumerate()
        .map(|(i, &x)| match i % 23 {
            3 => f64::NAN,
            7 => -0.0,
            8 => 0.0,
            11 => f64::INFINITY,
            13 => f64::NEG_INFINITY,
            17 => 0.5,
            _ => (x - 0.5) * 100.0,
        })
        .collect()
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sharded_creation_matches_one_gpu() {
    let Some((dev, meshes)) = meshes() else {
        return;
    };
    for (name, mesh) in &meshes {
        let go = || -> Result<()> {
            let world = mesh.world_size();
            for (shape, axis) in [
                (vec![1001, 3], 0),
                (vec![7, 1001], 1),
                (vec![2, 5], 0),
                (vec![0, 4], 0),
            ] {
                // Random draws: the same bits as one GPU, and the generator left where one
                // GPU leaves it.
                let (mut a, mut b) = (Generator::new(11), Generator::new(11));
                let s = ShardedArray::<f64>::random(mesh, &mut a, &shape, axis)?;
                let w = b.random::<f64, Cuda>(&shape, &dev)?;
                assert_eq!(
                    bits(&s.to_vec()?),
                    bits(&w.to_vec()?),
                    "{name}: random {shape:?}"
                );
                assert_eq!(a, b);
                assert_eq!(s.split(), &even_split(shape[axis], world)[..]);
                let s = ShardedArray::<f32>::uniform(mesh, &mut a, -1.0, 3.0, &shape, axis)?;
                let w = b.uniform::<f32, Cuda>(-1.0, 3.0, &shape, &dev)?;
                assert_eq!(s.to_vec()?, w.to_vec()?, "{name}: uniform {shape:?}");
                let s = ShardedArray::<f64>::normal(mesh, &mut a, 2.0, 0.5, &shape, axis)?;
                let w = b.normal::<f64, Cuda>(2.0, 0.5, &shape, &dev)?;
                assert_eq!(
                    bits(&s.to_vec()?),
                    bits(&w.to_vec()?),
                    "{name}: normal {shape:?}"
                );
                // Filled, and split from a host array.
                let z = ShardedArray::<i32>::full(mesh, &shape, axis, 7)?;
                assert!(z.to_vec()?.iter().all(|&x| x == 7));
                assert_eq!(z.gather(&dev)?.shape(), &shape[..]);
                let host = cuprite_cpu::Cpu;
                let n: usize = shape.iter().product();
                let dims: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
                let src = Array::<i64, _>::ramp(n, 0, 1, &host)?.reshape(&dims)?;
                let s = ShardedArray::from_array(mesh, &src, axis)?;
                assert_eq!(s.to_vec()?, src.to_vec()?, "{name}: from_array {shape:?}");
                assert_eq!(
                    s.all_gather()?.to_vec()?,
                    src.to_vec()?,
                    "{name}: all_gather"
                );
                for (r, sh) in mesh.ranks().into_iter().zip(s.shards()) {
                    assert_eq!(sh.shape()[axis], s.rows_of(r).len());
                }
            }
            let r = ShardedArray::<f32>::ramp(mesh, 1003, -2.0, 0.25)?;
            assert_eq!(
                r.to_vec()?,
                Array::<f32, Cuda>::ramp(1003, -2.0, 0.25, &dev)?.to_vec()?
            );
            // Refusals.
            assert!(ShardedArray::<f64>::zeros(mesh, &[3, 4], 2).is_err());
            assert!(ShardedArray::<f64>::zeros(mesh, &[], 0).is_err());
            let mut g = Generator::new(1);
            assert!(ShardedArray::<f64>::uniform(mesh, &mut g, 1.0, 1.0, &[4], 0).is_err());
            assert!(ShardedArray::<f64>::normal(mesh, &mut g, 0.0, -1.0, &[4], 0).is_err());
            Ok(())
        };
        go().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sharded_shards_assemble_and_reshard() {
    let Some((dev, meshes)) = meshes() else {
        return;
    };
    for (name, mesh) in &meshes {
        let go = || -> Result<()> {
            let world = mesh.world_size();
            // Shards of chosen lengths, one of them empty.
            let lens: Vec<usize> = (0..world).map(|r| [3, 0, 5, 2][r % 4]).collect();
            let mut at = 0;
            let mut offsets = vec![0];
            let shards = mesh
                .ranks()
                .into_iter()
                .zip(mesh.devices())
                .map(|(r, d)| {
                    let start: usize = lens[..r].iter().sum();
                    Array::<f64, Cuda>::ramp(lens[r] * 4, (start * 4) as f64, 1.0, &d)?
                        .reshape(&[lens[r] as isize, 4])
                })
                .collect::<Result<Vec<_>>>()?;
            for l in &lens {
                at += l;
                offsets.push(at);
            }
            let s = ShardedArray::from_shards(mesh, shards, 0)?;
            assert_eq!(s.split(), &offsets[..]);
            assert_eq!(s.shape(), &[at, 4]);
            let whole =
                Array::<f64, Cuda>::ramp(at * 4, 0.0, 1.0, &dev)?.reshape(&[at as isize, 4])?;
            assert_array_equal(&s.gather(&dev)?, &whole);
            // Along the other axis, back, and to a chosen split of the same axis.
            let t = s.reshard(1)?;
            assert_eq!(t.axis(), 1);
            assert_eq!(t.split(), &even_split(4, world)[..]);
            assert_array_equal(&t.gather(&dev)?, &whole);
            let back = t.reshard(0)?;
            assert_eq!(back.split(), &even_split(at, world)[..]);
            assert_array_equal(&back.gather(&dev)?, &whole);
            // Everything on the second-to-last rank (on the only one of a one-rank mesh).
            let custom: Vec<usize> = (0..=world)
                .map(|k| {
                    if k >= world.saturating_sub(1).max(1) {
                        at
                    } else {
                        0
                    }
                })
                .collect();
            let c = back.reshard_to(0, custom.clone())?;
            assert_eq!(c.split(), &custom[..]);
            assert_array_equal(&c.gather(&dev)?, &whole);
            // Refusals.
            assert!(back.reshard(2).is_err());
            assert!(back.reshard_to(0, vec![0, at]).is_err() || world == 1);
            let mut bad = even_split(at, world);
            bad[world] += 1;
            assert!(back.reshard_to(0, bad).is_err());
            assert!(ShardedArray::<f64>::from_shards(mesh, vec![], 0).is_err());
            let odd = mesh
                .devices()
                .iter()
                .enumerate()
                .map(|(l, d)| Array::<f64, Cuda>::zeros(&[2, 3 + usize::from(l == 1)], d))
                .collect::<Result<Vec<_>>>()?;
            assert!(ShardedArray::from_shards(mesh, odd, 0).is_err() || world == 1);
            Ok(())
        };
        go().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sharded_elementwise_and_reductions_match_one_gpu() {
    let Some((dev, meshes)) = meshes() else {
        return;
    };
    for (name, mesh) in &meshes {
        let go = || -> Result<()> {
            let v = awkward(9 * 5, 3);
            let a = Array::<f64, Cuda>::from_vec(v, &[9, 5], &dev)?;
            let b = Array::<f64, Cuda>::from_vec(awkward(45, 4), &[9, 5], &dev)?;
            let row = Array::<f64, Cuda>::from_vec(awkward(5, 5), &[5], &dev)?;
            let col = Array::<f64, Cuda>::from_vec(awkward(9, 6), &[9, 1], &dev)?;
            let r_row = Replicated::new(mesh, &row)?;
            let r_col = Replicated::new(mesh, &col)?;
            for axis in [0, 1] {
                let sa = ShardedArray::from_array(mesh, &a, axis)?;
                let sb = ShardedArray::from_array(mesh, &b, axis)?;
                let what = |s: &str| format!("{name}: {s}, split along {axis}");
                assert_array_equal(&sa.add(&sb)?.gather(&dev)?, &a.try_add(&b)?);
                assert_array_equal(&sa.mul(&r_row)?.gather(&dev)?, &a.try_mul(&row)?);
                assert_array_equal(&sa.sub(&r_col)?.gather(&dev)?, &a.try_sub(&col)?);
                // A replicated operand with more axes: the split axis moves.
                let cube = Array::<f64, Cuda>::from_vec(awkward(2 * 9 * 5, 7), &[2, 9, 5], &dev)?;
                let r_cube = Replicated::new(mesh, &cube)?;
                let sum3 = sa.add(&r_cube)?;
                assert_eq!(sum3.axis(), axis + 1, "{}", what("axis after broadcasting"));
                assert_array_equal(&sum3.gather(&dev)?, &a.try_add(&cube)?);
                let sq = sa.map(|x| x.try_mul(x))?;
                assert_array_equal(&sq.gather(&dev)?, &a.try_mul(&a)?);
                // Reductions along each axis and over everything.
                for k in [None, Some(0), Some(1)] {
                    let kk = k.map(|k| k as isize);
                    let want_sum = match kk {
                        None => a.sum()?,
                        Some(k) => a.sum_axes(k, false)?,
                    };
                    let got = sa.sum(k)?;
                    assert_eq!(
                        matches!(got, Distributed::Replicated(_)),
                        k.is_none() || k == Some(axis)
                    );
                    assert_allclose(&got.gather(&dev)?, &want_sum, 1e-12, 1e-12);
                    let want_mean = match kk {
                        None => a.mean()?,
                        Some(k) => a.mean_axes(k, false)?,
                    };
                    assert_allclose(&sa.mean(k)?.gather(&dev)?, &want_mean, 1e-12, 1e-12);
                    for ddof in [0.0, 1.0] {
                        let (want_var, want_std) = match kk {
                            None => (a.var(ddof)?, a.std(ddof)?),
                            Some(k) => (a.var_axes(k, ddof, false)?, a.std_axes(k, ddof, false)?),
                        };
                        assert_allclose(&sa.var(k, ddof)?.gather(&dev)?, &want_var, 1e-10, 1e-10);
                        assert_allclose(&sa.std(k, ddof)?.gather(&dev)?, &want_std, 1e-10, 1e-10);
                    }
                    for (got, want) in [
                        (
                            sa.max(k)?,
                            match kk {
                                None => a.max()?,
                                Some(k) => a.max_axes(k, false)?,
                            },
                        ),
                        (
                            sa.min(k)?,
                            match kk {
                                None => a.min()?,
                                Some(k) => a.min_axes(k, false)?,
                            },
                        ),
                    ] {
                        assert_array_equal(&got.gather(&dev)?, &want);
                    }
                }
                // Integer sums widen as on one GPU; no NaN here, so max is exact too.
                let ints = Array::<i32, Cuda>::arange(-20, 25, 1, &dev)?.reshape(&[9, 5])?;
                let si = ShardedArray::from_array(mesh, &ints, axis)?;
                assert_array_equal(&si.sum(None)?.gather(&dev)?, &ints.sum()?);
                assert_array_equal(
                    &si.sum(Some(axis))?.gather(&dev)?,
                    &ints.sum_axes(axis as isize, false)?,
                );
                assert_array_equal(
                    &si.max(Some(axis))?.gather(&dev)?,
                    &ints.max_axes(axis as isize, false)?,
                );
                // Refusals: another split, a broadcast that would grow the split axis, a
                // map that changes the shape, an axis out of range.
                let other = sb.reshard(1 - axis)?;
                assert!(sa.add(&other).is_err(), "{}", what("two splits"));
                assert!(
                    sa.map(|x| x.sum_axes(0, true)).is_err()
                        || sa.shards().iter().all(|s| s.shape()[0] == 1)
                );
                assert!(sa.sum(Some(2)).is_err());
                assert!(sa.max(Some(5)).is_err());
            }
            // A split axis of length 1 cannot broadcast against a longer one.
            let thin = ShardedArray::<f64>::zeros(mesh, &[1, 5], 0)?;
            let tall = Replicated::new(mesh, &a)?;
            assert!(thin.add(&tall).is_err());
            // Empty shards in reductions: 2 rows over 3 or 4 ranks.
            let two = Array::<f64, Cuda>::from_vec(vec![1.0, f64::NAN, 3.0, -2.0], &[2, 2], &dev)?;
            let st = ShardedArray::from_array(mesh, &two, 0)?;
            assert_array_equal(&st.max(Some(0))?.gather(&dev)?, &two.max_axes(0, false)?);
            assert_array_equal(&st.min(None)?.gather(&dev)?, &two.min()?);
            let empty = ShardedArray::<f64>::zeros(mesh, &[0, 3], 0)?;
            assert!(empty.max(Some(0)).is_err());
            assert_array_equal(
                &empty.sum(Some(0))?.gather(&dev)?,
                &Array::<f64, Cuda>::zeros(&[3], &dev)?,
            );
            Ok(())
        };
        go().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sharded_matmul_matches_one_gpu() {
    let Some((dev, meshes)) = meshes() else {
        return;
    };
    for (name, mesh) in &meshes {
        let go = || -> Result<()> {
            let mut g = Generator::new(5);
            let a = g.standard_normal::<f64, Cuda>(&[11, 7], &dev)?;
            let b = g.standard_normal::<f64, Cuda>(&[7, 6], &dev)?;
            let v = g.standard_normal::<f64, Cuda>(&[7], &dev)?;
            let want = a.matmul(&b)?;
            let want_v = a.matmul(&v)?;
            let rb = Replicated::new(mesh, &b)?;
            let rv = Replicated::new(mesh, &v)?;
            for axis in [0, 1] {
                let sa = ShardedArray::from_array(mesh, &a, axis)?;
                let got = sa.matmul(&rb)?;
                assert_eq!(matches!(got, Distributed::Sharded(_)), axis == 0, "{name}");
                assert_allclose(&got.gather(&dev)?, &want, 1e-12, 1e-12);
                assert_allclose(&sa.matmul(&rv)?.gather(&dev)?, &want_v, 1e-12, 1e-12);
                for baxis in [0, 1] {
                    let sb = ShardedArray::from_array(mesh, &b, baxis)?;
                    assert_allclose(&sa.matmul(&sb)?.gather(&dev)?, &want, 1e-12, 1e-12);
                }
                // The inner split unlike the left operand's: resharded first.
                let world = mesh.world_size();
                let mut skew = vec![0; world + 1];
                skew[1..].iter_mut().for_each(|x| *x = 7);
                let sb = ShardedArray::from_array(mesh, &b, 0)?.reshard_to(0, skew)?;
                assert_allclose(&sa.matmul(&sb)?.gather(&dev)?, &want, 1e-12, 1e-12);
                // Inner lengths that differ, a 1-d left operand.
                let bad = Replicated::new(mesh, &Array::<f64, Cuda>::zeros(&[6, 2], &dev)?)?;
                assert!(sa.matmul(&bad).is_err());
                let flat = ShardedArray::from_array(mesh, &v, 0)?;
                assert!(flat.matmul(&rb).is_err());
            }
            Ok(())
        };
        go().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sharded_sort_matches_one_gpu_bit_for_bit() {
    let Some((dev, meshes)) = meshes() else {
        return;
    };
    for (name, mesh) in &meshes {
        let go = || -> Result<()> {
            for n in [0, 1, 2, 5, 37, 1000, 100_003] {
                let x = Array::<f64, Cuda>::from_vec(awkward(n, n as u64), &[n], &dev)?;
                let s = ShardedArray::from_array(mesh, &x, 0)?.sort(0)?;
                assert_eq!(s.split(), &even_split(n, mesh.world_size())[..]);
                assert_eq!(
                    bits(&s.to_vec()?),
                    bits(&x.sort(0)?.to_vec()?),
                    "{name}: sort of {n}"
                );
            }
            // Many repeats, and all equal.
            let ints: Vec<i32> = (0..5000).map(|i| (i * 7919 % 13) - 6).collect();
            let x = Array::<i32, Cuda>::from_vec(ints, &[5000], &dev)?;
            let s = ShardedArray::from_array(mesh, &x, 0)?.sort(0)?;
            assert_eq!(s.to_vec()?, x.sort(0)?.to_vec()?, "{name}: repeats");
            let same = ShardedArray::<i32>::full(mesh, &[999], 0, 4)?.sort(0)?;
            assert!(same.to_vec()?.iter().all(|&v| v == 4));
            // A 2-d array along its split axis and along the other.
            let m = Array::<f64, Cuda>::from_vec(awkward(13 * 6, 9), &[13, 6], &dev)?;
            for axis in [0, 1] {
                let sm = ShardedArray::from_array(mesh, &m, axis)?;
                for k in [0, 1] {
                    let got = sm.sort(k)?;
                    assert_eq!(got.axis(), axis);
                    assert_eq!(
                        bits(&got.to_vec()?),
                        bits(&m.sort(k as isize)?.to_vec()?),
                        "{name}: 2-d sort along {k}, split along {axis}"
                    );
                }
            }
            assert!(ShardedArray::from_array(mesh, &m, 0)?.sort(2).is_err());
            Ok(())
        };
        go().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sharded_reshape_and_the_pipeline_match_one_gpu() {
    let Some((dev, meshes)) = meshes() else {
        return;
    };
    for (name, mesh) in &meshes {
        let go = || -> Result<()> {
            let x = Array::<f64, Cuda>::from_vec(awkward(12 * 10, 2), &[12, 10], &dev)?;
            for axis in [0, 1] {
                let s = ShardedArray::from_array(mesh, &x, axis)?;
                for shape in [vec![-1], vec![30, 4], vec![2, -1, 5], vec![120, 1]] {
                    let got = s.reshape(&shape)?;
                    let want = x.reshape(&shape)?;
                    assert_eq!(got.shape(), want.shape(), "{name}: reshape {shape:?}");
                    assert_eq!(got.axis(), 0);
                    assert_eq!(
                        bits(&got.to_vec()?),
                        bits(&want.to_vec()?),
                        "{name}: {shape:?}"
                    );
                }
                assert!(s.reshape(&[7, -1]).is_err());
                assert!(s.reshape(&[]).is_err());
            }
            // The notebook pipeline, small: draw, sort, reshape, normalise.
            let n = 20_000;
            let sorted =
                ShardedArray::<f64>::random(mesh, &mut Generator::new(3), &[n], 0)?.sort(0)?;
            let m = sorted.reshape(&[-1, 1000])?;
            let mean = m.mean(Some(0))?.into_replicated()?;
            let std = m.std(Some(0), 0.0)?.into_replicated()?;
            let z = m.sub(&mean)?.div(&std)?;
            let w = Generator::new(3).random::<f64, Cuda>(&[n], &dev)?.sort(0)?;
            assert_eq!(
                bits(&sorted.to_vec()?),
                bits(&w.to_vec()?),
                "{name}: pipeline sort"
            );
            let wm = w.reshape(&[-1, 1000])?;
            let want = wm
                .try_sub(&wm.mean_axes(0, true)?)?
                .try_div(&wm.std_axes(0, 0.0, true)?)?;
            assert_allclose(&z.gather(&dev)?, &want, 1e-9, 1e-9);
            assert!(mean.to_vec()?.len() == 1000);
            assert!(m.mean(Some(1))?.into_replicated().is_err());
            Ok(())
        };
        go().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
