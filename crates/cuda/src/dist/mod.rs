//! More than one GPU: NCCL communicators and collectives on `Array<T, Cuda>`, and the
//! rendezvous through which the processes of a job (one per GPU, as torchrun launches
//! them) hand each other NCCL's unique id.
//!
//! - One process, several GPUs: [`Communicator::new_all`], each collective called for
//!   every GPU inside one [`group`].
//! - One process per GPU: [`Communicator::from_env`] reads the job's place from the
//!   environment ([`DistEnv`]) and meets the other ranks through a [`Rendezvous`] (TCP to
//!   rank 0, or a shared file), so several machines work too.
//!
//! NCCL is loaded at run time: builds need no NCCL, and a machine without it gets an `Err`
//! from the first call that needs it.

mod comm;
mod env;
mod nccl;
mod rendezvous;
#[cfg(test)]
mod tests_gpu;

pub use comm::{group, Communicator};
pub use env::DistEnv;
pub use nccl::{ReduceOp, UniqueId};
pub use rendezvous::{Rendezvous, MAX_PAYLOAD};
