//! cuprite-macros: kernels written once, in a subset of Rust, that run on every cuprite
//! backend. Use them through the `cuprite` crate (`cuprite::elementwise!`,
//! `#[cuprite::kernel]`): the expansions name `::cuprite::kernel::...`.
//!
//! The macros type-check the kernel themselves and translate it twice: to Rust for the CPU
//! (integer semantics made explicit, see below) and to a CUDA C device function for the GPU
//! (compiled by NVRTC at the first call on a device, then cached).
//!
//! # The subset
//!
//! - 1 to 4 parameters and one result, each `bool`, `i8`, `u8`, `i16`, `u16`, `i32`, `u32`,
//!   `i64`, `u64`, `f16`, `bf16`, `f32` or `f64` (`f16` and `bf16` are cuprite's, from the
//!   `half` crate; the kernel names them by these names, nothing needs importing; complex
//!   types are rejected);
//! - literals with or without suffix (`2`, `2.0`, `2.0_f32`, `0xff_u8`, `7_u64`, `true`): an
//!   unsuffixed literal takes the type of the other operand, as in Rust, and defaults to
//!   `i32` / `f64`; there are no implicit conversions (both operands of an operator have one
//!   type);
//! - `+ - * / %`, unary `-` and `!`, `== != < <= > >=`, `&& ||`, `& | ^ << >>` on integers
//!   (`& | ^ !` on bool too), parentheses, blocks;
//! - `if` / `else if` / `else` as expressions and statements;
//! - `let` with or without a type, `let mut`, assignment and compound assignment (`+=` ...);
//! - `as` casts between element types (Rust's rules: no `bool` from numbers, no floats from
//!   `bool`);
//! - the constants `f32::consts::PI` (and every `std::f32::consts` / `std::f64::consts`
//!   value, also written with `std::` or `core::`, and for f16 and bf16), `f32::INFINITY`,
//!   `NEG_INFINITY`, `NAN`, `MAX`, `MIN`, `MIN_POSITIVE`, `EPSILON` (f16, bf16, f64 alike),
//!   `MIN`/`MAX` of every integer type;
//! - the methods, on the floats (f16, bf16, f32, f64): `sqrt cbrt exp exp2 exp_m1 ln ln_1p
//!   log10 log2 log(base) sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh
//!   floor ceil round trunc fract recip to_degrees to_radians powf powi hypot copysign
//!   mul_add is_nan is_infinite is_finite is_sign_negative is_sign_positive`; on floats and
//!   signed integers `signum`; on floats and integers `abs` (the value itself for unsigned
//!   integers), `min`, `max`; also callable as `f32::sqrt(x)`.
//!
//! Anything else (loops, `match`, calls of other functions, references, closures, macros,
//! `return`, tuples, indexing, other methods ...) is a compile error at the offending span
//! naming what is allowed.
//!
//! # Semantics (identical on every backend)
//!
//! Integer `+ - *`, negation (of unsigned values too), shifts (the amount modulo the bit
//! width) and `abs` wrap, for every width; integer `/` and `%` by zero give 0, as NumPy
//! does, and `MIN / -1` wraps to `MIN`: a kernel never panics. f32 and f64 are IEEE 754 as in
//! Rust: `+ - * / %`, `sqrt`, comparisons, casts and the rounding functions give the same bits
//! on the CPU and the GPU (the GPU code is compiled without FMA contraction); transcendental
//! functions agree within a few ulps. f16 and bf16 compute each operation (each operator,
//! each method) in f32 and round its result once to the type, as NumPy computes float16;
//! their literals are the literal's value rounded once to the type; `mul_add` is f32's fused
//! multiply-add, then rounded to the type. `as` is Rust's cast: float to integer saturates,
//! NaN gives 0; to f16 a value rounds once, to bf16 through f32. The full rules are in the
//! documentation of `cuprite::kernel`.
//!
//! # Errors
//!
//! Code outside the subset does not compile. A loop:
//!
//! ```compile_fail
//! let k = cuprite::elementwise!(|x: f32| -> f32 {
//!     let mut s = x;
//!     for _ in 0..3 { s = s * x; } // error: loops are not supported in a cuprite kernel
//!     s
//! });
//! ```
//!
//! A call of a function outside the math set:
//!
//! ```compile_fail
//! fn helper(x: f32) -> f32 { x }
//! // error: function calls are not supported in a cuprite kernel, except the math methods
//! let k = cuprite::elementwise!(|x: f32| -> f32 { helper(x) });
//! ```
//!
//! A method outside the math set:
//!
//! ```compile_fail
//! // error: `exp10` is not a method cuprite kernels support; the math methods are: ...
//! let k = cuprite::elementwise!(|x: f64| -> f64 { x.exp10() });
//! ```
//!
//! Five inputs:
//!
//! ```compile_fail
//! // error: a cuprite kernel takes 1 to 4 inputs (this one takes 5)
//! let k = cuprite::elementwise!(|a: f32, b: f32, c: f32, d: f32, e: f32| -> f32 { a + b + c + d + e });
//! ```
//!
//! A complex parameter:
//!
//! ```compile_fail
//! use cuprite::c64;
//! // error: complex element types are not supported in cuprite kernels
//! let k = cuprite::elementwise!(|z: c64| -> c64 { z });
//! ```
//!
//! A reference, a closure, a macro, a mixed-type operation, an assignment to an immutable
//! variable:
//!
//! ```compile_fail
//! // error: references are not supported in a cuprite kernel
//! let k = cuprite::elementwise!(|x: f32| -> f32 { let r = &x; x });
//! ```
//!
//! ```compile_fail
//! // error: closures are not supported inside a cuprite kernel
//! let k = cuprite::elementwise!(|x: f32| -> f32 { let g = |y: f32| y; x });
//! ```
//!
//! ```compile_fail
//! // error: macros are not supported in a cuprite kernel
//! let k = cuprite::elementwise!(|x: f32| -> f32 { println!("{x}"); x });
//! ```
//!
//! ```compile_fail
//! // error: mismatched types in a cuprite kernel: f32 and i32 (kernels convert only with `as`)
//! let k = cuprite::elementwise!(|x: f32, n: i32| -> f32 { x * n });
//! ```
//!
//! ```compile_fail
//! // error: cannot assign to immutable variable `s`: declare it `let mut s`
//! #[cuprite::kernel]
//! fn twice(x: i32) -> i32 { let s = x; s += x; s }
//! ```
//!
//! ```compile_fail
//! // error: mismatched types in a cuprite kernel: {integer} and f32 (write a float literal such as `2.0`)
//! let k = cuprite::elementwise!(|x: f32| -> f32 { x * 2 });
//! ```
//!
//! Two 16-bit float types:
//!
//! ```compile_fail
//! // error: mismatched types in a cuprite kernel: f16 and bf16 (kernels convert only with `as`)
//! let k = cuprite::elementwise!(|x: f16, y: bf16| x + y);
//! ```
//!
//! The same kernels inside the subset compile:
//!
//! ```
//! let k = cuprite::elementwise!(|x: f32, n: i32| -> f32 { x * n as f32 * 2.0 });
//! assert_eq!(k.apply(1.5, 2), 6.0);
//! use cuprite::{bf16, f16};
//! let k = cuprite::elementwise!(|x: f16, y: bf16| -> f16 { x * 0.5 + y as f16 });
//! assert_eq!(k.apply(f16::from_f32(3.0), bf16::from_f32(1.0)), f16::from_f32(2.5));
//! let k = cuprite::elementwise!(|x: u8| -> u8 { -x });
//! assert_eq!(k.apply(1), 255);
//! ```

