//! The arguments of user kernels: [`Arg`] (an array by reference, a mutable array, or a
//! scalar), [`ScalarArg`] (a scalar of any C type a kernel may take by value), and
//! [`DynArray`] (an array whose element type is known at run time, as kernels return).

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use cuprite_core::{bf16, c128, c64, f16, Array, DType, Element, Error, Layout, Result, Scalar};

/// A scalar argument, of any type a kernel parameter may have by value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarArg {
    Bool(bool),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F16(f16),
    BF16(bf16),
    F32(f32),
    F64(f64),
    C64(c64),
    C128(c128),
}

/// The C type of a value parameter (and, for the eight dtypes, of a pointer's elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    BF16,
    F32,
    F64,
    C64,
    C128,
}

impl CType {
    /// The C spelling (`unsigned long long` for U64).
    pub fn c_name(self) -> &'static str {
        match self {
            CType::Bool => "bool",
            CType::I8 => "signed char",
            CType::U8 => "unsigned char",
            CType::I16 => "short",
            CType::U16 => "unsigned short",
            CType::I32 => "int",
            CType::U32 => "unsigned int",
            CType::I64 => "long long",
            CType::U64 => "unsigned long long",
            CType::F16 => "__half",
            CType::BF16 => "__nv_bfloat16",
            CType::F32 => "float",
            CType::F64 => "double",
            CType::C64 => "complex64",
            CType::C128 => "complex128",
        }
    }

    /// The dtype of this C type, if cuprite has one.
    pub fn dtype(self) -> Option<DType> {
        Some(match self {
            CType::Bool => DType::Bool,
            CType::I8 => DType::I8,
            CType::U8 => DType::U8,
            CType::I16 => DType::I16,
            CType::U16 => DType::U16,
            CType::I32 => DType::I32,
            CType::U32 => DType::U32,
            CType::I64 => DType::I64,
            CType::U64 => DType::U64,
            CType::F16 => DType::F16,
            CType::BF16 => DType::BF16,
            CType::F32 => DType::F32,
            CType::F64 => DType::F64,
            CType::C64 => DType::C64,
            CType::C128 => DType::C128,
        })
    }

    /// The C type of a dtype.
    pub fn of(d: DType) -> CType {
        match d {
            DType::Bool => CType::Bool,
            DType::I8 => CType::I8,
            DType::U8 => CType::U8,
            DType::I16 => CType::I16,
            DType::U16 => CType::U16,
            DType::I32 => CType::I32,
            DType::U32 => CType::U32,
            DType::I64 => CType::I64,
            DType::U64 => CType::U64,
            DType::F16 => CType::F16,
            DType::BF16 => CType::BF16,
            DType::F32 => CType::F32,
            DType::F64 => CType::F64,
            DType::C64 => CType::C64,
            DType::C128 => CType::C128,
        }
    }
}

impl std::fmt::Display for CType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.c_name())
    }
}

impl ScalarArg {
    /// The scalar's C type.
    pub fn ctype(&self) -> CType {
        match self {
            ScalarArg::Bool(_) => CType::Bool,
            ScalarArg::I8(_) => CType::I8,
            ScalarArg::U8(_) => CType::U8,
            ScalarArg::I16(_) => CType::I16,
            ScalarArg::U16(_) => CType::U16,
            ScalarArg::I32(_) => CType::I32,
            ScalarArg::U32(_) => CType::U32,
            ScalarArg::I64(_) => CType::I64,
            ScalarArg::U64(_) => CType::U64,
            ScalarArg::F16(_) => CType::F16,
            ScalarArg::BF16(_) => CType::BF16,
            ScalarArg::F32(_) => CType::F32,
            ScalarArg::F64(_) => CType::F64,
            ScalarArg::C64(_) => CType::C64,
            ScalarArg::C128(_) => CType::C128,
        }
    }

