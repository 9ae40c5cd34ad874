//! The type checker of the kernel subset: turns the parsed Rust of a kernel into the checked
//! [`Kernel`], inferring the types of unsuffixed literals and unannotated `let`s as Rust
//! does (literals take the type of the other operand; `{integer}` defaults to i32 and
//! `{float}` to f64), and rejecting everything outside the subset with an error at its span.

use crate::halfs;
use crate::ir::{BinOp, Block, Expr, ExprKind, Kernel, Lit, Stmt, UnOp, Var};
use crate::methods;
use crate::ty::{LitKind, Tm, Ty, Vars, TYPE_LIST};
use proc_macro2::{Ident, Span};
use syn::spanned::Spanned;

/// What a kernel may contain, appended to the errors about what it may not.
pub const ALLOWED: &str = "a cuprite kernel may use: parameters and `let` bindings of bool, i8, \
    u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64; literals; arithmetic `+ - * / %`, \
    unary `-` and `!`, comparisons, `&& ||`, bit operators `& | ^ << >>`; `if`/`else`; blocks; \
    assignments to `let mut` variables; `as` casts; the constants (`f32::consts::PI`, \
    `f32::INFINITY`, `u64::MAX`, ...) and the math methods";

fn err<T>(span: Span, what: impl std::fmt::Display) -> syn::Result<T> {
    Err(syn::Error::new(span, format!("{what}; {ALLOWED}")))
}

fn plain_err<T>(span: Span, msg: impl std::fmt::Display) -> syn::Result<T> {
    Err(syn::Error::new(span, msg.to_string()))
}

/// Checks a kernel: its parameters `(name, type, mutable)`, its declared result type (if
/// written) and its body.
pub fn check_kernel(
    params: Vec<(Ident, Ty, bool)>,
    output: Option<(Ty, Span)>,
    body: &syn::Expr,
    span: Span,
) -> syn::Result<Kernel> {
    if params.is_empty() || params.len() > 4 {
        return plain_err(
            span,
            format!(
                "a cuprite kernel takes 1 to 4 inputs (this one takes {})",
                params.len()
            ),
        );
    }
    let mut c = Checker::default();
    c.scopes.push(Vec::new());
    for (name, ty, mutable) in &params {
        let key = name.to_string();
        if c.scopes[0].iter().any(|(n, _)| *n == key) {
            return plain_err(name.span(), format!("duplicate parameter `{key}`"));
        }
        c.declare(name.clone(), Tm::Ty(*ty), *mutable);
    }
    let body = match body {
        syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => c.block(&b.block)?,
        e => {
            let e = c.expr(e)?;
            Block {
                stmts: Vec::new(),
                ty: e.ty,
                tail: Some(Box::new(e)),
            }
        }
    };
    let result_span = body.tail.as_ref().map(|t| t.span).unwrap_or(span);
    let output = match output {
        Some((ty, _)) => {
            c.types.unify(body.ty, Tm::Ty(ty), result_span)?;
            ty
        }
        None => match c.types.ty(body.ty) {
            Some(ty) => {
                c.types.unify(body.ty, Tm::Ty(ty), result_span)?;
                ty
            }
            None => {
                return plain_err(
                    result_span,
                    "a cuprite kernel returns one element value: end its body with an \
                     expression",
                )
            }
        },
    };
    let k = Kernel {
        vars: c.vars,
        params: params.len(),
        output,
        body,
        types: c.types,
    };
    validate_block(&k, &k.body)?;
    Ok(k)
}

/// The checker's state: variables, lexical scopes, type variables.
#[derive(Default)]
struct Checker {
    vars: Vec<Var>,
    scopes: Vec<Vec<(String, usize)>>,
    types: Vars,
}

/// Strips a raw identifier's `r#`.
fn ident_key(i: &Ident) -> String {
    let s = i.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}

fn mk(kind: ExprKind, ty: Tm, span: Span) -> Expr {
    Expr { kind, ty, span }
}

