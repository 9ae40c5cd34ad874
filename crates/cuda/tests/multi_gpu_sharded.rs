//! Sharded arrays over every GPU of the host through NCCL, against the same ops on one GPU:
//! random draws and sorts bit for bit, reductions, matmuls (each split and operand kind),
//! resharding and the notebook pipeline. Every test needs two or more GPUs and NCCL, so all
//! are ignored by default; on a host with fewer GPUs each says so and returns. (The same
//! algorithms run with several ranks simulated on one GPU in the library's own tests.)

use cuprite_core::random::Generator;
use cuprite_core::testing::{assert_allclose, assert_array_equal};
use cuprite_core::{Array, Result};
use cuprite_cuda::dist::{even_split, Mesh, Replicated, ShardedArray};
use cuprite_cuda::Cuda;
use std::rc::Rc;

/// A mesh over every GPU of the host, or `None` (printing why) with fewer than two or no
/// NCCL.
fn mesh() -> Option<(Vec<Cuda>, Rc<Mesh>)> {
    let n = Cuda::device_count();
    if n < 2 {
        eprintln!("skipped: {n} GPU(s), the multi-GPU suite needs two or more");
        return None;
    }
    let devs: Vec<Cuda> = (0..n)
        .map(|i| Cuda::new(i).expect("a listed GPU opens"))
        .collect();
    match Mesh::new(&devs) {
        Ok(m) => Some((devs, m)),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// f64 values with NaN, signed zeros and repeats among them.
fn awkward(n: usize, dev: &Cuda) -> Result<Array<f64, Cuda>> {
    let u = Generator::new(n as u64)
        .random::<f64, Cuda>(&[n], dev)?
        .to_vec()?;
    let v: Vec<f64> = u
        .iter()
        .enumerate()
        .map(|(i, &x)| match i % 19 {
            3 => f64::NAN,
            7 => -0.0,
            8 => 0.0,
            11 => 0.25,
            _ => x - 0.5,
        })
        .collect();
    Array::from_vec(v, &[n], dev)
}

#[test]
#[ignore = "needs two or more NVIDIA GPUs and NCCL"]
fn sharded_draws_and_sorts_match_one_gpu_bit_for_bit() -> Result<()> {
    let Some((devs, mesh)) = mesh() else {
        return Ok(());
    };
    let dev = &devs[0];
    for (shape, axis) in [(vec![1_000_003], 0), (vec![1001, 7], 1)] {
        let s = ShardedArray::<f64>::random(&mesh, &mut Generator::new(9), &shape, axis)?;
        let w = Generator::new(9).random::<f64, Cuda>(&shape, dev)?;
        assert_eq!(bits(&s.to_vec()?), bits(&w.to_vec()?), "random {shape:?}");
        for (r, sh) in mesh.ranks().into_iter().zip(s.shards()) {
            assert_eq!(sh.device().ordinal(), devs[r].ordinal());
        }
    }
    for n in [0, 3, 1000, 2_000_001] {
        let x = awkward(n, dev)?;
        let s = ShardedArray::from_array(&mesh, &x, 0)?.sort(0)?;
        assert_eq!(s.split(), &even_split(n, devs.len())[..]);
        assert_eq!(
            bits(&s.to_vec()?),
            bits(&x.sort(0)?.to_vec()?),
            "sort of {n}"
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs two or more NVIDIA GPUs and NCCL"]
fn sharded_reductions_matmuls_and_reshards_match_one_gpu() -> Result<()> {
    let Some((devs, mesh)) = mesh() else {
        return Ok(());
    };
    let dev = &devs[0];
    let mut g = Generator::new(4);
    let a = g.standard_normal::<f64, Cuda>(&[301, 67], dev)?;
    let b = g.standard_normal::<f64, Cuda>(&[67, 45], dev)?;
    let want = a.matmul(&b)?;
    let rb = Replicated::new(&mesh, &b)?;
    for axis in [0, 1] {
        let sa = ShardedArray::from_array(&mesh, &a, axis)?;
        assert_allclose(&sa.sum(None)?.gather(dev)?, &a.sum()?, 1e-10, 1e-10);
        for k in [0, 1] {
            assert_allclose(
                &sa.sum(Some(k))?.gather(dev)?,
                &a.sum_axes(k as isize, false)?,
                1e-10,
                1e-10,
            );
            assert_array_equal(
                &sa.max(Some(k))?.gather(dev)?,
                &a.max_axes(k as isize, false)?,
            );
            assert_allclose(
                &sa.mean(Some(k))?.gather(dev)?,
                &a.mean_axes(k as isize, false)?,
                1e-10,
                1e-10,
            );
        }
        assert_allclose(&sa.matmul(&rb)?.gather(dev)?, &want, 1e-10, 1e-10);
        for baxis in [0, 1] {
            let sb = ShardedArray::from_array(&mesh, &b, baxis)?;
            assert_allclose(&sa.matmul(&sb)?.gather(dev)?, &want, 1e-10, 1e-10);
        }
        let t = sa.reshard(1 - axis)?;
        assert_array_equal(&t.gather(dev)?, &a);
        assert_array_equal(&t.all_gather()?.copies()[1], &a.to_device(&devs[1])?);
    }
    Ok(())
}

#[test]
#[ignore = "needs two or more NVIDIA GPUs and NCCL"]
fn the_pipeline_across_gpus_matches_one_gpu() -> Result<()> {
    let Some((devs, mesh)) = mesh() else {
        return Ok(());
    };
    let dev = &devs[0];
    let n = 1_000_000;
    let sorted = ShardedArray::<f64>::random(&mesh, &mut Generator::new(1), &[n], 0)?.sort(0)?;
    let m = sorted.reshape(&[-1, 1000])?;
    let mean = m.mean(Some(0))?.into_replicated()?;
    let std = m.std(Some(0), 0.0)?.into_replicated()?;
    let z = m.sub(&mean)?.div(&std)?;
    let w = Generator::new(1).random::<f64, Cuda>(&[n], dev)?.sort(0)?;
    assert_eq!(bits(&sorted.to_vec()?), bits(&w.to_vec()?));
    let wm = w.reshape(&[-1, 1000])?;
    let want = wm
        .try_sub(&wm.mean_axes(0, true)?)?
        .try_div(&wm.std_axes(0, 0.0, true)?)?;
    assert_allclose(&z.gather(dev)?, &want, 1e-9, 1e-9);
    Ok(())
}

/// One process per GPU (this test binary again, once per rank, with torchrun's
/// variables): each holds one shard; the draw, the sort, a reduction and the gathers agree
/// with one GPU's.
#[test]
#[ignore = "needs two or more NVIDIA GPUs and NCCL"]
fn one_process_per_gpu_shards_sorts_and_reduces() -> Result<()> {
    const NAME: &str = "one_process_per_gpu_shards_sorts_and_reduces";
    if std::env::var("RANK").is_ok() {
        return rank_main();
    }
    let Some((devs, _)) = mesh() else {
        return Ok(());
    };
    let w = devs.len();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let kids: Vec<_> = (0..w)
        .map(|r| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--exact", NAME, "--ignored", "--test-threads", "1"])
                .env("RANK", r.to_string())
                .env("LOCAL_RANK", r.to_string())
                .env("WORLD_SIZE", w.to_string())
                .env("MASTER_ADDR", "127.0.0.1")
                .env("MASTER_PORT", port.to_string())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the rank starts")
        })
        .collect();
    for (r, k) in kids.into_iter().enumerate() {
        let out = k.wait_with_output().expect("the rank ends");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "rank {r} of {w}: {text}");
    }
    Ok(())
}

fn rank_main() -> Result<()> {
    let mesh = Mesh::from_env(std::time::Duration::from_secs(60))?;
    assert!(!mesh.is_whole());
    let dev = mesh.devices()[0].clone();
    let n = 300_007;
    let x = ShardedArray::<f64>::random(&mesh, &mut Generator::new(77), &[n], 0)?;
    let sorted = x.sort(0)?;
    let want = Generator::new(77).random::<f64, Cuda>(&[n], &dev)?;
    assert_eq!(bits(&sorted.to_vec()?), bits(&want.sort(0)?.to_vec()?));
    assert_allclose(&x.sum(None)?.gather(&dev)?, &want.sum()?, 1e-10, 1e-10);
    assert!(
        x.gather(&dev).is_err(),
        "one rank cannot assemble the whole array"
    );
    // Shards of chosen lengths, assembled from what each process holds.
    let r = mesh.ranks()[0];
    let mine = Array::<f64, Cuda>::full(&[r + 1, 3], r as f64, &dev)?;
    let s = ShardedArray::from_shards(&mesh, vec![mine], 0)?;
    let w = mesh.world_size();
    assert_eq!(s.shape(), &[w * (w + 1) / 2, 3]);
    assert_eq!(s.rows_of(r).len(), r + 1);
    Ok(())
}
