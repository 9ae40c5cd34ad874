//! Building and compiling the source of a user kernel: [`SourceWriter`] assembles the
//! generated text and marks every piece of user code with `#line` directives, so NVRTC's
//! messages name the user's own line (`body(2): error: ...`); [`compile`] goes through the
//! device's module cache (memory, then disk) and turns a compile error into an
//! [`Error::InvalidArgument`] that quotes the offending user line under each message.

use crate::device::Cuda;
use crate::modules::Func;
use cuprite_core::{Error, Result};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// A `&'static str` for a kernel name (errors name their op statically); every distinct
/// name is stored once per process.
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(s) = set.get(name) {
        return s;
    }
    let s: &'static str = Box::leak(name.to_string().into_boxed_str());
    set.insert(s);
    s
}

/// A 128-bit hash of `parts`, as 32 hex digits (the in-memory module key of a source).
pub(crate) fn hash_hex(parts: &[&str]) -> String {
    let mut out = String::with_capacity(32);
    for seed in [0u64, 0x9e37_79b9_7f4a_7c15] {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut h);
        for p in parts {
            p.hash(&mut h);
        }
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}

/// A generated program under construction: generated lines are attributed to `file` (the
/// program's name), user code to its own label from line 1.
pub(crate) struct SourceWriter {
    text: String,
    line: usize,
    file: String,
}

impl SourceWriter {
    /// Starts a program named `file` (`user-elementwise.cu`) with the common headers.
    pub(crate) fn new(file: &str) -> Self {
        let head = cuprite_kernels::program(&[cuprite_kernels::user::HEADER], &[]);
        let line = head.matches('\n').count() + 1;
        SourceWriter {
            text: head,
            line,
            file: file.to_string(),
        }
    }

    /// Starts a program named `file` with nothing before the user's code.
    pub(crate) fn raw(file: &str) -> Self {
        SourceWriter {
            text: String::new(),
            line: 1,
            file: file.to_string(),
        }
    }

    /// Appends generated text (may span lines).
    pub(crate) fn gen(&mut self, s: &str) {
        self.line += s.matches('\n').count();
        self.text.push_str(s);
    }

    /// Appends user code labelled `label`, on lines of its own.
    pub(crate) fn user(&mut self, label: &str, code: &str) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.gen("\n");
        }
        self.text.push_str(&format!("#line 1 \"{label}\"\n"));
        self.text.push_str(code);
        // The generated text resumes on the line after the directive below.
        self.line += 1 + code.matches('\n').count() + 1;
        self.text
            .push_str(&format!("\n#line {} \"{}\"\n", self.line + 1, self.file));
        self.line += 1;
    }

    /// The finished source.
    pub(crate) fn finish(self) -> String {
        self.text
    }
}

/// The kernel `func` of the program `source()` in the module cache under `key`, compiled
/// with `options` after the defaults. A compile error becomes an error of `op` quoting the
/// lines of `user` (label, code) that NVRTC's messages point at.
pub(crate) fn compile(
    dev: &Cuda,
    op: &'static str,
    key: &str,
    func: &str,
    options: &[&str],
    user: &[(&str, &str)],
    source: impl FnOnce() -> String,
) -> Result<Func> {
    dev.function_with(key, func, options, source)
        .map_err(|e| user_error(op, e, user))
}

/// Rewrites a compile failure of NVRTC for the user (other errors pass unchanged).
pub(crate) fn user_error(op: &'static str, e: Error, user: &[(&str, &str)]) -> Error {
    match e {
        Error::Backend { op: "compile", msg } => Error::invalid(
            op,
            format!(
                "compiling the kernel failed:\n{}",
                quote_user_lines(&msg, user)
            ),
        ),
        other => other,
    }
}

/// Appends, under every line `label(N): ...` of `log` whose label is one of `user`, line N
/// of that user code.
pub(crate) fn quote_user_lines(log: &str, user: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for l in log.lines() {
        out.push_str(l);
        out.push('\n');
        let hit = user.iter().find_map(|(label, code)| {
            let rest = l.trim_start().strip_prefix(label)?.strip_prefix('(')?;
            let n: usize = rest.split(')').next()?.parse().ok()?;
            Some((label, n, code.lines().nth(n.checked_sub(1)?)?))
        });
        if let Some((label, n, text)) = hit {
            out.push_str(&format!("    {label} line {n} | {}\n", text.trim_end()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_code_is_marked_with_line_directives() {
        let mut w = SourceWriter::new("user-test.cu");
        let start = w.line;
        w.gen("int a;\n");
        w.user("body", "int b;\nint c;");
        w.gen("int d;\n");
        let s = w.finish();
        let lines: Vec<&str> = s.lines().collect();
        // The directive after the user code names the line that follows it.
        let after = lines
            .iter()
            .position(|l| l.starts_with("#line") && l.contains("user-test.cu"))
            .unwrap();
        let n: usize = lines[after]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(n, after + 2, "{s}");
        assert_eq!(lines[start - 1], "int a;");
        assert!(s.contains("#line 1 \"body\"\nint b;\nint c;\n#line"));
    }

    #[test]
    fn errors_quote_the_user_line() {
        let log =
            "user-x.cu(40): warning: something\nbody(2): error: identifier \"q\" is undefined\n";
        let q = quote_user_lines(log, &[("preamble", ""), ("body", "z = x;\nz = q + 1;")]);
        assert!(q.contains("body(2): error"), "{q}");
        assert!(q.contains("    body line 2 | z = q + 1;"), "{q}");
        assert!(!q.contains("line 40"), "{q}");
        let e = user_error(
            "my_kernel",
            Error::Backend {
                op: "compile",
                msg: log.into(),
            },
            &[("body", "z = x;\nz = q + 1;")],
        );
        assert!(
            e.to_string()
                .starts_with("my_kernel: compiling the kernel failed:"),
            "{e}"
        );
        let other = Error::invalid("x", "y");
        assert_eq!(user_error("k", other.clone(), &[]), other);
    }

    #[test]
    fn names_are_interned_once() {
        let a = intern("my_kernel_name");
        let b = intern(&String::from("my_kernel_name"));
        assert!(std::ptr::eq(a, b));
        assert_ne!(hash_hex(&["a", "bc"]), hash_hex(&["ab", "c"]));
        assert_eq!(hash_hex(&["x"]).len(), 32);
    }
}
