//! [`KernelOps`] for [`Cuda`]: kernels written in Rust run as their CUDA translation. The
//! macros give the device function `rk_body` (in [`KernelSpec::cuda_source`]); here it is
//! wrapped into a program of two grid-stride kernels for the operand and result types:
//!
//! - `rk_contig` when every operand is one contiguous run (pointers advanced to the first
//!   element): `out[i] = rk_body(in0[i], ...)`;
//! - `rk_strided` otherwise: operands as jointly coalesced [`Strided`] views passed by value
//!   (broadcast axes have stride 0), 32-bit index arithmetic below 2^31 elements.
//!
//! The program is [`PRELUDE`] (the integer helpers with cuprite's wrapping and zero-divisor
//! semantics for every integer type, the float helpers, the bit-level helpers of f16 and
//! bf16) after common.cuh (whose `f16`/`bf16` structs compute each operation in f32 and
//! round once), then the body and the kernels. It is compiled with `--fmad=false`, so
//! `a * b + c` rounds twice as on the CPU; the module key names the kernel, the hash of its
//! source, the types and that option.

use crate::buffer::CudaBuffer;
use crate::ctype::ctype;
use crate::device::Cuda;
use crate::ffi::launch::KernelParams;
use crate::launch::{check_view, coalesce, Strided, BLOCK};
use cuprite_core::backend::KernelOps;
use cuprite_core::kernel::{KernelElement, KernelSpec};
use cuprite_core::{DType, Error, Layout, Result};

/// NVRTC options of every kernel program (no contraction of `a * b + c` into an FMA).
const OPTIONS: [&str; 1] = ["--fmad=false"];

