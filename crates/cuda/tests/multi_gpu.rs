//! The multi-GPU suite: copies between every pair of GPUs, every collective across all GPUs
//! of the host (one process, and one process per GPU through the rendezvous) against the
//! host's own arithmetic, the cross-rank check, and a rank that dies (in the middle of a
//! job, or before NCCL's init). Every test needs two or more GPUs and NCCL, so all are
//! ignored by default; on a host with fewer GPUs each says so and returns.

use cuprite_core::{bf16, c128, c64, f16, s, Array, DType, Element, Error, Result, Scalar};
use cuprite_cuda::dist::{group, Communicator, DistEnv, ReduceOp};
use cuprite_cuda::Cuda;
use std::time::Duration;

/// Every GPU of the host, or `None` (printing why) with fewer than two or no NCCL.
fn gpus() -> Option<Vec<Cuda>> {
    let n = Cuda::device_count();
    if n < 2 {
        eprintln!("skipped: {n} GPU(s), the multi-GPU suite needs two or more");
        return None;
    }
    if let Err(e) = cuprite_cuda::dist::UniqueId::new() {
        eprintln!("skipped: {e}");
        return None;
    }
    Some(
        (0..n)
            .map(|i| Cuda::new(i).expect("a listed GPU opens"))
            .collect(),
    )
}

/// Rank `r`'s values: distinct per rank, exact in every type.
fn values<T: Element>(n: usize, r: usize) -> Vec<T> {
    (0..n)
        .map(|i| match T::DTYPE {
            DType::Bool => T::from_scalar(Scalar::Bool((i + r).is_multiple_of(3))),
            d if d.is_integer() => T::from_scalar(Scalar::I64(((i * 7 + r * 13) % 11) as i64)),
            _ => T::from_scalar(Scalar::C128(c128::new(
                ((i + 3 * r) % 9) as f64 - 4.0,
                (r % 3) as f64,
            ))),
        })
        .collect()
}

/// The host's reduction of the ranks' values, element by element.
fn host_reduce<T: Element>(parts: &[Vec<T>], op: ReduceOp) -> Vec<T> {
    let w = parts.len() as f64;
    (0..parts[0].len())
        .map(|i| {
            let col: Vec<c128> = parts
                .iter()
                .map(|p| c128::from_scalar(p[i].to_scalar()))
                .collect();
            let v = match op {
                ReduceOp::Sum => col.iter().sum(),
                ReduceOp::Avg => col.iter().sum::<c128>() / w,
                ReduceOp::Prod => col.iter().product(),
                ReduceOp::Max => c128::new(col.iter().map(|c| c.re).fold(f64::MIN, f64::max), 0.0),
                ReduceOp::Min => c128::new(col.iter().map(|c| c.re).fold(f64::MAX, f64::min), 0.0),
            };
            if T::DTYPE == DType::Bool {
                T::from_scalar(Scalar::Bool(v.re != 0.0))
            } else {
                T::from_scalar(Scalar::C128(v))
            }
        })
        .collect()
}

/// One rank's share of a collective.
type Each<'a, T> = dyn Fn(&Communicator, &Array<T, Cuda>) -> Result<Array<T, Cuda>> + 'a;

