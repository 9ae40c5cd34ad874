//! Unit tests of the translation: the CUDA text of every construct and type against
//! tests/cuda_cases.txt (reviewed by hand; the CUDA backend's tests compile the same texts
//! with NVRTC), the Rust text of the integer semantics, and the errors for code outside the
//! subset. `CUPRITE_BLESS=1` rewrites the case file from the current translation.

use crate::emit_rust::RustEmit;
use crate::expand::translate_closure;
use quote::quote;

const CASES_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cuda_cases.txt");

/// `(name, rust source, expected cuda)` of every case.
fn cases() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(CASES_PATH).expect("tests/cuda_cases.txt");
    text.split("\n=== ")
        .filter_map(|c| {
            let c = c.strip_prefix("=== ").unwrap_or(c);
            let (head, cuda) = c.split_once("\n---\n")?;
            let (name, rust) = head.split_once('\n')?;
            Some((
                name.trim().into(),
                rust.trim().into(),
                cuda.trim_end().to_string() + "\n",
            ))
        })
        .collect()
}

fn cuda_of(src: &str) -> String {
    let c: syn::ExprClosure = syn::parse_str(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    translate_closure(&c)
        .unwrap_or_else(|e| panic!("{src}: {e}"))
        .cuda
}

fn rust_of(src: &str) -> String {
    let c: syn::ExprClosure = syn::parse_str(src).unwrap();
    let t = translate_closure(&c).unwrap();
    let krate = quote!(::cuprite);
    RustEmit {
        k: &t.kernel,
        krate: &krate,
    }
    .body()
    .to_string()
}

fn error_of(src: &str) -> String {
    let c: syn::ExprClosure = syn::parse_str(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    match translate_closure(&c) {
        Ok(_) => panic!("{src} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn cuda_translation_of_every_case() {
    let cases = cases();
    assert!(cases.len() > 40, "only {} cases", cases.len());
    if std::env::var_os("CUPRITE_BLESS").is_some() {
        let mut out = String::from(
            "# The CUDA translation of one kernel per construct and type: `=== name`, the Rust\n\
             # closure, `---`, the device function. Checked against the macro by\n\
             # crates/macros/src/tests.rs and compiled with NVRTC by crates/cuda/src/map_kernel.rs.\n",
        );
        for (name, rust, _) in &cases {
            out.push_str(&format!("=== {name}\n{rust}\n---\n{}", cuda_of(rust)));
        }
        std::fs::write(CASES_PATH, out).unwrap();
        return;
    }
    for (name, rust, cuda) in cases {
        assert_eq!(cuda_of(&rust), cuda, "case {name}: {rust}");
    }
}

#[test]
fn the_notebook_kernel() {
    let c = cuda_of("|x: f32, y: f32| -> f32 { if x - 2.0 > y { x * y } else { x + y } }");
    assert_eq!(
        c,
        "__device__ __forceinline__ float rk_body(float x_0, float y_1) {\n    \
         return (((x_0 - 2.0f) > y_1) ? (x_0 * y_1) : (x_0 + y_1));\n}\n"
    );
}

#[test]
fn literals_take_the_other_operands_type() {
    let c = cuda_of("|x: f64| 1.5 * x + 1e300");
    assert!(c.contains("((1.5 * x_0) + 1e300)"), "{c}");
    assert!(
        c.starts_with("__device__ __forceinline__ double rk_body(double x_0)"),
        "{c}"
    );
    let c = cuda_of("|x: i64| { let k = 3; x * k }");
    assert!(
        c.contains("i64 k_1 = 3LL;") && c.contains("rk_mul(x_0, k_1)"),
        "{c}"
    );
    let c = cuda_of("|x: u8| x + 250");
    assert!(c.contains("rk_add(x_0, ((u8)250))"), "{c}");
    // An undecided literal defaults as in Rust: {integer} to i32, {float} to f64.
    let c = cuda_of("|x: f32| -> f32 { let a = 7; let b = 0.1; x + (a as f32) + (b as f32) }");
    assert!(
        c.contains("i32 a_1 = 7;") && c.contains("double b_2 = 0.1;"),
        "{c}"
    );
    // A literal cast to a type of its kind takes that type.
    let c = cuda_of("|x: f32| -> f32 { x + 0.1 as f32 }");
    assert!(c.contains("cast<float>(0.1f)"), "{c}");
}

#[test]
fn negative_and_extreme_literals_are_exact() {
    let c = cuda_of("|x: i32| -> i32 { x + -2147483648 }");
    assert!(c.contains("(-2147483647 - 1)"), "{c}");
    let c = cuda_of("|x: i64| -> i64 { x - -9223372036854775808 }");
    assert!(c.contains("(-9223372036854775807LL - 1)"), "{c}");
    let r = rust_of("|x: i32| -> i32 { x + -2147483648 }");
    assert!(r.contains(":: core :: primitive :: i32 :: MIN"), "{r}");
    assert!(error_of("|x: i32| -> i32 { x + 2147483648 }").contains("literal out of range for i32"));
    assert!(error_of("|x: u8| -> u8 { x + 256 }").contains("literal out of range for u8"));
    assert!(error_of("|x: f32| -> f32 { x + 1e39 }").contains("literal out of range for f32"));
    let c = cuda_of("|x: f32| -> f32 { x * 0.1 }");
    assert!(c.contains("(x_0 * 0.1f)"), "{c}");
    let c = cuda_of("|x: f32| -> bool { x < f32::INFINITY && x > f32::NEG_INFINITY }");
    assert!(
        c.contains("__int_as_float(0x7f800000)") && c.contains("0xff800000"),
        "{c}"
    );
}

#[test]
fn cpu_translation_makes_integer_semantics_explicit() {
    let r = rust_of("|a: i32, b: i32| -> i32 { a + b * a - b / a % b }");
    for part in [
        "wrapping_add",
        "wrapping_mul",
        "wrapping_sub",
        ":: cuprite :: kernel :: scalar :: div",
        ":: cuprite :: kernel :: scalar :: rem",
    ] {
        assert!(r.contains(part), "{part} missing in {r}");
    }
    let r = rust_of("|a: i64| -> i64 { -a << 70 }");
    assert!(
        r.contains("wrapping_neg") && r.contains("wrapping_shl"),
        "{r}"
    );
    let r = rust_of("|a: f32, b: f32| -> f32 { -a + b % a }");
    assert!(!r.contains("wrapping") && r.contains('%'), "{r}");
    let r = rust_of("|a: i32| -> i32 { a.abs().max(3) }");
    assert!(
        r.contains("wrapping_abs") && r.contains(":: core :: cmp :: Ord > :: max"),
        "{r}"
    );
}

#[test]
fn evaluation_order_survives_hoisting() {
    // The block on the right assigns `s`; the left operand must be read before it.
    let c = cuda_of("|x: i32| -> i32 { let mut s = x; s + { s = 5; s } }");
    let save = c.find("const i32 rk_t0 = s_1;").expect(&c);
    let assign = c.find("s_1 = 5;").expect(&c);
    assert!(save < assign && c.contains("rk_add(rk_t0, s_1)"), "{c}");
    // `&&` evaluates its right side only when the left one is true.
    let c = cuda_of("|x: i32| -> bool { let mut n = 0; let b = x > 0 && { n += 1; n > 0 }; b }");
    assert!(c.contains("if (rk_t0) {"), "{c}");
}

#[test]
fn code_outside_the_subset_is_rejected_with_its_reason() {
    for (src, msg) in [
        (
            "|x: f32| -> f32 { for i in 0..3 {} x }",
            "loops are not supported",
        ),
        (
            "|x: f32| -> f32 { while x > 0.0 {} x }",
            "loops are not supported",
        ),
        (
            "|x: f32| -> f32 { foo(x) }",
            "function calls are not supported",
        ),
        ("|x: f32| -> f32 { x.exp10() }", "`exp10` is not a method"),
        (
            "|x: f32| -> f32 { let r = &x; x }",
            "references are not supported",
        ),
        (
            "|x: f32| -> f32 { let g = |y: f32| y; x }",
            "closures are not supported",
        ),
        (
            "|x: f32| -> f32 { println!(\"hi\"); x }",
            "macros are not supported",
        ),
        ("|x: f32| -> f32 { return x; }", "early exits"),
        (
            "|x: f32| -> f32 { match x { _ => x } }",
            "`match` is not supported",
        ),
        (
            "|a: f32, b: f32, c: f32, d: f32, e: f32| -> f32 { a }",
            "1 to 4 inputs (this one takes 5)",
        ),
        ("|| -> f32 { 1.0 }", "1 to 4 inputs (this one takes 0)"),
        (
            "|z: c64| -> c64 { z }",
            "complex element types are not supported",
        ),
        (
            "|x: u128| -> u128 { x }",
            "unsupported type in a cuprite kernel; the element types are bool, i8, u8, i16, \
             u16, i32, u32, i64, u64, f16, bf16, f32 and f64",
        ),
        ("|x: isize| -> isize { x }", "unsupported type"),
        ("|x| x", "needs a type"),
        ("|x: f32, n: i32| -> f32 { x * n }", "mismatched types"),
        ("|x: f32| -> f32 { x * 2 }", "write a float literal"),
        (
            "|x: f32| -> f32 { let s = x; s += 1.0; s }",
            "declare it `let mut s`",
        ),
        ("|x: f32| -> f32 { x & x }", "integer or bool operands"),
        ("|x: bool| -> bool { x + x }", "not defined for bool"),
        (
            "|x: bool| -> bool { -x }",
            "cannot negate a value of type bool",
        ),
        ("|x: f32| -> bool { x as bool }", "compare instead"),
        ("|x: bool| -> f32 { x as f32 }", "cast through an integer"),
        (
            "|x: f32| -> f32 { let y = 2.0; y.sqrt() }",
            "ambiguous numeric type",
        ),
        (
            "|x: i32| -> i32 { x.sqrt() }",
            "defined for f16, bf16, f32 and f64, not i32",
        ),
        (
            "|x: u16| -> u16 { x.signum() }",
            "`signum` is defined for f16, bf16, f32, f64, i8, i16, i32 and i64, not u16",
        ),
        (
            "|x: f16| -> f16 { x & x }",
            "integer or bool operands, not f16",
        ),
        ("|x: bf16| -> bf16 { x << 1 }", "integer operands, not bf16"),
        ("|x: f16| -> bool { x as bool }", "compare instead"),
        ("|x: bool| -> bf16 { x as bf16 }", "cast through an integer"),
        (
            "|x: f16, y: bf16| -> f16 { x + y }",
            "mismatched types in a cuprite kernel: f16 and bf16",
        ),
        (
            "|x: u64, y: i64| -> u64 { x + y }",
            "mismatched types in a cuprite kernel: u64 and i64",
        ),
        (
            "|x: i8, y: i16| -> bool { x < y }",
            "mismatched types in a cuprite kernel: i8 and i16",
        ),
        ("|x: f16| -> f16 { x * 2 }", "write a float literal"),
        ("|x: i8| -> i8 { x + 128 }", "literal out of range for i8"),
        (
            "|x: i16| -> i16 { x - 32769 }",
            "literal out of range for i16",
        ),
        (
            "|x: u16| -> u16 { x + 65536 }",
            "literal out of range for u16",
        ),
        (
            "|x: u32| -> u32 { x + 4294967296 }",
            "literal out of range for u32",
        ),
        (
            "|x: u64| -> u64 { x + 18446744073709551616 }",
            "literal out of range for u64",
        ),
        (
            "|x: u8| -> u8 { x + -1 }",
            "literal out of range for u8 (a negative literal of an unsigned type)",
        ),
        (
            "|x: f16| -> f16 { x + 65520.0 }",
            "literal out of range for f16",
        ),
        (
            "|x: bf16| -> bf16 { x * 3.4e38 }",
            "literal out of range for bf16",
        ),
        ("|x: f32| -> f32 { if x > 0.0 { 1.0 } }", "without `else`"),
        ("|x: f32| -> f32 { y }", "cannot find variable `y`"),
        ("|x: f32| -> f32 { x[0] }", "indexing is not supported"),
        ("|x: f32| -> f32 { (x, x).0 }", "tuples"),
        (
            "|x: f32| -> f32 { let (a, b) = (x, x); a }",
            "patterns are not supported",
        ),
        ("|x: f32| -> f32 { let a; x }", "needs an initial value"),
        ("|x: f32| -> f32 { f64::consts::PI }", "mismatched types"),
        ("|x: f32| -> f32 { f32::consts::NOPE }", "unknown path"),
        ("|x: f32| -> f32 { x.powi(2.0) }", "mismatched types"),
        (
            "|x: f32| -> f32 { x.max() }",
            "takes 1 argument(s), 0 given",
        ),
        ("|mut x: f32| -> f32 { x += 1.0 }", "mismatched types"),
        (
            "|x: f32| -> f32 { unsafe { x } }",
            "`unsafe` is not supported",
        ),
        (
            "|x: f32| -> f32 { 'a' as f32 }",
            "only bool, integer and float literals",
        ),
        (
            "|x: f32| -> f32 { x + 1u128 as f32 }",
            "unsupported literal suffix `u128`; the element types are bool, i8, u8",
        ),
    ] {
        let e = error_of(src);
        assert!(e.contains(msg), "{src}: expected `{msg}` in `{e}`");
    }
}

#[test]
fn every_integer_width_wraps_and_keeps_its_type() {
    // Literals are typed exactly in CUDA (so the helpers' template arguments deduce).
    let c = cuda_of("|x: i8| -> i8 { x * -128 + 127 }");
    assert!(
        c.contains("rk_add(rk_mul(x_0, ((i8)(-128))), ((i8)127))"),
        "{c}"
    );
    let c = cuda_of("|x: u64| -> u64 { x + 18446744073709551615 - 9223372036854775808 }");
    assert!(
        c.contains("18446744073709551615ULL") && c.contains("9223372036854775808ULL"),
        "{c}"
    );
    let c = cuda_of("|x: u32, y: u16, z: i16| -> bool { x > 7 && y < 65535 && z > -32768 }");
    assert!(
        c.contains("7u") && c.contains("((u16)65535)") && c.contains("((i16)(-32768))"),
        "{c}"
    );
    // C promotes the 8- and 16-bit types to int: bit operators are cast back.
    let c = cuda_of("|x: i16, y: i16| -> i16 { (x & y) ^ y }");
    assert!(c.contains("((i16)(((i16)(x_0 & y_1)) ^ y_1))"), "{c}");
    let c = cuda_of("|x: u32, y: u32| -> u32 { x | y }");
    assert!(c.contains("(x_0 | y_1)"), "{c}");
    // Unsigned negation wraps; unsigned abs is the value.
    let c = cuda_of("|x: u16| -> u16 { -x + x.abs() }");
    assert!(c.contains("rk_add(rk_neg(x_0), rk_abs(x_0))"), "{c}");
    let r = rust_of("|x: u16| -> u16 { -x + x.abs() }");
    assert!(
        r.contains("(x) . wrapping_neg ()") && !r.contains("wrapping_abs"),
        "{r}"
    );
    let r = rust_of("|x: i8| -> i8 { x.abs() / -1 }");
    assert!(
        r.contains("wrapping_abs") && r.contains("scalar :: div") && r.contains("1i8"),
        "{r}"
    );
    let r = rust_of("|x: u64| -> u64 { x % 18446744073709551615 }");
    assert!(
        r.contains("scalar :: rem") && r.contains("18446744073709551615u64"),
        "{r}"
    );
    let r = rust_of("|x: i16| -> i16 { x + -32768 }");
    assert!(r.contains(":: core :: primitive :: i16 :: MIN"), "{r}");
    // Literals cast to another integer type take it (and its range).
    let c = cuda_of("|x: u64| -> u64 { x + 255 as u64 }");
    assert!(c.contains("cast<u64>(255ULL)"), "{c}");
}

#[test]
fn half_floats_round_after_every_operation() {
    // CPU: widen, compute in f32, round, per operation (two roundings here).
    let r = rust_of("|a: f16, b: f16| -> f16 { a * b + a }");
    assert_eq!(
        r,
        ":: cuprite :: f16 :: from_f32 ((:: cuprite :: f16 :: from_f32 ((a) . to_f32 () \
         * (b) . to_f32 ())) . to_f32 () + (a) . to_f32 ())"
    );
    // CUDA: the struct's operators, which round each result.
    let c = cuda_of("|a: f16, b: f16| -> f16 { a * b + a }");
    assert!(c.contains("return ((a_0 * b_1) + a_0);"), "{c}");
    let c = cuda_of("|a: bf16, b: bf16| -> bf16 { a % b }");
    assert!(c.contains("bf16(fmodf((float)a_0, (float)b_1))"), "{c}");
    // Comparisons are exact in f32; negation flips the sign bit.
    let r = rust_of("|a: bf16, b: bf16| -> bool { -a < b }");
    assert!(
        r.contains(":: cuprite :: bf16 :: from_bits ((a) . to_bits () ^ 0x8000u16)")
            && r.contains(". to_f32 () < (b) . to_f32 ()"),
        "{r}"
    );
    // Literals are the half values of the literal, as bits (0.1: f16 0x2e66, bf16 0x3dcd).
    let r = rust_of("|x: f16| -> f16 { x * 0.1 }");
    assert!(
        r.contains(":: cuprite :: f16 :: from_bits (11878u16)"),
        "{r}"
    );
    let c = cuda_of("|x: bf16| -> bf16 { x * 0.1 }");
    assert!(c.contains("bf16::from_bits(0x3dcd)"), "{c}");
    // 1 + 2^-11 + 2^-40 rounds once, up (through f32 it would tie down to 1.0).
    let c = cuda_of("|x: f16| -> f16 { x * 1.0004882812500009 }");
    assert!(c.contains("f16::from_bits(0x3c01)"), "{c}");
    // Subnormal and overflowing-to-MAX literals: 6e-8 is the smallest subnormal, 65519 MAX.
    let c = cuda_of("|x: f16| -> f16 { x * 6e-8 + 65519.0 }");
    assert!(
        c.contains("f16::from_bits(0x0001)") && c.contains("f16::from_bits(0x7bff)"),
        "{c}"
    );
    // A let of a half type, inferred from a literal.
    let c = cuda_of("|x: f16| -> f16 { let mut s = 1.5; s += x; s }");
    assert!(
        c.contains("f16 s_1 = f16::from_bits(0x3e00);") && c.contains("s_1 = (s_1 + x_0);"),
        "{c}"
    );
}

#[test]
fn half_methods_compute_in_f32_except_bit_level_ones() {
    let r = rust_of("|x: f16, y: f16| -> f16 { x.sqrt() + x.powi(3) + x.mul_add(y, x) }");
    for part in [
        ":: cuprite :: f16 :: from_f32 ((x) . to_f32 () . sqrt ())",
        ":: cuprite :: f16 :: from_f32 ((x) . to_f32 () . powi (3i32))",
        ":: cuprite :: f16 :: from_f32 ((x) . to_f32 () . mul_add ((y) . to_f32 () , (x) . to_f32 ()))",
    ] {
        assert!(r.contains(part), "{part} missing in {r}");
    }
    let r = rust_of("|x: bf16| -> bool { x.abs().is_nan() || x.is_sign_negative() }");
    assert!(
        r.contains(":: cuprite :: bf16 :: from_bits ((x) . to_bits () & 0x7fffu16)")
            && r.contains(". is_nan ()")
            && r.contains("(x) . is_sign_negative ()"),
        "{r}"
    );
    // asinh and acosh go through kernel::scalar on the CPU (std's overflow for huge values).
    let r = rust_of("|x: f32, h: bf16| -> f32 { x.asinh() + h.acosh() as f32 }");
    assert!(
        r.contains(":: cuprite :: kernel :: scalar :: asinh ((x))")
            && r.contains(
                ":: cuprite :: bf16 :: from_f32 (:: cuprite :: kernel :: scalar :: acosh ((h) . to_f32 ()))"
            ),
        "{r}"
    );
    let c = cuda_of("|x: bf16, n: i32| -> bf16 { x.powi(n).abs() + x.to_degrees() }");
    assert!(
        c.contains("rk_abs(bf16(rk_powi((float)x_0, n_1)))")
            && c.contains("bf16(((float)x_0 * 57.29578f))"),
        "{c}"
    );
}

#[test]
fn half_casts_round_once() {
    let r = rust_of(
        "|a: f64, b: f32, c: i64, h: f16| -> f16 { a as f16 + b as f16 + c as f16 + h as bf16 as f16 }",
    );
    for part in [
        ":: cuprite :: kernel :: scalar :: f16_from_f64 (a)",
        ":: cuprite :: f16 :: from_f32 (b)",
        ":: cuprite :: f16 :: from_f32 ((c) as f32)",
        ":: cuprite :: f16 :: from_f32 ((:: cuprite :: bf16 :: from_f32 ((h) . to_f32 ())) . to_f32 ())",
    ] {
        assert!(r.contains(part), "{part} missing in {r}");
    }
    let r = rust_of("|a: f64, h: bf16| -> i8 { (a as bf16 as f64) as i8 + h as i8 }");
    for part in [
        ":: cuprite :: bf16 :: from_f32 ((a) as f32)",
        "(((:: cuprite :: bf16 :: from_f32 ((a) as f32)) . to_f32 ()) as f64)",
        "(((h) . to_f32 ()) as i8)",
    ] {
        assert!(r.contains(part), "{part} missing in {r}");
    }
    let c = cuda_of("|h: f16| -> u64 { h as u64 }");
    assert!(c.contains("return cast<u64>(h_0);"), "{c}");
    // A float literal cast to a half type is that half value.
    let c = cuda_of("|x: f16| -> f16 { x + 0.1 as f16 }");
    assert!(c.contains("cast<f16>(f16::from_bits(0x2e66))"), "{c}");
}
