//! The CUDA C source of an `ElementwiseKernel` instantiated for one set of argument types.
//!
//! The user's body becomes `__device__ void _cp_op(i, _ind, params...)`: inputs by value,
//! outputs as references into their arrays, `raw` parameters as `RawArray<T>` (read-only for
//! inputs), placeholders as `typedef`s at the top of the function. Four kernels call it:
//! `<name>__c32` / `<name>__c64` for operands that are all contiguous runs (32- or 64-bit
//! index arithmetic; four elements per thread per step with the loads issued first), and
//! `<name>__s32` / `<name>__s64` for strided views (each array with its `Strided`).

use super::compile::SourceWriter;
use crate::ctype::ctype;
use cuprite_core::DType;

/// How one parameter is passed in one instantiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// A non-raw input array (pointer, broadcast to the index space).
    InArray,
    /// A non-raw input scalar (by value).
    InScalar,
    /// A raw input (`RawArray<const T>`).
    InRaw,
    /// A non-raw output array.
    Out,
    /// A raw output (`RawArray<T>`).
    OutRaw,
}

/// One parameter of an instantiation: its name, resolved dtype and passing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParamInst {
    pub name: String,
    pub dtype: DType,
    pub pass: Pass,
}

/// The kernels of a program, in the order [`kernel_names`] lists them.
pub(crate) const VARIANTS: [&str; 4] = ["c32", "c64", "s32", "s64"];

/// The entry points of the program of kernel `name`, one per variant.
pub(crate) fn kernel_names(name: &str) -> [String; 4] {
    VARIANTS.map(|v| format!("{name}__{v}"))
}

/// The program's file name (its `#line` label for generated code).
pub(crate) const FILE: &str = "user-elementwise.cu";

/// The full program.
pub(crate) fn source(
    name: &str,
    params: &[ParamInst],
    typedefs: &[(String, DType)],
    preamble: &str,
    body: &str,
) -> String {
    let mut w = SourceWriter::new(FILE);
    if !preamble.is_empty() {
        w.user("preamble", preamble);
    }
    // The device function holding the body.
    let mut f =
        String::from("__device__ __forceinline__ void _cp_op(const long long i, const _Ind& _ind");
    for p in params {
        let t = ctype(p.dtype);
        let n = &p.name;
        f.push_str(&match p.pass {
            Pass::InArray | Pass::InScalar => format!(", const {t} {n}"),
            Pass::Out => format!(", {t}& {n}"),
            Pass::InRaw => format!(", const RawArray<const {t}>& {n}"),
            Pass::OutRaw => format!(", const RawArray<{t}>& {n}"),
        });
    }
    f.push_str(") {\n");
    for (ph, d) in typedefs {
        f.push_str(&format!("    typedef {} {ph};\n", ctype(*d)));
    }
    f.push_str("    (void)i; (void)_ind;\n");
    w.gen(&f);
    w.user("body", body);
    w.gen(";\n}\n\n");
    for (variant, kname) in VARIANTS.iter().zip(kernel_names(name)) {
        w.gen(&kernel(&kname, variant, params));
    }
    w.finish()
}

