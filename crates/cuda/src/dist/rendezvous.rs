//! How the processes of one job find each other before NCCL can connect them: rank 0
//! publishes a small payload (NCCL's unique id) and every other rank receives it, through a
//! TCP connection to rank 0 or through a file every rank can read. Nothing else has to run:
//! no key-value service, no MPI. Every wait has a deadline, so a rank that never comes is an
//! `Err` naming what was missing, never a hang.
//!
//! The TCP exchange: rank 0 listens on the address; each other rank connects (retrying until
//! the deadline, since rank 0 may start last) and sends a hello of its rank and the world
//! size; rank 0 answers every hello with the payload once all `world - 1` ranks have said it,
//! after checking that each rank came once and that all agree on the world size.
//!
//! The file exchange: rank 0 writes the payload to a temporary file and renames it into
//! place (readers never see half a file); the others wait for it, read it and leave an
//! acknowledgement beside it; rank 0 removes the file and the acknowledgements once every
//! rank has read it, so a finished rendezvous leaves nothing behind. The path must be unique
//! to the job (a file left by a job that crashed is read as this job's).

use cuprite_core::{Error, Result};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const OP: &str = "rendezvous";

/// The first bytes of every message: the protocol and its version.
const MAGIC: &[u8; 8] = b"cuprite1";

/// The longest payload exchanged (NCCL's unique id is 128 bytes).
pub const MAX_PAYLOAD: usize = 4096;

/// How long to sleep between two polls of a file or a listening socket.
const POLL: Duration = Duration::from_millis(5);

/// Where the ranks of a job meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rendezvous {
    /// Rank 0 listens on this address (`host:port`, as torchrun's `MASTER_ADDR` and
    /// `MASTER_PORT`); the others connect to it. Works across machines.
    Tcp(String),
    /// A file on a file system every rank sees (one machine, or a shared file system).
    File(PathBuf),
}

fn failed(msg: impl Into<String>) -> Error {
    Error::Backend {
        op: OP,
        msg: msg.into(),
    }
}

/// Checks the rank and world size every exchange starts from.
fn check_rank(rank: usize, world: usize) -> Result<()> {
    if world == 0 || rank >= world {
        return Err(Error::invalid(
            OP,
            format!("rank {rank} is not in a world of {world} processes"),
        ));
    }
    Ok(())
}

impl Rendezvous {
    /// Rank 0 passes `Some(payload)`, every other rank `None`; all get rank 0's payload back
    /// once every one of the `world` ranks has arrived (rank 0 returns once all have
    /// received it). Fails after `timeout` when some rank does not come.
    ///
    /// # Errors
    /// A rank outside the world, rank 0 without a payload (or another rank with one), a
    /// payload longer than [`MAX_PAYLOAD`], ranks that disagree on the world size or
    /// repeat a rank, an address that cannot be resolved or bound, I/O failures, and the
    /// deadline.
    ///
    /// ```
    /// use cuprite_cuda::dist::Rendezvous;
    /// use std::time::Duration;
    /// let at = std::env::temp_dir().join(format!("cuprite-doc-{}", std::process::id()));
    /// let rv = Rendezvous::File(at);
    /// let t = Duration::from_secs(10);
    /// let other = {
    ///     let rv = rv.clone();
    ///     std::thread::spawn(move || rv.exchange(1, 2, None, t))
    /// };
    /// assert_eq!(rv.exchange(0, 2, Some(b"id"), t)?, b"id");
    /// assert_eq!(other.join().unwrap()?, b"id");
    /// # Ok::<(), cuprite_core::Error>(())
    /// ```
    pub fn exchange(
        &self,
        rank: usize,
        world: usize,
        payload: Option<&[u8]>,
        timeout: Duration,
    ) -> Result<Vec<u8>> {
        check_rank(rank, world)?;
        match (rank, payload) {
            (0, None) => return Err(Error::invalid(OP, "rank 0 must give the payload")),
            (r, Some(_)) if r != 0 => {
                return Err(Error::invalid(
                    OP,
                    format!("only rank 0 gives the payload (rank {r} gave one)"),
                ));
            }
            (_, Some(p)) if p.len() > MAX_PAYLOAD => {
                return Err(Error::invalid(
                    OP,
                    format!("payload of {} bytes, the most is {MAX_PAYLOAD}", p.len()),
                ));
            }
            _ => {}
        }
        let deadline = Instant::now() + timeout;
        match (self, payload) {
            (Rendezvous::Tcp(addr), Some(p)) => tcp_serve(addr, world, p, deadline),
            (Rendezvous::Tcp(addr), None) => tcp_fetch(addr, rank, world, deadline),
            (Rendezvous::File(path), Some(p)) => file_publish(path, world, p, deadline),
            (Rendezvous::File(path), None) => file_fetch(path, rank, deadline),
        }
    }
}

