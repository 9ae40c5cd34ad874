//! The parameter lists of `ElementwiseKernel` and `ReductionKernel` in CuPy's syntax:
//! comma-separated `type name` entries, `raw type name` for arrays the body indexes itself.
//!
//! A type is a NumPy dtype name (`bool`, `int8`, `uint8`, `int16`, `uint16`, `int32`,
//! `uint32`, `int64`, `uint64`, `float16`, `bfloat16`, `float32`, `float64`, `complex64`,
//! `complex128`), one of the C spellings accepted for them (`float`, `double`, `half`,
//! `__half`, `__nv_bfloat16`, `signed char`, `unsigned char`, `short`, `unsigned short`,
//! `int`, `unsigned int`, `long long`, `long`, `unsigned long long`, the `<stdint.h>` names
//! `int8_t` ... `uint64_t`, `i8` ... `u64`, `f16`, `bf16`, `c64`, `c128`), or any other
//! single identifier, which is a type placeholder (`T`) resolved at call time from the
//! arguments bound to it. Names of numeric types cuprite has no dtype for (`float128`,
//! `char`, `size_t`, ...) are errors rather than placeholders, so a typo of a real type
//! cannot silently become one.
//!
//! In a body, a 16-bit float value has the arithmetic and comparisons of the host (each
//! operation in f32, rounded once); `(float)x` widens it and `float16(y)` rounds back.

use cuprite_core::{DType, Error, Result};

/// The type of a parameter as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TypeSpec {
    /// A dtype named in the declaration.
    Concrete(DType),
    /// A placeholder (`T`), resolved from the arguments at call time.
    Placeholder(String),
}

/// One parameter of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Param {
    pub name: String,
    pub ty: TypeSpec,
    /// `raw`: the whole argument, indexed by the body.
    pub raw: bool,
}

/// C++ keywords and names the generated code defines, which a parameter may not use.
const RESERVED: &[&str] = &[
    "i", "_ind", "auto", "bool", "break", "case", "char", "class", "const", "continue", "default",
    "delete", "do", "double", "else", "enum", "extern", "false", "float", "for", "goto", "if",
    "inline", "int", "long", "new", "operator", "private", "public", "raw", "register", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "true",
    "typedef", "typename", "union", "unsigned", "void", "volatile", "while",
];

/// Numeric type names that are not cuprite dtypes (rejected instead of becoming placeholders).
const NOT_DTYPES: &[&str] = &[
    "char",
    "size_t",
    "ssize_t",
    "ptrdiff_t",
    "longlong",
    "float128",
    "complex256",
    "float96",
];

/// The dtype named `name` (NumPy names and the C spellings listed in the module docs).
pub(crate) fn dtype_named(name: &str) -> Option<DType> {
    Some(match name {
        "bool" => DType::Bool,
        "int8" | "i8" | "signed char" | "int8_t" => DType::I8,
        "uint8" | "u8" | "unsigned char" | "uint8_t" => DType::U8,
        "int16" | "i16" | "short" | "int16_t" => DType::I16,
        "uint16" | "u16" | "unsigned short" | "uint16_t" => DType::U16,
        "int32" | "int" | "i32" | "int32_t" => DType::I32,
        "uint32" | "u32" | "unsigned int" | "unsigned" | "uint32_t" => DType::U32,
        "int64" | "long long" | "long" | "i64" | "long int" | "long long int" | "int64_t" => {
            DType::I64
        }
        "uint64" | "u64" | "unsigned long long" | "unsigned long" | "uint64_t" => DType::U64,
        "float16" | "half" | "f16" | "__half" => DType::F16,
        "bfloat16" | "bf16" | "__nv_bfloat16" => DType::BF16,
        "float32" | "float" => DType::F32,
        "float64" | "double" => DType::F64,
        "complex64" | "c64" => DType::C64,
        "complex128" | "c128" => DType::C128,
        _ => return None,
    })
}

/// True for a C identifier (`[A-Za-z_][A-Za-z0-9_]*`).
pub(crate) fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch == '_' || ch.is_ascii_alphabetic())
        && c.all(|ch| ch == '_' || ch.is_ascii_alphanumeric())
}

/// Checks a kernel name: a C identifier, used as the prefix of the generated functions.
pub(crate) fn check_kernel_name(op: &'static str, name: &str) -> Result<()> {
    if !is_ident(name) {
        return Err(Error::invalid(
            op,
            format!("the kernel name {name:?} is not a C identifier"),
        ));
    }
    Ok(())
}