mod check;
mod consts;
mod emit_cuda;
mod emit_rust;
mod expand;
mod halfs;
mod ir;
mod methods;
#[cfg(test)]
mod tests;
mod ty;

use proc_macro::TokenStream;
use quote::quote;

/// The facade crate the expansions refer to.
fn krate() -> proc_macro2::TokenStream {
    quote!(::cuprite)
}

/// A kernel from a closure of 1 to 4 typed element parameters: a
/// `cuprite::kernel::MapKernelN` whose `call` applies it to arrays (broadcast together) on
/// any backend, and `apply` to scalars. Its name (in errors and the GPU module cache) is
/// `elementwise`; `with_name` changes it.
///
/// ```
/// use cuprite::prelude::*;
/// let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 { if x - 2.0 > y { x * y } else { x + y } });
/// let dev = Cpu::new();
/// let x = Array::<f32, _>::from_vec(vec![1.0, 5.0, 9.0], &[3], &dev)?;
/// let y = Array::<f32, _>::from_vec(vec![2.0], &[1], &dev)?;
/// assert_eq!(k.call(&x, &y)?.to_vec()?, vec![3.0, 10.0, 18.0]);
/// assert_eq!(k.apply(5.0, 2.0), 10.0);
/// # Ok::<(), cuprite::Error>(())
/// ```
#[proc_macro]
pub fn elementwise(input: TokenStream) -> TokenStream {
    expand::elementwise(input.into(), &krate())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Makes a plain function of 1 to 4 element values a kernel too. The function stays
/// callable on scalars under its name (its body is the CPU translation: integer arithmetic
/// wraps and division by zero gives 0, as the array kernel computes it), and a module of the
/// same name holds `kernel()`, the array kernel (a `cuprite::kernel::MapKernelN` named after
/// the function).
///
/// ```
/// use cuprite::prelude::*;
///
/// #[cuprite::kernel]
/// fn my_kernel(x: f32, y: f32) -> f32 {
///     if x - 2.0 > y { x * y } else { x + y }
/// }
///
/// assert_eq!(my_kernel(5.0, 2.0), 10.0);
/// let dev = Cpu::new();
/// let x = Array::<f32, _>::from_vec(vec![1.0, 5.0], &[2, 1], &dev)?;
/// let y = Array::<f32, _>::from_vec(vec![2.0, 3.0], &[2], &dev)?;
/// let z = my_kernel::kernel().call(&x, &y)?;
/// assert_eq!(z.shape(), &[2, 2]);
/// assert_eq!(z.to_vec()?, vec![3.0, 4.0, 10.0, 8.0]);
/// # Ok::<(), cuprite::Error>(())
/// ```
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::kernel_attr(attr.into(), item.into(), &krate())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
