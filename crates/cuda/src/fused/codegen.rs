//! The CUDA C program of a fused expression ([`source`]) and its module key ([`key`]).
//!
//! The program has one kernel, `fused`, taking one `FusedArgs` by value:
//!
//! ```text
//! struct FusedArgs {
//!     u64 out;                 // the C-contiguous result
//!     long long n;             // its elements
//!     u64 p[U];                // each distinct leaf, advanced to its view's offset
//!     Bytes16 s[S];            // scalar operands, then op parameters (five slots an op)
//!     long long shape[ND];     // the strided views' jointly coalesced shape
//!     long long st[V * ND];    // and their strides, view after view (a strided output's
//!                              // first)
//! };
//! ```
//!
//! (arrays of no element left out). An element function `f` takes one value per leaf and
//! applies the expression's instructions in order, each op by its registry functor
//! (`lift<op_NAME, E>`, built once per thread before the loop with its parameters); the loop
//! around it reads contiguous leaves at the element's index, uniform ones (every stride 0)
//! at 0 and strided ones at offsets computed once per element for all of them; the output
//! is C-contiguous, or a strided view written at offsets computed with the leaves'. Where every
//! leaf is contiguous or uniform and every address 16-byte aligned, the loop moves 16-byte
//! words (`vw` elements of the widest type read or written) and the remainder one by one.
//!
//! Everything that varies between two calls of one structure (addresses, sizes, strides,
//! scalars, parameters) is an argument: the key names the instructions, element types,
//! the kind of each leaf, `nd` and `vw`, and nothing else. Generated names carry an
//! underscore before their number (`f_16`, `c_64`, `u_8`) so that none is a type of
//! common.cuh (`f16`, `c64`, `u8`).

use crate::ctype::ctype;
use crate::reduce::FusedKernel;
use cuprite_core::fusion::lower::Instr;
use cuprite_core::DType;
use std::fmt::Write;

/// How the kernel reads a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    /// C-contiguous: element `i` of the leaf is `p[i]`.
    Contig,
    /// One element read at every position (every stride 0).
    Uniform,
    /// The `k`-th strided leaf: offsets from `shape` and its row of `st`.
    Strided(usize),
}

/// The shape of one fused program: everything its source depends on.
pub(super) struct Shape<'a> {
    /// The expression's instructions (its value is the last one's).
    pub instrs: &'a [Instr],
    /// The kernel parameter (distinct leaf) each program leaf is read through.
    pub leaf_param: &'a [usize],
    /// How each kernel parameter is read.
    pub access: &'a [Access],
    /// The element type of each kernel parameter.
    pub param_t: &'a [DType],
    /// Whether the output is a strided view (the first strided view, offsets `o_0`) rather
    /// than C-contiguous.
    pub out_strided: bool,
    /// Axes of the strided leaves' coalesced shape (0 when there are none).
    pub nd: usize,
    /// Elements per 16-byte word of the vector loop (1: the indexed loop).
    pub vw: usize,
}

/// Whether an instruction takes a scalar slot and five parameter slots.
fn slot_use(i: &Instr) -> (bool, bool) {
    match i {
        Instr::Scalar(_) => (true, false),
        Instr::BinaryScalar { params, .. } => (true, !params.is_empty()),
        Instr::Unary { params, .. } | Instr::Binary { params, .. } => (false, !params.is_empty()),
        _ => (false, false),
    }
}

/// The number of `Bytes16` slots of the instructions: a scalar operand takes one, an op's
/// parameters five (t0, t1, d0, d1, k), in instruction order; [`super::pack`] fills them in
/// the same order.
pub(super) fn slot_count(instrs: &[Instr]) -> usize {
    instrs
        .iter()
        .map(|i| {
            let (s, p) = slot_use(i);
            s as usize + 5 * p as usize
        })
        .sum()
}

