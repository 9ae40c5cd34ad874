//! Named constants a kernel may use: `f32::consts::PI` (also through `std::`/`core::`),
//! `f64::INFINITY`, `f32::NAN`, `f32::MAX`, `i32::MIN`, `u64::MAX`, `f16::consts::PI`,
//! `bf16::EPSILON`, ... They become literals with exact values, so both translations agree
//! bit for bit.

use crate::halfs;
use crate::ir::Lit;
use crate::ty::Ty;
use syn::spanned::Spanned;

/// The value of the mathematical constant `name` of `std::f64::consts`, if there is one.
fn math_const(name: &str) -> Option<f64> {
    use std::f64::consts as c;
    Some(match name {
        "PI" => c::PI,
        "TAU" => c::TAU,
        "E" => c::E,
        "SQRT_2" => c::SQRT_2,
        "FRAC_1_SQRT_2" => c::FRAC_1_SQRT_2,
        "LN_2" => c::LN_2,
        "LN_10" => c::LN_10,
        "LOG2_E" => c::LOG2_E,
        "LOG10_E" => c::LOG10_E,
        "LOG2_10" => c::LOG2_10,
        "LOG10_2" => c::LOG10_2,
        "FRAC_PI_2" => c::FRAC_PI_2,
        "FRAC_PI_3" => c::FRAC_PI_3,
        "FRAC_PI_4" => c::FRAC_PI_4,
        "FRAC_PI_6" => c::FRAC_PI_6,
        "FRAC_PI_8" => c::FRAC_PI_8,
        "FRAC_1_PI" => c::FRAC_1_PI,
        "FRAC_2_PI" => c::FRAC_2_PI,
        "FRAC_2_SQRT_PI" => c::FRAC_2_SQRT_PI,
        _ => return None,
    })
}

/// The mathematical constant `name` of `std::f32::consts` (each rounded once from its
/// decimal value, as std defines it; rounding the f64 value agrees for every one of them,
/// which the tests check).
fn math_const_f32(name: &str) -> Option<f32> {
    math_const(name).map(|v| v as f32)
}

/// The associated constant `name` of type `ty` (`f32::MAX`), if the subset has it.
fn assoc_const(ty: Ty, name: &str) -> Option<Lit> {
    if let Some((lo, hi)) = ty.int_range() {
        return match name {
            "MIN" => Some(Lit::Int(lo)),
            "MAX" => Some(Lit::Int(hi)),
            _ => None,
        };
    }
    // The finite limits of a float type: largest value, smallest positive normal, epsilon.
    let (max, min_positive, epsilon) = match ty {
        Ty::F16 => (65504.0, 2f64.powi(-14), 2f64.powi(-10)),
        Ty::BF16 => (halfs::bf16_value(0x7f7f), 2f64.powi(-126), 2f64.powi(-7)),
        Ty::F32 => (
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
            f32::EPSILON as f64,
        ),
        Ty::F64 => (f64::MAX, f64::MIN_POSITIVE, f64::EPSILON),
        _ => return None,
    };
    Some(Lit::Float(match name {
        "INFINITY" => f64::INFINITY,
        "NEG_INFINITY" => f64::NEG_INFINITY,
        "NAN" => f64::NAN,
        "MAX" => max,
        "MIN" => -max,
        "MIN_POSITIVE" => min_positive,
        "EPSILON" => epsilon,
        _ => return None,
    }))
}