impl Checker {
    fn declare(&mut self, name: Ident, ty: Tm, mutable: bool) -> usize {
        let id = self.vars.len();
        let key = ident_key(&name);
        self.vars.push(Var { name, ty, mutable });
        self.scopes.last_mut().expect("a scope").push((key, id));
        id
    }

    fn lookup(&self, name: &Ident) -> Option<usize> {
        let key = ident_key(name);
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.iter().rev().find(|(n, _)| *n == key).map(|(_, id)| *id))
    }

    fn block(&mut self, b: &syn::Block) -> syn::Result<Block> {
        self.scopes.push(Vec::new());
        let r = self.block_inner(b);
        self.scopes.pop();
        r
    }

    fn block_inner(&mut self, b: &syn::Block) -> syn::Result<Block> {
        let mut stmts = Vec::new();
        let mut tail = None;
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            match s {
                syn::Stmt::Local(l) => stmts.push(self.local(l)?),
                syn::Stmt::Expr(e, semi) => {
                    if let Some(a) = self.assignment(e)? {
                        stmts.push(a);
                        continue;
                    }
                    let x = self.expr(e)?;
                    if semi.is_none() && i + 1 == n {
                        tail = Some(Box::new(x));
                    } else {
                        if semi.is_none() {
                            self.types.unify(x.ty, Tm::Unit, x.span)?;
                        }
                        stmts.push(Stmt::Expr(x));
                    }
                }
                syn::Stmt::Item(it) => return err(
                    it.span(),
                    "items (fn, struct, use, const, ...) are not allowed inside a cuprite kernel",
                ),
                syn::Stmt::Macro(m) => {
                    return err(m.span(), "macros are not supported in a cuprite kernel")
                }
            }
        }
        let ty = tail.as_ref().map(|t| t.ty).unwrap_or(Tm::Unit);
        Ok(Block { stmts, tail, ty })
    }

    fn local(&mut self, l: &syn::Local) -> syn::Result<Stmt> {
        if !l.attrs.is_empty() {
            return err(
                l.attrs[0].span(),
                "attributes are not supported in a cuprite kernel",
            );
        }
        let (pat, annot) = match &l.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(Ty::parse(&pt.ty)?)),
            p => (p, None),
        };
        let (name, mutable) = match pat {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                (pi.ident.clone(), pi.mutability.is_some())
            }
            p => {
                return err(
                    p.span(),
                    "patterns are not supported in a cuprite kernel's `let`: bind one name \
                     (`let x = ...;` or `let mut x: f32 = ...;`)",
                )
            }
        };
        let Some(init) = &l.init else {
            return err(
                l.span(),
                "a `let` in a cuprite kernel needs an initial value (`let x = ...;`)",
            );
        };
        if let Some((_, d)) = &init.diverge {
            return err(
                d.span(),
                "`let ... else` is not supported in a cuprite kernel",
            );
        }
        let value = self.expr(&init.expr)?;
        if let Some(t) = annot {
            self.types.unify(value.ty, Tm::Ty(t), value.span)?;
        }
        if self.types.resolve(value.ty) == Tm::Unit {
            return plain_err(
                value.span,
                "a `let` in a cuprite kernel binds an element value, not `()`",
            );
        }
        let id = self.declare(name, value.ty, mutable);
        Ok(Stmt::Let(id, value))
    }

    /// `x = e` or `x op= e` as a statement, or `None` for other expressions.
    fn assignment(&mut self, e: &syn::Expr) -> syn::Result<Option<Stmt>> {
        let (target, op, value) = match e {
            syn::Expr::Assign(a) => (&*a.left, None, &*a.right),
            syn::Expr::Binary(b) => match compound(&b.op) {
                Some(op) => (&*b.left, Some(op), &*b.right),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let id = match target {
            syn::Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                let name = p.path.get_ident().expect("checked");
                self.lookup(name).ok_or_else(|| {
                    syn::Error::new(
                        name.span(),
                        format!("cannot find variable `{name}` in this kernel"),
                    )
                })?
            }
            t => {
                return err(
                    t.span(),
                    "only a variable can be assigned to in a cuprite kernel",
                )
            }
        };
        if !self.vars[id].mutable {
            let name = &self.vars[id].name;
            return plain_err(
                target.span(),
                format!(
                    "cannot assign to immutable variable `{name}`: declare it `let mut {name}`"
                ),
            );
        }
        let v = self.expr(value)?;
        let vt = self.vars[id].ty;
        match op {
            None => {
                self.types.unify(vt, v.ty, v.span)?;
            }
            Some(op) => {
                self.operands(op, vt, v.ty, e.span())?;
            }
        }
        Ok(Some(Stmt::Assign(id, op, v)))
    }

    /// Checks the operand types of a binary operator; returns the result type.
    fn operands(&mut self, op: BinOp, l: Tm, r: Tm, span: Span) -> syn::Result<Tm> {
        let sym = op.symbol();
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let t = self.types.unify(l, r, span)?;
                if !self.numeric(t) {
                    return plain_err(
                        span,
                        format!("`{sym}` is not defined for {}", self.types.show(t)),
                    );
                }
                Ok(t)
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                let t = self.types.unify(l, r, span)?;
                if !self.bitwise(t) {
                    return plain_err(
                        span,
                        format!(
                            "`{sym}` needs integer or bool operands, not {}",
                            self.types.show(t)
                        ),
                    );
                }
                Ok(t)
            }
            BinOp::Shl | BinOp::Shr => {
                for t in [l, r] {
                    if !self.integer(t) {
                        return plain_err(
                            span,
                            format!("`{sym}` needs integer operands, not {}", self.types.show(t)),
                        );
                    }
                }
                Ok(l)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let t = self.types.unify(l, r, span)?;
                if t == Tm::Unit {
                    return plain_err(span, format!("`{sym}` compares element values, not `()`"));
                }
                Ok(Tm::Ty(Ty::Bool))
            }
            BinOp::And | BinOp::Or => {
                self.types.unify(l, Tm::Ty(Ty::Bool), span)?;
                self.types.unify(r, Tm::Ty(Ty::Bool), span)?;
                Ok(Tm::Ty(Ty::Bool))
            }
        }
    }

    fn numeric(&self, t: Tm) -> bool {
        match self.types.resolve(t) {
            Tm::Ty(ty) => ty != Ty::Bool,
            Tm::Var(_) => true,
            Tm::Unit => false,
        }
    }

    fn integer(&self, t: Tm) -> bool {
        match self.types.resolve(t) {
            Tm::Ty(ty) => ty.is_int(),
            Tm::Var(_) => self.types.kind(t) == Some(LitKind::Int),
            Tm::Unit => false,
        }
    }

    fn bitwise(&self, t: Tm) -> bool {
        self.integer(t) || self.types.known(t) == Some(Ty::Bool)
    }

    fn expr(&mut self, e: &syn::Expr) -> syn::Result<Expr> {
        let span = e.span();
        match e {
            syn::Expr::Lit(l) if l.attrs.is_empty() => self.lit(&l.lit),
            syn::Expr::Paren(p) => self.expr(&p.expr),
            syn::Expr::Group(g) => self.expr(&g.expr),
            syn::Expr::Path(p) if p.qself.is_none() => {
                if let Some(name) = p.path.get_ident() {
                    let id = self.lookup(name).ok_or_else(|| {
                        syn::Error::new(
                            name.span(),
                            format!("cannot find variable `{name}` in this kernel (a kernel sees only its parameters and its own `let`s)"),
                        )
                    })?;
                    Ok(mk(ExprKind::Var(id), self.vars[id].ty, span))
                } else {
                    let (ty, lit) = crate::consts::resolve(&p.path)?;
                    Ok(mk(ExprKind::Lit(lit), Tm::Ty(ty), span))
                }
            }
            syn::Expr::Unary(u) => self.unary(u),
            syn::Expr::Binary(b) => {
                let Some(op) = binop(&b.op) else {
                    return err(
                        span,
                        "a compound assignment (`+=`, ...) is only allowed as a statement",
                    );
                };
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                let ty = self.operands(op, l.ty, r.ty, span)?;
                Ok(mk(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty, span))
            }
            syn::Expr::Cast(c) => self.cast(c),
            syn::Expr::MethodCall(m) => {
                if let Some(t) = &m.turbofish {
                    return err(t.span(), "generic arguments are not supported in a cuprite kernel");
                }
                let mut args = vec![self.expr(&m.receiver)?];
                for a in &m.args {
                    args.push(self.expr(a)?);
                }
                self.method(&m.method, args, span)
            }
            syn::Expr::Call(c) => self.assoc_call(c),
            syn::Expr::If(i) => self.if_expr(i),
            syn::Expr::Block(b) if b.label.is_none() => {
                let blk = self.block(&b.block)?;
                let ty = blk.ty;
                Ok(mk(ExprKind::Block(blk), ty, span))
            }
            syn::Expr::Assign(_) => err(span, "an assignment is only allowed as a statement"),
            syn::Expr::ForLoop(_) | syn::Expr::While(_) | syn::Expr::Loop(_) => err(
                span,
                "loops are not supported in a cuprite kernel (it computes one element from its inputs)",
            ),
            syn::Expr::Closure(_) => err(span, "closures are not supported inside a cuprite kernel"),
            syn::Expr::Macro(_) => err(span, "macros are not supported in a cuprite kernel"),
            syn::Expr::Reference(_) => err(span, "references are not supported in a cuprite kernel"),
            syn::Expr::Return(_) | syn::Expr::Break(_) | syn::Expr::Continue(_) => err(
                span,
                "early exits (`return`, `break`, `continue`) are not supported in a cuprite kernel; make the value the block's last expression",
            ),
            syn::Expr::Match(_) => err(span, "`match` is not supported in a cuprite kernel; use `if`/`else`"),
            syn::Expr::Let(_) => err(span, "`if let` and patterns are not supported in a cuprite kernel"),
            syn::Expr::Index(_) => err(span, "indexing is not supported in a cuprite kernel (inputs are elements)"),
            syn::Expr::Field(_) | syn::Expr::Tuple(_) | syn::Expr::Array(_) | syn::Expr::Struct(_) | syn::Expr::Repeat(_) => err(
                span,
                "tuples, arrays, structs and fields are not supported in a cuprite kernel",
            ),
            syn::Expr::Unsafe(_) => err(span, "`unsafe` is not supported in a cuprite kernel"),
            _ => err(span, "this expression is not supported in a cuprite kernel"),
        }
    }

    fn lit(&mut self, l: &syn::Lit) -> syn::Result<Expr> {
        let span = l.span();
        match l {
            syn::Lit::Bool(b) => Ok(mk(
                ExprKind::Lit(Lit::Bool(b.value)),
                Tm::Ty(Ty::Bool),
                span,
            )),
            syn::Lit::Int(i) => {
                let suffix = i.suffix();
                if let Some(ty) = Ty::from_name(suffix).filter(|t| t.is_float()) {
                    let text = i.base10_digits().to_string();
                    return Ok(mk(ExprKind::Lit(Lit::FloatText(text)), Tm::Ty(ty), span));
                }
                let v: u128 = i
                    .base10_parse()
                    .map_err(|_| syn::Error::new(span, "integer literal out of range"))?;
                let ty = self.suffix_type(suffix, LitKind::Int, span)?;
                Ok(mk(ExprKind::Lit(Lit::Int(v as i128)), ty, span))
            }
            syn::Lit::Float(f) => {
                let ty = self.suffix_type(f.suffix(), LitKind::Float, span)?;
                let text = f.base10_digits().to_string();
                Ok(mk(ExprKind::Lit(Lit::FloatText(text)), ty, span))
            }
            _ => err(
                span,
                "only bool, integer and float literals are supported in a cuprite kernel",
            ),
        }
    }

    fn suffix_type(&mut self, suffix: &str, kind: LitKind, span: Span) -> syn::Result<Tm> {
        if suffix.is_empty() {
            return Ok(self.types.fresh(kind));
        }
        match Ty::from_name(suffix) {
            Some(t)
                if (kind == LitKind::Int && t.is_int())
                    || (kind == LitKind::Float && t.is_float()) =>
            {
                Ok(Tm::Ty(t))
            }
            _ => plain_err(
                span,
                format!("unsupported literal suffix `{suffix}`; the element types are {TYPE_LIST}"),
            ),
        }
    }

    fn unary(&mut self, u: &syn::ExprUnary) -> syn::Result<Expr> {
        let span = u.span();
        match u.op {
            syn::UnOp::Neg(_) => {
                let x = self.expr(&u.expr)?;
                if let (ExprKind::Lit(Lit::Int(v)), true) = (&x.kind, is_literal(&u.expr)) {
                    return Ok(mk(ExprKind::Lit(Lit::Int(-*v)), x.ty, span));
                }
                // Unsigned negation wraps (`0 - x`), as NumPy's `negative` does.
                if !self.numeric(x.ty) {
                    return plain_err(
                        span,
                        format!("cannot negate a value of type {}", self.types.show(x.ty)),
                    );
                }
                let ty = x.ty;
                Ok(mk(ExprKind::Unary(UnOp::Neg, Box::new(x)), ty, span))
            }
            syn::UnOp::Not(_) => {
                let x = self.expr(&u.expr)?;
                if !self.bitwise(x.ty) {
                    return plain_err(
                        span,
                        format!(
                            "`!` needs an integer or bool operand, not {}",
                            self.types.show(x.ty)
                        ),
                    );
                }
                let ty = x.ty;
                Ok(mk(ExprKind::Unary(UnOp::Not, Box::new(x)), ty, span))
            }
            syn::UnOp::Deref(_) => err(span, "dereferencing is not supported in a cuprite kernel"),
            _ => err(span, "this operator is not supported in a cuprite kernel"),
        }
    }

    fn cast(&mut self, c: &syn::ExprCast) -> syn::Result<Expr> {
        let span = c.span();
        let x = self.expr(&c.expr)?;
        let to = Ty::parse(&c.ty)?;
        // As in Rust, an unsuffixed literal cast to a type of its kind takes that type.
        match self.types.kind(x.ty).filter(|_| is_literal(strip(&c.expr))) {
            Some(LitKind::Int) if to.is_int() => {
                self.types.unify(x.ty, Tm::Ty(to), span)?;
            }
            Some(LitKind::Float) if to.is_float() => {
                self.types.unify(x.ty, Tm::Ty(to), span)?;
            }
            _ => {}
        }
        let from = self.types.resolve(x.ty);
        if from == Tm::Unit {
            return plain_err(span, "cannot cast `()`");
        }
        if to == Ty::Bool && from != Tm::Ty(Ty::Bool) {
            return plain_err(
                span,
                format!(
                    "cannot cast {} as bool; compare instead (`x != 0`)",
                    self.types.show(from)
                ),
            );
        }
        if from == Tm::Ty(Ty::Bool) && to.is_float() {
            return plain_err(
                span,
                format!(
                    "cannot cast bool as {0}; cast through an integer (`b as u8 as {0}`)",
                    to.rust()
                ),
            );
        }
        Ok(mk(ExprKind::Cast(Box::new(x), to), Tm::Ty(to), span))
    }

    fn method(&mut self, name: &Ident, args: Vec<Expr>, span: Span) -> syn::Result<Expr> {
        let key = name.to_string();
        let Some(m) = methods::find(&key) else {
            return plain_err(
                name.span(),
                format!(
                    "`{key}` is not a method cuprite kernels support; the math methods are: {}",
                    methods::names()
                ),
            );
        };
        let recv = &args[0];
        let ty = match self.types.resolve(recv.ty) {
            Tm::Ty(t) => t,
            Tm::Unit => return plain_err(recv.span, format!("`{key}` is not a method of `()`")),
            Tm::Var(_) => {
                return plain_err(
                    recv.span,
                    format!(
                        "can't call `{key}` on an ambiguous numeric type {}: give the literal a suffix (`2.0_f32`) or the `let` a type",
                        self.types.show(recv.ty)
                    ),
                )
            }
        };
        if !m.accepts(ty) {
            return plain_err(
                name.span(),
                format!(
                    "`{key}` is defined for {}, not {}",
                    m.receivers(),
                    ty.rust()
                ),
            );
        }
        if args.len() - 1 != m.args.len() {
            return plain_err(
                span,
                format!(
                    "`{key}` takes {} argument(s), {} given",
                    m.args.len(),
                    args.len() - 1
                ),
            );
        }
        for (a, want) in args[1..].iter().zip(m.args) {
            let t = match want {
                methods::Arg::Same => ty,
                methods::Arg::I32 => Ty::I32,
            };
            self.types.unify(a.ty, Tm::Ty(t), a.span)?;
        }
        let out = if m.predicate { Ty::Bool } else { ty };
        Ok(mk(ExprKind::Method(m, args), Tm::Ty(out), span))
    }

    /// `f32::sqrt(x)`: a method of the math set called through its type.
    fn assoc_call(&mut self, c: &syn::ExprCall) -> syn::Result<Expr> {
        let span = c.span();
        if let syn::Expr::Path(p) = &*c.func {
            let segs: Vec<_> = p.path.segments.iter().collect();
            if p.qself.is_none() && segs.len() == 2 && segs.iter().all(|s| s.arguments.is_empty()) {
                if let (Some(ty), false) =
                    (Ty::from_name(&segs[0].ident.to_string()), c.args.is_empty())
                {
                    let mut args = Vec::new();
                    for a in &c.args {
                        args.push(self.expr(a)?);
                    }
                    let recv_span = args[0].span;
                    self.types.unify(args[0].ty, Tm::Ty(ty), recv_span)?;
                    return self.method(&segs[1].ident, args, span);
                }
            }
        }
        err(
            span,
            format!("function calls are not supported in a cuprite kernel, except the math methods ({})", methods::names()),
        )
    }

    fn if_expr(&mut self, i: &syn::ExprIf) -> syn::Result<Expr> {
        let span = i.span();
        let cond = self.expr(&i.cond)?;
        self.types.unify(cond.ty, Tm::Ty(Ty::Bool), cond.span)?;
        let then = self.block(&i.then_branch)?;
        let (other, ty) = match &i.else_branch {
            Some((_, e)) => {
                let o = match &**e {
                    syn::Expr::Block(b) if b.label.is_none() => {
                        let blk = self.block(&b.block)?;
                        let ty = blk.ty;
                        mk(ExprKind::Block(blk), ty, b.span())
                    }
                    syn::Expr::If(_) => self.expr(e)?,
                    e => return err(e.span(), "expected a block or `if` after `else`"),
                };
                let ty = self.types.unify(then.ty, o.ty, o.span)?;
                (Some(Box::new(o)), ty)
            }
            None => {
                let s = then.tail.as_ref().map(|t| t.span).unwrap_or(span);
                self.types.unify(then.ty, Tm::Unit, s).map_err(|_| {
                    syn::Error::new(
                        s,
                        "an `if` without `else` cannot give a value: add an `else` branch",
                    )
                })?;
                (None, Tm::Unit)
            }
        };
        Ok(mk(ExprKind::If(Box::new(cond), then, other), ty, span))
    }
}

