//! The CPU translation: Rust code computing one element from the checked kernel, with
//! cuprite's integer semantics made explicit (wrapping `+ - *`, negation and shifts; `/` and
//! `%` through `kernel::scalar`, giving 0 for a zero divisor). Every literal is written with
//! its final type, so the code means the same in any context.

use crate::ir::{BinOp, Block, Expr, ExprKind, Kernel, Lit, Stmt, UnOp};
use crate::methods::On;
use crate::ty::Ty;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

/// Emits Rust for a kernel; `krate` is the path of the facade (`::cuprite`).
pub struct RustEmit<'a> {
    pub k: &'a Kernel,
    pub krate: &'a TokenStream,
}

/// A type's name as a token.
pub fn ty_tokens(t: Ty) -> TokenStream {
    let i = Ident::new(t.rust(), Span::call_site());
    quote!(#i)
}

/// A float value of type `ty` as a Rust expression (exact: suffixed shortest round-trip
/// literal, or the named constant for infinities and NaN).
fn float_tokens(v: f64, ty: Ty) -> TokenStream {
    let t = ty_tokens(ty);
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
    let t = ty_tokens(ty);
    let min = match ty {
        Ty::I32 => i32::MIN as i128,
        Ty::I64 => i64::MIN as i128,
        _ => 0,
    };
    if v < 0 && v == min {
        return quote!(::core::primitive::#t::MIN);
    }
    let mag = v.unsigned_abs();
    let lit = match ty {
        Ty::U8 => Literal::u8_suffixed(mag as u8),
        Ty::I32 => Literal::i32_suffixed(mag as i32),
        _ => Literal::i64_suffixed(mag as i64),
    };
    if v < 0 {
        quote!((-#lit))
    } else {
        quote!(#lit)
    }
}

/// A literal of final type `ty` (parsed from its text in that type, as rustc does).
pub fn lit_tokens(l: &Lit, ty: Ty) -> TokenStream {
    match l {
        Lit::Bool(b) => quote!(#b),
        Lit::Int(v) => int_tokens(*v, ty),
        Lit::FloatText(t) => {
            let v = match ty {
                Ty::F32 => t.parse::<f32>().map(f64::from).unwrap_or(f64::NAN),
                _ => t.parse::<f64>().unwrap_or(f64::NAN),
            };
            float_tokens(v, ty)
        }
        Lit::Float(v) => float_tokens(*v, ty),
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
                let t = ty_tokens(self.k.ty(v.ty).expect("let of an element value"));
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

    fn expr(&self, e: &Expr) -> TokenStream {
        match &e.kind {
            ExprKind::Lit(l) => lit_tokens(l, self.ty(e)),
            ExprKind::Var(id) => {
                let v = self.var(*id);
                quote!(#v)
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let xs = self.expr(x);
                if self.ty(x).is_int() {
                    quote!((#xs).wrapping_neg())
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
            ExprKind::Cast(x, to) => {
                let xs = self.expr(x);
                let t = ty_tokens(*to);
                quote!(((#xs) as #t))
            }
            ExprKind::Method(m, args) => {
                let recv_ty = self.ty(&args[0]);
                let a: Vec<TokenStream> = args.iter().map(|a| self.expr(a)).collect();
                let recv = &a[0];
                let rest = &a[1..];
                if recv_ty.is_int() && m.on != On::Float {
                    let t = ty_tokens(recv_ty);
                    return match m.name {
                        "abs" => quote!((#recv).wrapping_abs()),
                        "min" => quote!(<#t as ::core::cmp::Ord>::min(#recv, #(#rest),*)),
                        "max" => quote!(<#t as ::core::cmp::Ord>::max(#recv, #(#rest),*)),
                        _ => {
                            let name = format_ident!("{}", m.name);
                            quote!((#recv).#name())
                        }
                    };
                }
                let name = format_ident!("{}", m.name);
                quote!((#recv).#name(#(#rest),*))
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
