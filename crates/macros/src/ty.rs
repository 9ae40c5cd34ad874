//! The element types a kernel may use, their names in Rust, in CUDA C and in cuprite's
//! `DType`, and the type terms (with literal type variables) the checker infers.

use proc_macro2::Span;
use syn::spanned::Spanned;

/// One element type of the kernel subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    BF16,
    F32,
    F64,
}

/// The element types in words, for error messages.
pub const TYPE_LIST: &str = "bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32 and f64";

impl Ty {
    /// Every element type, in the order of the error messages.
    pub const ALL: [Ty; 13] = [
        Ty::Bool,
        Ty::I8,
        Ty::U8,
        Ty::I16,
        Ty::U16,
        Ty::I32,
        Ty::U32,
        Ty::I64,
        Ty::U64,
        Ty::F16,
        Ty::BF16,
        Ty::F32,
        Ty::F64,
    ];

    /// The Rust name (`f32`; `f16` and `bf16` are the `half` crate's types, which the
    /// expansions name through the facade: `::cuprite::f16`).
    pub fn rust(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::I8 => "i8",
            Ty::U8 => "u8",
            Ty::I16 => "i16",
            Ty::U16 => "u16",
            Ty::I32 => "i32",
            Ty::U32 => "u32",
            Ty::I64 => "i64",
            Ty::U64 => "u64",
            Ty::F16 => "f16",
            Ty::BF16 => "bf16",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }

    /// The CUDA C name, as `common.cuh` declares it (`float`).
    pub fn cuda(self) -> &'static str {
        match self {
            Ty::F32 => "float",
            Ty::F64 => "double",
            t => t.rust(),
        }
    }

    /// The type named `name`, if it is an element type of the subset.
    pub fn from_name(name: &str) -> Option<Ty> {
        Ty::ALL.into_iter().find(|t| t.rust() == name)
    }

    /// True for the integer types (signed and unsigned, not bool).
    pub fn is_int(self) -> bool {
        self.int_range().is_some()
    }

    /// True for `i8`, `i16`, `i32`, `i64`.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }

    /// True for `f16`, `bf16`, `f32`, `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64)
    }

    /// True for the 16-bit floats `f16` and `bf16`, which compute every operation in f32
    /// and round the result once to their type.
    pub fn is_half(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16)
    }

    /// True for the types C promotes to `int` in arithmetic (bool and the 8- and 16-bit
    /// integers), whose operator results the CUDA translation casts back.
    pub fn promotes_in_c(self) -> bool {
        matches!(self, Ty::Bool | Ty::I8 | Ty::U8 | Ty::I16 | Ty::U16)
    }

    /// The smallest and largest value of an integer type.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Ty::I8 => (i8::MIN as i128, i8::MAX as i128),
            Ty::U8 => (0, u8::MAX as i128),
            Ty::I16 => (i16::MIN as i128, i16::MAX as i128),
            Ty::U16 => (0, u16::MAX as i128),
            Ty::I32 => (i32::MIN as i128, i32::MAX as i128),
            Ty::U32 => (0, u32::MAX as i128),
            Ty::I64 => (i64::MIN as i128, i64::MAX as i128),
            Ty::U64 => (0, u64::MAX as i128),
            _ => return None,
        })
    }

    /// Parses a written type (`f32`), rejecting everything else with a message that lists
    /// the element types.
    pub fn parse(t: &syn::Type) -> syn::Result<Ty> {
        // A type passed through a `macro_rules!` fragment (`$t:ty`) arrives grouped.
        match t {
            syn::Type::Group(g) => return Ty::parse(&g.elem),
            syn::Type::Paren(p) => return Ty::parse(&p.elem),
            _ => {}
        }
        if let syn::Type::Path(p) = t {
            if p.qself.is_none() && p.path.segments.len() == 1 {
                let seg = &p.path.segments[0];
                let name = seg.ident.to_string();
                if seg.arguments.is_empty() {
                    if let Some(ty) = Ty::from_name(&name) {
                        return Ok(ty);
                    }
                }
                if matches!(
                    name.as_str(),
                    "c64" | "c128" | "Complex" | "Complex32" | "Complex64"
                ) {
                    return Err(syn::Error::new(
                        t.span(),
                        format!(
                            "complex element types are not supported in cuprite kernels; \
                             the element types are {TYPE_LIST}"
                        ),
                    ));
                }
            }
        }
        Err(syn::Error::new(
            t.span(),
            format!("unsupported type in a cuprite kernel; the element types are {TYPE_LIST}"),
        ))
    }
}