/// `e` without parentheses and a leading minus.
fn strip(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip(&p.expr),
        syn::Expr::Group(g) => strip(&g.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => strip(&u.expr),
        e => e,
    }
}

/// True when `e` is a literal (so `-5` folds into one literal, as Rust reads it).
fn is_literal(e: &syn::Expr) -> bool {
    matches!(e, syn::Expr::Lit(_))
}

fn binop(op: &syn::BinOp) -> Option<BinOp> {
    use syn::BinOp as S;
    Some(match op {
        S::Add(_) => BinOp::Add,
        S::Sub(_) => BinOp::Sub,
        S::Mul(_) => BinOp::Mul,
        S::Div(_) => BinOp::Div,
        S::Rem(_) => BinOp::Rem,
        S::BitAnd(_) => BinOp::BitAnd,
        S::BitOr(_) => BinOp::BitOr,
        S::BitXor(_) => BinOp::BitXor,
        S::Shl(_) => BinOp::Shl,
        S::Shr(_) => BinOp::Shr,
        S::Eq(_) => BinOp::Eq,
        S::Ne(_) => BinOp::Ne,
        S::Lt(_) => BinOp::Lt,
        S::Le(_) => BinOp::Le,
        S::Gt(_) => BinOp::Gt,
        S::Ge(_) => BinOp::Ge,
        S::And(_) => BinOp::And,
        S::Or(_) => BinOp::Or,
        _ => return None,
    })
}

