//! The element-wise kernel family: [`SOURCE`] holds the map kernels (one variant per program,
//! chosen by a `#define`), [`OPS`] a CUDA functor `op_<NAME>` ([`functor`]) for every
//! element-wise op of cuprite-core (the `UnaryOp`/`BinaryOp` values declared in core's op
//! registry, by their `NAME`), with the host's semantics for every element type the host
//! accepts. [`functors`] lists the ops the source covers (a test of the CUDA backend checks
//! it against the registry); [`source`] assembles a complete program.
//!
//! ```
//! use cuprite_kernels::elementwise::{has_functor, source, Variant};
//! assert!(has_functor("add") && has_functor("sqrt") && !has_functor("sqr"));
//! let src = source(Variant::ScalarInplace, Some("multiply"), "double", "double");
//! assert!(src.contains("#define OP op_multiply") && src.contains("#define EW_SCALAR_INPLACE 1"));
//! ```

/// The kernels (`ew_contig`, `ew_strided`) of every variant.
pub const SOURCE: &str = include_str!("elementwise.cu");

/// The op functors and the scalar mathematics behind them (ops_math.cuh, then ops.cuh). Any
/// kernel family may include them after `COMMON` to apply an element-wise op by name.
pub const OPS: &str = concat!(include_str!("ops_math.cuh"), "\n", include_str!("ops.cuh"));

/// The name of the functor of the element-wise op `name` (its `NAME`): `op_<name>`.
pub fn functor(name: &str) -> String {
    format!("op_{name}")
}

/// The ops with a functor in [`OPS`], by name, in source order: every `CUPRITE_UNARY(name,`,
/// `CUPRITE_BINARY(name,` and `CUPRITE_INEXACT(name,` at the start of a line and every
/// `template <class E> struct op_name`.
pub fn functors() -> Vec<&'static str> {
    const MACROS: [&str; 3] = ["CUPRITE_UNARY(", "CUPRITE_BINARY(", "CUPRITE_INEXACT("];
    OPS.lines()
        .filter_map(|line| {
            let rest = MACROS
                .iter()
                .find_map(|m| line.strip_prefix(m))
                .or_else(|| line.strip_prefix("template <class E> struct op_"))?;
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            Some(&rest[..end])
        })
        .collect()
}

/// True when [`OPS`] has a functor for the op `name`.
pub fn has_functor(name: &str) -> bool {
    functors().contains(&name)
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
    let functor = op.map(functor);
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
    fn functors_are_read_from_the_source() {
        let f = functors();
        // Each definition form: CUPRITE_BINARY, CUPRITE_UNARY, CUPRITE_INEXACT, a struct.
        for name in [
            "add", "negative", "sqrt", "arctanh", "isclose", "round", "clip",
        ] {
            assert!(f.contains(&name), "{name}");
        }
        // The helper macros' own definitions are not functors.
        assert!(!f.iter().any(|n| *n == "NAME" || n.is_empty()));
        let mut sorted = f.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), f.len(), "a functor defined twice");
        assert!(has_functor("propagate_nan") && !has_functor("add "));
        assert_eq!(functor("less"), "op_less");
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