/// Resolves a constant path to its type and value.
pub fn resolve(path: &syn::Path) -> syn::Result<(Ty, Lit)> {
    let bad = || {
        syn::Error::new(
            path.span(),
            "unknown path in a cuprite kernel: the constants are `f32::consts::PI` (and the other \
             `std::f32::consts`/`std::f64::consts` values), `f32::INFINITY`, `f32::NEG_INFINITY`, \
             `f32::NAN`, `f32::MAX`, `f32::MIN`, `f32::MIN_POSITIVE`, `f32::EPSILON` (f16, bf16 and \
             f64 alike) and `MIN`/`MAX` of every integer type; variables are the parameters and \
             `let` bindings",
        )
    };
    if path.segments.iter().any(|s| !s.arguments.is_empty()) {
        return Err(bad());
    }
    let mut segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    if matches!(segs.first().map(String::as_str), Some("std" | "core")) {
        segs.remove(0);
    }
    let ty = segs
        .first()
        .and_then(|s| Ty::from_name(s))
        .ok_or_else(bad)?;
    let lit = match segs.len() {
        2 => assoc_const(ty, &segs[1]),
        3 if segs[1] == "consts" => match ty {
            Ty::F32 => math_const_f32(&segs[2]).map(|v| Lit::Float(v as f64)),
            Ty::F64 => math_const(&segs[2]).map(Lit::Float),
            // The f64 value rounded once to the type (bf16: through f32).
            Ty::F16 | Ty::BF16 => math_const(&segs[2]).map(|v| Lit::Float(halfs::round(v, ty))),
            _ => None,
        },
        _ => None,
    };
    lit.map(|l| (ty, l)).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_constants_are_std_values() {
        use std::f32::consts as c;
        for (name, v) in [
            ("PI", c::PI),
            ("TAU", c::TAU),
            ("E", c::E),
            ("SQRT_2", c::SQRT_2),
            ("FRAC_1_SQRT_2", c::FRAC_1_SQRT_2),
            ("LN_2", c::LN_2),
            ("LN_10", c::LN_10),
            ("LOG2_E", c::LOG2_E),
            ("LOG10_E", c::LOG10_E),
            ("LOG2_10", c::LOG2_10),
            ("LOG10_2", c::LOG10_2),
            ("FRAC_PI_2", c::FRAC_PI_2),
            ("FRAC_PI_3", c::FRAC_PI_3),
            ("FRAC_PI_4", c::FRAC_PI_4),
            ("FRAC_PI_6", c::FRAC_PI_6),
            ("FRAC_PI_8", c::FRAC_PI_8),
            ("FRAC_1_PI", c::FRAC_1_PI),
            ("FRAC_2_PI", c::FRAC_2_PI),
            ("FRAC_2_SQRT_PI", c::FRAC_2_SQRT_PI),
        ] {
            assert_eq!(
                math_const_f32(name).unwrap().to_bits(),
                v.to_bits(),
                "{name}"
            );
        }
    }

    #[test]
    fn paths_resolve_with_and_without_std() {
        for p in [
            "f64::consts::PI",
            "std::f64::consts::PI",
            "core::f64::consts::PI",
        ] {
            let path: syn::Path = syn::parse_str(p).unwrap();
            let (ty, lit) = resolve(&path).unwrap();
            assert_eq!(ty, Ty::F64);
            assert!(matches!(lit, Lit::Float(v) if v == std::f64::consts::PI));
        }
        let path: syn::Path = syn::parse_str("i32::MIN").unwrap();
        assert!(matches!(resolve(&path).unwrap().1, Lit::Int(v) if v == i32::MIN as i128));
        let path: syn::Path = syn::parse_str("f32::consts::NOPE").unwrap();
        assert!(resolve(&path).is_err());
        let path: syn::Path = syn::parse_str("u64::MAX").unwrap();
        assert!(matches!(resolve(&path).unwrap().1, Lit::Int(v) if v == u64::MAX as i128));
        let path: syn::Path = syn::parse_str("i8::MIN").unwrap();
        assert!(matches!(resolve(&path).unwrap().1, Lit::Int(-128)));
        let path: syn::Path = syn::parse_str("u16::MIN").unwrap();
        assert!(matches!(resolve(&path).unwrap().1, Lit::Int(0)));
    }

    /// The half constants are the `half` crate's.
    #[test]
    fn half_constants_are_half_s() {
        use cuprite::{bf16, f16};
        let value = |p: &str| {
            let path: syn::Path = syn::parse_str(p).unwrap();
            match resolve(&path).unwrap().1 {
                Lit::Float(v) => v,
                l => panic!("{p}: {l:?}"),
            }
        };
        for (name, h, b) in [
            ("MAX", f16::MAX, bf16::MAX),
            ("MIN", f16::MIN, bf16::MIN),
            ("MIN_POSITIVE", f16::MIN_POSITIVE, bf16::MIN_POSITIVE),
            ("EPSILON", f16::EPSILON, bf16::EPSILON),
            ("INFINITY", f16::INFINITY, bf16::INFINITY),
            ("NEG_INFINITY", f16::NEG_INFINITY, bf16::NEG_INFINITY),
            ("consts::PI", f16::PI, bf16::PI),
            ("consts::E", f16::E, bf16::E),
            ("consts::LN_2", f16::LN_2, bf16::LN_2),
            ("consts::SQRT_2", f16::SQRT_2, bf16::SQRT_2),
            ("consts::FRAC_1_PI", f16::FRAC_1_PI, bf16::FRAC_1_PI),
        ] {
            assert_eq!(value(&format!("f16::{name}")), h.to_f64(), "f16::{name}");
            assert_eq!(value(&format!("bf16::{name}")), b.to_f64(), "bf16::{name}");
        }
        assert!(value("f16::NAN").is_nan() && value("bf16::NAN").is_nan());
    }
}