/// The module key of a program of this shape.
pub(super) fn key(s: &Shape) -> String {
    let mut k = String::with_capacity(32 + 24 * s.instrs.len());
    let out = if s.out_strided { "s" } else { "c" };
    let _ = write!(k, "fused|vw{}|nd{}|o{out}|", s.vw, s.nd);
    for a in s.access {
        k.push(match a {
            Access::Contig => 'c',
            Access::Uniform => 'u',
            Access::Strided(_) => 's',
        });
    }
    for i in s.instrs {
        let p = |v: &Vec<_>| if v.is_empty() { "" } else { "p" };
        let _ = match i {
            Instr::Leaf { leaf, dtype } => {
                write!(k, "|l{}{}", s.leaf_param[*leaf], ctype(*dtype))
            }
            Instr::Scalar(v) => write!(k, "|s{}", ctype(v.dtype())),
            Instr::Unary {
                op, t, params, x, ..
            } => write!(k, "|{op}{}{}.{x}", ctype(*t), p(params)),
            Instr::Binary {
                op,
                t,
                params,
                a,
                b,
                ..
            } => write!(k, "|{op}{}{}.{a}.{b}", ctype(*t), p(params)),
            Instr::BinaryScalar {
                op,
                t,
                params,
                x,
                scalar_first,
                ..
            } => {
                let side = if *scalar_first { "r" } else { "" };
                write!(k, "|{op}{side}{}{}.{x}s", ctype(*t), p(params))
            }
            Instr::Cast { from, to, x } => write!(k, "|cast{}{}.{x}", ctype(*from), ctype(*to)),
            Instr::Where { t, c, a, b } => write!(k, "|where{}.{c}.{a}.{b}", ctype(*t)),
        };
    }
    k
}

/// The `FusedArgs` struct of a program: the result, its size, the leaves and the value
/// slots, then `tail` (the fields of the loop: strides, or a reduction's plan).
fn args_struct(s: &Shape, tail: &str) -> String {
    let (u, nslots) = (s.access.len(), slot_count(s.instrs));
    let mut c = String::with_capacity(2048 + 160 * s.instrs.len());
    c.push_str("struct FusedArgs {\n    u64 out;\n    long long n;\n");
    if u > 0 {
        let _ = writeln!(c, "    u64 p[{u}];");
    }
    if nslots > 0 {
        let _ = writeln!(c, "    Bytes16 s[{nslots}];");
    }
    c.push_str(tail);
    c.push_str("};\n\n");
    c
}

/// The start of a kernel body: the scalar operands and functors (once per thread), the
/// element function `f` (one value per leaf in, the expression's value out) and the leaf
/// pointers `p_0`, `p_1`, ...
fn element(s: &Shape) -> String {
    let out_t = ctype(s.instrs.last().map_or(DType::F64, Instr::dtype));
    let u = s.access.len();
    let leaf_t: Vec<&str> = s.param_t.iter().map(|&t| ctype(t)).collect();
    let mut c = String::new();
    let mut names: Vec<String> = Vec::with_capacity(s.instrs.len());
    let mut body = String::new();
    let mut slot = 0usize;
    for (k, i) in s.instrs.iter().enumerate() {
        let (uses_scalar, uses_params) = slot_use(i);
        let scalar_at = slot;
        let params_at = slot + uses_scalar as usize;
        slot += uses_scalar as usize + 5 * uses_params as usize;
        let functor = |c: &mut String, op: &str, t: DType| {
            let t = ctype(t);
            let prm = if uses_params {
                format!("fz_params<{t}>(a.s + {params_at})")
            } else {
                format!("fz_no_params<{t}>()")
            };
            let _ = writeln!(
                c,
                "    const typename lift<op_{op}, {t}>::type f_{k}({prm});"
            );
        };
        let name = match i {
            Instr::Leaf { leaf, .. } => format!("x_{}", s.leaf_param[*leaf]),
            Instr::Scalar(v) => {
                let t = ctype(v.dtype());
                let _ = writeln!(
                    c,
                    "    const {t} c_{k} = from_bytes<{t}>(a.s[{scalar_at}]);"
                );
                format!("c_{k}")
            }
            Instr::Unary { op, t, out, x, .. } => {
                functor(&mut c, op, *t);
                let _ = writeln!(
                    body,
                    "        const {} v_{k} = f_{k}({});",
                    ctype(*out),
                    names[*x]
                );
                format!("v_{k}")
            }
            Instr::Binary {
                op, t, out, a, b, ..
            } => {
                functor(&mut c, op, *t);
                let (a, b) = (&names[*a], &names[*b]);
                let _ = writeln!(
                    body,
                    "        const {} v_{k} = f_{k}({a}, {b});",
                    ctype(*out)
                );
                format!("v_{k}")
            }
            Instr::BinaryScalar {
                op,
                t,
                out,
                x,
                scalar_first,
                ..
            } => {
                functor(&mut c, op, *t);
                let tt = ctype(*t);
                let _ = writeln!(
                    c,
                    "    const {tt} c_{k} = from_bytes<{tt}>(a.s[{scalar_at}]);"
                );
                let x = &names[*x];
                let args = if *scalar_first {
                    format!("c_{k}, {x}")
                } else {
                    format!("{x}, c_{k}")
                };
                let _ = writeln!(body, "        const {} v_{k} = f_{k}({args});", ctype(*out));
                format!("v_{k}")
            }
            Instr::Cast { to, x, .. } => {
                let to = ctype(*to);
                let _ = writeln!(
                    body,
                    "        const {to} v_{k} = cast<{to}>({});",
                    names[*x]
                );
                format!("v_{k}")
            }
            Instr::Where { t, c: cond, a, b } => {
                let (cond, a, b) = (&names[*cond], &names[*a], &names[*b]);
                let _ = writeln!(
                    body,
                    "        const {} v_{k} = {cond} ? {a} : {b};",
                    ctype(*t)
                );
                format!("v_{k}")
            }
        };
        names.push(name);
    }
    let result = names.last().cloned().unwrap_or_default();

    // The element function.
    let params: Vec<String> = (0..u).map(|q| format!("{} x_{q}", leaf_t[q])).collect();
    let _ = writeln!(
        c,
        "    auto f = [&]({}) -> {out_t} {{\n{body}        return {result};\n    }};",
        params.join(", ")
    );
    for (q, t) in leaf_t.iter().enumerate() {
        let _ = writeln!(
            c,
            "    const {t}* __restrict__ p_{q} = (const {t}*)a.p[{q}];"
        );
    }

    c
}

