//! The CUDA C source of a `ReductionKernel` instantiated for one set of argument types.
//!
//! The user's expressions become device functions: `_cp_map(inputs...)` (map_expr, cast to
//! `type_reduce`), `_cp_reduce(a, b)` (reduce_expr), `_cp_identity()` and
//! `_cp_post(a, outputs&..., scalars..., _in_ind, _out_ind)` (post_map_expr). Four kernels
//! share one parameter list (per array input: pointer, kept view, reduced view; per scalar
//! input: its value; per output: pointer and view; then the output count, the reduced count
//! and the input count):
//! - `<name>__thread`: a thread per output (small reductions, or outputs that are neighbours
//!   in memory while the reduced elements are not);
//! - `<name>__block`: a block per output, threads striding over the reduced elements with four
//!   loads in flight each, then a shared-memory tree;
//! - `<name>__part` and `<name>__final`: outputs too few to fill the device are cut into
//!   chunks (a block each) whose accumulators the final kernel combines and post-maps.

use super::compile::SourceWriter;
use super::elementwise_src::{ParamInst, Pass};
use crate::ctype::ctype;
use cuprite_core::DType;

/// The program's file name.
pub(crate) const FILE: &str = "user-reduction.cu";

/// The entry points, in the order the launcher indexes them.
pub(crate) fn kernel_names(name: &str) -> [String; 4] {
    ["thread", "block", "part", "final"].map(|v| format!("{name}__{v}"))
}

/// The user's code of a reduction.
pub(crate) struct Exprs<'a> {
    pub map: &'a str,
    pub reduce: &'a str,
    pub post_map: &'a str,
    pub identity: &'a str,
    pub preamble: &'a str,
}

