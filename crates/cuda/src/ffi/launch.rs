//! Typed kernel launches. A kernel of the crate takes one parameter: a `#[repr(C)]` struct
//! passed by value, declared once in Rust with [`kernel_params!`] (which also writes the
//! struct's C declaration) and once in the kernel's `.cu` source; a test per struct checks
//! that the source holds exactly that declaration and that the Rust layout follows C's
//! rules field by field ([`assert_mirrors`]). Device pointers travel as `u64` fields, taken
//! from buffers the caller has checked (device, bounds) before the launch.
//!
//! A [`Kernel`] is a loaded entry point bound to its parameter type; its
//! [`launch`](Kernel::launch) is the one place where the crate's own kernels meet
//! `cuLaunchKernel`. User kernels (whose parameter lists come from user code) launch through
//! [`launch_raw`], which keeps the raw contract.

use super::driver;
use crate::device::Cuda;
use crate::elementwise::ArgBytes;
use crate::launch::Strided;
use crate::modules::Func;
use cuprite_core::Result;
use std::ffi::c_void;
use std::marker::PhantomData;

#[cfg_attr(not(test), allow(dead_code))]
/// A field type of a kernel parameter struct, with its C twin: the C type's name, array
/// extents after the field name, and its C size and alignment (stated here by C's rules,
/// independently of Rust's layout, so the mirror test compares two descriptions).
pub(crate) trait CField {
    /// The C type as written in the `.cu` declaration.
    fn c_type() -> String;
    /// Array extents written after the field name (`[3]`); empty for scalars.
    fn extents() -> String {
        String::new()
    }
    /// Size and alignment of the C type, in bytes.
    fn c_layout() -> (usize, usize);
}

macro_rules! c_field {
    ($($t:ty => $c:literal, $size:literal, $align:literal;)*) => {$(
        impl CField for $t {
            fn c_type() -> String {
                $c.to_string()
            }
            fn c_layout() -> (usize, usize) {
                ($size, $align)
            }
        }
    )*};
}

c_field! {
    u64 => "u64", 8, 8;
    i64 => "long long", 8, 8;
    u32 => "u32", 4, 4;
    i32 => "int", 4, 4;
    f64 => "double", 8, 8;
    f32 => "float", 4, 4;
    Strided => "Strided", 144, 8;
    ArgBytes => "Bytes16", 16, 16;
}

impl<T: CField, const N: usize> CField for [T; N] {
    fn c_type() -> String {
        T::c_type()
    }
    fn extents() -> String {
        format!("[{N}]{}", T::extents())
    }
    fn c_layout() -> (usize, usize) {
        let (s, a) = T::c_layout();
        (s * N, a)
    }
}

#[cfg_attr(not(test), allow(dead_code))]
/// A kernel parameter struct.
///
/// # Safety
/// Implemented only by [`kernel_params!`]: the type is `#[repr(C)]`, `Copy`, made of
/// [`CField`] fields only (plain numbers, `Strided`, element bytes; device addresses as
/// `u64`, never references), and [`fields`](KernelParams::fields) lists every field in
/// declaration order.
pub(crate) unsafe trait KernelParams: Copy + 'static {
    /// The struct's name, in Rust and in C.
    const NAME: &'static str;
    /// Each field: name, C type, array extents, C size and alignment, Rust offset.
    fn fields() -> Vec<FieldInfo>;

    /// The C declaration the `.cu` source must contain, word for word.
    fn c_decl() -> String {
        let mut s = format!("struct {} {{\n", Self::NAME);
        for f in Self::fields() {
            s += &format!("    {} {}{};\n", f.c_type, f.name, f.extents);
        }
        s + "};"
    }
}

/// One field of a [`KernelParams`] struct.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Debug)]
pub(crate) struct FieldInfo {
    pub name: &'static str,
    pub c_type: String,
    pub extents: String,
    pub c_size: usize,
    pub c_align: usize,
    pub offset: usize,
}