/// The first address `addr` resolves to.
fn resolve(addr: &str) -> Result<SocketAddr> {
    addr.to_socket_addrs()
        .map_err(|e| failed(format!("cannot resolve {addr}: {e}")))?
        .next()
        .ok_or_else(|| failed(format!("{addr} resolves to no address")))
}

/// How long is left before `deadline`, or the timeout error for `what`.
fn left(deadline: Instant, what: &dyn Fn() -> String) -> Result<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or_else(|| failed(format!("timed out {}", what())))
}

/// A hello: MAGIC, rank, world (u64 little-endian each).
fn hello(rank: usize, world: usize) -> [u8; 24] {
    let mut h = [0u8; 24];
    h[..8].copy_from_slice(MAGIC);
    h[8..16].copy_from_slice(&(rank as u64).to_le_bytes());
    h[16..].copy_from_slice(&(world as u64).to_le_bytes());
    h
}

fn read_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8 bytes"))
}

/// Rank 0 of the TCP exchange.
fn tcp_serve(addr: &str, world: usize, payload: &[u8], deadline: Instant) -> Result<Vec<u8>> {
    if world == 1 {
        return Ok(payload.to_vec());
    }
    let at = resolve(addr)?;
    let listener =
        TcpListener::bind(at).map_err(|e| failed(format!("cannot listen on {addr}: {e}")))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| failed(format!("{addr}: {e}")))?;
    let mut peers: Vec<Option<TcpStream>> = (0..world).map(|_| None).collect();
    let mut arrived = 1;
    while arrived < world {
        let waiting = || {
            let missing: Vec<usize> = (1..world).filter(|&r| peers[r].is_none()).collect();
            format!("on {addr}: ranks {missing:?} of {world} did not connect")
        };
        left(deadline, &waiting)?;
        let (mut s, from) = match listener.accept() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(POLL);
                continue;
            }
            Err(e) => return Err(failed(format!("{addr}: accept: {e}"))),
        };
        let rest = left(deadline, &waiting)?;
        s.set_nonblocking(false)
            .and_then(|_| s.set_read_timeout(Some(rest)))
            .map_err(|e| failed(format!("{addr}: {e}")))?;
        let mut h = [0u8; 24];
        if s.read_exact(&mut h).is_err() || &h[..8] != MAGIC {
            // Not one of ours (a port scanner, a stale client): ignore it.
            continue;
        }
        let (r, w) = (read_u64(&h[8..16]) as usize, read_u64(&h[16..]) as usize);
        if w != world {
            return Err(failed(format!(
                "rank {r} (from {from}) says the world has {w} processes, rank 0 says {world}"
            )));
        }
        if r == 0 || r >= world || peers[r].is_some() {
            return Err(failed(format!(
                "a second rank {r} (from {from}) joined a world of {world}"
            )));
        }
        peers[r] = Some(s);
        arrived += 1;
    }
    let mut msg = Vec::with_capacity(16 + payload.len());
    msg.extend_from_slice(MAGIC);
    msg.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    msg.extend_from_slice(payload);
    for (r, s) in peers.iter_mut().enumerate().skip(1) {
        let s = s.as_mut().expect("every rank arrived");
        s.write_all(&msg)
            .map_err(|e| failed(format!("{addr}: sending to rank {r}: {e}")))?;
    }
    Ok(payload.to_vec())
}

/// A rank other than 0 of the TCP exchange.
fn tcp_fetch(addr: &str, rank: usize, world: usize, deadline: Instant) -> Result<Vec<u8>> {
    let waiting = || format!("connecting to rank 0 at {addr} (rank {rank} of {world})");
    let mut s = loop {
        let at = resolve(addr)?;
        let rest = left(deadline, &waiting)?;
        match TcpStream::connect_timeout(&at, rest.min(Duration::from_secs(1))) {
            Ok(s) => break s,
            // Rank 0 is not listening yet: try again.
            Err(_) => std::thread::sleep(POLL.max(Duration::from_millis(20)).min(rest)),
        }
    };
    let io = |e: std::io::Error| {
        if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) {
            failed(format!(
                "timed out waiting for the payload from rank 0 at {addr} (rank {rank} of {world})"
            ))
        } else {
            failed(format!("{addr}: rank {rank}: {e}"))
        }
    };
    s.set_read_timeout(Some(left(deadline, &waiting)?))
        .map_err(io)?;
    s.write_all(&hello(rank, world)).map_err(io)?;
    let mut head = [0u8; 16];
    s.read_exact(&mut head).map_err(io)?;
    if &head[..8] != MAGIC {
        return Err(failed(format!("{addr} is not a cuprite rendezvous")));
    }
    let n = read_u64(&head[8..]) as usize;
    if n > MAX_PAYLOAD {
        return Err(failed(format!("{addr} sent a payload of {n} bytes")));
    }
    let mut p = vec![0u8; n];
    s.read_exact(&mut p).map_err(io)?;
    Ok(p)
}