/// The full program. `params` lists inputs (`InArray`/`InScalar`) then outputs (`Out`).
pub(crate) fn source(
    name: &str,
    params: &[ParamInst],
    typedefs: &[(String, DType)],
    reduce_type: DType,
    e: &Exprs,
) -> String {
    let mut w = SourceWriter::new(FILE);
    let mut t = String::new();
    for (ph, d) in typedefs {
        t.push_str(&format!("typedef {} {ph};\n", ctype(*d)));
    }
    t.push_str(&format!("typedef {} type_reduce;\n", ctype(reduce_type)));
    w.gen(&t);
    if !e.preamble.is_empty() {
        w.user("preamble", e.preamble);
    }
    let ins: Vec<&ParamInst> = params.iter().filter(|p| p.pass != Pass::Out).collect();
    let outs: Vec<&ParamInst> = params.iter().filter(|p| p.pass == Pass::Out).collect();
    let scalars: Vec<&ParamInst> = params.iter().filter(|p| p.pass == Pass::InScalar).collect();
    let decl = |ps: &[&ParamInst], refs: bool| -> String {
        let v: Vec<String> = ps
            .iter()
            .map(|p| {
                format!(
                    "const {}{} {}",
                    ctype(p.dtype),
                    if refs { "&" } else { "" },
                    p.name
                )
            })
            .collect();
        v.join(", ")
    };
    w.gen(&format!(
        "__device__ __forceinline__ type_reduce _cp_map({}) {{\n    return cast<type_reduce>(",
        decl(&ins, false)
    ));
    w.user("map_expr", e.map);
    w.gen(");\n}\n__device__ __forceinline__ type_reduce _cp_reduce(const type_reduce a, const type_reduce b) {\n    return cast<type_reduce>(");
    w.user("reduce_expr", e.reduce);
    w.gen(");\n}\n__device__ __forceinline__ type_reduce _cp_identity() {\n    return cast<type_reduce>(");
    w.user("identity", e.identity);
    w.gen(");\n}\n");
    let mut post = String::from("__device__ __forceinline__ void _cp_post(const type_reduce a");
    for p in &outs {
        post.push_str(&format!(", {}& {}", ctype(p.dtype), p.name));
    }
    for p in &scalars {
        post.push_str(&format!(", const {} {}", ctype(p.dtype), p.name));
    }
    post.push_str(
        ", const _Ind& _in_ind, const _Ind& _out_ind) {\n    (void)_in_ind; (void)_out_ind;\n",
    );
    w.gen(&post);
    w.user("post_map_expr", e.post_map);
    w.gen(";\n}\nstruct _cp_red_f {\n    __device__ __forceinline__ type_reduce operator()(type_reduce a, type_reduce b) const { return _cp_reduce(a, b); }\n};\n\n");

    // The shared parameter list and the per-output prologue.
    let mut plist = String::new();
    let mut bases = String::new();
    let mut map_args: Vec<String> = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let t = ctype(p.dtype);
        match p.pass {
            Pass::InArray => {
                plist.push_str(&format!(
                    "const {t}* __restrict__ _cp_p{k}, const Strided _cp_k{k}, const Strided _cp_r{k}, "
                ));
                bases.push_str(&format!(
                    "        const long long _cp_b{k} = strided_offset(_cp_k{k}, _o);\n"
                ));
                map_args.push(format!("_cp_p{k}[_cp_b{k} + _cp_off(_cp_r{k}, %R%)]"));
            }
            Pass::InScalar => {
                plist.push_str(&format!("const {t} _cp_v{k}, "));
                map_args.push(format!("_cp_v{k}"));
            }
            _ => plist.push_str(&format!(
                "{t}* __restrict__ _cp_q{k}, const Strided _cp_o{k}, "
            )),
        }
    }
    plist.push_str("const long long _n_out, const long long _rsize, const long long _n_in");
    let elem = |r: &str| format!("_cp_map({})", map_args.join(", ").replace("%R%", r));
    let mut post_call = String::from("_cp_post(_acc");
    for (k, p) in params.iter().enumerate() {
        if p.pass == Pass::Out {
            post_call.push_str(&format!(", _cp_q{k}[strided_offset(_cp_o{k}, _o)]"));
        }
    }
    for (k, p) in params.iter().enumerate() {
        if p.pass == Pass::InScalar {
            post_call.push_str(&format!(", _cp_v{k}"));
        }
    }
    post_call.push_str(", _in_ind, _out_ind);\n");
    let head = "    const _Ind _in_ind = {_n_in}, _out_ind = {_n_out};\n";
    // Threads stride over [lo, hi) from `lo + tid` by `st`, four loads in flight.
    let strided_loop = format!(
        "        long long _r = _lo + threadIdx.x;\n        const long long _st = blockDim.x;\n        \
         for (; _r + 3 * _st < _hi; _r += 4 * _st) {{\n            \
         const type_reduce _m0 = {}, _m1 = {}, _m2 = {}, _m3 = {};\n            \
         _acc = _cp_reduce(_acc, _m0); _acc = _cp_reduce(_acc, _m1); _acc = _cp_reduce(_acc, _m2); _acc = _cp_reduce(_acc, _m3);\n        \
         }}\n        for (; _r < _hi; _r += _st) _acc = _cp_reduce(_acc, {});\n",
        elem("_r"),
        elem("(_r + _st)"),
        elem("(_r + 2 * _st)"),
        elem("(_r + 3 * _st)"),
        elem("_r")
    );
    let names = kernel_names(name);
    let mut k = String::new();
    // A thread per output.
    k.push_str(&format!(
        "extern \"C\" __global__ void {}({plist}) {{\n{head}    for (long long _o = (long long)blockIdx.x * blockDim.x + threadIdx.x; _o < _n_out; _o += (long long)gridDim.x * blockDim.x) {{\n{bases}        type_reduce _acc = _cp_identity();\n        for (long long _r = 0; _r < _rsize; ++_r) _acc = _cp_reduce(_acc, {});\n        {post_call}    }}\n}}\n\n",
        names[0],
        elem("_r")
    ));
    // A block per output.
    k.push_str(&format!(
        "extern \"C\" __global__ void {}({plist}) {{\n{head}    __shared__ type_reduce _cp_sh[256];\n    for (long long _o = blockIdx.x; _o < _n_out; _o += gridDim.x) {{\n{bases}        type_reduce _acc = _cp_identity();\n        const long long _lo = 0, _hi = _rsize;\n{strided_loop}        _acc = _cp_block_reduce(_acc, _cp_sh, _cp_red_f());\n        if (threadIdx.x == 0) {{ {post_call}        }}\n    }}\n}}\n\n",
        names[1]
    ));
    // Chunks of the reduction of few outputs.
    k.push_str(&format!(
        "extern \"C\" __global__ void {}({plist}, type_reduce* __restrict__ _cp_part, const long long _chunks, const long long _chunk) {{\n    __shared__ type_reduce _cp_sh[256];\n    for (long long _g = blockIdx.x; _g < _n_out * _chunks; _g += gridDim.x) {{\n        const long long _o = _g / _chunks, _c = _g - _o * _chunks;\n{bases}        type_reduce _acc = _cp_identity();\n        const long long _lo = _c * _chunk, _hi = _lo + _chunk < _rsize ? _lo + _chunk : _rsize;\n{strided_loop}        _acc = _cp_block_reduce(_acc, _cp_sh, _cp_red_f());\n        if (threadIdx.x == 0) _cp_part[_g] = _acc;\n    }}\n}}\n\n",
        names[2]
    ));
    k.push_str(&format!(
        "extern \"C\" __global__ void {}({plist}, const type_reduce* __restrict__ _cp_part, const long long _chunks, const long long _chunk) {{\n{head}    __shared__ type_reduce _cp_sh[256];\n    (void)_chunk;\n    for (long long _o = blockIdx.x; _o < _n_out; _o += gridDim.x) {{\n        type_reduce _acc = _cp_identity();\n        for (long long _c = threadIdx.x; _c < _chunks; _c += blockDim.x) _acc = _cp_reduce(_acc, _cp_part[_o * _chunks + _c]);\n        _acc = _cp_block_reduce(_acc, _cp_sh, _cp_red_f());\n        if (threadIdx.x == 0) {{ {post_call}        }}\n    }}\n}}\n",
        names[3]
    ));
    w.gen(&k);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_source_has_the_expressions_and_kernels() {
        let params = vec![
            ParamInst {
                name: "x".into(),
                dtype: DType::F32,
                pass: Pass::InArray,
            },
            ParamInst {
                name: "s".into(),
                dtype: DType::F32,
                pass: Pass::InScalar,
            },
            ParamInst {
                name: "y".into(),
                dtype: DType::F32,
                pass: Pass::Out,
            },
        ];
        let e = Exprs {
            map: "x * x",
            reduce: "a + b",
            post_map: "y = sqrt(a) * s",
            identity: "0",
            preamble: "",
        };
        let s = source(
            "l2norm",
            &params,
            &[("T".into(), DType::F32)],
            DType::F64,
            &e,
        );
        assert!(
            s.contains("typedef float T;\ntypedef double type_reduce;\n"),
            "{s}"
        );
        assert!(
            s.contains("type_reduce _cp_map(const float x, const float s)"),
            "{s}"
        );
        assert!(s.contains("#line 1 \"map_expr\"\nx * x\n"));
        assert!(s.contains("#line 1 \"post_map_expr\"\ny = sqrt(a) * s\n"));
        assert!(
            s.contains(
                "void _cp_post(const type_reduce a, float& y, const float s, const _Ind& _in_ind"
            ),
            "{s}"
        );
        for k in kernel_names("l2norm") {
            assert!(
                s.contains(&format!("extern \"C\" __global__ void {k}(")),
                "{k}"
            );
        }
        assert!(s.contains("const float* __restrict__ _cp_p0, const Strided _cp_k0, const Strided _cp_r0, const float _cp_v1, float* __restrict__ _cp_q2, const Strided _cp_o2, const long long _n_out"), "{s}");
        assert!(
            s.contains("_cp_map(_cp_p0[_cp_b0 + _cp_off(_cp_r0, (_r + _st))], _cp_v1)"),
            "{s}"
        );
        assert!(s.contains(
            "_cp_post(_acc, _cp_q2[strided_offset(_cp_o2, _o)], _cp_v1, _in_ind, _out_ind);"
        ));
    }
}