    /// The value's bytes as the kernel receives them (little-endian, C layout), in a
    /// 16-byte buffer, and the number of bytes used.
    pub(crate) fn bytes(&self) -> ([u8; 16], usize) {
        let mut b = [0u8; 16];
        let mut put = |s: &[u8]| {
            b[..s.len()].copy_from_slice(s);
            s.len()
        };
        let n = match *self {
            ScalarArg::Bool(v) => put(&[v as u8]),
            ScalarArg::I8(v) => put(&v.to_le_bytes()),
            ScalarArg::U8(v) => put(&[v]),
            ScalarArg::I16(v) => put(&v.to_le_bytes()),
            ScalarArg::U16(v) => put(&v.to_le_bytes()),
            ScalarArg::I32(v) => put(&v.to_le_bytes()),
            ScalarArg::U32(v) => put(&v.to_le_bytes()),
            ScalarArg::I64(v) => put(&v.to_le_bytes()),
            ScalarArg::U64(v) => put(&v.to_le_bytes()),
            ScalarArg::F16(v) => put(&v.to_le_bytes()),
            ScalarArg::BF16(v) => put(&v.to_le_bytes()),
            ScalarArg::F32(v) => put(&v.to_le_bytes()),
            ScalarArg::F64(v) => put(&v.to_le_bytes()),
            ScalarArg::C64(v) => {
                put(&v.re.to_le_bytes());
                b[4..8].copy_from_slice(&v.im.to_le_bytes());
                8
            }
            ScalarArg::C128(v) => {
                put(&v.re.to_le_bytes());
                b[8..16].copy_from_slice(&v.im.to_le_bytes());
                16
            }
        };
        (b, n)
    }

    /// The value as a cuprite [`Scalar`], for the types that have a dtype.
    pub(crate) fn to_scalar(self) -> Option<Scalar> {
        Some(match self {
            ScalarArg::Bool(v) => Scalar::Bool(v),
            ScalarArg::I8(v) => Scalar::I8(v),
            ScalarArg::U8(v) => Scalar::U8(v),
            ScalarArg::I16(v) => Scalar::I16(v),
            ScalarArg::U16(v) => Scalar::U16(v),
            ScalarArg::I32(v) => Scalar::I32(v),
            ScalarArg::U32(v) => Scalar::U32(v),
            ScalarArg::I64(v) => Scalar::I64(v),
            ScalarArg::U64(v) => Scalar::U64(v),
            ScalarArg::F16(v) => Scalar::F16(v),
            ScalarArg::BF16(v) => Scalar::BF16(v),
            ScalarArg::F32(v) => Scalar::F32(v),
            ScalarArg::F64(v) => Scalar::F64(v),
            ScalarArg::C64(v) => Scalar::C64(v),
            ScalarArg::C128(v) => Scalar::C128(v),
        })
    }

    /// Converts the value to dtype `to` when nothing is lost in kind: bool to anything,
    /// integers to integers whose range holds the value, integers and floats to floats and
    /// complex numbers (floats may round), complex to complex. A float to an integer, a
    /// complex to a real, or an integer out of range is `None`.
    pub(crate) fn convert_to(self, to: DType) -> Option<ScalarArg> {
        let kind = |c: CType| match c {
            CType::Bool => 0,
            CType::F16 | CType::BF16 | CType::F32 | CType::F64 => 2,
            CType::C64 | CType::C128 => 3,
            _ => 1,
        };
        let from = self.ctype();
        if from == CType::of(to) {
            return Some(self);
        }
        let (fk, tk) = (kind(from), kind(CType::of(to)));
        if fk > tk || (fk == 2 && tk == 1) {
            return None;
        }
        if fk == 1 && tk == 1 {
            let v = self.as_i128()?;
            return Some(match to {
                DType::I8 => ScalarArg::I8(i8::try_from(v).ok()?),
                DType::U8 => ScalarArg::U8(u8::try_from(v).ok()?),
                DType::I16 => ScalarArg::I16(i16::try_from(v).ok()?),
                DType::U16 => ScalarArg::U16(u16::try_from(v).ok()?),
                DType::I32 => ScalarArg::I32(i32::try_from(v).ok()?),
                DType::U32 => ScalarArg::U32(u32::try_from(v).ok()?),
                DType::I64 => ScalarArg::I64(i64::try_from(v).ok()?),
                DType::U64 => ScalarArg::U64(u64::try_from(v).ok()?),
                _ => return None,
            });
        }
        let s = match self.to_scalar() {
            Some(s) => s,
            None => Scalar::F64(self.as_i128()? as f64),
        };
        Some(match to {
            DType::Bool => ScalarArg::Bool(bool::from_scalar(s)),
            DType::I8 => ScalarArg::I8(i8::from_scalar(s)),
            DType::U8 => ScalarArg::U8(u8::from_scalar(s)),
            DType::I16 => ScalarArg::I16(i16::from_scalar(s)),
            DType::U16 => ScalarArg::U16(u16::from_scalar(s)),
            DType::I32 => ScalarArg::I32(i32::from_scalar(s)),
            DType::U32 => ScalarArg::U32(u32::from_scalar(s)),
            DType::I64 => ScalarArg::I64(i64::from_scalar(s)),
            DType::U64 => ScalarArg::U64(u64::from_scalar(s)),
            DType::F16 => ScalarArg::F16(f16::from_scalar(s)),
            DType::BF16 => ScalarArg::BF16(bf16::from_scalar(s)),
            DType::F32 => ScalarArg::F32(f32::from_scalar(s)),
            DType::F64 => ScalarArg::F64(f64::from_scalar(s)),
            DType::C64 => ScalarArg::C64(c64::from_scalar(s)),
            DType::C128 => ScalarArg::C128(c128::from_scalar(s)),
        })
    }