fn collectives<T: Element>(devs: &[Cuda], comms: &[Communicator], ops: &[ReduceOp]) -> Result<()> {
    let w = devs.len();
    let n = 6 * w;
    let host: Vec<Vec<T>> = (0..w).map(|r| values::<T>(n, r)).collect();
    let xs: Vec<Array<T, Cuda>> = devs
        .iter()
        .zip(&host)
        .map(|(d, h)| Array::from_vec(h.clone(), &[n], d))
        .collect::<Result<_>>()?;
    let all = |f: &Each<'_, T>| {
        group(|| {
            comms
                .iter()
                .zip(&xs)
                .map(|(c, x)| f(c, x))
                .collect::<Result<Vec<_>>>()
        })
    };
    for &op in ops {
        let want = host_reduce(&host, op);
        for (r, y) in all(&|c, x| c.all_reduce(x, op))?.iter().enumerate() {
            assert_eq!(y.to_vec()?, want, "all_reduce {op:?} {} rank {r}", T::DTYPE);
        }
        let block = n / w;
        for (r, y) in all(&|c, x| c.reduce_scatter(x, op))?.iter().enumerate() {
            assert_eq!(
                y.to_vec()?,
                want[r * block..(r + 1) * block],
                "reduce_scatter {op:?}"
            );
        }
        let root = w - 1;
        let got = group(|| {
            comms
                .iter()
                .zip(&xs)
                .map(|(c, x)| c.reduce(x, op, root))
                .collect::<Result<Vec<_>>>()
        })?;
        for (r, y) in got.into_iter().enumerate() {
            assert_eq!(y.is_some(), r == root);
            if let Some(y) = y {
                assert_eq!(y.to_vec()?, want, "reduce {op:?}");
            }
        }
    }
    for (r, y) in all(&|c, x| c.broadcast(x, 1))?.iter().enumerate() {
        assert_eq!(y.to_vec()?, host[1], "broadcast {} rank {r}", T::DTYPE);
    }
    let gathered: Vec<T> = host.concat();
    for y in all(&|c, x| c.all_gather(x))? {
        assert_eq!(y.shape(), &[w, n]);
        assert_eq!(y.to_vec()?, gathered, "all_gather {}", T::DTYPE);
    }
    let block = n / w;
    for (r, y) in all(&|c, x| c.all_to_all(x))?.iter().enumerate() {
        let want: Vec<T> = (0..w)
            .flat_map(|src| host[src][r * block..(r + 1) * block].to_vec())
            .collect();
        assert_eq!(y.to_vec()?, want, "all_to_all {} rank {r}", T::DTYPE);
    }
    // A ring: every rank sends to the next and receives from the previous.
    let got = group(|| {
        let mut out = Vec::new();
        for (r, (c, x)) in comms.iter().zip(&xs).enumerate() {
            c.send(x, (r + 1) % w)?;
            out.push(c.recv::<T>(&[n], (r + w - 1) % w)?);
        }
        Ok(out)
    })?;
    for (r, y) in got.iter().enumerate() {
        assert_eq!(
            y.to_vec()?,
            host[(r + w - 1) % w],
            "ring {} rank {r}",
            T::DTYPE
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs two or more GPUs and NCCL"]
fn collectives_across_every_gpu_match_the_host() -> Result<()> {
    let Some(devs) = gpus() else { return Ok(()) };
    let comms = Communicator::new_all(&devs)?;
    use ReduceOp::*;
    let float = [Sum, Prod, Max, Min, Avg];
    collectives::<f32>(&devs, &comms, &float)?;
    collectives::<f64>(&devs, &comms, &float)?;
    collectives::<f16>(&devs, &comms, &float)?;
    collectives::<bf16>(&devs, &comms, &float)?;
    collectives::<i32>(&devs, &comms, &[Sum, Prod, Max, Min])?;
    collectives::<i64>(&devs, &comms, &[Sum, Max, Min])?;
    collectives::<u8>(&devs, &comms, &[Sum, Max, Min])?;
    collectives::<bool>(&devs, &comms, &[Max, Min])?;
    collectives::<c64>(&devs, &comms, &[Sum, Avg])?;
    collectives::<c128>(&devs, &comms, &[Sum])?;
    collectives::<i16>(&devs, &comms, &[])?;
    Ok(())
}

#[test]
#[ignore = "needs two or more GPUs and NCCL"]
fn copies_between_every_pair_of_gpus() -> Result<()> {
    let Some(devs) = gpus() else { return Ok(()) };
    for a in &devs {
        let x = Array::<f64, Cuda>::arange(0.0, 4096.0, 1.0, a)?.reshape(&[64, 64])?;
        let v = x.t().slice(&s![..;-3, 5..])?;
        for b in &devs {
            let y = v.to_device(b)?;
            assert_eq!(y.device().ordinal(), b.ordinal());
            assert_eq!(
                y.to_vec()?,
                v.to_vec()?,
                "cuda:{} -> cuda:{}",
                a.ordinal(),
                b.ordinal()
            );
        }
        // Large enough to take a while, then freed at once on the source side.
        let big = Array::<f32, Cuda>::ones(&[1 << 26], a)?;
        let copy = big.to_device(&devs[(a.ordinal() + 1) % devs.len()])?;
        drop(big);
        assert_eq!(copy.sum()?.item()?, (1u64 << 26) as f32);
    }
    Ok(())
}

#[test]
#[ignore = "needs two or more GPUs and NCCL"]
fn checked_collectives_refuse_ranks_that_disagree() -> Result<()> {
    let Some(devs) = gpus() else { return Ok(()) };
    let mut comms = Communicator::new_all(&devs[..2])?;
    for c in &mut comms {
        c.set_checked(true);
    }
    let errs: Vec<String> = std::thread::scope(|sc| {
        let hs: Vec<_> = comms
            .into_iter()
            .enumerate()
            .map(|(r, c)| {
                sc.spawn(move || {
                    let x = Array::<f32, Cuda>::ones(&[4 + r], c.device())?;
                    c.all_reduce(&x, ReduceOp::Sum).map(|_| ())
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap().unwrap_err().to_string())
            .collect()
    });
    for e in errs {
        assert!(
            e.starts_with("all_reduce: rank") && e.contains("[4]") && e.contains("[5]"),
            "{e}"
        );
    }
    Ok(())
}

/// One process per GPU: this test binary again, once per rank, with torchrun's variables.
#[test]
#[ignore = "needs two or more GPUs and NCCL"]
fn one_process_per_gpu_meets_and_reduces() -> Result<()> {
    const NAME: &str = "one_process_per_gpu_meets_and_reduces";
    const DIE: &str = "CUPRITE_MULTI_GPU_DIE";
    if std::env::var("RANK").is_ok() {
        return child();
    }
    let Some(devs) = gpus() else { return Ok(()) };
    let w = devs.len();
    // No rank dies; rank 1 dies in the middle of the job; rank 1 dies after the ids were
    // handed out, before NCCL's init.
    for die in ["", "late", "init"] {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let logs: Vec<std::path::PathBuf> = (0..w)
            .map(|r| {
                std::env::temp_dir().join(format!("cuprite-rank-{}-{r}.log", std::process::id()))
            })
            .collect();
        let kids: Vec<_> = (0..w)
            .map(|r| {
                let log = std::fs::File::create(&logs[r]).expect("a log file");
                let mut c = std::process::Command::new(std::env::current_exe().unwrap());
                c.args([
                    "--exact",
                    NAME,
                    "--ignored",
                    "--test-threads",
                    "1",
                    "--nocapture",
                ])
                .env("RANK", r.to_string())
                .env("LOCAL_RANK", r.to_string())
                .env("WORLD_SIZE", w.to_string())
                .env("MASTER_ADDR", "127.0.0.1")
                .env("MASTER_PORT", port.to_string())
                .stdout(log.try_clone().expect("a log file"))
                .stderr(log);
                c.env(DIE, die);
                c.spawn().expect("the rank starts")
            })
            .collect();
        // A rank that hangs is killed after the deadline, and the test fails with its log.
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        for (r, mut k) in kids.into_iter().enumerate() {
            let status = loop {
                if let Some(s) = k.try_wait().expect("the rank's status") {
                    break Some(s);
                }
                if std::time::Instant::now() > deadline {
                    let _ = k.kill();
                    let _ = k.wait();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(50));
            };
            let text = std::fs::read_to_string(&logs[r]).unwrap_or_default();
            let _ = std::fs::remove_file(&logs[r]);
            // What each rank said of its end (how long the survivors' waits took).
            // (libtest's "test ... " may start the line.)
            for line in text
                .lines()
                .filter_map(|l| l.find("rank ").map(|i| &l[i..]))
            {
                eprintln!("[a rank dies: {die:?}] {line}");
            }
            assert!(
                status.is_some_and(|s| s.success()),
                "rank {r} of {w} (a rank dies: {die:?}) {}: {text}",
                if status.is_none() {
                    "hung and was killed"
                } else {
                    "failed"
                }
            );
        }
    }
    Ok(())
}

fn child() -> Result<()> {
    let env = DistEnv::from_env()?;
    let dev = Cuda::new(env.local_rank)?;
    let die = std::env::var("CUPRITE_MULTI_GPU_DIE").unwrap_or_default();
    if die == "init" {
        return child_dying_at_init(&env, &dev);
    }
    let mut comm = Communicator::from_dist_env(&env, &dev, Duration::from_secs(60))?;
    let w = comm.world_size();
    let dies = die == "late";
    let x = Array::<f64, Cuda>::full(&[1000], comm.rank() as f64, &dev)?;
    // A first collective connects the ranks (NCCL connects lazily, inside the first call
    // between two ranks); then rank 1 dies mid-job, and the next collective's wait ends.
    comm.all_reduce(&x, ReduceOp::Sum)?;
    comm.wait(Duration::from_secs(60))?;
    if dies && comm.rank() == 1 {
        std::process::exit(0);
    }
    let y = comm.all_reduce(&x, ReduceOp::Sum)?;
    eprintln!("rank {}: all_reduce queued", comm.rank());
    let waited = comm.wait(Duration::from_secs(20));
    eprintln!("rank {}: wait returned {waited:?}", comm.rank());
    match waited {
        Ok(()) => {
            let want = (w * (w - 1) / 2) as f64;
            assert!(y.to_vec()?.iter().all(|&v| v == want));
            Ok(())
        }
        Err(Error::Backend { msg, .. }) if msg.contains("aborted") => {
            assert!(dies, "{msg}");
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Rank 1 takes NCCL's id from the rendezvous and dies before NCCL's init: the others'
/// init, which NCCL blocks until every rank has called it, ends in an `Err` at its
/// deadline instead of never returning.
fn child_dying_at_init(env: &DistEnv, dev: &Cuda) -> Result<()> {
    let id = env.unique_id(Duration::from_secs(60))?;
    if env.rank == 1 {
        std::process::exit(0);
    }
    let start = std::time::Instant::now();
    let bound = Duration::from_secs(10);
    let made = Communicator::new_rank_within(dev, env.rank, env.world_size, &id, bound);
    let took = start.elapsed();
    eprintln!("rank {}: new_rank_within returned after {took:?}", env.rank);
    match made {
        Ok(_) => panic!("rank {}: NCCL's init succeeded without rank 1", env.rank),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains("Communicator::new_rank"), "{msg}");
            assert!(took < bound + Duration::from_secs(5), "{took:?}: {msg}");
            // The process ends with NCCL's init still blocked on its own thread.
            Ok(())
        }
    }
}
