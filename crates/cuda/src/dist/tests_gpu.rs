//! The communicator on one GPU: a one-rank communicator runs every collective and transfer
//! (each must hand back its input, reshaped as the collective does), for every element type
//! and contiguous, transposed and empty inputs; every refusal is an `Err`; two ranks on the
//! same GPU fail instead of hanging. Runs where NCCL and a GPU are (ignored elsewhere).

use super::*;
use crate::test_support::{assert_same, gpu, vals};
use crate::Cuda;
use cuprite_core::{bf16, c128, c64, f16, s, Array, DType, Element, Result};
use std::time::Duration;

/// A one-rank communicator on the first GPU, or `None` (printing why) without GPU or NCCL.
fn one_rank() -> Option<Communicator> {
    let dev = gpu()?;
    let id = match UniqueId::new() {
        Ok(id) => id,
        Err(e) => {
            eprintln!("skipped: {e}");
            return None;
        }
    };
    let mut c = Communicator::new_rank(&dev, 0, 1, &id).expect("one-rank communicator");
    c.set_checked(true);
    Some(c)
}

/// The reductions NCCL takes for `T` (the others are refused, checked below).
fn ops_for<T: Element>() -> Vec<ReduceOp> {
    match T::DTYPE {
        DType::Bool => vec![ReduceOp::Max, ReduceOp::Min],
        DType::C64 | DType::C128 => vec![ReduceOp::Sum, ReduceOp::Avg],
        DType::I16 | DType::U16 => vec![],
        DType::F16 | DType::BF16 | DType::F32 | DType::F64 => vec![
            ReduceOp::Sum,
            ReduceOp::Prod,
            ReduceOp::Max,
            ReduceOp::Min,
            ReduceOp::Avg,
        ],
        _ => vec![ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min],
    }
}

