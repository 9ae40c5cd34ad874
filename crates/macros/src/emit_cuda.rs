//! The GPU translation: the checked kernel as one CUDA C device function,
//! `__device__ __forceinline__ OUT rk_body(A0 name_0, ...)`, for the runtime to wrap in its
//! grid-stride kernels. It relies on common.cuh (element type names, `cast<To>`, which has
//! Rust's `as` semantics, the `f16`/`bf16` structs whose operators compute in f32 and round
//! once) and the prelude of crates/cuda/src/map_kernel.rs (`rk_add` and the other integer
//! helpers with wrapping and zero-divisor semantics, float helpers). A math method of a
//! 16-bit float is the f32 function of its widened arguments, rounded once:
//! `f16(sqrtf((float)x))`; `abs` and the predicates work on the bits.
//!
//! Rust's expressions with blocks (`if` with statements in its branches, blocks as values)
//! become statements before the expression that uses them, with their values in temporaries
//! `rk_tN`; operands evaluated earlier are saved first so the order of evaluation stays
//! Rust's (left to right).

use crate::halfs;
use crate::ir::{BinOp, Block, Expr, ExprKind, Kernel, Lit, Stmt, UnOp};
use crate::methods::{self, Arg, Cuda};
use crate::ty::Ty;

/// Translates a checked kernel to its CUDA device function.
pub fn device_function(k: &Kernel) -> String {
    let mut e = CudaEmit {
        k,
        lines: Vec::new(),
        depth: 1,
        tmp: 0,
    };
    let params: Vec<String> = (0..k.params)
        .map(|i| format!("{} {}", e.var_ty(i).cuda(), e.name(i)))
        .collect();
    let value = e.block_inner(&k.body);
    let mut s = format!(
        "__device__ __forceinline__ {} rk_body({}) {{\n",
        k.output.cuda(),
        params.join(", ")
    );
    for l in &e.lines {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(&format!("    return {value};\n}}\n"));
    s
}

/// A float value of type `ty` as CUDA C (exact: the shortest round-trip decimal, or the bit
/// pattern for infinities and NaN and for every value of a 16-bit float, rounded to it here
/// as [`halfs`] says).
fn float_c(v: f64, ty: Ty) -> String {
    if ty.is_half() {
        return format!("{}::from_bits(0x{:04x})", ty.cuda(), halfs::bits(v, ty));
    }
    let f32 = ty == Ty::F32;
    if v.is_nan() {
        return if f32 {
            "__int_as_float(0x7fc00000)".into()
        } else {
            "__longlong_as_double(0x7ff8000000000000LL)".into()
        };
    }
    if v.is_infinite() {
        return match (f32, v > 0.0) {
            (true, true) => "__int_as_float(0x7f800000)".into(),
            (true, false) => "__int_as_float((int)0xff800000u)".into(),
            (false, true) => "__longlong_as_double(0x7ff0000000000000LL)".into(),
            (false, false) => "__longlong_as_double((long long)0xfff0000000000000ULL)".into(),
        };
    }
    let mag = if f32 {
        format!("{:?}f", (v as f32).abs())
    } else {
        format!("{:?}", v.abs())
    };
    if v.is_sign_negative() {
        format!("(-{mag})")
    } else {
        mag
    }
}

/// An integer of type `ty` as CUDA C, typed exactly (so template helpers deduce it).
fn int_c(v: i128, ty: Ty) -> String {
    match ty {
        Ty::I8 | Ty::U8 | Ty::I16 | Ty::U16 if v < 0 => format!("(({})({v}))", ty.cuda()),
        Ty::I8 | Ty::U8 | Ty::I16 | Ty::U16 => format!("(({}){v})", ty.cuda()),
        Ty::I32 if v == i32::MIN as i128 => "(-2147483647 - 1)".into(),
        Ty::I64 if v == i64::MIN as i128 => "(-9223372036854775807LL - 1)".into(),
        Ty::I64 if v < 0 => format!("(-{}LL)", -v),
        Ty::I64 => format!("{v}LL"),
        Ty::U32 => format!("{v}u"),
        Ty::U64 => format!("{v}ULL"),
        _ if v < 0 => format!("(-{})", -v),
        _ => v.to_string(),
    }
}

/// A literal of final type `ty` as CUDA C, typed exactly (so template helpers deduce it).
pub fn lit_c(l: &Lit, ty: Ty) -> String {
    match (l, ty) {
        (Lit::Bool(b), _) => b.to_string(),
        (Lit::Int(v), _) => int_c(*v, ty),
        (Lit::FloatText(t), Ty::F32) => {
            float_c(t.parse::<f32>().map(f64::from).unwrap_or(f64::NAN), ty)
        }
        (Lit::FloatText(t), _) => float_c(t.parse::<f64>().unwrap_or(f64::NAN), ty),
        (Lit::Float(v), _) => float_c(*v, ty),
    }
}

struct CudaEmit<'a> {
    k: &'a Kernel,
    lines: Vec<String>,
    depth: usize,
    tmp: usize,
}

