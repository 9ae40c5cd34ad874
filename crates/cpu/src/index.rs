//! Indexing primitives of the CPU backend (being written).
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::IndexOps;
use cuprite_core::{Element, Error, Layout, Result};

impl IndexOps for Cpu {
    fn take<T: Element>(
        &self,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _axis: usize,
        _idx: &CpuBuffer<i64>,
        _li: &Layout,
    ) -> Result<CpuBuffer<T>> {
        Err(Error::Backend {
            op: "take",
            msg: "WIP".into(),
        })
    }
    fn take_along_axis<T: Element>(
        &self,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _idx: &CpuBuffer<i64>,
        _li: &Layout,
        _axis: usize,
    ) -> Result<CpuBuffer<T>> {
        Err(Error::Backend {
            op: "take_along_axis",
            msg: "WIP".into(),
        })
    }
    fn scatter<T: Element>(
        &self,
        _d: &mut CpuBuffer<T>,
        _ld: &Layout,
        _axis: usize,
        _i: &CpuBuffer<i64>,
        _li: &Layout,
        _v: &CpuBuffer<T>,
        _lv: &Layout,
    ) -> Result<()> {
        Err(Error::Backend {
            op: "scatter",
            msg: "WIP".into(),
        })
    }
}