    fn as_i128(self) -> Option<i128> {
        Some(match self {
            ScalarArg::Bool(v) => v as i128,
            ScalarArg::I8(v) => v as i128,
            ScalarArg::U8(v) => v as i128,
            ScalarArg::I16(v) => v as i128,
            ScalarArg::U16(v) => v as i128,
            ScalarArg::I32(v) => v as i128,
            ScalarArg::U32(v) => v as i128,
            ScalarArg::I64(v) => v as i128,
            ScalarArg::U64(v) => v as i128,
            _ => return None,
        })
    }
}

macro_rules! scalar_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for ScalarArg {
            fn from(v: $t) -> Self {
                ScalarArg::$v(v)
            }
        }
        impl From<$t> for Arg<'_> {
            fn from(v: $t) -> Self {
                Arg(ArgKind::Scalar(ScalarArg::$v(v)))
            }
        }
    )*};
}
scalar_from!(bool => Bool, i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32,
    u32 => U32, i64 => I64, u64 => U64, f16 => F16, bf16 => BF16, f32 => F32, f64 => F64, c64 => C64, c128 => C128);

impl From<usize> for Arg<'_> {
    /// `usize` is C's `size_t`: an unsigned 64-bit integer.
    fn from(v: usize) -> Self {
        Arg(ArgKind::Scalar(ScalarArg::U64(v as u64)))
    }
}

impl From<ScalarArg> for Arg<'_> {
    fn from(v: ScalarArg) -> Self {
        Arg(ArgKind::Scalar(v))
    }
}

/// What a kernel needs of an array whatever its element type.
pub(crate) trait DeviceArray {
    fn dtype(&self) -> DType;
    fn layout(&self) -> &Layout;
    fn cuda(&self) -> &Cuda;
    /// The buffer's device address for work queued now (through [`Cuda::ptr`]).
    fn base_ptr(&self) -> Result<u64>;
    /// Makes the buffer unshared (copy-on-write), so writes reach this array alone.
    fn make_unique(&mut self) -> Result<()>;
}

impl<T: Element> DeviceArray for Array<T, Cuda> {
    fn dtype(&self) -> DType {
        T::DTYPE
    }
    fn layout(&self) -> &Layout {
        Array::layout(self)
    }
    fn cuda(&self) -> &Cuda {
        self.device()
    }
    fn base_ptr(&self) -> Result<u64> {
        let dev = self.device();
        dev.check_buffer(self.buffer(), "kernel")?;
        dev.ptr(self.buffer())
    }
    fn make_unique(&mut self) -> Result<()> {
        let buf: &CudaBuffer<T> = self.buffer();
        if buf.is_unique() {
            return Ok(());
        }
        let dev = self.device().clone();
        let fresh = dev.alloc::<T>(buf.len())?;
        let (dst, src) = (dev.ptr(&fresh)?, dev.ptr(buf)?);
        crate::driver::dtod(dst, src, buf.len() * std::mem::size_of::<T>(), dev.stream())?;
        *self = Array::from_raw_parts(fresh, Array::layout(self).clone(), dev)?;
        Ok(())
    }
}

/// One argument of a user kernel: an array (`&a`, read; written through only by raw
/// kernels), a mutable array (`&mut a`: an output, given an unshared buffer before the
/// kernel writes to it), or a scalar (`2.0f32`, `7i32`, `n as u64`, ...).
///
/// ```no_run
/// use cuprite_core::Array;
/// use cuprite_cuda::{kernel::Arg, Cuda};
/// let dev = Cuda::new(0)?;
/// let x = Array::<f32, Cuda>::ones(&[4], &dev)?;
/// let args: [Arg; 2] = [(&x).into(), 2.5f32.into()];
/// # Ok::<(), cuprite_core::Error>(())
/// ```
pub struct Arg<'a>(pub(crate) ArgKind<'a>);

