//! The CPU translation: Rust code computing one element from the checked kernel, with
//! cuprite's integer semantics made explicit (wrapping `+ - *`, negation and shifts; `/` and
//! `%` through `kernel::scalar`, giving 0 for a zero divisor). Every literal is written with
//! its final type, so the code means the same in any context. The 16-bit floats (the `half`
//! crate's `f16` and `bf16`, named through the facade) compute each operation in f32: the
//! operands are widened with `to_f32()` and the result rounded once with `from_f32`, as the
//! CUDA structs' operators compute; literals are their bits (`f16::from_bits(...)`).

use crate::halfs;
use crate::ir::{BinOp, Block, Expr, ExprKind, Kernel, Lit, Stmt, UnOp};
use crate::methods::{Arg, On};
use crate::ty::Ty;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

/// Emits Rust for a kernel; `krate` is the path of the facade (`::cuprite`).
pub struct RustEmit<'a> {
    pub k: &'a Kernel,
    pub krate: &'a TokenStream,
}

/// A type's name as tokens: the primitive's name, or the facade's `f16` / `bf16`.
pub fn ty_tokens(t: Ty, krate: &TokenStream) -> TokenStream {
    match t {
        Ty::F16 => quote!(#krate::f16),
        Ty::BF16 => quote!(#krate::bf16),
        _ => {
            let i = Ident::new(t.rust(), Span::call_site());
            quote!(#i)
        }
    }
}

/// A float value of type `ty` as a Rust expression (exact: suffixed shortest round-trip
/// literal, the named constant for infinities and NaN, the bits of a 16-bit float; the
/// value of a 16-bit float is rounded to it here, see [`halfs`]).
fn float_tokens(v: f64, ty: Ty, krate: &TokenStream) -> TokenStream {
    let t = ty_tokens(ty, krate);
    if ty.is_half() {
        let bits = Literal::u16_suffixed(halfs::bits(v, ty));
        return quote!(#t::from_bits(#bits));
    }
    if v.is_nan() {
        return quote!(::core::primitive::#t::NAN);
    }
    if v.is_infinite() {
        return if v > 0.0 {
            quote!(::core::primitive::#t::INFINITY)
        } else {
            quote!(::core::primitive::#t::NEG_INFINITY)
        };
    }
    let lit = match ty {
        Ty::F32 => Literal::f32_suffixed((v as f32).abs()),
        _ => Literal::f64_suffixed(v.abs()),
    };
    if v.is_sign_negative() {
        quote!((-#lit))
    } else {
        quote!(#lit)
    }
}

fn int_tokens(v: i128, ty: Ty) -> TokenStream {
    let t = Ident::new(ty.rust(), Span::call_site());
    let (lo, _) = ty.int_range().expect("an integer type");
    if v < 0 && v == lo {
        return quote!(::core::primitive::#t::MIN);
    }
    let mag = v.unsigned_abs();
    let lit = match ty {
        Ty::I8 => Literal::i8_suffixed(mag as i8),
        Ty::U8 => Literal::u8_suffixed(mag as u8),
        Ty::I16 => Literal::i16_suffixed(mag as i16),
        Ty::U16 => Literal::u16_suffixed(mag as u16),
        Ty::I32 => Literal::i32_suffixed(mag as i32),
        Ty::U32 => Literal::u32_suffixed(mag as u32),
        Ty::I64 => Literal::i64_suffixed(mag as i64),
        _ => Literal::u64_suffixed(mag as u64),
    };
    if v < 0 {
        quote!((-#lit))
    } else {
        quote!(#lit)
    }
}

/// A literal of final type `ty` (parsed from its text in that type, as rustc does; a
/// 16-bit float from the f64 value of its text).
pub fn lit_tokens(l: &Lit, ty: Ty, krate: &TokenStream) -> TokenStream {
    match l {
        Lit::Bool(b) => quote!(#b),
        Lit::Int(v) => int_tokens(*v, ty),
        Lit::FloatText(t) => {
            let v = match ty {
                Ty::F32 => t.parse::<f32>().map(f64::from).unwrap_or(f64::NAN),
                _ => t.parse::<f64>().unwrap_or(f64::NAN),
            };
            float_tokens(v, ty, krate)
        }
        Lit::Float(v) => float_tokens(*v, ty, krate),
    }
}

/// `x` (of type `from`) converted to `to` as kernels define `as`: Rust's cast between the
/// primitive types; a 16-bit float widened exactly to f32 first (so to an integer it
/// truncates and saturates, NaN giving 0); to f16 rounded once from the value (an f64
/// through `kernel::scalar::f16_from_f64`, an integer through f32, exact for every integer
/// f16 does not overflow on), to bf16 through f32.
fn cast_tokens(x: TokenStream, from: Ty, to: Ty, krate: &TokenStream) -> TokenStream {
    let t = ty_tokens(to, krate);
    if from == to {
        return quote!((#x));
    }
    let wide = if from.is_half() {
        quote!((#x).to_f32())
    } else {
        x
    };
    let from = if from.is_half() { Ty::F32 } else { from };
    match to {
        Ty::F16 if from == Ty::F64 => quote!(#krate::kernel::scalar::f16_from_f64(#wide)),
        Ty::F16 | Ty::BF16 if from == Ty::F32 => quote!(#t::from_f32(#wide)),
        Ty::F16 | Ty::BF16 => quote!(#t::from_f32((#wide) as f32)),
        _ if from == to => wide,
        _ => quote!(((#wide) as #t)),
    }
}

impl RustEmit<'_> {
    fn ty(&self, e: &Expr) -> Ty {
        self.k.ty(e.ty).expect("an element-typed expression")
    }

    fn var(&self, id: usize) -> &Ident {
        &self.k.vars[id].name
    }

    /// The kernel's body as the statements of a function block.
    pub fn body(&self) -> TokenStream {
        self.block_inner(&self.k.body)
    }

    fn block_inner(&self, b: &Block) -> TokenStream {
        let stmts = b.stmts.iter().map(|s| self.stmt(s));
        let tail = b.tail.as_ref().map(|t| self.expr(t));
        quote!(#(#stmts)* #tail)
    }

    fn stmt(&self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Let(id, e) => {
                let v = &self.k.vars[*id];
                let name = &v.name;
                let t = ty_tokens(
                    self.k.ty(v.ty).expect("let of an element value"),
                    self.krate,
                );
                let m = v.mutable.then(|| quote!(mut));
                let init = self.expr(e);
                quote!(let #m #name: #t = #init;)
            }
            Stmt::Assign(id, None, e) => {
                let name = self.var(*id);
                let v = self.expr(e);
                quote!(#name = #v;)
            }
            Stmt::Assign(id, Some(op), e) => {
                let name = self.var(*id);
                let t = self.k.ty(self.k.vars[*id].ty).expect("an element variable");
                let rhs = Ident::new("rhs", Span::mixed_site());
                let v = self.expr(e);
                let rt = self.ty(e);
                let value = self.binary(*op, t, rt, quote!(#name), quote!(#rhs));
                quote!({ let #rhs = #v; #name = #value; })
            }
            Stmt::Expr(e) => {
                let x = self.expr(e);
                quote!(#x;)
            }
        }
    }

    /// `l op r` for operands of types `lt` and `rt` (they differ only for shifts).
    fn binary(&self, op: BinOp, lt: Ty, _rt: Ty, l: TokenStream, r: TokenStream) -> TokenStream {
        let krate = self.krate;
        let int = lt.is_int();
        if lt.is_half() {
            // In f32, rounded once (comparisons are exact in f32).
            let h = ty_tokens(lt, krate);
            let sym: TokenStream = op.symbol().parse().expect("an operator");
            let wide = quote!(((#l).to_f32() #sym (#r).to_f32()));
            return match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                    quote!(#h::from_f32 #wide)
                }
                _ => wide,
            };
        }
        match op {
            BinOp::Add if int => quote!((#l).wrapping_add(#r)),
            BinOp::Sub if int => quote!((#l).wrapping_sub(#r)),
            BinOp::Mul if int => quote!((#l).wrapping_mul(#r)),
            BinOp::Div if int => quote!(#krate::kernel::scalar::div(#l, #r)),
            BinOp::Rem if int => quote!(#krate::kernel::scalar::rem(#l, #r)),
            BinOp::Shl => quote!((#l).wrapping_shl((#r) as u32)),
            BinOp::Shr => quote!((#l).wrapping_shr((#r) as u32)),
            _ => {
                let sym: TokenStream = op.symbol().parse().expect("an operator");
                quote!(((#l) #sym (#r)))
            }
        }
    }

    /// The f32 or f64 method `name` of `recv` (parenthesized) with `args`: std's method, but
    /// `asinh` and `acosh` through `kernel::scalar`, whose values do not overflow for huge
    /// arguments (std's do above half the type's largest value; the GPU's do not).
    fn float_method(&self, name: &str, recv: TokenStream, args: &[TokenStream]) -> TokenStream {
        let krate = self.krate;
        let name = format_ident!("{}", name);
        if name == "asinh" || name == "acosh" {
            return quote!(#krate::kernel::scalar::#name(#recv));
        }
        quote!(#recv.#name(#(#args),*))
    }

    fn expr(&self, e: &Expr) -> TokenStream {
        match &e.kind {
            ExprKind::Lit(l) => lit_tokens(l, self.ty(e), self.krate),
            ExprKind::Var(id) => {
                let v = self.var(*id);
                quote!(#v)
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let xs = self.expr(x);
                let t = self.ty(x);
                if t.is_int() {
                    quote!((#xs).wrapping_neg())
                } else if t.is_half() {
                    // The sign bit flipped, as Rust negates floats.
                    let h = ty_tokens(t, self.krate);
                    quote!(#h::from_bits((#xs).to_bits() ^ 0x8000u16))
                } else {
                    quote!((-(#xs)))
                }
            }
            ExprKind::Unary(UnOp::Not, x) => {
                let xs = self.expr(x);
                quote!((!(#xs)))
            }
            ExprKind::Binary(op, l, r) => {
                let (lt, rt) = (self.ty(l), self.ty(r));
                self.binary(*op, lt, rt, self.expr(l), self.expr(r))
            }
            ExprKind::Cast(x, to) => cast_tokens(self.expr(x), self.ty(x), *to, self.krate),
            ExprKind::Method(m, args) => {
                let recv_ty = self.ty(&args[0]);
                let a: Vec<TokenStream> = args.iter().map(|a| self.expr(a)).collect();
                let recv = &a[0];
                let rest = &a[1..];
                if recv_ty.is_half() {
                    let h = ty_tokens(recv_ty, self.krate);
                    let name = format_ident!("{}", m.name);
                    if m.name == "abs" {
                        return quote!(#h::from_bits((#recv).to_bits() & 0x7fffu16));
                    }
                    if m.on_bits() {
                        return quote!((#recv).#name());
                    }
                    // The f32 method of the widened arguments (powi's exponent stays i32).
                    let wide: Vec<TokenStream> = m
                        .args
                        .iter()
                        .zip(rest)
                        .map(|(want, a)| match want {
                            Arg::Same => quote!((#a).to_f32()),
                            Arg::I32 => quote!(#a),
                        })
                        .collect();
                    let f = self.float_method(m.name, quote!((#recv).to_f32()), &wide);
                    return quote!(#h::from_f32(#f));
                }
                if recv_ty.is_int() && m.on != On::Float {
                    let t = ty_tokens(recv_ty, self.krate);
                    return match m.name {
                        "abs" if recv_ty.is_signed_int() => quote!((#recv).wrapping_abs()),
                        // Unsigned values are their own absolute value.
                        "abs" => quote!((#recv)),
                        "min" => quote!(<#t as ::core::cmp::Ord>::min(#recv, #(#rest),*)),
                        "max" => quote!(<#t as ::core::cmp::Ord>::max(#recv, #(#rest),*)),
                        _ => {
                            let name = format_ident!("{}", m.name);
                            quote!((#recv).#name())
                        }
                    };
                }
                self.float_method(m.name, quote!((#recv)), rest)
            }
            ExprKind::If(c, then, other) => {
                let cs = self.expr(c);
                let ts = self.block_inner(then);
                match other {
                    Some(o) => {
                        let os = match &o.kind {
                            ExprKind::Block(b) => {
                                let b = self.block_inner(b);
                                quote!({ #b })
                            }
                            _ => {
                                let x = self.expr(o);
                                quote!({ #x })
                            }
                        };
                        quote!((if #cs { #ts } else #os))
                    }
                    None => quote!((if #cs { #ts })),
                }
            }
            ExprKind::Block(b) => {
                let b = self.block_inner(b);
                quote!({ #b })
            }
        }
    }
}
