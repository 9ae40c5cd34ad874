//! Typed kernel launches. A kernel of the crate takes one parameter: a `#[repr(C)]` struct
//! passed by value, declared once in Rust with [`kernel_params!`] (which also writes the
//! struct's C declaration) and once in the kernel's `.cu` source; a test per struct checks
//! that the source holds exactly that declaration and that the Rust layout follows C's
//! rules field by field ([`assert_mirrors`]). Device pointers travel as `u64` fields, taken
//! from buffers the caller has checked (device, bounds) before the launch.
//!
//! A [`Kernel`] is a loaded entry point bound to its parameter type; its
//! [`launch`](Kernel::launch) is the one place where the crate's own kernels meet
//! `cuLaunchKernel`. User kernels (`ElementwiseKernel`, `ReductionKernel`, `RawKernel`),
//! whose parameter lists are generated from or read in user code, launch through
//! [`UserArgs::launch`]: a [`UserArgs`] is built only from checked parts (arrays of the
//! launching device, views checked to stay inside their arrays' own views, scalars by
//! value), so a launch needs no `unsafe` at its call site.

use super::driver;
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::elementwise::ArgBytes;
use crate::kernel::{ArgList, DeviceArray, RawView, ScalarArg};
use crate::launch::Strided;
use crate::modules::Func;
use cuprite_core::{Element, Error, Layout, Result};
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

    /// [`Cuda::kernel`] found by a [`FuncId`](crate::modules::FuncId) (see
    /// [`Cuda::function_by_id`]).
    pub(crate) fn kernel_by_id<P: KernelParams>(
        &self,
        id: crate::modules::FuncId,
        key: impl FnOnce() -> String,
        source: impl FnOnce() -> String,
    ) -> Result<Kernel<'_, P>> {
        Ok(Kernel {
            dev: self,
            func: self.function_by_id(id, key, source)?,
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

/// The arguments of one user-kernel launch, in the order of the kernel's parameter list,
/// built only from checked parts:
///
/// - an array's address: the first element of its C-contiguous view ([`UserArgs::array`]),
///   or the start of its buffer followed by views of it ([`UserArgs::strided`],
///   [`UserArgs::split`], [`UserArgs::raw`]) checked to reach no element outside the
///   array's own view, which `Array` keeps inside its buffer;
/// - a scratch buffer of the launching device ([`UserArgs::buffer`]);
/// - a scalar by value ([`UserArgs::scalar`]).
///
/// Every array and buffer must belong to the launching device. Views are borrowed for `'a`,
/// so they cannot change between the check and the launch. What the list cannot know is the
/// kernel's parameter list: its builder pushes the arguments in the order of the list it
/// generated the kernel from (element-wise and reduction kernels) or checked them against
/// (raw kernels).
#[derive(Clone)]
pub(crate) struct UserArgs<'a> {
    op: &'static str,
    dev: &'a Cuda,
    list: ArgList<'a>,
    /// Arguments pushed (the list drops those past its capacity; the launch checks).
    pushed: usize,
}

impl<'a> UserArgs<'a> {
    /// An empty list for a launch on `dev`; errors name `op`.
    pub(crate) fn new(op: &'static str, dev: &'a Cuda) -> Self {
        UserArgs {
            op,
            dev,
            list: ArgList::new(),
            pushed: 0,
        }
    }

    /// `a`'s buffer address for work queued now, after checking that `a` is on the device.
    fn base(&self, a: &dyn DeviceArray) -> Result<u64> {
        if a.cuda() != self.dev {
            return Err(Error::DeviceMismatch {
                op: self.op,
                lhs: format!("cuda:{}", self.dev.ordinal()),
                rhs: format!("cuda:{}", a.cuda().ordinal()),
            });
        }
        a.base_ptr()
    }

    /// Checks that buffer offsets `span` (as [`Layout::span`] gives them; `None` for a view
    /// of no element) lie inside `a`'s own view.
    fn within(&self, a: &dyn DeviceArray, span: Option<(i128, i128)>) -> Result<()> {
        let Some((lo, hi)) = span else {
            return Ok(());
        };
        match a.layout().span() {
            Some((alo, ahi)) if alo <= lo && hi <= ahi => Ok(()),
            own => Err(Error::invalid(
                self.op,
                format!(
                    "a kernel view reaches elements {lo}..{hi} of an array whose own view \
                     reaches {own:?} (shape {:?})",
                    a.layout().shape()
                ),
            )),
        }
    }

    /// The address of the first element of `a`'s view, which must be C-contiguous: the
    /// kernel walks its elements from there.
    pub(crate) fn array(&mut self, a: &dyn DeviceArray) -> Result<()> {
        let l = a.layout();
        if !l.is_c_contiguous() {
            return Err(Error::invalid(
                self.op,
                format!(
                    "a kernel pointer takes a C-contiguous array, got a view of shape {:?} \
                     and strides {:?}",
                    l.shape(),
                    l.strides()
                ),
            ));
        }
        let address = self.base(a)? + (l.offset() * a.dtype().size_of()) as u64;
        self.address(address);
        Ok(())
    }

    /// The address of `a`'s buffer, then `view` (a `Strided` by value): the kernel walks
    /// the view's elements, which must lie inside `a`'s own view.
    pub(crate) fn strided(&mut self, a: &dyn DeviceArray, view: &'a Strided) -> Result<()> {
        self.within(a, span(view))?;
        let base = self.base(a)?;
        self.address(base);
        self.by_ref(view);
        Ok(())
    }

    /// The address of `a`'s buffer, then `kept` and `red` (two `Strided` by value): the
    /// kernel reads the elements at every sum of an offset of `kept` and one of `red` (a
    /// reduction's kept and reduced axes), which must lie inside `a`'s own view.
    pub(crate) fn split(
        &mut self,
        a: &dyn DeviceArray,
        kept: &'a Strided,
        red: &'a Strided,
    ) -> Result<()> {
        self.within(a, split_span(kept, red))?;
        let base = self.base(a)?;
        self.address(base);
        self.by_ref(kept);
        self.by_ref(red);
        Ok(())
    }

    /// `v`, a `RawArray` view of `a` by value: its address must be `a`'s buffer and its
    /// view must lie inside `a`'s own view, with `v.n` its element count.
    pub(crate) fn raw(&mut self, a: &dyn DeviceArray, v: &'a RawView) -> Result<()> {
        self.within(a, span(&v.view))?;
        if v.data != self.base(a)? || v.n as usize != v.view.size() {
            return Err(Error::invalid(
                self.op,
                "a raw view that is not of its array's buffer",
            ));
        }
        self.by_ref(v);
        Ok(())
    }

    /// The address of `b`, a scratch buffer of the launching device.
    pub(crate) fn buffer<T: Element>(&mut self, b: &CudaBuffer<T>) -> Result<()> {
        self.dev.check_buffer(b, self.op)?;
        let address = self.dev.ptr(b)?;
        self.address(address);
        Ok(())
    }

    /// A scalar, by value in its C type.
    pub(crate) fn scalar(&mut self, s: ScalarArg) {
        self.list.push_scalar(s);
        self.pushed += 1;
    }

    /// A device address (a 64-bit pointer parameter), taken from a checked array or buffer.
    fn address(&mut self, a: u64) {
        self.list.push_u64(a);
        self.pushed += 1;
    }

    fn by_ref<T>(&mut self, v: &'a T) {
        self.list.push_ref(v);
        self.pushed += 1;
    }

    /// Queues the kernel `f` (a user kernel loaded on the device) on the device's stream with
    /// `grid` blocks of `block` threads and `shared` bytes of dynamic shared memory, these
    /// arguments in order. The configuration must be within the device's limits (checked
    /// by the caller, or reported by the driver).
    pub(crate) fn launch(
        &mut self,
        f: Func,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: u32,
    ) -> Result<()> {
        let dev = self.dev;
        let ptrs = self.list.ptrs();
        if ptrs.len() != self.pushed {
            return Err(Error::invalid(
                self.op,
                format!("{} kernel arguments, more than a launch takes", self.pushed),
            ));
        }
        dev.bind()?;
        // SAFETY: host side: every pointer in `ptrs` points at a 16-byte slot of the list
        // holding a value (an address, a scalar in its C type) or at a `Strided` or
        // `RawView` borrowed for `'a`, all alive until the call returns, which is when the
        // driver has copied them; the count is the number of arguments pushed. The kernel's
        // parameter list is the one the builder pushed them for (see `UserArgs`), so each
        // parameter is read from an argument of its own size. Device side: every address is
        // an array's or scratch buffer's of this device, reached by the work queued now
        // (`base_ptr`, `Cuda::ptr`), and freed stream-ordered, after the kernel; every view
        // was checked to stay inside its array's own view, which lies inside its buffer (an
        // invariant of `Array`). Kernels generated by cuprite touch only those elements;
        // what user code does with an address (a raw array's index, a `RawKernel`) is the
        // user's contract, as in CUDA C: `RawKernel::launch` is `unsafe` for it.
        unsafe { driver::launch(f.0, grid, block, shared, dev.stream(), ptrs) }
    }
}

/// The buffer offsets reached by the sums of an offset of `kept` and one of `red` (`None`
/// when either has no element).
fn split_span(kept: &Strided, red: &Strided) -> Option<(i128, i128)> {
    let ((klo, khi), (rlo, rhi)) = (span(kept)?, span(red)?);
    Some((klo.saturating_add(rlo), khi.saturating_add(rhi) - 1))
}

/// The buffer offsets a view reaches ([`Layout::span`]; `None` when it has no element). A
/// view no `Layout` can describe (a negative extent or offset, a rank past the arrays')
/// reaches everything, so no array holds it.
fn span(v: &Strided) -> Option<(i128, i128)> {
    let everything = Some((i128::MIN, i128::MAX));
    let Some(nd) = usize::try_from(v.ndim).ok().filter(|&n| n <= v.shape.len()) else {
        return everything;
    };
    let shape: Option<Vec<usize>> = v.shape[..nd]
        .iter()
        .map(|&d| usize::try_from(d).ok())
        .collect();
    match (shape, usize::try_from(v.offset)) {
        (Some(shape), Ok(offset)) => {
            let strides = v.strides[..nd].iter().map(|&s| s as isize).collect();
            Layout::new(shape, strides, offset).span()
        }
        _ => everything,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::MAX_DIMS;

    fn view(shape: &[i64], strides: &[i64], offset: i64) -> Strided {
        let mut v = Strided {
            ndim: shape.len() as i32,
            offset,
            ..Default::default()
        };
        v.shape[..shape.len()].copy_from_slice(shape);
        v.strides[..strides.len()].copy_from_slice(strides);
        v
    }

    #[test]
    fn views_reach_the_offsets_of_their_elements() {
        let everything = Some((i128::MIN, i128::MAX));
        // Reversed, empty, 0-d.
        assert_eq!(span(&view(&[3], &[-1], 2)), Some((0, 3)));
        assert_eq!(span(&view(&[2, 0], &[1, 1], 5)), None);
        assert_eq!(span(&view(&[], &[], 4)), Some((4, 5)));
        // What no layout describes reaches everything, so no array holds it.
        assert_eq!(span(&view(&[3], &[1], -1)), everything);
        assert_eq!(span(&view(&[-3], &[1], 0)), everything);
        let mut deep = view(&[3], &[1], 0);
        deep.ndim = MAX_DIMS as i32 + 1;
        assert_eq!(span(&deep), everything);
        // The kept rows (stride 5, from offset 2) of a 4 x 5 matrix, plus its columns.
        let (rows, cols) = (view(&[4], &[5], 2), view(&[5], &[1], 0));
        assert_eq!(split_span(&rows, &cols), Some((2, 22)));
        assert_eq!(split_span(&rows, &view(&[0], &[0], 0)), None);
    }
}