impl CudaEmit<'_> {
    fn var_ty(&self, id: usize) -> Ty {
        self.k.ty(self.k.vars[id].ty).expect("element variable")
    }

    fn ty(&self, e: &Expr) -> Option<Ty> {
        self.k.ty(e.ty)
    }

    /// The C name of variable `id`: its Rust name and number (`x_0`), unique per binding.
    fn name(&self, id: usize) -> String {
        let s = self.k.vars[id].name.to_string();
        let s = s.strip_prefix("r#").unwrap_or(&s);
        if s.starts_with('_') || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            format!("v{id}")
        } else {
            format!("{s}_{id}")
        }
    }

    fn push(&mut self, line: String) {
        self.lines
            .push(format!("{}{line}", "    ".repeat(self.depth)));
    }

    /// A new temporary holding `value`.
    fn temp(&mut self, ty: Ty, value: &str) -> String {
        let t = format!("rk_t{}", self.tmp);
        self.tmp += 1;
        self.push(format!("const {} {t} = {value};", ty.cuda()));
        t
    }

    /// A new uninitialised temporary of type `ty`.
    fn slot(&mut self, ty: Ty) -> String {
        let t = format!("rk_t{}", self.tmp);
        self.tmp += 1;
        self.push(format!("{} {t};", ty.cuda()));
        t
    }

    /// Runs `f` one level deeper, returning its value and the lines it produced.
    fn capture<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> (R, Vec<String>) {
        let saved = std::mem::take(&mut self.lines);
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        (r, std::mem::replace(&mut self.lines, saved))
    }

    /// Runs `f` at this level, returning its value and the lines it produced.
    fn capture_here<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> (R, Vec<String>) {
        let saved = std::mem::take(&mut self.lines);
        let r = f(self);
        (r, std::mem::replace(&mut self.lines, saved))
    }

    /// The values of `es`, evaluated left to right: when an operand needs statements, the
    /// operands before it are saved in temporaries first.
    fn operands(&mut self, es: &[&Expr]) -> Vec<String> {
        let mut out: Vec<(String, Option<Ty>, bool)> = Vec::new();
        for e in es {
            let (s, lines) = self.capture_here(|me| me.expr(e));
            if !lines.is_empty() {
                for o in out.iter_mut() {
                    if let (false, Some(ty)) = (o.2, o.1) {
                        o.0 = self.temp(ty, &o.0.clone());
                        o.2 = true;
                    }
                }
                self.lines.extend(lines);
            }
            let fixed = matches!(e.kind, ExprKind::Lit(_));
            out.push((s, self.ty(e), fixed));
        }
        out.into_iter().map(|o| o.0).collect()
    }

    /// Emits a block's statements here; returns its value (empty for unit).
    fn block_inner(&mut self, b: &Block) -> String {
        for s in &b.stmts {
            self.stmt(s);
        }
        match &b.tail {
            Some(t) => self.expr(t),
            None => String::new(),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let(id, e) => {
                let v = self.expr(e);
                let line = format!("{} {} = {v};", self.var_ty(*id).cuda(), self.name(*id));
                self.push(line);
            }
            Stmt::Assign(id, op, e) => {
                let v = self.expr(e);
                let name = self.name(*id);
                let value = match op {
                    None => v,
                    Some(op) => {
                        let rt = self.ty(e).expect("element value");
                        self.binary(*op, self.var_ty(*id), rt, &name, &v)
                    }
                };
                self.push(format!("{name} = {value};"));
            }
            Stmt::Expr(e) => {
                // Expressions have no effects of their own: only their statements matter.
                self.expr(e);
            }
        }
    }

    fn binary(&self, op: BinOp, lt: Ty, _rt: Ty, l: &str, r: &str) -> String {
        let sym = op.symbol();
        let int = lt.is_int();
        match op {
            // The structs' operators compute in f32 and round once; fmod is exact in f32.
            BinOp::Rem if lt.is_half() => format!("{}(fmodf((float){l}, (float){r}))", lt.cuda()),
            BinOp::Add if int => format!("rk_add({l}, {r})"),
            BinOp::Sub if int => format!("rk_sub({l}, {r})"),
            BinOp::Mul if int => format!("rk_mul({l}, {r})"),
            BinOp::Div if int => format!("rk_div({l}, {r})"),
            BinOp::Rem if int => format!("rk_rem({l}, {r})"),
            BinOp::Rem if lt == Ty::F32 => format!("fmodf({l}, {r})"),
            BinOp::Rem => format!("fmod({l}, {r})"),
            BinOp::Shl => format!("rk_shl({l}, (u32)({r}))"),
            BinOp::Shr => format!("rk_shr({l}, (u32)({r}))"),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor if lt.promotes_in_c() => {
                format!("(({})({l} {sym} {r}))", lt.cuda())
            }
            _ => format!("({l} {sym} {r})"),
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Lit(l) => lit_c(l, self.ty(e).expect("typed literal")),
            ExprKind::Var(id) => self.name(*id),
            ExprKind::Unary(op, x) => {
                let t = self.ty(x).expect("element operand");
                let xs = self.expr(x);
                match (op, t.is_int()) {
                    (UnOp::Neg, true) => format!("rk_neg({xs})"),
                    (UnOp::Neg, false) => format!("(-{xs})"),
                    (UnOp::Not, true) => format!("rk_not({xs})"),
                    (UnOp::Not, false) => format!("(!{xs})"),
                }
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), l, r) => {
                let ls = self.expr(l);
                let (rs, lines) = self.capture(|me| me.expr(r));
                if lines.is_empty() {
                    return format!("({ls} {} {rs})", op.symbol());
                }
                let t = self.temp_mut(Ty::Bool, &ls);
                let test = if *op == BinOp::And {
                    t.clone()
                } else {
                    format!("!{t}")
                };
                self.push(format!("if ({test}) {{"));
                self.lines.extend(lines);
                self.push(format!("    {t} = {rs};"));
                self.push("}".into());
                t
            }
            ExprKind::Binary(op, l, r) => {
                let (lt, rt) = (self.ty(l).expect("operand"), self.ty(r).expect("operand"));
                let v = self.operands(&[l, r]);
                self.binary(*op, lt, rt, &v[0], &v[1])
            }
            ExprKind::Cast(x, to) => {
                let xs = self.expr(x);
                format!("cast<{}>({xs})", to.cuda())
            }
            ExprKind::Method(m, args) => {
                let ty = self.ty(&args[0]).expect("receiver");
                let refs: Vec<&Expr> = args.iter().collect();
                let v = self.operands(&refs);
                method_c(m, ty, &v)
            }
            ExprKind::If(c, then, other) => self.if_expr(c, then, other.as_deref(), self.ty(e)),
            ExprKind::Block(b) => self.block_inner(b),
        }
    }

    /// A new temporary holding `value`, assigned again later.
    fn temp_mut(&mut self, ty: Ty, value: &str) -> String {
        let t = format!("rk_t{}", self.tmp);
        self.tmp += 1;
        self.push(format!("{} {t} = {value};", ty.cuda()));
        t
    }

    fn if_expr(&mut self, c: &Expr, then: &Block, other: Option<&Expr>, ty: Option<Ty>) -> String {
        let cs = self.expr(c);
        let (ts, tl) = self.capture(|me| me.block_inner(then));
        let (os, ol) = match other {
            Some(o) => self.capture(|me| me.expr(o)),
            None => (String::new(), Vec::new()),
        };
        if let (Some(_), true, true) = (ty, tl.is_empty(), ol.is_empty()) {
            return format!("({cs} ? {ts} : {os})");
        }
        let slot = ty.map(|t| self.slot(t));
        self.push(format!("if ({cs}) {{"));
        self.lines.extend(tl);
        if let Some(s) = &slot {
            self.push(format!("    {s} = {ts};"));
        }
        if other.is_some() {
            self.push("} else {".into());
            self.lines.extend(ol);
            if let Some(s) = &slot {
                self.push(format!("    {s} = {os};"));
            }
        }
        self.push("}".into());
        slot.unwrap_or_default()
    }
}

