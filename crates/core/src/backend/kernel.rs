//! The primitive behind kernels written in Rust ([`crate::kernel`]): apply a kernel to 1 to
//! 4 operands of one shape (core has broadcast them), writing a new C-contiguous buffer. The
//! CPU runs the kernel's Rust function `f`; a GPU backend compiles the spec's CUDA
//! translation instead.

use super::memory::BackendBase;
use crate::error::Result;
use crate::kernel::{KernelElement, KernelSpec};
use crate::layout::Layout;

macro_rules! kernel_ops {
    ($($method:ident($($a:ident: $t:ident, $l:ident),+);)*) => {
        /// Element-wise kernels written in Rust. Every layout passed has the same shape.
        pub trait KernelOps: BackendBase {
            $(
                /// `f(a0[i], ...)` for every index `i` of the common shape, in C order.
                #[allow(clippy::too_many_arguments)]
                fn $method<$($t: KernelElement,)+ R: KernelElement, F>(
                    &self,
                    spec: &KernelSpec,
                    f: &F,
                    $($a: &Self::Buffer<$t>, $l: &Layout,)+
                ) -> Result<Self::Buffer<R>>
                where
                    F: Fn($($t),+) -> R + Send + Sync;
            )*
        }
    };
}

kernel_ops! {
    map_kernel1(a0: A0, l0);
    map_kernel2(a0: A0, l0, a1: A1, l1);
    map_kernel3(a0: A0, l0, a1: A1, l1, a2: A2, l2);
    map_kernel4(a0: A0, l0, a1: A1, l1, a2: A2, l2, a3: A3, l3);
}