/// The helpers the CUDA translation of a kernel calls, after common.cuh.
pub const PRELUDE: &str = r#"
// Integer arithmetic wraps: computed in the unsigned type of the same width or wider (the
// 8- and 16-bit types in `unsigned`, then truncated back).
template <class E> struct rk_unsigned;
template <> struct rk_unsigned<i8> { typedef unsigned type; };
template <> struct rk_unsigned<u8> { typedef unsigned type; };
template <> struct rk_unsigned<i16> { typedef unsigned type; };
template <> struct rk_unsigned<u16> { typedef unsigned type; };
template <> struct rk_unsigned<i32> { typedef unsigned type; };
template <> struct rk_unsigned<u32> { typedef unsigned type; };
template <> struct rk_unsigned<i64> { typedef unsigned long long type; };
template <> struct rk_unsigned<u64> { typedef unsigned long long type; };
#define RK_U(E) typename rk_unsigned<E>::type
template <class E> __device__ __forceinline__ E rk_add(E a, E b) { return (E)((RK_U(E))a + (RK_U(E))b); }
template <class E> __device__ __forceinline__ E rk_sub(E a, E b) { return (E)((RK_U(E))a - (RK_U(E))b); }
template <class E> __device__ __forceinline__ E rk_mul(E a, E b) { return (E)((RK_U(E))a * (RK_U(E))b); }
// Negation wraps, for unsigned types too (0 - a).
template <class E> __device__ __forceinline__ E rk_neg(E a) { return (E)((RK_U(E))0 - (RK_U(E))a); }
template <class E> __device__ __forceinline__ E rk_not(E a) { return (E)~a; }
// Division and remainder by zero give 0; MIN / -1 wraps to MIN and MIN % -1 is 0.
template <class E> __device__ __forceinline__ E rk_div(E a, E b) {
    if (b == (E)0) return (E)0;
    if constexpr (is_sint<E>::value) {
        if (b == (E)-1) return rk_neg(a);
    }
    return (E)(a / b);
}
template <class E> __device__ __forceinline__ E rk_rem(E a, E b) {
    if (b == (E)0) return (E)0;
    if constexpr (is_sint<E>::value) {
        if (b == (E)-1) return (E)0;
    }
    return (E)(a % b);
}
// Shift amounts are taken modulo the bit width (Rust's wrapping_shl / wrapping_shr); `>>` is
// arithmetic for signed types (an 8- or 16-bit value is sign-extended to int first).
template <class E> __device__ __forceinline__ E rk_shl(E a, u32 s) {
    return (E)((RK_U(E))a << (s & (u32)(sizeof(E) * 8 - 1)));
}
template <class E> __device__ __forceinline__ E rk_shr(E a, u32 s) {
    return (E)(a >> (s & (u32)(sizeof(E) * 8 - 1)));
}
// abs wraps (|MIN| is MIN); an unsigned value is its own absolute value.
template <class E> __device__ __forceinline__ E rk_abs(E x) {
    if constexpr (is_sint<E>::value) return x < (E)0 ? rk_neg(x) : x;
    else return x;
}
__device__ __forceinline__ float rk_abs(float x) { return fabsf(x); }
__device__ __forceinline__ double rk_abs(double x) { return fabs(x); }
__device__ __forceinline__ f16 rk_abs(f16 x) { return f16::from_bits(x.bits & 0x7fffu); }
__device__ __forceinline__ bf16 rk_abs(bf16 x) { return bf16::from_bits(x.bits & 0x7fffu); }
template <class E> __device__ __forceinline__ E rk_signum(E x) { return (E)((int)(x > (E)0) - (int)(x < (E)0)); }
__device__ __forceinline__ float rk_signum(float x) { return x != x ? x : copysignf(1.0f, x); }
__device__ __forceinline__ double rk_signum(double x) { return x != x ? x : copysign(1.0, x); }
template <class E> __device__ __forceinline__ E rk_min(E a, E b) { return b < a ? b : a; }
template <class E> __device__ __forceinline__ E rk_max(E a, E b) { return b < a ? a : b; }
template <> __device__ __forceinline__ float rk_min(float a, float b) { return fminf(a, b); }
template <> __device__ __forceinline__ double rk_min(double a, double b) { return fmin(a, b); }
template <> __device__ __forceinline__ float rk_max(float a, float b) { return fmaxf(a, b); }
template <> __device__ __forceinline__ double rk_max(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float rk_fract(float x) { return x - truncf(x); }
__device__ __forceinline__ double rk_fract(double x) { return x - trunc(x); }
__device__ __forceinline__ float rk_log(float x, float b) { return logf(x) / logf(b); }
__device__ __forceinline__ double rk_log(double x, double b) { return log(x) / log(b); }
template <class R> __device__ __forceinline__ bool rk_is_nan(R x) { return x != x; }
__device__ __forceinline__ bool rk_is_infinite(float x) { return fabsf(x) == __int_as_float(0x7f800000); }
__device__ __forceinline__ bool rk_is_infinite(double x) {
    return fabs(x) == __longlong_as_double(0x7ff0000000000000LL);
}
__device__ __forceinline__ bool rk_is_finite(float x) { return fabsf(x) < __int_as_float(0x7f800000); }
__device__ __forceinline__ bool rk_is_finite(double x) {
    return fabs(x) < __longlong_as_double(0x7ff0000000000000LL);
}
__device__ __forceinline__ bool rk_is_sign_negative(float x) { return __float_as_int(x) < 0; }
__device__ __forceinline__ bool rk_is_sign_negative(double x) { return __double_as_longlong(x) < 0; }
// The 16-bit floats' predicates on their bits (exponent all ones: infinite or NaN).
__device__ __forceinline__ bool rk_is_infinite(f16 x) { return (x.bits & 0x7fffu) == 0x7c00u; }
__device__ __forceinline__ bool rk_is_infinite(bf16 x) { return (x.bits & 0x7fffu) == 0x7f80u; }
__device__ __forceinline__ bool rk_is_finite(f16 x) { return (x.bits & 0x7fffu) < 0x7c00u; }
__device__ __forceinline__ bool rk_is_finite(bf16 x) { return (x.bits & 0x7fffu) < 0x7f80u; }
__device__ __forceinline__ bool rk_is_sign_negative(f16 x) { return (x.bits & 0x8000u) != 0; }
__device__ __forceinline__ bool rk_is_sign_negative(bf16 x) { return (x.bits & 0x8000u) != 0; }
template <class R> __device__ __forceinline__ bool rk_is_sign_positive(R x) { return !rk_is_sign_negative(x); }
// powi by squaring, as compiler-rt's __powisf2 / __powidf2 compute Rust's powi.
template <class R> __device__ __forceinline__ R rk_powi(R a, i32 b) {
    const bool recip = b < 0;
    R r = (R)1;
    while (true) {
        if (b & 1) r *= a;
        b /= 2;
        if (b == 0) break;
        a *= a;
    }
    return recip ? (R)1 / r : r;
}
"#;

/// Most operands of a kernel (`map_kernel4`).
const MAX_OPERANDS: usize = 4;

kernel_params! {
    /// The parameters of `rk_contig` and `rk_strided`, written into every program by
    /// [`program`] from this declaration.
    pub(crate) struct MapArgs {
        /// The result (C-contiguous, `n` elements).
        out: u64,
        /// The operands' addresses (advanced to the first element for `rk_contig`; unused
        /// slots 0).
        x: [u64; MAX_OPERANDS],
        /// Elements.
        n: i64,
        /// The operands' views (`rk_strided` only).
        v: [Strided; MAX_OPERANDS],
    }
}

/// The complete program of a kernel for operand types `inputs` and result type `out`.
pub(crate) fn program(spec: &KernelSpec, inputs: &[DType], out: DType) -> String {
    let o = ctype(out);
    let ptrs: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(i, d)| format!("const {}* __restrict__ in{i}", ctype(*d)))
        .collect();
    let views: Vec<String> = (0..inputs.len())
        .map(|i| format!("const Strided& s{i}"))
        .collect();
    let at = |f: &dyn Fn(usize) -> String| {
        (0..inputs.len())
            .map(|i| format!("in{i}[{}]", f(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let contig = at(&|_| "i".to_string());
    let off32 = at(&|i| format!("strided_offset32(s{i}, i)"));
    let off64 = at(&|i| format!("strided_offset(s{i}, i)"));
    let cast_ptrs: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(i, d)| format!("(const {}*)a.x[{i}]", ctype(*d)))
        .collect();
    let cast_views: Vec<String> = (0..inputs.len()).map(|i| format!("a.v[{i}]")).collect();
    let kernels = format!(
        "{decl}\n\
         __device__ __forceinline__ void rk_contig_body({o}* __restrict__ out, {ptrs}, long long n) {{\n\
         \x20   GRID_STRIDE(i, n) {{ out[i] = rk_body({contig}); }}\n\
         }}\n\
         __device__ __forceinline__ void rk_strided_body({o}* __restrict__ out, {ptrs}, {views}, long long n) {{\n\
         \x20   if (n <= 0x7fffffffLL) {{\n\
         \x20       const unsigned nt = gridDim.x * blockDim.x;\n\
         \x20       for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += nt) {{\n\
         \x20           out[i] = rk_body({off32});\n\
         \x20       }}\n\
         \x20   }} else {{\n\
         \x20       GRID_STRIDE(i, n) {{ out[i] = rk_body({off64}); }}\n\
         \x20   }}\n\
         }}\n\
         extern \"C\" __global__ void rk_contig(MapArgs a) {{\n\
         \x20   rk_contig_body(({o}*)a.out, {cast_ptrs}, a.n);\n\
         }}\n\
         extern \"C\" __global__ void rk_strided(MapArgs a) {{\n\
         \x20   rk_strided_body(({o}*)a.out, {cast_ptrs}, {cast_views}, a.n);\n\
         }}\n",
        decl = MapArgs::c_decl(),
        ptrs = ptrs.join(", "),
        views = views.join(", "),
        cast_ptrs = cast_ptrs.join(", "),
        cast_views = cast_views.join(", "),
    );
    cuprite_kernels::program(&[PRELUDE, spec.cuda_source(), &kernels], &[])
}

/// The module key of a kernel program: name, source hash, operand and result types, options.
fn key(spec: &KernelSpec, inputs: &[DType], out: DType) -> String {
    let ins: Vec<&str> = inputs.iter().map(|d| ctype(*d)).collect();
    format!(
        "map_kernel|{}|{:016x}|{}|{}|{}",
        spec.name(),
        spec.source_hash(),
        ins.join(","),
        ctype(out),
        OPTIONS.join(" ")
    )
}

/// One operand of a launch: its buffer's address (through [`Cuda::ptr`]), element size and
/// type, and the view.
struct Operand<'a> {
    ptr: u64,
    size: usize,
    dtype: DType,
    layout: &'a Layout,
}

impl Cuda {
    /// Launches `spec` over operands of one non-empty shape, writing `out_ptr` (C order).
    fn map_run(&self, spec: &KernelSpec, out_ptr: u64, out: DType, ops: &[Operand]) -> Result<()> {
        let name = spec.name();
        let n = ops[0].layout.size();
        let dtypes: Vec<DType> = ops.iter().map(|o| o.dtype).collect();
        let offsets: Option<Vec<usize>> =
            ops.iter().map(|o| o.layout.contiguous_offset()).collect();
        let n64 = n as i64;
        let (entry, ptrs, views) = match offsets {
            Some(offs) => {
                let ptrs: Vec<u64> = ops
                    .iter()
                    .zip(offs)
                    .map(|(o, off)| o.ptr + (off * o.size) as u64)
                    .collect();
                ("rk_contig", ptrs, Vec::new())
            }
            None => {
                let layouts: Vec<&Layout> = ops.iter().map(|o| o.layout).collect();
                let views: Vec<Strided> = coalesce(name, &layouts)?;
                ("rk_strided", ops.iter().map(|o| o.ptr).collect(), views)
            }
        };
        let k = key(spec, &dtypes, out);
        let f = self.kernel_with::<MapArgs>(&k, entry, &OPTIONS, || program(spec, &dtypes, out))?;
        // Every view lies inside its buffer (checked by the caller) and the result holds n
        // elements of `out`; `ops` has at most MAX_OPERANDS operands (map_kernel4).
        let mut args = MapArgs {
            out: out_ptr,
            n: n64,
            ..Default::default()
        };
        args.x[..ptrs.len()].copy_from_slice(&ptrs);
        args.v[..views.len()].copy_from_slice(&views);
        f.launch((self.grid_for(n, 1), 1, 1), (BLOCK, 1, 1), 0, &args)
    }
}

macro_rules! cuda_map_kernel {
    ($($method:ident($($a:ident: $t:ident, $l:ident),+);)*) => {
        impl KernelOps for Cuda {
            $(
                fn $method<$($t: KernelElement,)+ R: KernelElement, F>(
                    &self,
                    spec: &KernelSpec,
                    _f: &F,
                    $($a: &CudaBuffer<$t>, $l: &Layout,)+
                ) -> Result<CudaBuffer<R>>
                where
                    F: Fn($($t),+) -> R + Send + Sync,
                {
                    let op = spec.name();
                    $(
                        check_view(self, op, $a, $l)?;
                    )+
                    let first = cuda_map_kernel!(@first $($l),+);
                    $(
                        if $l.shape() != first.shape() {
                            return Err(Error::ShapeMismatch {
                                op,
                                lhs: first.shape().to_vec(),
                                rhs: $l.shape().to_vec(),
                            });
                        }
                    )+
                    let n = first.size();
                    let out = self.alloc::<R>(n)?;
                    if n == 0 {
                        return Ok(out);
                    }
                    let out_ptr = self.ptr(&out)?;
                    let ops = [$(Operand {
                        ptr: self.ptr($a)?,
                        size: std::mem::size_of::<$t>(),
                        dtype: $t::DTYPE,
                        layout: $l,
                    }),+];
                    self.map_run(spec, out_ptr, R::DTYPE, &ops)?;
                    Ok(out)
                }
            )*
        }
    };
    (@first $l:ident $(, $rest:ident)*) => { $l };
}

cuda_map_kernel! {
    map_kernel1(a0: A0, l0);
    map_kernel2(a0: A0, l0, a1: A1, l1);
    map_kernel3(a0: A0, l0, a1: A1, l1, a2: A2, l2);
    map_kernel4(a0: A0, l0, a1: A1, l1, a2: A2, l2, a3: A3, l3);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The translations the macro crate's tests check the macro against, one per construct
    /// and type: `=== name`, the Rust kernel, `---`, the CUDA device function.
    const CASES: &str = include_str!("../../macros/tests/cuda_cases.txt");

    fn dtype_of(c: &str) -> DType {
        [
            DType::Bool,
            DType::I8,
            DType::U8,
            DType::I16,
            DType::U16,
            DType::I32,
            DType::U32,
            DType::I64,
            DType::U64,
            DType::F16,
            DType::BF16,
            DType::F32,
            DType::F64,
        ]
        .into_iter()
        .find(|d| ctype(*d) == c)
        .unwrap_or_else(|| panic!("unknown C type {c}"))
    }

    /// `(name, device function, operand types, result type)` of every case.
    fn cases() -> Vec<(String, String, Vec<DType>, DType)> {
        CASES
            .split("\n=== ")
            .filter_map(|c| {
                let c = c.strip_prefix("=== ").unwrap_or(c);
                let (head, cuda) = c.split_once("\n---\n")?;
                let name = head.lines().next()?.trim().to_string();
                let sig = cuda.lines().next()?;
                let sig = sig.strip_prefix("__device__ __forceinline__ ")?;
                let (out, rest) = sig.split_once(" rk_body(")?;
                let params = rest.split_once(')')?.0;
                let ins = params
                    .split(", ")
                    .map(|p| dtype_of(p.split(' ').next().unwrap()))
                    .collect();
                Some((name, cuda.trim_end().to_string() + "\n", ins, dtype_of(out)))
            })
            .collect()
    }

    #[test]
    fn programs_hold_the_body_and_both_kernels() {
        let all = cases();
        assert!(all.len() > 40, "only {} cases parsed", all.len());
        let (_, body, ins, out) = &all[0];
        let spec = KernelSpec::new("case", Box::leak(body.clone().into_boxed_str()));
        let p = program(&spec, ins, *out);
        assert!(p.contains(body.as_str()) && p.contains("rk_contig") && p.contains("rk_strided"));
        assert!(p.contains("struct Strided") && p.contains("rk_add"));
        crate::ffi::launch::assert_mirrors::<MapArgs>(&p, &["rk_contig", "rk_strided"]);
        let k = key(&spec, ins, *out);
        assert!(
            k.starts_with("map_kernel|case|")
                && k.contains(&format!("{:016x}", spec.source_hash()))
        );
        assert_ne!(k, key(&spec.with_name("other"), ins, *out));
        assert_ne!(k, key(&spec, ins, DType::Bool));
    }

    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn every_translated_construct_compiles() {
        for (name, body, ins, out) in cases() {
            let spec = KernelSpec::new("case", Box::leak(body.into_boxed_str()));
            let src = program(&spec, &ins, out);
            crate::nvrtc::compile_check::assert_compiles_with(
                &format!("{name}.cu"),
                &src,
                &OPTIONS,
            );
        }
    }
}
