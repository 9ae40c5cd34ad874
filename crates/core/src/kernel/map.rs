//! [`MapKernel1`] ... [`MapKernel4`]: a kernel of 1 to 4 inputs as a value, callable on
//! scalars (`apply`) and on arrays of any backend (`call`, NumPy broadcasting).

use super::{KernelElement, KernelSpec};
use crate::array::Array;
use crate::backend::{ArrayBackend, KernelOps};
use crate::error::Result;
use crate::layout::broadcast_shapes;
use std::fmt;
use std::marker::PhantomData;

macro_rules! map_kernel {
    ($name:ident, $n:literal, $method:ident, $(($t:ident, $a:ident, $l:ident)),+) => {
        #[doc = concat!("A kernel of ", $n, " input(s) written in Rust, as `cuprite::elementwise!` and")]
        /// `#[cuprite::kernel]` make it: its CPU function `F` and its [`KernelSpec`] (name and
        /// CUDA translation).
        ///
        /// `call` applies it to arrays broadcast together (NumPy rules) on any backend and
        /// returns a new C-contiguous array of the broadcast shape; `apply` calls the function
        /// on scalars.
        pub struct $name<$($t,)+ R, F> {
            spec: KernelSpec,
            f: F,
            _types: PhantomData<fn($($t),+) -> R>,
        }

        impl<$($t,)+ R, F: Clone> Clone for $name<$($t,)+ R, F> {
            fn clone(&self) -> Self {
                $name { spec: self.spec, f: self.f.clone(), _types: PhantomData }
            }
        }

        impl<$($t,)+ R, F: Copy> Copy for $name<$($t,)+ R, F> {}

        impl<$($t,)+ R, F> fmt::Debug for $name<$($t,)+ R, F> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name)).field("name", &self.spec.name()).finish()
            }
        }

        impl<$($t: KernelElement,)+ R: KernelElement, F> $name<$($t,)+ R, F>
        where
            F: Fn($($t),+) -> R + Send + Sync,
        {
            /// A kernel from its spec and its CPU function (what the macros emit).
            pub const fn new(spec: KernelSpec, f: F) -> Self {
                $name { spec, f, _types: PhantomData }
            }

            /// The kernel's name (in error messages and the GPU module cache).
            pub fn name(&self) -> &'static str {
                self.spec.name()
            }

            /// The same kernel under another name.
            pub fn with_name(self, name: &'static str) -> Self {
                $name { spec: self.spec.with_name(name), f: self.f, _types: PhantomData }
            }

            /// The spec: name and CUDA translation.
            pub fn spec(&self) -> &KernelSpec {
                &self.spec
            }

            /// The kernel on scalars (its CPU function).
            pub fn apply(&self, $($a: $t),+) -> R {
                (self.f)($($a),+)
            }

            /// The kernel on arrays broadcast together, on their backend.
            ///
            /// # Errors
            /// [`Error::Broadcast`](crate::Error::Broadcast) naming the kernel and the shapes
            /// when the inputs do not broadcast; [`Error::DeviceMismatch`](crate::Error::DeviceMismatch)
            /// when they live on different devices; the backend's errors (GPU compilation,
            /// out of memory).
            pub fn call<D: ArrayBackend>(&self, $($a: &Array<$t, D>),+) -> Result<Array<R, D>> {
                let op = self.spec.name();
                let first = map_kernel!(@first $($a),+);
                let mut shape = first.shape().to_vec();
                $(
                    first.check_device($a, op)?;
                    shape = broadcast_shapes(op, &shape, $a.shape())?;
                )+
                $(let $l = $a.layout().broadcast_to(op, &shape)?;)+
                let buf = KernelOps::$method(
                    first.device(),
                    &self.spec,
                    &self.f,
                    $($a.buffer(), &$l,)+
                )?;
                Ok(Array::from_contiguous(buf, &shape, first.device()))
            }
        }
    };
    (@first $a:ident $(, $rest:ident)*) => { $a };
}

map_kernel!(MapKernel1, "one", map_kernel1, (A0, a0, l0));
map_kernel!(MapKernel2, "two", map_kernel2, (A0, a0, l0), (A1, a1, l1));
map_kernel!(
    MapKernel3,
    "three",
    map_kernel3,
    (A0, a0, l0),
    (A1, a1, l1),
    (A2, a2, l2)
);
map_kernel!(
    MapKernel4,
    "four",
    map_kernel4,
    (A0, a0, l0),
    (A1, a1, l1),
    (A2, a2, l2),
    (A3, a3, l3)
);