/// The acknowledgement file of `rank` beside `path`.
fn ack_path(path: &Path, rank: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".ack{rank}"));
    PathBuf::from(name)
}

fn io_err(path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        op: OP,
        path: path.display().to_string(),
        msg: e.to_string(),
    }
}

/// Rank 0 of the file exchange.
fn file_publish(path: &Path, world: usize, payload: &[u8], deadline: Instant) -> Result<Vec<u8>> {
    if world == 1 {
        return Ok(payload.to_vec());
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let mut body = MAGIC.to_vec();
    body.extend_from_slice(payload);
    std::fs::write(&tmp, &body).map_err(|e| io_err(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(path, e)
    })?;
    let cleanup = || {
        let _ = std::fs::remove_file(path);
        for r in 1..world {
            let _ = std::fs::remove_file(ack_path(path, r));
        }
    };
    loop {
        let missing: Vec<usize> = (1..world)
            .filter(|&r| !ack_path(path, r).exists())
            .collect();
        if missing.is_empty() {
            cleanup();
            return Ok(payload.to_vec());
        }
        if let Err(e) = left(deadline, &|| {
            format!(
                "at {}: ranks {missing:?} of {world} did not read the payload",
                path.display()
            )
        }) {
            cleanup();
            return Err(e);
        }
        std::thread::sleep(POLL);
    }
}

/// A rank other than 0 of the file exchange.
fn file_fetch(path: &Path, rank: usize, deadline: Instant) -> Result<Vec<u8>> {
    loop {
        match std::fs::read(path) {
            Ok(body) => {
                if body.len() < MAGIC.len() || &body[..MAGIC.len()] != MAGIC {
                    return Err(Error::Io {
                        op: OP,
                        path: path.display().to_string(),
                        msg: "not a cuprite rendezvous file".into(),
                    });
                }
                let ack = ack_path(path, rank);
                std::fs::write(&ack, b"").map_err(|e| io_err(&ack, e))?;
                return Ok(body[MAGIC.len()..].to_vec());
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                left(deadline, &|| {
                    format!(
                        "waiting for rank 0 to write {} (rank {rank})",
                        path.display()
                    )
                })?;
                std::thread::sleep(POLL);
            }
            Err(e) => return Err(io_err(path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    /// A fresh file path for one test.
    fn scratch(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("cuprite-rv-{name}-{}", std::process::id()))
    }

    /// A free local port (bound, then released).
    fn free_addr() -> String {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("127.0.0.1:{}", l.local_addr().unwrap().port())
    }

    /// Runs ranks 1..world in threads and rank 0 here; returns every rank's result in order.
    fn run(rv: &Rendezvous, world: usize, payload: &[u8], t: Duration) -> Vec<Result<Vec<u8>>> {
        let others: Vec<_> = (1..world)
            .map(|r| {
                let rv = rv.clone();
                thread::spawn(move || rv.exchange(r, world, None, t))
            })
            .collect();
        let mut all = vec![rv.exchange(0, world, Some(payload), t)];
        all.extend(others.into_iter().map(|h| h.join().unwrap()));
        all
    }

    #[test]
    fn every_rank_gets_rank_zeros_payload() {
        let id: Vec<u8> = (0..128u8).collect();
        let t = Duration::from_secs(20);
        for rv in [
            Rendezvous::Tcp(free_addr()),
            Rendezvous::File(scratch("ok")),
        ] {
            for world in [1, 2, 5] {
                for (r, got) in run(&rv, world, &id, t).into_iter().enumerate() {
                    assert_eq!(got.unwrap(), id, "{rv:?}, rank {r} of {world}");
                }
            }
            if let Rendezvous::File(p) = &rv {
                assert!(!p.exists() && !ack_path(p, 1).exists(), "files left behind");
            }
        }
    }

    /// Rank 1 in a second process (this test binary run again, told so by an environment
    /// variable), rank 0 here, through each kind of rendezvous.
    #[test]
    fn two_processes_meet_through_each_way() {
        const CHILD: &str = "CUPRITE_RENDEZVOUS_TEST_CHILD";
        const NAME: &str = "dist::rendezvous::tests::two_processes_meet_through_each_way";
        let t = Duration::from_secs(30);
        let parse = |spec: &str| match spec.strip_prefix("tcp:") {
            Some(a) => Rendezvous::Tcp(a.into()),
            None => Rendezvous::File(spec.trim_start_matches("file:").into()),
        };
        let payload = b"from rank 0 in another process";
        if let Ok(spec) = std::env::var(CHILD) {
            assert_eq!(parse(&spec).exchange(1, 2, None, t).unwrap(), payload);
            return;
        }
        for spec in [
            format!("tcp:{}", free_addr()),
            format!("file:{}", scratch("procs").display()),
        ] {
            let child = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--exact", NAME, "--test-threads", "1"])
                .env(CHILD, &spec)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let got = parse(&spec).exchange(0, 2, Some(payload), t);
            let out = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert_eq!(got.unwrap(), payload, "{spec}: {text}");
            assert!(
                out.status.success() && text.contains("1 passed"),
                "{spec}: {text}"
            );
        }
    }

    #[test]
    fn ranks_that_start_before_rank_zero_wait_for_it() {
        let t = Duration::from_secs(20);
        for rv in [
            Rendezvous::Tcp(free_addr()),
            Rendezvous::File(scratch("late")),
        ] {
            let early = {
                let rv = rv.clone();
                thread::spawn(move || rv.exchange(1, 2, None, t))
            };
            thread::sleep(Duration::from_millis(200));
            assert_eq!(rv.exchange(0, 2, Some(b"x"), t).unwrap(), b"x");
            assert_eq!(early.join().unwrap().unwrap(), b"x");
        }
    }

    #[test]
    fn a_missing_rank_times_out_with_an_error_naming_it() {
        let t = Duration::from_millis(300);
        let e = Rendezvous::Tcp(free_addr())
            .exchange(0, 3, Some(b"x"), t)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ranks [1, 2] of 3 did not connect"), "{e}");
        let e = Rendezvous::Tcp(free_addr())
            .exchange(1, 2, None, t)
            .unwrap_err()
            .to_string();
        assert!(e.contains("timed out connecting to rank 0"), "{e}");
        let p = scratch("missing");
        let e = Rendezvous::File(p.clone())
            .exchange(2, 3, None, t)
            .unwrap_err()
            .to_string();
        assert!(e.contains("waiting for rank 0 to write"), "{e}");
        let e = Rendezvous::File(p.clone())
            .exchange(0, 2, Some(b"x"), t)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ranks [1] of 2 did not read"), "{e}");
        assert!(!p.exists(), "the payload file is removed after a timeout");
    }

    #[test]
    fn disagreements_and_bad_arguments_are_errors() {
        let t = Duration::from_secs(10);
        // A rank that believes in another world size.
        let addr = free_addr();
        let wrong = {
            let rv = Rendezvous::Tcp(addr.clone());
            thread::spawn(move || rv.exchange(1, 3, None, Duration::from_secs(2)))
        };
        let e = Rendezvous::Tcp(addr)
            .exchange(0, 2, Some(b"x"), t)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("says the world has 3 processes, rank 0 says 2"),
            "{e}"
        );
        assert!(wrong.join().unwrap().is_err());
        // The same rank twice.
        let addr = free_addr();
        let twice: Vec<_> = (0..2)
            .map(|_| {
                let rv = Rendezvous::Tcp(addr.clone());
                thread::spawn(move || rv.exchange(1, 3, None, Duration::from_secs(2)))
            })
            .collect();
        let e = Rendezvous::Tcp(addr)
            .exchange(0, 3, Some(b"x"), t)
            .unwrap_err()
            .to_string();
        assert!(e.contains("a second rank 1"), "{e}");
        for h in twice {
            assert!(h.join().unwrap().is_err());
        }
        let rv = Rendezvous::File(scratch("args"));
        for (rank, world, payload, want) in [
            (2, 2, None, "rank 2 is not in a world of 2"),
            (0, 0, Some(&b"x"[..]), "rank 0 is not in a world of 0"),
            (0, 2, None, "rank 0 must give the payload"),
            (1, 2, Some(&b"x"[..]), "only rank 0 gives the payload"),
            (0, 2, Some(&[0u8; MAX_PAYLOAD + 1][..]), "the most is 4096"),
        ] {
            let e = rv
                .exchange(rank, world, payload, t)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("rendezvous: ") && e.contains(want), "{e}");
        }
        let e = Rendezvous::Tcp("no.such.host.invalid:1".into())
            .exchange(0, 2, Some(b"x"), t)
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot resolve no.such.host.invalid:1"), "{e}");
        // A file that is not ours.
        let p = scratch("foreign");
        std::fs::write(&p, b"hello").unwrap();
        let e = Rendezvous::File(p.clone())
            .exchange(1, 2, None, t)
            .unwrap_err()
            .to_string();
        std::fs::remove_file(&p).unwrap();
        assert!(e.contains("not a cuprite rendezvous file"), "{e}");
    }
}
