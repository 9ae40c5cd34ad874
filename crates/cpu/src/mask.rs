//! Boolean-mask primitives of the CPU backend (being written).
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::MaskOps;
use cuprite_core::{Element, Error, Layout, Result};

impl MaskOps for Cpu {
    fn mask_select<T: Element>(
        &self,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
        _m: &CpuBuffer<bool>,
        _lm: &Layout,
    ) -> Result<(CpuBuffer<T>, usize)> {
        Err(Error::Backend {
            op: "mask_select",
            msg: "WIP".into(),
        })
    }
    fn nonzero<T: Element>(
        &self,
        _x: &CpuBuffer<T>,
        _lx: &Layout,
    ) -> Result<(CpuBuffer<i64>, usize)> {
        Err(Error::Backend {
            op: "nonzero",
            msg: "WIP".into(),
        })
    }
    fn mask_assign<T: Element>(
        &self,
        _d: &mut CpuBuffer<T>,
        _ld: &Layout,
        _m: &CpuBuffer<bool>,
        _lm: &Layout,
        _v: &CpuBuffer<T>,
        _lv: &Layout,
    ) -> Result<()> {
        Err(Error::Backend {
            op: "mask_assign",
            msg: "WIP".into(),
        })
    }
}