fn check_type<T: Element>(c: &mut Communicator) -> Result<()> {
    let dev = c.device().clone();
    let data = vals::<T>(4 * 37, 3);
    let base = Array::<T, Cuda>::from_vec(data, &[4, 37], &dev)?;
    // Contiguous, transposed, offset and empty inputs.
    let inputs = [
        base.clone(),
        base.t().slice(&s![1..;2, ..;-1])?,
        // Contiguous, but starting inside its buffer.
        base.slice(&s![2.., ..])?,
        Array::<T, Cuda>::from_vec(vec![], &[0, 5], &dev)?,
    ];
    for (k, x) in inputs.iter().enumerate() {
        let want = x.to_vec()?;
        let what = |name: &str| format!("{name}, input {k}");
        for op in ops_for::<T>() {
            let y = c.all_reduce(x, op)?;
            assert_eq!(y.shape(), x.shape());
            assert_same(&y.to_vec()?, &want, &what(&format!("all_reduce {op:?}")));
            let r = c.reduce(x, op, 0)?.expect("the root gets the result");
            assert_same(&r.to_vec()?, &want, &what(&format!("reduce {op:?}")));
            let s = c.reduce_scatter(x, op)?;
            assert_same(
                &s.to_vec()?,
                &want,
                &what(&format!("reduce_scatter {op:?}")),
            );
            let mut m = x.copy()?;
            c.all_reduce_in_place(&mut m, op)?;
            assert_same(&m.to_vec()?, &want, &what(&format!("in place {op:?}")));
        }
        let b = c.broadcast(x, 0)?;
        assert_same(&b.to_vec()?, &want, &what("broadcast"));
        let g = c.all_gather(x)?;
        let mut gshape = vec![1];
        gshape.extend_from_slice(x.shape());
        assert_eq!(g.shape(), &gshape[..]);
        assert_same(&g.to_vec()?, &want, &what("all_gather"));
        let a = c.all_to_all(x)?;
        assert_same(&a.to_vec()?, &want, &what("all_to_all"));
        // A send to oneself and its receive, in one group.
        let got = group(|| {
            c.send(x, 0)?;
            c.recv::<T>(x.shape(), 0)
        })?;
        assert_same(&got.to_vec()?, &want, &what("send/recv"));
    }
    c.wait(Duration::from_secs(60))?;
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device and NCCL"]
fn a_one_rank_communicator_runs_every_collective_on_every_type() -> Result<()> {
    let Some(mut c) = one_rank() else {
        return Ok(());
    };
    assert_eq!((c.rank(), c.world_size()), (0, 1));
    check_type::<bool>(&mut c)?;
    check_type::<u8>(&mut c)?;
    check_type::<i8>(&mut c)?;
    check_type::<i16>(&mut c)?;
    check_type::<u16>(&mut c)?;
    check_type::<i32>(&mut c)?;
    check_type::<u32>(&mut c)?;
    check_type::<i64>(&mut c)?;
    check_type::<u64>(&mut c)?;
    check_type::<f16>(&mut c)?;
    check_type::<bf16>(&mut c)?;
    check_type::<f32>(&mut c)?;
    check_type::<f64>(&mut c)?;
    check_type::<c64>(&mut c)?;
    check_type::<c128>(&mut c)?;
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device and NCCL"]
fn a_group_keeps_its_buffers_until_it_ends() -> Result<()> {
    let Some(c) = one_rank() else {
        return Ok(());
    };
    let dev = c.device().clone();
    let x = Array::<f32, Cuda>::from_vec(vals::<f32>(1 << 16, 1), &[256, 256], &dev)?;
    let xt = x.t();
    let want = xt.to_vec()?;
    // The transposed input travels as a contiguous copy and one result is dropped at
    // once; the arrays made after them in the group must not take their memory before
    // NCCL, queued only when the group ends, has used it.
    let (sum, gathered) = group(|| {
        let _dropped = c.all_reduce(&xt, ReduceOp::Sum)?;
        drop(_dropped);
        let sum = c.all_reduce(&xt, ReduceOp::Sum)?;
        let gathered = c.all_gather(&xt)?;
        for _ in 0..4 {
            drop(Array::<f32, Cuda>::full(&[256, 256], -7.0, &dev)?);
        }
        Ok((sum, gathered))
    })?;
    assert_same(&sum.to_vec()?, &want, "all_reduce in a group");
    assert_same(&gathered.to_vec()?, &want, "all_gather in a group");
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device and NCCL"]
fn refusals_are_errors_naming_the_call() -> Result<()> {
    let Some(c) = one_rank() else {
        return Ok(());
    };
    let dev = c.device().clone();
    let x = Array::<f32, Cuda>::ones(&[3, 4], &dev)?;
    let scalar = Array::<f32, Cuda>::ones(&[], &dev)?;
    let e = |r: Result<Array<f32, Cuda>>| r.unwrap_err().to_string();
    for (got, want) in [
        (
            e(c.broadcast(&x, 1)),
            "broadcast: root 1 is not a rank of 1",
        ),
        (
            e(c.reduce(&x, ReduceOp::Sum, 3).map(|o| o.unwrap())),
            "reduce: root 3 is not a rank of 1",
        ),
        (
            e(c.reduce_scatter(&scalar, ReduceOp::Sum)),
            "reduce_scatter: the first axis of shape [] must split into 1",
        ),
        (
            e(c.all_to_all(&scalar)),
            "all_to_all: the first axis of shape []",
        ),
        (e(c.recv::<f32>(&[2], 1)), "recv: peer 1 is not a rank of 1"),
    ] {
        assert!(got.contains(want), "{got}");
    }
    let e = c.send(&x, 2).unwrap_err().to_string();
    assert!(e.contains("send: peer 2 is not a rank of 1"), "{e}");
    let i = Array::<i16, Cuda>::ones(&[4], &dev)?;
    let e = c.all_reduce(&i, ReduceOp::Sum).unwrap_err().to_string();
    assert!(e.contains("all_reduce: Sum of int16 elements"), "{e}");
    let mut t = x.t();
    let e = c
        .all_reduce_in_place(&mut t, ReduceOp::Sum)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("all_reduce_in_place: the array must be C-contiguous"),
        "{e}"
    );
    // NCCL gives each GPU one rank.
    let e = Communicator::new_all(&[dev.clone(), dev.clone()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("cuda:0 appears twice"), "{e}");
    assert!(Communicator::new_all(&[]).is_err());
    let id = UniqueId::new()?;
    let e = Communicator::new_rank(&dev, 1, 1, &id)
        .unwrap_err()
        .to_string();
    assert!(e.contains("rank 1 is not in a world of 1"), "{e}");
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device and NCCL"]
fn the_communicators_of_one_process_and_of_a_job_start() -> Result<()> {
    let Some(dev) = gpu() else {
        return Ok(());
    };
    if UniqueId::new().is_err() {
        return Ok(());
    }
    // One process, its GPUs (here one), inside a group.
    let comms = Communicator::new_all(std::slice::from_ref(&dev))?;
    assert_eq!(comms.len(), 1);
    let x = Array::<f64, Cuda>::arange(0.0, 10.0, 1.0, &dev)?;
    let y = group(|| comms[0].all_reduce(&x, ReduceOp::Sum))?;
    assert_eq!(y.to_vec()?, x.to_vec()?);
    // A job of one process meeting through a file.
    let at = std::env::temp_dir().join(format!("cuprite-comm-{}", std::process::id()));
    let env = DistEnv {
        rank: 0,
        world_size: 1,
        local_rank: 0,
        rendezvous: Rendezvous::File(at),
    };
    let mut c = Communicator::from_dist_env(&env, &dev, Duration::from_secs(30))?;
    let y = c.all_reduce(&x, ReduceOp::Max)?;
    c.wait(Duration::from_secs(30))?;
    assert_eq!(y.to_vec()?, x.to_vec()?);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device and NCCL"]
fn two_ranks_on_one_gpu_fail_instead_of_hanging() -> Result<()> {
    let Some(dev) = gpu() else {
        return Ok(());
    };
    let Ok(id) = UniqueId::new() else {
        return Ok(());
    };
    let (tx, rx) = std::sync::mpsc::channel();
    for rank in 0..2 {
        let (dev, tx) = (dev.clone(), tx.clone());
        std::thread::spawn(move || {
            let r = Communicator::new_rank(&dev, rank, 2, &id).map(|_| ());
            let _ = tx.send(r);
        });
    }
    for _ in 0..2 {
        let r = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("NCCL's init returned");
        let e = r
            .expect_err("NCCL refuses two ranks on one GPU")
            .to_string();
        assert!(
            e.starts_with("Communicator::new_rank: ") && e.contains("ncclCommInitRank failed"),
            "{e}"
        );
    }
    Ok(())
}
