//! Sorting primitives of the CPU backend (being written).
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::SortOps;
use cuprite_core::{Element, Error, Layout, Result};

impl SortOps for Cpu {
    fn sort<T: Element>(
        &self,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _axis: usize,
    ) -> Result<CpuBuffer<T>> {
        Err(Error::Backend {
            op: "sort",
            msg: "WIP".into(),
        })
    }
    fn argsort<T: Element>(
        &self,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _axis: usize,
    ) -> Result<CpuBuffer<i64>> {
        Err(Error::Backend {
            op: "argsort",
            msg: "WIP".into(),
        })
    }
    fn searchsorted<T: Element>(
        &self,
        _s: &CpuBuffer<T>,
        _ls: &Layout,
        _v: &CpuBuffer<T>,
        _lv: &Layout,
        _right: bool,
    ) -> Result<CpuBuffer<i64>> {
        Err(Error::Backend {
            op: "searchsorted",
            msg: "WIP".into(),
        })
    }
}
