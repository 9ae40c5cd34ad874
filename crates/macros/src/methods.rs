//! The math methods a kernel may call, with their signatures and their translations: the
//! same method on the CPU, the CUDA math library function (`sqrtf` for f32, `sqrt` for
//! f64) or a helper of the CUDA prelude (`rk_*`, crates/cuda/src/map_kernel.rs) on the GPU.
//! On f16 and bf16 every method but the bit-level ones (`abs` and the predicates) is the f32
//! method of the arguments widened to f32, its result rounded once to the type, on both
//! backends.

use crate::ty::Ty;

/// Which receivers a method accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// The floats: f16, bf16, f32, f64.
    Float,
    /// The floats and the signed integers.
    Signed,
    /// The floats and the integers.
    Numeric,
}

/// The type of an argument after the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The receiver's type.
    Same,
    /// `i32` (the exponent of `powi`).
    I32,
}

/// How a method is written in CUDA C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cuda {
    /// A math library function: `name` + `f` for f32 (`sqrtf`), `name` for f64; for f16
    /// and bf16 the f32 function of the widened arguments, rounded (`f16(sqrtf((float)x))`).
    Libm(&'static str),
    /// A helper of the CUDA prelude, overloaded on the type.
    Helper(&'static str),
    /// `(1 / x)`.
    Recip,
    /// `(x * c)` with the constant Rust's `to_degrees` uses.
    ToDegrees,
    /// `(x * c)` with the constant Rust's `to_radians` uses.
    ToRadians,
}

/// One method of the math set.
#[derive(Debug)]
pub struct Method {
    pub name: &'static str,
    pub on: On,
    pub args: &'static [Arg],
    /// True when the result is `bool` (`is_nan`), false when it is the receiver's type.
    pub predicate: bool,
    pub cuda: Cuda,
}

impl Method {
    /// True when `ty` is a receiver this method accepts.
    pub fn accepts(&self, ty: Ty) -> bool {
        match self.on {
            On::Float => ty.is_float(),
            On::Signed => ty.is_float() || ty.is_signed_int(),
            On::Numeric => ty.is_float() || ty.is_int(),
        }
    }

    /// The receivers, for error messages.
    pub fn receivers(&self) -> &'static str {
        match self.on {
            On::Float => "f16, bf16, f32 and f64",
            On::Signed => "f16, bf16, f32, f64, i8, i16, i32 and i64",
            On::Numeric => "f16, bf16, f32, f64 and the integer types",
        }
    }
}

macro_rules! methods {
    ($($name:ident: $on:ident [$($arg:ident),*] $pred:literal $cuda:expr;)*) => {
        /// Every method of the math set.
        pub static METHODS: &[Method] = &[$(Method {
            name: stringify!($name),
            on: On::$on,
            args: &[$(Arg::$arg),*],
            predicate: $pred,
            cuda: $cuda,
        }),*];
    };
}

use Cuda::{Helper, Libm};

methods! {
    sqrt: Float [] false Libm("sqrt");
    cbrt: Float [] false Libm("cbrt");
    exp: Float [] false Libm("exp");
    exp2: Float [] false Libm("exp2");
    exp_m1: Float [] false Libm("expm1");
    ln: Float [] false Libm("log");
    ln_1p: Float [] false Libm("log1p");
    log10: Float [] false Libm("log10");
    log2: Float [] false Libm("log2");
    sin: Float [] false Libm("sin");
    cos: Float [] false Libm("cos");
    tan: Float [] false Libm("tan");
    asin: Float [] false Libm("asin");
    acos: Float [] false Libm("acos");
    atan: Float [] false Libm("atan");
    sinh: Float [] false Libm("sinh");
    cosh: Float [] false Libm("cosh");
    tanh: Float [] false Libm("tanh");
    asinh: Float [] false Libm("asinh");
    acosh: Float [] false Libm("acosh");
    atanh: Float [] false Libm("atanh");
    floor: Float [] false Libm("floor");
    ceil: Float [] false Libm("ceil");
    round: Float [] false Libm("round");
    trunc: Float [] false Libm("trunc");
    fract: Float [] false Helper("rk_fract");
    recip: Float [] false Cuda::Recip;
    to_degrees: Float [] false Cuda::ToDegrees;
    to_radians: Float [] false Cuda::ToRadians;
    abs: Numeric [] false Helper("rk_abs");
    signum: Signed [] false Helper("rk_signum");
    is_nan: Float [] true Helper("rk_is_nan");
    is_infinite: Float [] true Helper("rk_is_infinite");
    is_finite: Float [] true Helper("rk_is_finite");
    is_sign_negative: Float [] true Helper("rk_is_sign_negative");
    is_sign_positive: Float [] true Helper("rk_is_sign_positive");
    powf: Float [Same] false Libm("pow");
    powi: Float [I32] false Helper("rk_powi");
    atan2: Float [Same] false Libm("atan2");
    hypot: Float [Same] false Libm("hypot");
    copysign: Float [Same] false Libm("copysign");
    log: Float [Same] false Helper("rk_log");
    min: Numeric [Same] false Helper("rk_min");
    max: Numeric [Same] false Helper("rk_max");
    mul_add: Float [Same, Same] false Libm("fma");
}

/// The method called `name`, if it is in the math set.
pub fn find(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

/// The names of the math set, for error messages.
pub fn names() -> String {
    METHODS
        .iter()
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Method {
    /// True when the method on f16 and bf16 works on the bits (`abs`, the predicates)
    /// rather than computing in f32 and rounding.
    pub fn on_bits(&self) -> bool {
        self.predicate || self.name == "abs"
    }
}

/// `180 / pi` as Rust's `to_degrees` multiplies by it, for f32 or f64 (the 16-bit floats
/// compute in f32: their factor is f32's).
pub fn degrees_factor(ty: Ty) -> f64 {
    match ty {
        // The constant of `f32::to_degrees` (std writes it out to avoid double rounding).
        #[allow(clippy::excessive_precision)]
        Ty::F32 | Ty::F16 | Ty::BF16 => 57.295_779_513_082_320_876_798_154_814_105_170_3_f32 as f64,
        _ => 180.0f64 / std::f64::consts::PI,
    }
}

/// `pi / 180` as Rust's `to_radians` multiplies by it, for f32 or f64 (the 16-bit floats:
/// f32's).
pub fn radians_factor(ty: Ty) -> f64 {
    match ty {
        Ty::F32 | Ty::F16 | Ty::BF16 => (std::f32::consts::PI / 180.0f32) as f64,
        _ => std::f64::consts::PI / 180.0,
    }
}