pub(crate) enum ArgKind<'a> {
    Array(&'a dyn DeviceArray),
    ArrayMut(&'a mut dyn DeviceArray),
    Scalar(ScalarArg),
}

impl<'a, T: Element> From<&'a Array<T, Cuda>> for Arg<'a> {
    fn from(a: &'a Array<T, Cuda>) -> Self {
        Arg(ArgKind::Array(a))
    }
}

impl<'a, T: Element> From<&'a mut Array<T, Cuda>> for Arg<'a> {
    fn from(a: &'a mut Array<T, Cuda>) -> Self {
        Arg(ArgKind::ArrayMut(a))
    }
}

impl<'a> From<&'a DynArray> for Arg<'a> {
    fn from(a: &'a DynArray) -> Self {
        Arg(ArgKind::Array(a.as_device_array()))
    }
}

impl<'a> From<&'a mut DynArray> for Arg<'a> {
    fn from(a: &'a mut DynArray) -> Self {
        Arg(ArgKind::ArrayMut(a.as_device_array_mut()))
    }
}

impl Arg<'_> {
    /// The array of this argument, if it is one.
    pub(crate) fn array(&self) -> Option<&dyn DeviceArray> {
        match &self.0 {
            ArgKind::Array(a) => Some(*a),
            ArgKind::ArrayMut(a) => Some(&**a),
            ArgKind::Scalar(_) => None,
        }
    }

    /// The scalar of this argument, if it is one.
    pub(crate) fn scalar(&self) -> Option<ScalarArg> {
        match self.0 {
            ArgKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// What the argument is, for messages ("a float32 array", "a scalar of type int").
    pub(crate) fn describe(&self) -> String {
        match (&self.0, self.array()) {
            (ArgKind::Scalar(s), _) => format!("a scalar of type {}", s.ctype()),
            (_, Some(a)) => format!("a {} array of shape {:?}", a.dtype(), a.layout().shape()),
            _ => String::new(),
        }
    }
}

/// An array whose element type is known at run time: what a kernel returns for each output
/// parameter. [`DynArray::into_array`] gives the typed array.
#[derive(Clone, Debug)]
pub enum DynArray {
    Bool(Array<bool, Cuda>),
    I8(Array<i8, Cuda>),
    U8(Array<u8, Cuda>),
    I16(Array<i16, Cuda>),
    U16(Array<u16, Cuda>),
    I32(Array<i32, Cuda>),
    U32(Array<u32, Cuda>),
    I64(Array<i64, Cuda>),
    U64(Array<u64, Cuda>),
    F16(Array<f16, Cuda>),
    BF16(Array<bf16, Cuda>),
    F32(Array<f32, Cuda>),
    F64(Array<f64, Cuda>),
    C64(Array<c64, Cuda>),
    C128(Array<c128, Cuda>),
}

macro_rules! each_dyn {
    ($s:expr, $a:ident => $e:expr) => {
        match $s {
            DynArray::Bool($a) => $e,
            DynArray::I8($a) => $e,
            DynArray::U8($a) => $e,
            DynArray::I16($a) => $e,
            DynArray::U16($a) => $e,
            DynArray::I32($a) => $e,
            DynArray::U32($a) => $e,
            DynArray::I64($a) => $e,
            DynArray::U64($a) => $e,
            DynArray::F16($a) => $e,
            DynArray::BF16($a) => $e,
            DynArray::F32($a) => $e,
            DynArray::F64($a) => $e,
            DynArray::C64($a) => $e,
            DynArray::C128($a) => $e,
        }
    };
}

impl DynArray {
    /// A new C-contiguous array of `shape` and `dtype` (uninitialised: the kernel writes it).
    pub(crate) fn alloc(dev: &Cuda, dtype: DType, shape: &[usize]) -> Result<DynArray> {
        fn mk<T: Element>(dev: &Cuda, shape: &[usize]) -> Result<Array<T, Cuda>> {
            let n = shape.iter().product();
            Array::from_raw_parts(dev.alloc::<T>(n)?, Layout::contiguous(shape), dev.clone())
        }
        Ok(match dtype {
            DType::Bool => DynArray::Bool(mk(dev, shape)?),
            DType::I8 => DynArray::I8(mk(dev, shape)?),
            DType::U8 => DynArray::U8(mk(dev, shape)?),
            DType::I16 => DynArray::I16(mk(dev, shape)?),
            DType::U16 => DynArray::U16(mk(dev, shape)?),
            DType::I32 => DynArray::I32(mk(dev, shape)?),
            DType::U32 => DynArray::U32(mk(dev, shape)?),
            DType::I64 => DynArray::I64(mk(dev, shape)?),
            DType::U64 => DynArray::U64(mk(dev, shape)?),
            DType::F16 => DynArray::F16(mk(dev, shape)?),
            DType::BF16 => DynArray::BF16(mk(dev, shape)?),
            DType::F32 => DynArray::F32(mk(dev, shape)?),
            DType::F64 => DynArray::F64(mk(dev, shape)?),
            DType::C64 => DynArray::C64(mk(dev, shape)?),
            DType::C128 => DynArray::C128(mk(dev, shape)?),
        })
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        each_dyn!(self, a => a.dtype())
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        each_dyn!(self, a => a.shape())
    }

    /// The typed array; a different element type is [`Error::InvalidArgument`] naming both.
    pub fn into_array<T: Element>(self) -> Result<Array<T, Cuda>> {
        let got = self.dtype();
        each_dyn!(self, a => {
            let mut slot = Some(a);
            (&mut slot as &mut dyn std::any::Any)
                .downcast_mut::<Option<Array<T, Cuda>>>()
                .and_then(Option::take)
                .ok_or_else(|| {
                    Error::invalid(
                        "into_array",
                        format!("the array is {got}, not {}", T::DTYPE),
                    )
                })
        })
    }

    pub(crate) fn as_device_array(&self) -> &dyn DeviceArray {
        each_dyn!(self, a => a as &dyn DeviceArray)
    }

    pub(crate) fn as_device_array_mut(&mut self) -> &mut dyn DeviceArray {
        each_dyn!(self, a => a as &mut dyn DeviceArray)
    }
}

macro_rules! dyn_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<Array<$t, Cuda>> for DynArray {
            fn from(a: Array<$t, Cuda>) -> Self {
                DynArray::$v(a)
            }
        }
    )*};
}
dyn_from!(bool => Bool, i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32,
    i64 => I64, u64 => U64, f32 => F32, f64 => F64, c64 => C64, c128 => C128);

