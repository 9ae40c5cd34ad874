//! Reduction primitives of the CPU backend (being written).
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::ReduceOps;
use cuprite_core::ops::{ReduceOp, ScanOp};
use cuprite_core::{ArgKind, Element, Error, Layout, Result};

impl ReduceOps for Cpu {
    fn reduce<T: Element, K: ReduceOp<T>>(
        &self,
        _op: K,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _axes: &[usize],
    ) -> Result<CpuBuffer<K::Out>> {
        Err(Error::Backend {
            op: K::NAME,
            msg: "WIP".into(),
        })
    }
    fn arg_reduce<T: Element>(
        &self,
        _kind: ArgKind,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _axis: usize,
    ) -> Result<CpuBuffer<i64>> {
        Err(Error::Backend {
            op: "argmin",
            msg: "WIP".into(),
        })
    }
    fn scan<T: Element, K: ScanOp<T>>(
        &self,
        _op: K,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _axis: usize,
    ) -> Result<CpuBuffer<K::Out>> {
        Err(Error::Backend {
            op: K::NAME,
            msg: "WIP".into(),
        })
    }
}
