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
        ("|x: u16| -> u16 { x }", "unsupported type"),
        ("|x| x", "needs a type"),
        ("|x: f32, n: i32| -> f32 { x * n }", "mismatched types"),
        ("|x: f32| -> f32 { x * 2 }", "write a float literal"),
        (
            "|x: f32| -> f32 { let s = x; s += 1.0; s }",
            "declare it `let mut s`",
        ),
        ("|x: f32| -> f32 { x & x }", "integer or bool operands"),
        ("|x: bool| -> bool { x + x }", "not defined for bool"),
        ("|x: u8| -> u8 { -x }", "cannot negate"),
        ("|x: f32| -> bool { x as bool }", "compare instead"),
        ("|x: bool| -> f32 { x as f32 }", "cast through an integer"),
        (
            "|x: f32| -> f32 { let y = 2.0; y.sqrt() }",
            "ambiguous numeric type",
        ),
        (
            "|x: i32| -> i32 { x.sqrt() }",
            "defined for f32 and f64, not i32",
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
            "|x: f32| -> f32 { x + 1u16 as f32 }",
            "unsupported literal suffix",
        ),
    ] {
        let e = error_of(src);
        assert!(e.contains(msg), "{src}: expected `{msg}` in `{e}`");
    }
}
