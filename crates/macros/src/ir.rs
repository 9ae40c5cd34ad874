//! The checked form of a kernel: expressions and statements of the subset, each expression
//! with its type term, variables numbered (shadowing gives a new variable), literals kept
//! exact until their types are final.

use crate::methods::Method;
use crate::ty::{Tm, Ty, Vars};
use proc_macro2::{Ident, Span};

/// A variable: a parameter or a `let` binding.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: Ident,
    pub ty: Tm,
    pub mutable: bool,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

/// Binary operators (the compound assignments use the arithmetic and bit ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    /// The operator as written in Rust and C (the same text for every operator here).
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// A literal value. Integers are kept wide (a negated literal is folded into one, so
/// `-2147483648_i32` is representable); floats as written, or as an exact value for named
/// constants.
#[derive(Clone, Debug)]
pub enum Lit {
    Bool(bool),
    Int(i128),
    /// The decimal text of a float literal (without suffix or underscores).
    FloatText(String),
    /// An exact value (named constants; an `f32` constant holds its `f32` value).
    Float(f64),
}

/// An expression with its type.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Tm,
    pub span: Span,
}

/// The expression forms of the subset.
#[derive(Clone, Debug)]
pub enum ExprKind {
    Lit(Lit),
    Var(usize),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cast(Box<Expr>, Ty),
    /// A method of the math set; the receiver is the first argument.
    Method(&'static Method, Vec<Expr>),
    /// `if cond { then } else { other }`; `other` is a block or another `if`.
    If(Box<Expr>, Block, Option<Box<Expr>>),
    Block(Block),
}

/// A block: statements and an optional value.
#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub tail: Option<Box<Expr>>,
    pub ty: Tm,
}

/// The statement forms of the subset.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `let [mut] x[: T] = init;` (the variable's number and its initial value).
    Let(usize, Expr),
    /// `x = value;` or `x op= value;`.
    Assign(usize, Option<BinOp>, Expr),
    /// An expression evaluated for its effects (an `if` or a block with assignments).
    Expr(Expr),
}

/// A checked kernel: parameters (variables `0..params`), result type and body.
#[derive(Debug)]
pub struct Kernel {
    pub vars: Vec<Var>,
    pub params: usize,
    pub output: Ty,
    pub body: Block,
    pub types: Vars,
}

impl Kernel {
    /// The final element type of a term (literals defaulted; `None` for unit).
    pub fn ty(&self, t: Tm) -> Option<Ty> {
        self.types.ty(t)
    }

    /// The parameter types.
    pub fn inputs(&self) -> Vec<Ty> {
        self.vars[..self.params]
            .iter()
            .map(|v| self.ty(v.ty).expect("parameters have element types"))
            .collect()
    }
}