/// Defines a `#[repr(C)]` kernel parameter struct and implements [`KernelParams`] for it.
/// Every field type must implement [`CField`].
macro_rules! kernel_params {
    ($(#[$m:meta])* $vis:vis struct $name:ident {
        $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)?
    }) => {
        $(#[$m])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default)]
        $vis struct $name {
            $($(#[$fm])* pub $field: $ty),*
        }

        // SAFETY: the struct above is `#[repr(C)]`, `Copy`, and its fields are the `CField`
        // types listed in order by `fields`.
        unsafe impl $crate::ffi::launch::KernelParams for $name {
            const NAME: &'static str = stringify!($name);
            fn fields() -> Vec<$crate::ffi::launch::FieldInfo> {
                use $crate::ffi::launch::{CField, FieldInfo};
                vec![$({
                    let (c_size, c_align) = <$ty as CField>::c_layout();
                    FieldInfo {
                        name: stringify!($field),
                        c_type: <$ty as CField>::c_type(),
                        extents: <$ty as CField>::extents(),
                        c_size,
                        c_align,
                        offset: std::mem::offset_of!($name, $field),
                    }
                }),*]
            }
        }
    };
}

/// Checks that `P` mirrors its C declaration: `source` contains [`KernelParams::c_decl`]
/// word for word, every field's Rust offset is the offset C's layout rules give, the size
/// is C's (rounded up to the largest alignment), and every entry of `entries` is declared
/// in `source` taking exactly one `P` by value.
#[cfg(test)]
pub(crate) fn assert_mirrors<P: KernelParams>(source: &str, entries: &[&str]) {
    let decl = P::c_decl();
    assert!(
        source.contains(&decl),
        "the kernel source lacks the declaration\n{decl}"
    );
    let (mut off, mut align) = (0usize, 1usize);
    for f in P::fields() {
        off = off.next_multiple_of(f.c_align);
        assert_eq!(
            f.offset,
            off,
            "{}.{}: Rust offset vs C offset",
            P::NAME,
            f.name
        );
        off += f.c_size;
        align = align.max(f.c_align);
    }
    assert_eq!(
        std::mem::size_of::<P>(),
        off.next_multiple_of(align),
        "{}: Rust size vs C size",
        P::NAME
    );
    assert_eq!(std::mem::align_of::<P>(), align, "{}: alignment", P::NAME);
    for e in entries {
        let sig = format!(" {e}({} a)", P::NAME);
        assert!(
            source.contains(&sig),
            "the kernel source lacks an entry `{e}` taking one {} by value",
            P::NAME
        );
    }
}

/// A loaded kernel of the crate whose one parameter is a `P` by value.
#[derive(Clone, Copy)]
pub(crate) struct Kernel<'a, P> {
    dev: &'a Cuda,
    func: Func,
    _params: PhantomData<fn(P)>,
}

impl Cuda {
    /// [`Cuda::kernel`] for a module compiled with extra NVRTC `options` (see
    /// [`Cuda::function_with`]).
    pub(crate) fn kernel_with<P: KernelParams>(
        &self,
        key: &str,
        name: &str,
        options: &[&str],
        source: impl FnOnce() -> String,
    ) -> Result<Kernel<'_, P>> {
        Ok(Kernel {
            dev: self,
            func: self.function_with(key, name, options, source)?,
            _params: PhantomData,
        })
    }

    /// The kernel `name` of the module known as `key` (made by `source()` on first use; see
    /// [`Cuda::function`]), bound to its parameter struct `P`. The entry must be declared
    /// `extern "C" __global__ void name(P a)` with `P`'s C twin: [`assert_mirrors`] checks
    /// that for every struct and entry of the crate.
    pub(crate) fn kernel<P: KernelParams>(
        &self,
        key: &str,
        name: &str,
        source: impl FnOnce() -> String,
    ) -> Result<Kernel<'_, P>> {
        Ok(Kernel {
            dev: self,
            func: self.function(key, name, source)?,
            _params: PhantomData,
        })
    }
}

impl<P: KernelParams> Kernel<'_, P> {
    /// Queues the kernel on the device's stream with `params` as its argument. The device
    /// addresses in `params` must have been checked by the caller to cover everything the
    /// kernel touches (buffers of this device, views inside them).
    pub(crate) fn launch(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: u32,
        params: &P,
    ) -> Result<()> {
        self.dev.bind()?;
        let mut args = [params as *const P as *mut c_void];
        // SAFETY: the entry takes one `P` by value (the contract of `Cuda::kernel`, checked
        // by the mirror tests); the driver copies `size_of::<P>()` bytes from `params`,
        // which outlives the call. Device addresses are the caller's checked ones.
        unsafe {
            driver::launch(
                self.func.0,
                grid,
                block,
                shared,
                self.dev.stream(),
                &mut args,
            )
        }
    }
}

/// Launches a kernel whose parameter list is given as pointers to the argument values (user
/// kernels, whose signatures come from user code).
///
/// # Safety
/// `args` must match the kernel's parameters in number, order and C layout, and every
/// device pointer passed must be valid for every element the kernel touches.
pub(crate) unsafe fn launch_raw(
    dev: &Cuda,
    f: Func,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u32,
    args: &mut [*mut c_void],
) -> Result<()> {
    dev.bind()?;
    // SAFETY: as the caller guarantees.
    unsafe { driver::launch(f.0, grid, block, shared, dev.stream(), args) }
}