/// A type as the checker knows it: a concrete element type, the unit type of statements,
/// or a variable standing for the type of an unsuffixed literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tm {
    Ty(Ty),
    Unit,
    Var(usize),
}

/// What a literal type variable may still become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitKind {
    /// `{integer}`: any integer type; i32 when nothing decides.
    Int,
    /// `{float}`: f16, bf16, f32 or f64; f64 when nothing decides.
    Float,
}

/// The type variables of one kernel (union-find without ranks: kernels are small).
#[derive(Default, Debug)]
pub struct Vars {
    slots: Vec<Slot>,
}

#[derive(Clone, Copy, Debug)]
enum Slot {
    Free(LitKind),
    Bound(Tm),
}

/// A readable name of a term for error messages.
fn show(t: Tm, vars: &Vars) -> String {
    match vars.resolve(t) {
        Tm::Ty(ty) => ty.rust().to_string(),
        Tm::Unit => "()".to_string(),
        Tm::Var(v) => match vars.slots[v] {
            Slot::Free(LitKind::Int) => "{integer}".to_string(),
            _ => "{float}".to_string(),
        },
    }
}

impl Vars {
    /// A new variable of kind `k`.
    pub fn fresh(&mut self, k: LitKind) -> Tm {
        self.slots.push(Slot::Free(k));
        Tm::Var(self.slots.len() - 1)
    }

    /// The term `t` stands for now.
    pub fn resolve(&self, mut t: Tm) -> Tm {
        while let Tm::Var(v) = t {
            match self.slots[v] {
                Slot::Bound(b) => t = b,
                Slot::Free(_) => return t,
            }
        }
        t
    }

    /// The kind of a free variable.
    pub fn kind(&self, t: Tm) -> Option<LitKind> {
        match self.resolve(t) {
            Tm::Var(v) => match self.slots[v] {
                Slot::Free(k) => Some(k),
                Slot::Bound(_) => None,
            },
            _ => None,
        }
    }

    /// The final element type of `t`: unresolved literals default as in Rust (i32, f64).
    /// `None` for the unit type.
    pub fn ty(&self, t: Tm) -> Option<Ty> {
        match self.resolve(t) {
            Tm::Ty(ty) => Some(ty),
            Tm::Unit => None,
            Tm::Var(_) => Some(match self.kind(t) {
                Some(LitKind::Float) => Ty::F64,
                _ => Ty::I32,
            }),
        }
    }

    /// The element type `t` is known to be already (no defaulting).
    pub fn known(&self, t: Tm) -> Option<Ty> {
        match self.resolve(t) {
            Tm::Ty(ty) => Some(ty),
            _ => None,
        }
    }

    /// A readable name of `t`.
    pub fn show(&self, t: Tm) -> String {
        show(t, self)
    }

    /// Makes `a` and `b` the same type, or explains at `span` why they cannot be.
    pub fn unify(&mut self, a: Tm, b: Tm, span: Span) -> syn::Result<Tm> {
        let (a, b) = (self.resolve(a), self.resolve(b));
        let mismatch = |s: &Self| {
            syn::Error::new(
                span,
                format!(
                    "mismatched types in a cuprite kernel: {} and {} (kernels convert only \
                     with `as`)",
                    s.show(a),
                    s.show(b)
                ),
            )
        };
        match (a, b) {
            _ if a == b => Ok(a),
            (Tm::Var(v), Tm::Var(w)) => {
                if self.kind(a) != self.kind(b) {
                    return Err(mismatch(self));
                }
                self.slots[v] = Slot::Bound(Tm::Var(w));
                Ok(b)
            }
            (Tm::Var(v), Tm::Ty(t)) | (Tm::Ty(t), Tm::Var(v)) => {
                let fits = match self.kind(Tm::Var(v)) {
                    Some(LitKind::Int) => t.is_int(),
                    _ => t.is_float(),
                };
                if !fits {
                    let hint = if self.kind(Tm::Var(v)) == Some(LitKind::Int) && t.is_float() {
                        " (write a float literal such as `2.0`)"
                    } else {
                        ""
                    };
                    return Err(syn::Error::new(
                        span,
                        format!(
                            "mismatched types in a cuprite kernel: {} and {}{hint}",
                            self.show(Tm::Var(v)),
                            t.rust()
                        ),
                    ));
                }
                self.slots[v] = Slot::Bound(Tm::Ty(t));
                Ok(Tm::Ty(t))
            }
            _ => Err(mismatch(self)),
        }
    }
}