/// Parses one comma-separated parameter list (`what` is "input" or "output" for messages).
pub(crate) fn parse_params(op: &'static str, what: &str, text: &str) -> Result<Vec<Param>> {
    let mut out: Vec<Param> = Vec::new();
    if text.trim().is_empty() {
        return Ok(out);
    }
    for (k, entry) in text.split(',').enumerate() {
        let words: Vec<&str> = entry.split_whitespace().collect();
        let bad = |why: &str| {
            Error::invalid(
                op,
                format!("{what} parameter {} ({:?}): {why}", k + 1, entry.trim()),
            )
        };
        let (raw, words) = match words.split_first() {
            Some((&"raw", rest)) => (true, rest),
            _ => (false, &words[..]),
        };
        let Some((&name, ty_words)) = words.split_last() else {
            return Err(bad("expected `type name`, found nothing"));
        };
        if ty_words.is_empty() {
            return Err(bad(
                "expected `type name` (for example `float32 x` or `T x`)",
            ));
        }
        if !is_ident(name) {
            return Err(bad(&format!("{name:?} is not a valid parameter name")));
        }
        if RESERVED.contains(&name) || name.starts_with("_cp_") {
            return Err(bad(&format!(
                "the name `{name}` is reserved (a C++ keyword or a name the generated code uses)"
            )));
        }
        let ty_text = ty_words.join(" ");
        let ty = if let Some(d) = dtype_named(&ty_text) {
            TypeSpec::Concrete(d)
        } else if ty_words.len() == 1 && is_ident(&ty_text) {
            if NOT_DTYPES.contains(&ty_text.as_str()) {
                return Err(bad(&format!(
                    "`{ty_text}` is not a cuprite dtype (bool, int8, uint8, int16, uint16, \
                     int32, uint32, int64, uint64, float32, float64, complex64, complex128)"
                )));
            }
            TypeSpec::Placeholder(ty_text)
        } else {
            return Err(bad(&format!(
                "unknown type `{ty_text}` (a dtype name such as float32, or a placeholder \
                 such as T)"
            )));
        };
        if out.iter().any(|p| p.name == name) {
            return Err(bad(&format!("the name `{name}` is declared twice")));
        }
        out.push(Param {
            name: name.to_string(),
            ty,
            raw,
        });
    }
    Ok(out)
}

/// Checks a kernel's inputs and outputs together: names unique across both lists, no name
/// equal to a placeholder, at most [`MAX_PLACEHOLDERS`] placeholders. Returns the
/// placeholders in order of first appearance.
pub(crate) fn check_all(op: &'static str, ins: &[Param], outs: &[Param]) -> Result<Vec<String>> {
    let mut ph: Vec<String> = Vec::new();
    for (k, p) in ins.iter().chain(outs).enumerate() {
        if ins.iter().chain(outs).take(k).any(|q| q.name == p.name) {
            return Err(Error::invalid(
                op,
                format!("the name `{}` is both an input and an output", p.name),
            ));
        }
        if let TypeSpec::Placeholder(t) = &p.ty {
            if !ph.contains(t) {
                ph.push(t.clone());
            }
        }
    }
    if let Some(p) = ins.iter().chain(outs).find(|p| ph.contains(&p.name)) {
        return Err(Error::invalid(
            op,
            format!("the parameter name `{}` is also a type placeholder", p.name),
        ));
    }
    if ph.len() > MAX_PLACEHOLDERS {
        return Err(Error::invalid(
            op,
            format!(
                "at most {MAX_PLACEHOLDERS} type placeholders, found {}",
                ph.len()
            ),
        ));
    }
    Ok(ph)
}

/// Most placeholders one kernel may declare.
pub(crate) const MAX_PLACEHOLDERS: usize = 8;

/// The dtypes bound to placeholders during one call, in placeholder order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Binding {
    pub types: [Option<DType>; MAX_PLACEHOLDERS],
}

impl Binding {
    /// Binds placeholder `k` (named `name`) to `d` for parameter `param`; a different dtype
    /// already bound is an error naming the placeholder and both dtypes.
    pub fn bind(
        &mut self,
        op: &'static str,
        k: usize,
        name: &str,
        param: &str,
        d: DType,
    ) -> Result<()> {
        match self.types[k] {
            None => {
                self.types[k] = Some(d);
                Ok(())
            }
            Some(prev) if prev == d => Ok(()),
            Some(prev) => Err(Error::invalid(
                op,
                format!(
                    "type placeholder {name} is bound to both {prev} and {d} (parameter \
                     `{param}` is {d})"
                ),
            )),
        }
    }

    /// A key of the bound dtypes, 4 bits each (0: unbound).
    pub fn key(&self) -> u64 {
        self.types.iter().enumerate().fold(0u64, |acc, (k, t)| {
            acc | (t.map_or(0, |d| dtype_code(d) as u64 + 1) << (4 * k))
        })
    }
}

/// A small number per dtype (its position in [`DType::ALL`]).
pub(crate) fn dtype_code(d: DType) -> usize {
    DType::ALL.iter().position(|&x| x == d).unwrap_or(0)
}

