//! Reading the parameter lists of `__global__` functions from CUDA C source, so that the
//! arguments of a raw kernel launch can be checked: pointers to element types take arrays of
//! that dtype, values take scalars of exactly that C type. Templates are read too; a name
//! expression (`my_sum<float>`) substitutes its arguments for the template's parameters.
//! What cannot be read (macros, structs, references) is [`RawParam::Unknown`], which a launch
//! rejects unless the parameters were declared explicitly.

use super::args::CType;
use super::params::is_ident;

/// One parameter of a `__global__` function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawParam {
    /// `const T* name` / `T* name`: an array of `T` (C-contiguous).
    Pointer {
        name: String,
        elem: CType,
        is_const: bool,
    },
    /// `T name`: a scalar of exactly type `T`.
    Value { name: String, ty: CType },
    /// A parameter whose type cuprite cannot check (the declaration as written).
    Unknown { name: String, decl: String },
}

impl RawParam {
    /// The parameter's name.
    pub fn name(&self) -> &str {
        match self {
            RawParam::Pointer { name, .. }
            | RawParam::Value { name, .. }
            | RawParam::Unknown { name, .. } => name,
        }
    }
}

/// A `__global__` function found in a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Global {
    pub name: String,
    /// `extern "C"` (found by its plain name) or not (needs a name expression).
    pub extern_c: bool,
    /// The template's parameter names (empty for a plain function).
    pub template: Vec<String>,
    /// The parameter declarations as written.
    pub params: Vec<String>,
}

/// The C type spelled by `words` (qualifiers removed), if it is one cuprite knows.
pub(crate) fn ctype_named(words: &str) -> Option<CType> {
    Some(match words {
        "bool" => CType::Bool,
        "signed char" | "int8_t" | "char" => CType::I8,
        "unsigned char" | "uint8_t" | "u8" => CType::U8,
        "short" | "short int" | "signed short" | "int16_t" => CType::I16,
        "unsigned short" | "unsigned short int" | "uint16_t" => CType::U16,
        "int" | "signed int" | "signed" | "int32_t" | "i32" => CType::I32,
        "unsigned" | "unsigned int" | "uint32_t" | "u32" => CType::U32,
        "long" | "long int" | "long long" | "long long int" | "signed long long" | "int64_t"
        | "ptrdiff_t" | "ssize_t" | "i64" => CType::I64,
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "uint64_t"
        | "size_t"
        | "u64" => CType::U64,
        "__half" | "half" | "f16" | "float16" => CType::F16,
        "__nv_bfloat16" | "nv_bfloat16" | "bf16" | "bfloat16" => CType::BF16,
        "float" => CType::F32,
        "double" => CType::F64,
        "c64" | "complex<float>" | "cplx<float>" | "float2" | "cuFloatComplex" => CType::C64,
        "c128" | "complex<double>" | "cplx<double>" | "double2" | "cuDoubleComplex" => CType::C128,
        _ => return None,
    })
}

/// `source` with comments blanked (lengths and line breaks kept).
fn strip(source: &str) -> String {
    let b = source.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            out.push_str("  ");
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                out.push(if b[i] == b'\n' { '\n' } else { ' ' });
                i += 1;
            }
            out.push_str("  ");
            i += 2;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Splits `s` at commas outside brackets.
fn split_top(s: &str) -> Vec<String> {
    let (mut depth, mut cur, mut out) = (0i32, String::new(), Vec::new());
    for c in s.chars() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The index just past the bracket matching the opening one at `open`.
fn matching(b: &[u8], open: usize, (o, c): (u8, u8)) -> Option<usize> {
    let mut depth = 0;
    for (k, &ch) in b.iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == c {
            depth -= 1;
            if depth == 0 {
                return Some(k + 1);
            }
        }
    }
    None
}