/// Statements declaring `o_0`, `o_1`, ... (the offsets of the strided views, the output's
/// first, at element `i` of the coalesced shape `a.shape`): under a 32-bit `i`, divided by
/// the host's magic numbers (`fz_div`) and summed in 32 bits; under a 64-bit one, in 64.
fn offsets(nstrided: usize, nd: usize) -> String {
    let mut c = String::new();
    if nstrided == 0 || nd == 0 {
        return c;
    }
    c.push_str(
        "        typedef decltype(i) I;\n        typedef typename fz_off<I>::type O;\n        I r = i;\n",
    );
    for j in 0..nstrided {
        let _ = writeln!(c, "        O o_{j} = 0;");
    }
    for d in (1..nd).rev() {
        let _ = writeln!(
            c,
            "        {{\n            const I q = fz_div(r, a.shape[{d}], a.mg[{d}], a.sh[{d}]);\n            \
             const O m = (O)(r - q * (I)a.shape[{d}]);"
        );
        for j in 0..nstrided {
            let _ = writeln!(c, "            o_{j} += m * (O)a.st[{}];", j * nd + d);
        }
        c.push_str("            r = q;\n        }\n");
    }
    for j in 0..nstrided {
        let _ = writeln!(c, "        o_{j} += (O)r * (O)a.st[{}];", j * nd);
    }
    c
}

/// The number of strided views of a program: the output's, then its strided leaves.
fn strided_count(s: &Shape) -> usize {
    s.out_strided as usize
        + s.access
            .iter()
            .filter(|a| matches!(a, Access::Strided(_)))
            .count()
}

/// The fields of the strided views' coalesced shape and strides (none without them).
fn strided_fields(s: &Shape) -> String {
    let mut c = String::new();
    let n = strided_count(s);
    if n > 0 && s.nd > 0 {
        let _ = writeln!(c, "    long long shape[{}];", s.nd);
        let _ = writeln!(c, "    long long st[{}];", n * s.nd);
        let _ = writeln!(c, "    unsigned mg[{}];", s.nd);
        let _ = writeln!(c, "    unsigned sh[{}];", s.nd);
        c.push_str("    int w32;\n");
    }
    c
}

/// The condition of the 32-bit index path: fewer than 2^31 elements and, with strided
/// views, offsets that fit 32 bits (`w32`, set by the host).
fn narrow_index(s: &Shape) -> &'static str {
    if strided_count(s) > 0 && s.nd > 0 {
        "a.n <= 0x7fffffffLL && a.w32"
    } else {
        "a.n <= 0x7fffffffLL"
    }
}

