//! Pending expressions as flat programs ([`Program`]), for backends that compile an expression
//! instead of walking its tree (the CUDA backend generates one kernel per program).
//!
//! [`lower`] numbers the distinct nodes of a tree in evaluation order, operands before the
//! ops that read them: a node shared by several ops (`x * x` where `x` is pending) is one
//! instruction read twice. Leaves are listed apart ([`LeafRef`]: a buffer of the backend,
//! type-erased, and its view), as are values that vary from call to call without changing the
//! code (scalar operands and op parameters live in the instructions, to become kernel
//! arguments), so two programs of one structure differ only in their leaves and values.
//!
//! ```
//! # use cuprite_core::fusion::expr::{Binary, BinaryScalar, Expr, Leaf};
//! # use cuprite_core::fusion::lower::{lower, Instr};
//! # use cuprite_core::ops::{Add, Mul};
//! # use cuprite_core::{BackendBase, Layout};
//! # use std::sync::Arc;
//! # fn demo<B: BackendBase>(dev: B) -> cuprite_core::Result<()> {
//! let buf = dev.from_vec(vec![1.0f64, 2.0, 3.0])?;
//! let x: Expr<f64> = Arc::new(Leaf::new(dev, buf, Layout::contiguous(&[3])));
//! let sq: Expr<f64> = Arc::new(Binary::new(Mul, x.clone(), x));
//! let e: Expr<f64> = Arc::new(BinaryScalar::new(Add, sq, 1.0, false));
//! let p = lower(&e);
//! // The leaf once, x * x, then + 1.
//! assert_eq!(p.leaves.len(), 1);
//! assert_eq!(p.instrs.len(), 3);
//! assert!(matches!(p.instrs[1], Instr::Binary { op: "multiply", a: 0, b: 0, .. }));
//! # Ok(()) }
//! # demo(cuprite_cpu::Cpu::new()).unwrap();
//! ```

use super::expr::Expr;
use crate::dtype::{DType, Element, Scalar};
use crate::layout::Layout;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

/// One leaf of a program: a buffer of the backend that made the expression (its
/// `Buffer<T>`, to downcast) read through `layout`.
#[derive(Clone, Copy)]
pub struct LeafRef<'a> {
    /// The buffer, a `B::Buffer<T>` of the expression's backend with `T` of `dtype`.
    pub buf: &'a (dyn Any + Send + Sync),
    /// The view read (the expression's shape).
    pub layout: &'a Layout,
    /// The element type.
    pub dtype: DType,
}

/// One instruction: its value at every position of the expression's shape. Operands are
/// earlier instructions, by index.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    /// The elements of leaf `leaf`.
    Leaf {
        /// Its index in [`Program::leaves`].
        leaf: usize,
        /// Its element type.
        dtype: DType,
    },
    /// One value everywhere.
    Scalar(Scalar),
    /// `op(x)`, the registry's element-wise op `op` (its `NAME`) on elements of `t`.
    Unary {
        /// The op's `NAME`.
        op: &'static str,
        /// The operand type.
        t: DType,
        /// The result type.
        out: DType,
        /// The op's `params()`.
        params: Vec<Scalar>,
        /// The operand.
        x: usize,
    },
    /// `op(a, b)`.
    Binary {
        /// The op's `NAME`.
        op: &'static str,
        /// The operand type.
        t: DType,
        /// The result type.
        out: DType,
        /// The op's `params()`.
        params: Vec<Scalar>,
        /// The first operand.
        a: usize,
        /// The second operand.
        b: usize,
    },
    /// `op(x, s)`, or `op(s, x)` when `scalar_first`.
    BinaryScalar {
        /// The op's `NAME`.
        op: &'static str,
        /// The operand type.
        t: DType,
        /// The result type.
        out: DType,
        /// The op's `params()`.
        params: Vec<Scalar>,
        /// The array operand.
        x: usize,
        /// The scalar operand.
        s: Scalar,
        /// Whether the scalar is the first operand.
        scalar_first: bool,
    },
    /// `x` converted from `from` to `to` as [`Element::cast`] converts it.
    Cast {
        /// The operand type.
        from: DType,
        /// The result type.
        to: DType,
        /// The operand.
        x: usize,
    },
    /// `c ? a : b` on elements of `t`.
    Where {
        /// The element type.
        t: DType,
        /// The condition (bool).
        c: usize,
        /// Taken where the condition holds.
        a: usize,
        /// Taken elsewhere.
        b: usize,
    },
}

impl Instr {
    /// The element type of the instruction's value.
    pub fn dtype(&self) -> DType {
        match self {
            Instr::Leaf { dtype, .. } => *dtype,
            Instr::Scalar(s) => s.dtype(),
            Instr::Unary { out, .. } | Instr::Binary { out, .. } => *out,
            Instr::BinaryScalar { out, .. } => *out,
            Instr::Cast { to, .. } => *to,
            Instr::Where { t, .. } => *t,
        }
    }
}

/// A pending expression as a flat program: its value is the last instruction's.
pub struct Program<'a> {
    /// The distinct nodes, operands first.
    pub instrs: Vec<Instr>,
    /// The leaves the [`Instr::Leaf`] instructions read.
    pub leaves: Vec<LeafRef<'a>>,
    /// Instruction of each node lowered so far, by node address.
    seen: HashMap<usize, usize>,
}

impl<'a> Program<'a> {
    /// The instruction of `x`, lowering it (and its operands) on first sight.
    pub fn operand<T: Element>(&mut self, x: &'a Expr<T>) -> usize {
        let key = Arc::as_ptr(x) as *const () as usize;
        if let Some(&k) = self.seen.get(&key) {
            return k;
        }
        let k = x.lower(self);
        self.seen.insert(key, k);
        k
    }

    /// Appends `i`, returning its index.
    pub fn push(&mut self, i: Instr) -> usize {
        self.instrs.push(i);
        self.instrs.len() - 1
    }

    /// Appends a leaf and the instruction that reads it.
    pub fn leaf<T: Element>(
        &mut self,
        buf: &'a (dyn Any + Send + Sync),
        layout: &'a Layout,
    ) -> usize {
        self.leaves.push(LeafRef {
            buf,
            layout,
            dtype: T::DTYPE,
        });
        let leaf = self.leaves.len() - 1;
        self.push(Instr::Leaf {
            leaf,
            dtype: T::DTYPE,
        })
    }
}

/// The program of `expr`.
pub fn lower<T: Element>(expr: &Expr<T>) -> Program<'_> {
    let mut p = Program {
        instrs: Vec::new(),
        leaves: Vec::new(),
        seen: HashMap::new(),
    };
    p.operand(expr);
    p
}
