//! The element-wise kernel family: [`SOURCE`] holds the map kernels (one variant per program,
//! chosen by a `#define`), [`OPS`] a CUDA functor `op_<NAME>` for every element-wise op of
//! cuprite-core (the `UnaryOp`/`BinaryOp` values, by their `NAME`), with the host's semantics
//! for every element type the host accepts. [`UNARY_OPS`] and [`BINARY_OPS`] list the names
//! the functors cover; [`source`] assembles a complete program.
//!
//! ```
//! use cuprite_kernels::elementwise::{has_binary, source, Variant};
//! assert!(has_binary("add") && !has_binary("sqrt"));
//! let src = source(Variant::ScalarInplace, Some("multiply"), "double", "double");
//! assert!(src.contains("#define OP op_multiply") && src.contains("#define EW_SCALAR_INPLACE 1"));
//! ```

/// The kernels (`ew_contig`, `ew_strided`) of every variant.
pub const SOURCE: &str = include_str!("elementwise.cu");

/// The op functors and the scalar mathematics behind them (ops_math.cuh, then ops.cuh). Any
/// kernel family may include them after `COMMON` to apply an element-wise op by name.
pub const OPS: &str = concat!(include_str!("ops_math.cuh"), "\n", include_str!("ops.cuh"));

/// Names of the unary ops with a functor in [`OPS`].
pub const UNARY_OPS: &[&str] = &[
    "negative",
    "clip",
    "invert",
    "logical_not",
    "isnan",
    "isinf",
    "isfinite",
    "real",
    "imag",
    "conjugate",
    "angle",
    "sqrt",
    "exp",
    "exp2",
    "sin",
    "cos",
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "reciprocal",
    "log",
    "log2",
    "log10",
    "arcsin",
    "arccos",
    "arctan",
    "arcsinh",
    "arccosh",
    "arctanh",
    "cbrt",
    "expm1",
    "log1p",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "square",
    "absolute",
    "sign",
    "round",
    "deg2rad",
    "rad2deg",
    "signbit",
];

/// Names of the binary ops with a functor in [`OPS`].
pub const BINARY_OPS: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "true_divide",
    "floor_divide",
    "remainder",
    "power",
    "arctan2",
    "hypot",
    "copysign",
    "fmod",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "logical_and",
    "logical_or",
    "logical_xor",
    "isclose",
    "abs_sq_diff",
    "propagate_nan",
    "logaddexp",
    "logaddexp2",
    "heaviside",
    "nextafter",
    "nan_sq_dev",
];

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(list: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        if str_eq(list[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// True when [`OPS`] has a functor for the unary op `name` (usable in `const` context).
pub const fn has_unary(name: &str) -> bool {
    contains(UNARY_OPS, name)
}

/// True when [`OPS`] has a functor for the binary op `name` (usable in `const` context).
pub const fn has_binary(name: &str) -> bool {
    contains(BINARY_OPS, name)
}

/// One kernel variant of [`SOURCE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `out = op(x)`.
    Unary,
    /// `out = op(a, b)`.
    Binary,
    /// `out = op(a, s)`.
    Scalar,
    /// `out = op(s, a)`.
    RScalar,
    /// `x = op(x)`.
    UnaryInplace,
    /// `a = op(a, b)`.
    BinaryInplace,
    /// `a = op(a, s)`.
    ScalarInplace,
    /// `out = c ? a : b` (no op).
    Where,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 8] = [
        Variant::Unary,
        Variant::Binary,
        Variant::Scalar,
        Variant::RScalar,
        Variant::UnaryInplace,
        Variant::BinaryInplace,
        Variant::ScalarInplace,
        Variant::Where,
    ];

    /// The variant's name in module keys (`"unary"`, `"scalar_inplace"`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Unary => "unary",
            Variant::Binary => "binary",
            Variant::Scalar => "scalar",
            Variant::RScalar => "rscalar",
            Variant::UnaryInplace => "unary_inplace",
            Variant::BinaryInplace => "binary_inplace",
            Variant::ScalarInplace => "scalar_inplace",
            Variant::Where => "where",
        }
    }

    /// The `#define` that selects the variant in [`SOURCE`].
    pub const fn define(self) -> &'static str {
        match self {
            Variant::Unary => "EW_UNARY",
            Variant::Binary => "EW_BINARY",
            Variant::Scalar => "EW_SCALAR",
            Variant::RScalar => "EW_RSCALAR",
            Variant::UnaryInplace => "EW_UNARY_INPLACE",
            Variant::BinaryInplace => "EW_BINARY_INPLACE",
            Variant::ScalarInplace => "EW_SCALAR_INPLACE",
            Variant::Where => "EW_WHERE",
        }
    }
}

/// The complete program of `variant` for the op `op` (`None` for [`Variant::Where`]) on
/// elements of CUDA type `t` with results of CUDA type `out` (`"double"`, `"bool"`).
pub fn source(variant: Variant, op: Option<&str>, t: &str, out: &str) -> String {
    let functor = op.map(|name| format!("op_{name}"));
    let mut defines = vec![("T", t), ("OUT", out), (variant.define(), "1")];
    if let Some(f) = &functor {
        defines.push(("OP", f.as_str()));
    }
    match op {
        Some(_) => crate::program(&[OPS, SOURCE], &defines),
        None => crate::program(&[SOURCE], &defines),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_op_has_a_functor() {
        for name in UNARY_OPS.iter().chain(BINARY_OPS) {
            let defined = [
                format!("CUPRITE_UNARY({name},"),
                format!("CUPRITE_BINARY({name},"),
                format!("CUPRITE_INEXACT({name},"),
                format!("struct op_{name} "),
            ]
            .iter()
            .any(|d| OPS.contains(d.as_str()));
            assert!(defined, "no functor op_{name} in ops.cuh");
        }
        assert!(!UNARY_OPS.iter().any(|u| BINARY_OPS.contains(u)));
    }

    #[test]
    fn lookups_are_exact() {
        assert!(has_unary("sqrt") && has_unary("round") && !has_unary("sqr"));
        assert!(has_binary("propagate_nan") && !has_binary("add "));
        const { assert!(has_binary("isclose") && !has_unary("isclose")) };
    }

    #[test]
    fn sources_select_one_variant() {
        let s = source(Variant::Where, None, "c64", "c64");
        assert!(s.contains("#define EW_WHERE 1") && !s.contains("#define OP"));
        assert!(!s.contains("struct op_add"));
        let s = source(Variant::RScalar, Some("power"), "i32", "i32");
        assert!(s.contains("#define OP op_power") && s.contains("struct OpParams"));
        let names: std::collections::HashSet<_> = Variant::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(names.len(), Variant::ALL.len());
    }
}