/// The resolved dtype of `ty` under `binding` (`placeholders` in binding order).
pub(crate) fn resolve(ty: &TypeSpec, placeholders: &[String], binding: &Binding) -> Option<DType> {
    match ty {
        TypeSpec::Concrete(d) => Some(*d),
        TypeSpec::Placeholder(t) => placeholders
            .iter()
            .position(|p| p == t)
            .and_then(|k| binding.types[k]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<Param> {
        parse_params("k", "input", text).unwrap()
    }

    fn err(text: &str) -> String {
        parse_params("k", "input", text).unwrap_err().to_string()
    }

    #[test]
    fn every_integer_spelling_names_its_dtype() {
        for (names, d) in [
            (&["int8", "i8", "signed char", "int8_t"][..], DType::I8),
            (&["int16", "short", "int16_t"][..], DType::I16),
            (&["uint16", "unsigned short", "uint16_t"][..], DType::U16),
            (
                &["uint32", "unsigned int", "unsigned", "uint32_t"][..],
                DType::U32,
            ),
            (
                &["uint64", "unsigned long long", "uint64_t"][..],
                DType::U64,
            ),
        ] {
            for n in names {
                assert_eq!(ok(&format!("{n} x"))[0].ty, TypeSpec::Concrete(d), "{n}");
            }
        }
    }

    #[test]
    fn every_form_parses() {
        let p = ok("float32 x, T y, raw T z, raw float64 w, long long n, int32 m, U s");
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["x", "y", "z", "w", "n", "m", "s"]);
        assert_eq!(p[0].ty, TypeSpec::Concrete(DType::F32));
        assert_eq!(p[1].ty, TypeSpec::Placeholder("T".into()));
        assert!(p[2].raw && !p[1].raw);
        assert_eq!(p[3].ty, TypeSpec::Concrete(DType::F64));
        assert_eq!(p[4].ty, TypeSpec::Concrete(DType::I64));
        assert_eq!(p[6].ty, TypeSpec::Placeholder("U".into()));
        assert!(ok("").is_empty() && ok("   ").is_empty());
        let all = ok(
            "bool a1, uint8 a2, int32 a3, int64 a4, float32 a5, float64 a6, \
                      complex64 a7, complex128 a8, double a9, float a10, int a11, \
                      unsigned char a12, c64 a13, c128 a14, long a15",
        );
        let d: Vec<DType> = all
            .iter()
            .map(|p| match p.ty {
                TypeSpec::Concrete(d) => d,
                _ => panic!("{p:?}"),
            })
            .collect();
        use DType::*;
        assert_eq!(
            d,
            [Bool, U8, I32, I64, F32, F64, C64, C128, F64, F32, I32, U8, C64, C128, I64]
        );
    }

    #[test]
    fn bad_lists_are_clear_errors() {
        assert!(err("float32").contains("input parameter 1 (\"float32\"): expected `type name`"));
        assert!(err("float32 x,").contains("input parameter 2"));
        assert!(err("float32 x, float32 x").contains("declared twice"));
        assert!(err("float32 1x").contains("not a valid parameter name"));
        assert!(err("float32 i").contains("reserved"));
        assert!(err("float32 _ind").contains("reserved"));
        assert!(err("float128 x").contains("`float128` is not a cuprite dtype"));
        assert_eq!(
            ok("float16 x, bfloat16 y")[1].ty,
            TypeSpec::Concrete(DType::BF16)
        );
        assert!(err("size_t x").contains("`size_t` is not a cuprite dtype"));
        assert!(err("unsigned float x").contains("unknown type `unsigned float`"));
        assert!(err("raw x").contains("expected `type name`"));
        assert!(err("float32 x y z").contains("unknown type `float32 x y`"));
        assert!(
            err("float* x").contains("not a valid parameter name")
                || err("float* x").contains("unknown type")
        );
    }

    #[test]
    fn inputs_and_outputs_are_checked_together() {
        let i = ok("T x, U y");
        let o = parse_params("k", "output", "T z").unwrap();
        assert_eq!(check_all("k", &i, &o).unwrap(), ["T", "U"]);
        let o = parse_params("k", "output", "T x").unwrap();
        assert!(check_all("k", &i, &o)
            .unwrap_err()
            .to_string()
            .contains("`x` is both an input and an output"));
        let i = ok("T T2, T2 y");
        assert!(check_all("k", &i, &[])
            .unwrap_err()
            .to_string()
            .contains("`T2` is also a type placeholder"));
        let many = ok("A a1, B b1, C c, D d, E e, F f, G g, H h, J j");
        assert!(check_all("k", &many, &[])
            .unwrap_err()
            .to_string()
            .contains("at most 8"));
    }

    #[test]
    fn placeholders_bind_once() {
        let mut b = Binding::default();
        b.bind("k", 0, "T", "x", DType::F32).unwrap();
        b.bind("k", 0, "T", "y", DType::F32).unwrap();
        let e = b
            .bind("k", 0, "T", "y", DType::F64)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "k: type placeholder T is bound to both float32 and float64 (parameter `y` is float64)"
        );
        let ph = vec!["T".to_string(), "U".to_string()];
        assert_eq!(
            resolve(&TypeSpec::Placeholder("T".into()), &ph, &b),
            Some(DType::F32)
        );
        assert_eq!(resolve(&TypeSpec::Placeholder("U".into()), &ph, &b), None);
        let k1 = b.key();
        b.bind("k", 1, "U", "z", DType::I32).unwrap();
        assert_ne!(k1, b.key());
        let mut c = Binding::default();
        c.bind("k", 0, "T", "x", DType::Bool).unwrap();
        assert_ne!(c.key(), Binding::default().key());
    }
}
