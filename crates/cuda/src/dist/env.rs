//! Where a process stands in a job launched with one process per GPU: its rank, the world
//! size, its rank on its machine and where to meet the others, read from the environment
//! variables torchrun (and `torch.distributed.launch`, and most cluster launchers) set.

use super::nccl::UniqueId;
use super::rendezvous::Rendezvous;
use cuprite_core::{Error, Result};
use std::time::Duration;

const OP: &str = "DistEnv::from_env";

/// A process's place in a job of one process per GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistEnv {
    /// This process's rank, `0..world_size` (`RANK`).
    pub rank: usize,
    /// The number of processes (`WORLD_SIZE`).
    pub world_size: usize,
    /// This process's rank among those of its machine (`LOCAL_RANK`, else `rank`): the GPU
    /// ordinal it usually drives.
    pub local_rank: usize,
    /// Where the processes meet: `MASTER_ADDR:MASTER_PORT` over TCP, or the file named by
    /// `CUPRITE_RENDEZVOUS_FILE` when that is set.
    pub rendezvous: Rendezvous,
}

impl DistEnv {
    /// Reads `RANK`, `WORLD_SIZE`, `LOCAL_RANK` (optional), and `MASTER_ADDR` with
    /// `MASTER_PORT` or `CUPRITE_RENDEZVOUS_FILE` from the process environment.
    ///
    /// # Errors
    /// A variable that is missing or not a number, a rank outside the world, and neither a
    /// rendezvous address nor a file.
    pub fn from_env() -> Result<DistEnv> {
        Self::from_vars(|k| std::env::var(k).ok())
    }

    /// NCCL's id for this job: rank 0 makes it ([`UniqueId::new`]) and every rank receives
    /// it through the job's rendezvous within `timeout`. Every rank passes it to
    /// [`Communicator::new_rank`](super::Communicator::new_rank), as
    /// [`Communicator::from_dist_env`](super::Communicator::from_dist_env) does.
    ///
    /// # Errors
    /// No NCCL (rank 0), the rendezvous's failures and timeout.
    pub fn unique_id(&self, timeout: Duration) -> Result<UniqueId> {
        let id = if self.rank == 0 {
            Some(UniqueId::new()?)
        } else {
            None
        };
        let bytes = self.rendezvous.exchange(
            self.rank,
            self.world_size,
            id.as_ref().map(|i| &i.as_bytes()[..]),
            timeout,
        )?;
        UniqueId::from_bytes(&bytes)
    }

    /// As [`from_env`](Self::from_env), reading the variables through `var`.
    ///
    /// ```
    /// use cuprite_cuda::dist::{DistEnv, Rendezvous};
    /// let vars = [("RANK", "1"), ("WORLD_SIZE", "4"), ("MASTER_ADDR", "node0"), ("MASTER_PORT", "29500")];
    /// let env = DistEnv::from_vars(|k| vars.iter().find(|v| v.0 == k).map(|v| v.1.to_string()))?;
    /// assert_eq!((env.rank, env.world_size, env.local_rank), (1, 4, 1));
    /// assert_eq!(env.rendezvous, Rendezvous::Tcp("node0:29500".into()));
    /// # Ok::<(), cuprite_core::Error>(())
    /// ```
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<DistEnv> {
        let number = |k: &str, required: bool| -> Result<Option<usize>> {
            match var(k) {
                None if required => Err(Error::invalid(
                    OP,
                    format!("{k} is not set (launch with torchrun, or set RANK and WORLD_SIZE)"),
                )),
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| {
                    Error::invalid(OP, format!("{k}={v:?} is not a non-negative integer"))
                }),
            }
        };
        let rank = number("RANK", true)?.expect("required");
        let world_size = number("WORLD_SIZE", true)?.expect("required");
        if world_size == 0 || rank >= world_size {
            return Err(Error::invalid(
                OP,
                format!("RANK={rank} is not in a world of WORLD_SIZE={world_size}"),
            ));
        }
        let local_rank = number("LOCAL_RANK", false)?.unwrap_or(rank);
        let rendezvous = match (
            var("CUPRITE_RENDEZVOUS_FILE"),
            var("MASTER_ADDR"),
            var("MASTER_PORT"),
        ) {
            (Some(f), _, _) if !f.is_empty() => Rendezvous::File(f.into()),
            (_, Some(a), Some(p)) => {
                let port: u16 = p.trim().parse().map_err(|_| {
                    Error::invalid(OP, format!("MASTER_PORT={p:?} is not a port number"))
                })?;
                // An IPv6 address needs brackets before the port.
                let host = if a.contains(':') && !a.starts_with('[') {
                    format!("[{a}]")
                } else {
                    a
                };
                Rendezvous::Tcp(format!("{host}:{port}"))
            }
            _ => {
                return Err(Error::invalid(
                    OP,
                    "no rendezvous: set MASTER_ADDR and MASTER_PORT, or CUPRITE_RENDEZVOUS_FILE",
                ));
            }
        };
        Ok(DistEnv {
            rank,
            world_size,
            local_rank,
            rendezvous,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> Result<DistEnv> {
        DistEnv::from_vars(|k| vars.iter().find(|v| v.0 == k).map(|v| v.1.to_string()))
    }

    #[test]
    fn torchrun_variables_are_read() {
        let e = env(&[
            ("RANK", "3"),
            ("WORLD_SIZE", "8"),
            ("LOCAL_RANK", "1"),
            ("MASTER_ADDR", "10.0.0.2"),
            ("MASTER_PORT", "29500"),
        ])
        .unwrap();
        assert_eq!((e.rank, e.world_size, e.local_rank), (3, 8, 1));
        assert_eq!(e.rendezvous, Rendezvous::Tcp("10.0.0.2:29500".into()));
        let e = env(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "::1"),
            ("MASTER_PORT", "1"),
            ("CUPRITE_RENDEZVOUS_FILE", "/tmp/job"),
        ])
        .unwrap();
        assert_eq!(e.rendezvous, Rendezvous::File("/tmp/job".into()));
        let e = env(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("MASTER_ADDR", "::1"),
            ("MASTER_PORT", "7"),
        ])
        .unwrap();
        assert_eq!(e.rendezvous, Rendezvous::Tcp("[::1]:7".into()));
    }

    #[test]
    fn missing_or_bad_variables_are_errors() {
        let at = [("MASTER_ADDR", "h"), ("MASTER_PORT", "1")];
        for (vars, want) in [
            (vec![("WORLD_SIZE", "2")], "RANK is not set"),
            (vec![("RANK", "0")], "WORLD_SIZE is not set"),
            (
                vec![("RANK", "x"), ("WORLD_SIZE", "2")],
                "RANK=\"x\" is not",
            ),
            (vec![("RANK", "2"), ("WORLD_SIZE", "2")], "RANK=2 is not in"),
            (
                vec![("RANK", "0"), ("WORLD_SIZE", "2"), ("LOCAL_RANK", "-1")],
                "LOCAL_RANK=\"-1\"",
            ),
        ] {
            let mut v = vars.clone();
            v.extend(at);
            let e = env(&v).unwrap_err().to_string();
            assert!(
                e.starts_with("DistEnv::from_env: ") && e.contains(want),
                "{e}"
            );
        }
        let e = env(&[("RANK", "0"), ("WORLD_SIZE", "1")]).unwrap_err();
        assert!(e.to_string().contains("no rendezvous"), "{e}");
        let e = env(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "1"),
            ("MASTER_ADDR", "h"),
            ("MASTER_PORT", "99999"),
        ])
        .unwrap_err();
        assert!(e.to_string().contains("not a port number"), "{e}");
    }
}