/// A math method call in CUDA C, for receiver type `ty` and argument values `v`.
fn method_c(m: &methods::Method, ty: Ty, v: &[String]) -> String {
    if ty.is_half() && !m.on_bits() {
        // The f32 method of the widened arguments (powi's exponent stays i32), rounded.
        let wants = std::iter::once(&Arg::Same).chain(m.args);
        let wide: Vec<String> = v
            .iter()
            .zip(wants)
            .map(|(a, want)| match want {
                Arg::Same => format!("(float){a}"),
                Arg::I32 => a.clone(),
            })
            .collect();
        return format!("{}({})", ty.cuda(), method_c(m, Ty::F32, &wide));
    }
    let args = v.join(", ");
    match m.cuda {
        Cuda::Libm(name) if ty.is_float() => {
            let f = if ty == Ty::F32 { "f" } else { "" };
            format!("{name}{f}({args})")
        }
        Cuda::Libm(name) => format!("{name}({args})"),
        Cuda::Helper(name) => format!("{name}({args})"),
        Cuda::Recip => format!("({} / {})", float_c(1.0, ty), v[0]),
        Cuda::ToDegrees => format!("({} * {})", v[0], float_c(methods::degrees_factor(ty), ty)),
        Cuda::ToRadians => format!("({} * {})", v[0], float_c(methods::radians_factor(ty), ty)),
    }
}