/// The one output of a kernel named `op` with `n_outs` outputs, as a typed array: `run` is
/// called only when the kernel has exactly one output (`call1` of every kernel kind).
pub(crate) fn single_output<T: Element>(
    op: &'static str,
    n_outs: usize,
    run: impl FnOnce() -> Result<Vec<DynArray>>,
) -> Result<Array<T, Cuda>> {
    if n_outs != 1 {
        return Err(Error::invalid(
            op,
            format!("call1 needs a kernel with one output, this one has {n_outs}"),
        ));
    }
    run()?
        .pop()
        .ok_or_else(|| Error::invalid(op, "no output"))?
        .into_array()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_convert_only_within_their_kind() {
        let f = ScalarArg::F64(2.5);
        assert_eq!(f.convert_to(DType::F32), Some(ScalarArg::F32(2.5)));
        assert_eq!(f.convert_to(DType::I32), None);
        assert_eq!(
            f.convert_to(DType::C128),
            Some(ScalarArg::C128(c128::new(2.5, 0.0)))
        );
        assert_eq!(
            ScalarArg::C64(c64::new(1.0, 2.0)).convert_to(DType::F32),
            None
        );
        assert_eq!(ScalarArg::I64(300).convert_to(DType::U8), None);
        assert_eq!(
            ScalarArg::I64(200).convert_to(DType::U8),
            Some(ScalarArg::U8(200))
        );
        assert_eq!(
            ScalarArg::U32(7).convert_to(DType::F64),
            Some(ScalarArg::F64(7.0))
        );
        assert_eq!(
            ScalarArg::I32(-3).convert_to(DType::I64),
            Some(ScalarArg::I64(-3))
        );
        assert_eq!(
            ScalarArg::Bool(true).convert_to(DType::F32),
            Some(ScalarArg::F32(1.0))
        );
        assert_eq!(ScalarArg::I32(1).convert_to(DType::Bool), None);
    }

    #[test]
    fn scalar_bytes_are_the_c_layout() {
        assert_eq!(
            ScalarArg::I32(-2).bytes(),
            ([254, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 4)
        );
        let (b, n) = ScalarArg::C64(c64::new(1.0, -1.0)).bytes();
        assert_eq!(n, 8);
        assert_eq!(&b[..4], &1.0f32.to_le_bytes());
        assert_eq!(&b[4..8], &(-1.0f32).to_le_bytes());
        assert_eq!(ScalarArg::Bool(true).bytes().1, 1);
        assert_eq!(ScalarArg::U64(5).bytes().1, 8);
    }
}