/// Every `__global__` function of `source` (its declaration, not its body).
pub(crate) fn globals(source: &str) -> Vec<Global> {
    let s = strip(source);
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = s[from..].find("__global__").map(|p| p + from) {
        from = pos + "__global__".len();
        // What precedes, back to the previous declaration's end.
        let before_start = s[..pos].rfind([';', '}']).map_or(0, |p| p + 1);
        let before = &s[before_start..pos];
        let extern_c = before.contains("extern") && before.contains("\"C\"")
            || s[..pos].rfind("extern \"C\" {").is_some_and(|p| {
                matching(b, p + "extern \"C\" ".len(), (b'{', b'}')).is_none_or(|end| end > pos)
            });
        let template = before
            .find("template")
            .and_then(|t| {
                let open = before_start + t + before[t..].find('<')?;
                let close = matching(b, open, (b'<', b'>'))?;
                Some(
                    split_top(&s[open + 1..close - 1])
                        .iter()
                        .filter_map(|p| {
                            let decl = p.split('=').next().unwrap_or("");
                            decl.split_whitespace().last().map(str::to_string)
                        })
                        .collect(),
                )
            })
            .unwrap_or_default();
        // The name: the last identifier before the first '(' that is not an attribute.
        let mut k = from;
        let mut name = None;
        while k < b.len() {
            let Some(open) = s[k..].find('(').map(|p| p + k) else {
                break;
            };
            let ident = s[k..open]
                .split_whitespace()
                .last()
                .unwrap_or("")
                .to_string();
            if ident == "__launch_bounds__"
                || ident == "__attribute__"
                || ident == "__cluster_dims__"
            {
                k = matching(b, open, (b'(', b')')).unwrap_or(b.len());
                continue;
            }
            if is_ident(&ident) {
                let close = matching(b, open, (b'(', b')')).unwrap_or(b.len());
                let params = split_top(&s[open + 1..close.saturating_sub(1)]);
                let params = if params.len() == 1 && params[0] == "void" {
                    Vec::new()
                } else {
                    params
                };
                name = Some((ident, params));
            }
            break;
        }
        if let Some((name, params)) = name {
            out.push(Global {
                name,
                extern_c,
                template,
                params,
            });
        }
    }
    out
}

/// Reads one parameter declaration, with `subst` (template parameter, argument) applied.
pub(crate) fn parse_param(decl: &str, subst: &[(String, String)]) -> RawParam {
    let spaced = decl.replace('*', " * ").replace('&', " & ");
    let mut words: Vec<String> = Vec::new();
    for w in spaced.split_whitespace() {
        match subst.iter().find(|(p, _)| p == w) {
            Some((_, a)) => words.extend(a.split_whitespace().map(str::to_string)),
            None => words.push(w.to_string()),
        }
    }
    let unknown = |name: &str| RawParam::Unknown {
        name: name.to_string(),
        decl: decl.trim().to_string(),
    };
    let name = match words.last() {
        Some(n) if is_ident(n) && words.len() > 1 && ctype_named(n).is_none() => n.clone(),
        _ => return unknown(""),
    };
    words.pop();
    if words.iter().any(|w| w == "&" || w.contains('[')) {
        return unknown(&name);
    }
    let stars = words.iter().filter(|w| *w == "*").count();
    let star_pos = words.iter().position(|w| w == "*").unwrap_or(words.len());
    let is_const = words[..star_pos].iter().any(|w| w == "const");
    let ty: Vec<&str> = words[..star_pos]
        .iter()
        .map(String::as_str)
        .filter(|w| {
            !matches!(
                *w,
                "const"
                    | "volatile"
                    | "__restrict__"
                    | "__restrict"
                    | "restrict"
                    | "__grid_constant__"
                    | "struct"
            )
        })
        .collect();
    let after_ok = words[star_pos..].iter().all(|w| {
        matches!(
            w.as_str(),
            "*" | "const" | "__restrict__" | "__restrict" | "restrict" | "volatile"
        )
    });
    let Some(ct) = ctype_named(
        &ty.join(" ")
            .replace(" <", "<")
            .replace("< ", "<")
            .replace(" >", ">"),
    ) else {
        return unknown(&name);
    };
    match (stars, after_ok) {
        (0, _) => RawParam::Value { name, ty: ct },
        (1, true) => RawParam::Pointer {
            name,
            elem: ct,
            is_const,
        },
        _ => unknown(&name),
    }
}