/// The CUDA C of the program (after `common.cuh`, the op functors and `fused.cuh`).
pub(super) fn source(s: &Shape) -> String {
    let out_t = ctype(s.instrs.last().map_or(DType::F64, Instr::dtype));
    let u = s.access.len();
    let nstrided = strided_count(s);
    let leaf_t: Vec<&str> = s.param_t.iter().map(|&t| ctype(t)).collect();
    let mut c = args_struct(s, &strided_fields(s));
    c.push_str("extern \"C\" __global__ void __launch_bounds__(256) fused(const FusedArgs a) {\n");
    c.push_str(&element(s));
    let _ = writeln!(c, "    {out_t}* __restrict__ out = ({out_t}*)a.out;");
    let read = |q: usize, at: &str| match s.access[q] {
        Access::Contig => format!("p_{q}[{at}]"),
        Access::Uniform => format!("p_{q}[0]"),
        Access::Strided(j) => format!("p_{q}[o_{j}]"),
    };
    if s.vw > 1 {
        let vw = s.vw;
        let _ = writeln!(c, "    const long long nv = a.n / {vw};");
        let _ = writeln!(c, "    for (long long j = FZ_TID; j < nv; j += FZ_NT) {{");
        for (q, t) in leaf_t.iter().enumerate() {
            match s.access[q] {
                Access::Contig => {
                    let _ = writeln!(
                        c,
                        "        const FzPack<{t}, {vw}> q_{q} = fz_load<{t}, {vw}>(p_{q}, j);"
                    );
                }
                _ => {
                    let _ = writeln!(c, "        const {t} u_{q} = p_{q}[0];");
                }
            }
        }
        let args: Vec<String> = (0..u)
            .map(|q| match s.access[q] {
                Access::Contig => format!("q_{q}.v[e]"),
                _ => format!("u_{q}"),
            })
            .collect();
        let _ = writeln!(
            c,
            "        FzPack<{out_t}, {vw}> o;\n#pragma unroll\n        for (int e = 0; e < {vw}; ++e) o.v[e] = f({});",
            args.join(", ")
        );
        let _ = writeln!(
            c,
            "        ((typename fz_word<(int)sizeof({out_t}) * {vw}>::type*)out)[j] = o.raw;\n    }}"
        );
        let args: Vec<String> = (0..u).map(|q| read(q, "i")).collect();
        let _ = writeln!(
            c,
            "    for (long long i = nv * {vw} + FZ_TID; i < a.n; i += FZ_NT) out[i] = f({});",
            args.join(", ")
        );
    } else {
        c.push_str("    auto body = [&](auto i) {\n");
        c.push_str(&offsets(nstrided, s.nd));
        let args: Vec<String> = (0..u).map(|q| read(q, "i")).collect();
        let at = if s.out_strided { "o_0" } else { "i" };
        let _ = writeln!(c, "        out[{at}] = f({});\n    }};", args.join(", "));
        let _ = write!(
            c,
            "    if ({}) {{\n        const unsigned nt = (unsigned)FZ_NT;\n        \
             for (unsigned i = (unsigned)FZ_TID; i < (unsigned)a.n; i += nt) body(i);\n    }} else {{\n        \
             for (long long i = FZ_TID; i < a.n; i += FZ_NT) body(i);\n    }}\n",
            narrow_index(s)
        );
    }
    c.push_str("}\n");
    cuprite_kernels::program(
        &[
            cuprite_kernels::elementwise::OPS,
            cuprite_kernels::fused::SOURCE,
            &c,
        ],
        &[],
    )
}

/// A reduction of the expression's elements, fused as its epilogue.
pub(super) struct Reduction<'a> {
    /// The op's device functor of reduce_ops.cuh (`red_<NAME>`).
    pub functor: &'a str,
    /// The op's output type (the reduced type is the expression's).
    pub out: DType,
    /// The plain kernel whose tasks and folds the program's kernel `fused_red` has.
    pub kernel: FusedKernel,
}

/// The module key of a fused reduction: the expression's structure and the op's.
pub(super) fn reduce_key(s: &Shape, r: &Reduction) -> String {
    let k = match r.kernel {
        FusedKernel::Rows(g) => format!("rows{g}"),
        FusedKernel::Cols => "cols".into(),
    };
    format!("{}|red|{}|{}|{k}", key(s), r.functor, ctype(r.out))
}

/// The fields of a fused reduction's plan, after the value slots (`super::Launch` writes
/// them in this order).
const REDUCE_FIELDS: &str = "    u64 part;\n    long long chunk;\n    long long n_chunks;\n    \
                             long long count;\n    double param;\n    Strided kept;\n    \
                             long long n_out;\n    long long rsize;\n    long long rstride;\n";