/// One entry point.
fn kernel(kname: &str, variant: &str, params: &[ParamInst]) -> String {
    let strided = variant.starts_with('s');
    let idx = if variant.ends_with("32") {
        "unsigned"
    } else {
        "long long"
    };
    let mut s = format!("extern \"C\" __global__ void {kname}(");
    for (k, p) in params.iter().enumerate() {
        let t = ctype(p.dtype);
        s.push_str(&match p.pass {
            Pass::InArray => format!("const {t}* __restrict__ _cp_p{k}, "),
            Pass::Out => format!("{t}* __restrict__ _cp_p{k}, "),
            Pass::InScalar => format!("const {t} _cp_v{k}, "),
            Pass::InRaw => format!("const RawArray<const {t}> _cp_r{k}, "),
            Pass::OutRaw => format!("const RawArray<{t}> _cp_r{k}, "),
        });
        if strided && matches!(p.pass, Pass::InArray | Pass::Out) {
            s.push_str(&format!("const Strided _cp_s{k}, "));
        }
    }
    s.push_str("const long long _n) {\n    const _Ind _ind = {_n};\n");
    s.push_str(&format!(
        "    {idx} _k = ({idx})blockIdx.x * blockDim.x + threadIdx.x;\n    \
         const {idx} _st = ({idx})gridDim.x * blockDim.x;\n    const {idx} _nn = ({idx})_n;\n"
    ));
    // The argument list of `_cp_op` for element `e` given the expression of each array
    // operand's element at that index.
    let call = |at: &dyn Fn(usize) -> String, i: &str| {
        let mut c = format!("_cp_op((long long)({i}), _ind");
        for (k, p) in params.iter().enumerate() {
            c.push_str(&match p.pass {
                Pass::InArray | Pass::Out => format!(", {}", at(k)),
                Pass::InScalar => format!(", _cp_v{k}"),
                Pass::InRaw | Pass::OutRaw => format!(", _cp_r{k}"),
            });
        }
        c.push_str(");\n");
        c
    };
    if strided {
        let off = if idx == "unsigned" {
            "strided_offset32"
        } else {
            "strided_offset"
        };
        s.push_str("    for (; _k < _nn; _k += _st) {\n        ");
        s.push_str(&call(&|k| format!("_cp_p{k}[{off}(_cp_s{k}, _k)]"), "_k"));
        s.push_str("    }\n}\n\n");
        return s;
    }
    // Contiguous: four elements per step, the loads of all four first.
    s.push_str("    for (; _k + 3 * _st < _nn; _k += 4 * _st) {\n");
    for (k, p) in params.iter().enumerate() {
        if p.pass == Pass::InArray {
            let t = ctype(p.dtype);
            s.push_str(&format!(
                "        const {t} _cp_a{k}_0 = _cp_p{k}[_k], _cp_a{k}_1 = _cp_p{k}[_k + _st], \
                 _cp_a{k}_2 = _cp_p{k}[_k + 2 * _st], _cp_a{k}_3 = _cp_p{k}[_k + 3 * _st];\n"
            ));
        }
    }
    for u in 0..4 {
        let at = |k: usize| match params[k].pass {
            Pass::InArray => format!("_cp_a{k}_{u}"),
            _ => format!("_cp_p{k}[_k + {u} * _st]"),
        };
        s.push_str("        ");
        s.push_str(&call(&at, &format!("_k + {u} * _st")));
    }
    s.push_str("    }\n    for (; _k < _nn; _k += _st) {\n        ");
    s.push_str(&call(&|k| format!("_cp_p{k}[_k]"), "_k"));
    s.push_str("    }\n}\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn my_kernel_params() -> Vec<ParamInst> {
        let p = |n: &str, pass| ParamInst {
            name: n.into(),
            dtype: DType::F32,
            pass,
        };
        vec![
            p("x", Pass::InArray),
            p("y", Pass::InArray),
            p("z", Pass::Out),
        ]
    }

    #[test]
    fn the_generated_source_has_the_body_and_four_kernels() {
        let body = "if (x - 2 > y) { z = x * y; } else { z = x + y; }";
        let s = source("my_kernel", &my_kernel_params(), &[], "", body);
        assert!(
            s.contains(
                "__device__ __forceinline__ void _cp_op(const long long i, const _Ind& _ind, \
             const float x, const float y, float& z) {"
            ),
            "{s}"
        );
        assert!(s.contains(&format!("#line 1 \"body\"\n{body}\n#line")));
        for k in kernel_names("my_kernel") {
            assert!(
                s.contains(&format!("extern \"C\" __global__ void {k}(")),
                "{k}"
            );
        }
        assert!(
            s.contains(
                "void my_kernel__c32(const float* __restrict__ _cp_p0, const float* __restrict__ \
             _cp_p1, float* __restrict__ _cp_p2, const long long _n)"
            ),
            "{s}"
        );
        assert!(s.contains("const Strided _cp_s2, const long long _n)"));
        assert!(s.contains("_cp_p2[strided_offset32(_cp_s2, _k)]"));
        assert!(s.contains("_cp_p2[strided_offset(_cp_s2, _k)]"));
        assert!(s.contains("_cp_op((long long)(_k + 3 * _st), _ind, _cp_a0_3, _cp_a1_3, _cp_p2[_k + 3 * _st]);"), "{s}");
    }

    #[test]
    fn scalars_raws_and_placeholders_are_declared() {
        let params = vec![
            ParamInst {
                name: "x".into(),
                dtype: DType::F64,
                pass: Pass::InRaw,
            },
            ParamInst {
                name: "a".into(),
                dtype: DType::C128,
                pass: Pass::InScalar,
            },
            ParamInst {
                name: "y".into(),
                dtype: DType::I32,
                pass: Pass::OutRaw,
            },
        ];
        let s = source(
            "k",
            &params,
            &[("T".into(), DType::F64)],
            "#define TWO 2",
            "y[i] = 1",
        );
        assert!(
            s.contains("const RawArray<const double>& x, const c128 a, const RawArray<i32>& y"),
            "{s}"
        );
        assert!(s.contains("typedef double T;"));
        assert!(s.contains("#line 1 \"preamble\"\n#define TWO 2\n"));
        assert!(
            s.contains(
                "void k__c64(const RawArray<const double> _cp_r0, const c128 _cp_v1, \
                            const RawArray<i32> _cp_r2, const long long _n)"
            ),
            "{s}"
        );
        assert!(s.contains("_cp_op((long long)(_k), _ind, _cp_r0, _cp_v1, _cp_r2);"));
    }
}
