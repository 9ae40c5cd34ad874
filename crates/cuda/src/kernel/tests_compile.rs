//! NVRTC checks of the generated sources (no GPU needed): every kernel family compiles for
//! sm_90 for representative types, and a compile error names the user's line. Run with
//! `LD_LIBRARY_PATH=<libnvrtc dir> cargo test -p cuprite-cuda --lib -- --ignored kernel::`.

use super::compile::{quote_user_lines, user_error};
use super::elementwise_src::{self as ew, ParamInst, Pass};
use super::reduction_src::{self as red, Exprs};
use crate::nvrtc::compile_check::assert_compiles;
use cuprite_core::DType;

fn p(name: &str, dtype: DType, pass: Pass) -> ParamInst {
    ParamInst {
        name: name.into(),
        dtype,
        pass,
    }
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn my_kernel_compiles() {
    let params = vec![
        p("x", DType::F32, Pass::InArray),
        p("y", DType::F32, Pass::InArray),
        p("z", DType::F32, Pass::Out),
    ];
    let body = "if (x - 2 > y) { z = x * y; } else { z = x + y; }";
    let t = std::time::Instant::now();
    assert_compiles(ew::FILE, &ew::source("my_kernel", &params, &[], "", body));
    eprintln!(
        "my_kernel: NVRTC compile {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn placeholders_raws_and_scalars_compile_for_every_dtype() {
    for d in DType::ALL {
        let params = vec![
            p("x", d, Pass::InArray),
            p("r", d, Pass::InRaw),
            p("a", d, Pass::InScalar),
            p("y", d, Pass::Out),
            p("w", DType::I64, Pass::OutRaw),
        ];
        let body = "y = x; T t = r[_ind.size() - i - 1]; y = t; (void)a; w[i] = i";
        let src = ew::source(
            "k",
            &params,
            &[("T".into(), d)],
            "__device__ int helper() { return 1; }",
            body,
        );
        assert_compiles(ew::FILE, &src);
    }
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn reductions_compile() {
    for (d, rt) in [
        (DType::F32, DType::F32),
        (DType::F64, DType::F64),
        (DType::I32, DType::I64),
        (DType::C128, DType::C128),
    ] {
        let params = vec![
            p("x", d, Pass::InArray),
            p("s", d, Pass::InScalar),
            p("y", rt, Pass::Out),
        ];
        let e = Exprs {
            map: "x",
            reduce: "a + b",
            post_map: "y = a; (void)s",
            identity: "0",
            preamble: "",
        };
        assert_compiles(
            red::FILE,
            &red::source("sum", &params, &[("T".into(), d)], rt, &e),
        );
    }
    let params = vec![
        p("x", DType::F32, Pass::InArray),
        p("y", DType::F32, Pass::Out),
    ];
    let e = Exprs {
        map: "x",
        reduce: "max(a, b)",
        post_map: "y = a",
        identity: "-INFINITY",
        preamble: "",
    };
    assert_compiles(
        red::FILE,
        &red::source("amax", &params, &[], DType::F32, &e),
    );
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn a_compile_error_names_the_users_line() {
    let params = vec![
        p("x", DType::F32, Pass::InArray),
        p("z", DType::F32, Pass::Out),
    ];
    let body = "float t = x;\nz = t + undefined_name;";
    let src = ew::source("bad", &params, &[], "", body);
    let opts = crate::nvrtc::options("sm_90");
    let e = crate::nvrtc::compile(ew::FILE, &src, &opts).unwrap_err();
    let e = user_error("bad", e, &[("body", body)]).to_string();
    assert!(e.starts_with("bad: compiling the kernel failed:"), "{e}");
    assert!(e.contains("body(2): error"), "{e}");
    assert!(e.contains("body line 2 | z = t + undefined_name;"), "{e}");
    // The same through the raw path: the user's source lines.
    let raw = "extern \"C\" __global__ void k(float* x) {\n    x[0] = y;\n}\n";
    let mut w = super::compile::SourceWriter::raw("user-raw.cu");
    w.user("source", raw);
    let e = crate::nvrtc::compile("user-raw.cu", &w.finish(), &opts).unwrap_err();
    let q = quote_user_lines(&e.to_string(), &[("source", raw)]);
    assert!(q.contains("source line 2 |     x[0] = y;"), "{q}");
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn raw_sources_compile_with_name_expressions() {
    let src = "template <typename T> __global__ void my_sum(const T* x, T* y, int n) {\n\
               int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(y, x[i]); }\n\
               extern \"C\" __global__ void twice(float* x, int n) {\n\
               int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }\n";
    let (cubin, lowered) = crate::nvrtc::compile_named(
        "user-raw.cu",
        src,
        &crate::nvrtc::options("sm_90"),
        &["my_sum<float>", "my_sum<double>"],
    )
    .unwrap();
    assert!(!cubin.is_empty());
    assert_eq!(
        lowered,
        ["_Z6my_sumIfEvPKT_PS0_i", "_Z6my_sumIdEvPKT_PS0_i"]
    );
}