/// The parameters of `func` (a plain name or a name expression such as `my_sum<float>`) in
/// `globals`, or `None` when no such function is declared.
pub(crate) fn signature(globals: &[Global], func: &str) -> Option<Vec<RawParam>> {
    let (base, targs) = match func.find('<') {
        Some(p) if func.ends_with('>') => {
            (func[..p].trim(), split_top(&func[p + 1..func.len() - 1]))
        }
        _ => (func.trim(), Vec::new()),
    };
    let g = globals.iter().find(|g| g.name == base)?;
    let subst: Vec<(String, String)> = g.template.iter().cloned().zip(targs).collect();
    Some(g.params.iter().map(|p| parse_param(p, &subst)).collect())
}

/// Parses an explicit declaration (`"const float* x, float* y, int n"`).
pub(crate) fn parse_decl(decl: &str) -> Vec<RawParam> {
    if decl.trim().is_empty() {
        return Vec::new();
    }
    split_top(decl)
        .iter()
        .map(|p| parse_param(p, &[]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptr(name: &str, elem: CType, is_const: bool) -> RawParam {
        RawParam::Pointer {
            name: name.into(),
            elem,
            is_const,
        }
    }
    fn val(name: &str, ty: CType) -> RawParam {
        RawParam::Value {
            name: name.into(),
            ty,
        }
    }

    #[test]
    fn parameters_of_every_common_form() {
        let p = parse_decl(
            "const float* __restrict__ a, float *out, int n, unsigned long long m, size_t s, \
             double d, const double * const b, unsigned int u, long long q, bool f, \
             complex<float>* z, float2* w, const int8_t* c",
        );
        assert_eq!(
            p,
            [
                ptr("a", CType::F32, true),
                ptr("out", CType::F32, false),
                val("n", CType::I32),
                val("m", CType::U64),
                val("s", CType::U64),
                val("d", CType::F64),
                ptr("b", CType::F64, true),
                val("u", CType::U32),
                val("q", CType::I64),
                val("f", CType::Bool),
                ptr("z", CType::C64, false),
                ptr("w", CType::C64, false),
                ptr("c", CType::I8, true),
            ]
        );
        assert!(
            matches!(&parse_decl("float** pp")[0], RawParam::Unknown { name, .. } if name == "pp")
        );
        assert!(
            matches!(&parse_decl("MyStruct s")[0], RawParam::Unknown { name, decl } if name == "s" && decl == "MyStruct s")
        );
        assert!(matches!(
            &parse_decl("const float& r")[0],
            RawParam::Unknown { .. }
        ));
        assert!(parse_decl("").is_empty());
    }

    #[test]
    fn globals_are_found_with_templates_and_attributes() {
        let src = r#"
// a comment with __global__ void fake(int x)
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
/* __global__ void fake2(float y) */
template <typename T, int N = 4>
__global__ void __launch_bounds__(256) my_sum(const T* x, T* y, unsigned int n) { }
extern "C" {
__global__ void inside(double* d) {}
}
__global__ void noargs(void) {}
"#;
        let g = globals(src);
        let names: Vec<&str> = g.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["add", "my_sum", "inside", "noargs"]);
        assert!(g[0].extern_c && !g[1].extern_c && g[2].extern_c && !g[3].extern_c);
        assert_eq!(g[1].template, ["T", "N"]);
        assert_eq!(
            signature(&g, "add").unwrap(),
            [
                ptr("a", CType::F32, true),
                ptr("b", CType::F32, true),
                ptr("c", CType::F32, false),
                val("n", CType::I32)
            ]
        );
        assert_eq!(
            signature(&g, "my_sum<double>").unwrap(),
            [
                ptr("x", CType::F64, true),
                ptr("y", CType::F64, false),
                val("n", CType::U32)
            ]
        );
        assert!(matches!(
            &signature(&g, "my_sum").unwrap()[0],
            RawParam::Unknown { .. }
        ));
        assert_eq!(signature(&g, "noargs").unwrap(), []);
        assert_eq!(signature(&g, "missing"), None);
    }
}
