//! More than one GPU: NCCL communicators and collectives on `Array<T, Cuda>`, and the
//! rendezvous through which the processes of a job (one per GPU, as torchrun launches
//! them) hand each other NCCL's unique id.
//!
//! - One process, several GPUs: [`Communicator::new_all`], each collective called for
//!   every GPU inside one [`group`].
//! - One process per GPU: [`Communicator::from_env`] reads the job's place from the
//!   environment ([`DistEnv`]) and meets the other ranks through a [`Rendezvous`] (TCP to
//!   rank 0, or a shared file), so several machines work too.
//! - Arrays split over the GPUs: a [`Mesh`] of ranks and a [`ShardedArray`] split along one
//!   axis over it, with creation (random draws match one GPU's bit for bit), element-wise
//!   ops against sharded or [`Replicated`] arrays, reductions, matmul, a sample sort,
//!   resharding and gathering.
//!
//! NCCL is loaded at run time: builds need no NCCL, and a machine without it gets an `Err`
//! from the first call that needs it.

mod comm;
mod env;
mod mesh;
mod nccl;
mod rendezvous;
mod reshard;
mod sharded;
mod sharded_matmul;
mod sharded_new;
mod sharded_ops;
#[cfg(test)]
mod tests_gpu;
#[cfg(test)]
mod tests_sharded;

pub use comm::{group, Communicator};
pub use env::DistEnv;
pub use mesh::{even_split, Mesh};
pub use nccl::{nccl_version, ReduceOp, UniqueId};
pub use rendezvous::{Rendezvous, MAX_PAYLOAD};
pub use sharded::{Distributed, Replicated, ShardedArray};
pub use sharded_ops::Operand;