fn compound(op: &syn::BinOp) -> Option<BinOp> {
    use syn::BinOp as S;
    Some(match op {
        S::AddAssign(_) => BinOp::Add,
        S::SubAssign(_) => BinOp::Sub,
        S::MulAssign(_) => BinOp::Mul,
        S::DivAssign(_) => BinOp::Div,
        S::RemAssign(_) => BinOp::Rem,
        S::BitAndAssign(_) => BinOp::BitAnd,
        S::BitOrAssign(_) => BinOp::BitOr,
        S::BitXorAssign(_) => BinOp::BitXor,
        S::ShlAssign(_) => BinOp::Shl,
        S::ShrAssign(_) => BinOp::Shr,
        _ => return None,
    })
}

/// Checks what only the final types decide: literal ranges.
fn validate_block(k: &Kernel, b: &Block) -> syn::Result<()> {
    for s in &b.stmts {
        match s {
            Stmt::Let(_, e) | Stmt::Assign(_, _, e) | Stmt::Expr(e) => validate(k, e)?,
        }
    }
    if let Some(t) = &b.tail {
        validate(k, t)?;
    }
    Ok(())
}

fn validate(k: &Kernel, e: &Expr) -> syn::Result<()> {
    match &e.kind {
        ExprKind::Lit(l) => {
            let ty = k.ty(e.ty).expect("literals have element types");
            let ok = match l {
                Lit::Bool(_) => true,
                Lit::Int(v) => match ty.int_range() {
                    Some((lo, hi)) => (lo..=hi).contains(v),
                    None => true,
                },
                Lit::FloatText(t) => match ty {
                    Ty::F32 => t.parse::<f32>().is_ok_and(f32::is_finite),
                    Ty::F16 | Ty::BF16 => t
                        .parse::<f64>()
                        .is_ok_and(|v| halfs::round(v, ty).is_finite()),
                    _ => t.parse::<f64>().is_ok_and(f64::is_finite),
                },
                Lit::Float(_) => true,
            };
            if !ok {
                let hint = match l {
                    Lit::Int(v) if *v < 0 => " (a negative literal of an unsigned type)",
                    _ => "",
                };
                return plain_err(
                    e.span,
                    format!("literal out of range for {}{hint}", ty.rust()),
                );
            }
        }
        ExprKind::Var(_) => {}
        ExprKind::Unary(_, x) => validate(k, x)?,
        ExprKind::Binary(_, l, r) => {
            validate(k, l)?;
            validate(k, r)?;
        }
        ExprKind::Cast(x, _) => validate(k, x)?,
        ExprKind::Method(_, args) => {
            for a in args {
                validate(k, a)?;
            }
        }
        ExprKind::If(c, t, o) => {
            validate(k, c)?;
            validate_block(k, t)?;
            if let Some(o) = o {
                validate(k, o)?;
            }
        }
        ExprKind::Block(b) => validate_block(k, b)?,
    }
    Ok(())
}
