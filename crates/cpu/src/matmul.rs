//! Matrix products of the CPU backend (being written).
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::MatmulOps;
use cuprite_core::{Error, Layout, Numeric, Result};

impl MatmulOps for Cpu {
    fn matmul<T: Numeric>(
        &self,
        _a: &CpuBuffer<T>,
        _la: &Layout,
        _b: &CpuBuffer<T>,
        _lb: &Layout,
    ) -> Result<CpuBuffer<T>> {
        Err(Error::Backend {
            op: "matmul",
            msg: "WIP".into(),
        })
    }
}