/// The CUDA C of a fused reduction: reduce.cu's reduction program for the expression's
/// type (its functor, folds and partial combines) and a kernel `fused_red` with the tasks
/// and folds of the plain kernel `r.kernel` (`rows_loaded` for `red_rows_*_flat`,
/// `cols_loaded` for `red_cols`), whose loaders compute the expression's elements where
/// the plain kernel reads them: `load1(i)` element `i` of the evaluated array, `loadv(v)`
/// its `v`-th 16-byte vector of the reduced type (a contiguous leaf read as one word when
/// `vw > 1`). Strided leaves are read at offsets computed from `i` in 32-bit arithmetic
/// where the array has fewer than 2^31 elements and the offsets fit ([`narrow_index`]).
pub(super) fn reduce_source(s: &Shape, r: &Reduction) -> String {
    let t = ctype(s.instrs.last().map_or(DType::F64, Instr::dtype));
    let u = s.access.len();
    let nstrided = strided_count(s);
    let leaf_t: Vec<&str> = s.param_t.iter().map(|&t| ctype(t)).collect();
    let mut c = args_struct(s, &format!("{REDUCE_FIELDS}{}", strided_fields(s)));
    let read = |q: usize, vec: bool| match s.access[q] {
        Access::Contig if vec && s.vw > 1 => format!("w_{q}.v[k]"),
        Access::Contig => format!("p_{q}[i]"),
        Access::Uniform => format!("p_{q}[0]"),
        Access::Strided(j) => format!("p_{q}[o_{j}]"),
    };
    c.push_str(
        "extern \"C\" __global__ void __launch_bounds__(256) fused_red(const FusedArgs a) {\n",
    );
    c.push_str(&element(s));
    // The element at index i (any integer type); with `vec`, element k of a vector whose
    // contiguous leaves were read as words.
    let at = |vec: bool| {
        let args: Vec<String> = (0..u).map(|q| read(q, vec)).collect();
        format!(
            "[&](auto i{}) {{\n{}        return f({});\n    }}",
            if vec { ", int k" } else { "" },
            offsets(nstrided, s.nd),
            args.join(", ")
        )
    };
    // A call of `f` at index i, in 32 bits where it fits (strided offsets divide).
    let call = |f: &str, extra: &str| {
        if nstrided > 0 && s.nd > 1 {
            format!(
                "{} ? {f}((unsigned)i{extra}) : {f}(i{extra})",
                narrow_index(s)
            )
        } else {
            format!("{f}(i{extra})")
        }
    };
    let _ = writeln!(c, "    auto at1 = {};", at(false));
    let _ = writeln!(
        c,
        "    auto load1 = [&](long long i) {{ return {}; }};",
        call("at1", "")
    );
    if let FusedKernel::Rows(g) = r.kernel {
        c.push_str("    auto loadv = [&](long long v) {\n        Vec16<T> q;\n");
        for (q, lt) in leaf_t.iter().enumerate() {
            if s.access[q] == Access::Contig && s.vw > 1 {
                let vw = s.vw;
                let _ = writeln!(
                    c,
                    "        const FzPack<{lt}, {vw}> w_{q} = fz_load<{lt}, {vw}>(p_{q}, v);"
                );
            }
        }
        // Element k of the vector at index i: the words above are its contiguous leaves.
        let _ = writeln!(c, "        auto atv = {};", at(true));
        let narrow = call("atv", ", k");
        let _ = writeln!(
            c,
            "#pragma unroll\n        for (int k = 0; k < 16 / (int)sizeof(T); ++k) {{\n            \
             const long long i = v * (16 / (int)sizeof(T)) + k;\n            \
             q.v[k] = {narrow};\n        }}\n        return q;\n    }};"
        );
        let _ = writeln!(
            c,
            "    rows_loaded<{g}>(loadv, load1, (OUT*)a.out, (Acc*)a.part, a.kept, a.n_out, a.rsize, \
             a.chunk, a.n_chunks, a.count, a.param);\n}}"
        );
    } else {
        c.push_str(
            "    cols_loaded(load1, (OUT*)a.out, (Acc*)a.part, a.kept, a.rstride, a.n_out, a.rsize, \
             a.chunk, a.n_chunks, a.count, a.param);\n}\n",
        );
    }
    let defines = format!(
        "#define {} 1\n#define T {t}\n#define OUT {}\n#define OP {}\n",
        cuprite_kernels::reduce::REDUCE_SECTION,
        ctype(r.out),
        r.functor
    );
    cuprite_kernels::program(
        &[
            cuprite_kernels::elementwise::OPS,
            cuprite_kernels::fused::SOURCE,
            &defines,
            cuprite_kernels::reduce::OPS,
            cuprite_kernels::reduce::SOURCE,
            &c,
        ],
        &[],
    )
}
