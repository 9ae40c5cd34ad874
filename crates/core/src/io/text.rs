//! Arrays in and out of text files, as NumPy's `np.loadtxt`, `np.genfromtxt` and
//! `np.savetxt`: one row per line, fields split by a delimiter (any whitespace by default),
//! comments from `#` to the end of a line, blank lines skipped.
//!
//! The format is line-based (NumPy's own reader is too), so the fields are split here, not
//! by a CSV library: a line, less its comment, split at the delimiter, each field trimmed
//! and parsed as the element type (integers as integers: `1.5` is an error in an integer
//! file, as NumPy's; floats as Rust parses them, `nan`, `inf` and `-inf` included; complex
//! values as Python writes them, `1+2j`, `(1-2j)`, `3j`; bools as `True`/`False` or a
//! number, non-zero being true).
//!
//! A load never panics on a bad file: a field that does not parse, a row of another length,
//! an unreadable file are [`Error::Io`] naming the file, the line and the column. A save
//! writes a temporary file renamed into place, as the `.npy` saves.

use super::{Ctx, write_atomically};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{DType, Element, Scalar, c128};
use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// What `loadtxt`/`genfromtxt` read (NumPy's keyword arguments of the same names).
#[derive(Clone, Debug, PartialEq)]
pub struct LoadTxt {
    /// The field separator; `None` (the default) splits at any run of whitespace.
    pub delimiter: Option<char>,
    /// Where a comment starts (the rest of the line is ignored); `None` for no comments.
    pub comments: Option<char>,
    /// Lines skipped at the start of the file (comments and blank lines included).
    pub skiprows: usize,
    /// The columns kept, in this order (negative counts from the end); `None`: every one.
    pub usecols: Option<Vec<isize>>,
    /// At most this many rows read (after `skiprows`); `None`: every one.
    pub max_rows: Option<usize>,
    /// The least number of dimensions of the result (0, 1 or 2): NumPy's `ndmin`. With 0
    /// a single row or column is 1-d and a single value 0-d.
    pub ndmin: usize,
}

impl Default for LoadTxt {
    fn default() -> Self {
        LoadTxt {
            delimiter: None,
            comments: Some('#'),
            skiprows: 0,
            usecols: None,
            max_rows: None,
            ndmin: 0,
        }
    }
}

impl LoadTxt {
    /// Fields separated by `d` (`','` for CSV files).
    pub fn delimiter(mut self, d: char) -> Self {
        self.delimiter = Some(d);
        self
    }
    /// The first `n` lines skipped (a header).
    pub fn skiprows(mut self, n: usize) -> Self {
        self.skiprows = n;
        self
    }
    /// Only these columns, in this order.
    pub fn usecols(mut self, cols: &[isize]) -> Self {
        self.usecols = Some(cols.to_vec());
        self
    }
    /// At most `n` rows.
    pub fn max_rows(mut self, n: usize) -> Self {
        self.max_rows = Some(n);
        self
    }
    /// At least `n` dimensions (0, 1 or 2).
    pub fn ndmin(mut self, n: usize) -> Self {
        self.ndmin = n;
        self
    }
    /// Comments starting at `c` (`None`: no comments).
    pub fn comments(mut self, c: Option<char>) -> Self {
        self.comments = c;
        self
    }
}

/// How `savetxt` writes (NumPy's keyword arguments of the same names).
#[derive(Clone, Debug, PartialEq)]
pub struct SaveTxt {
    /// The format of each value, printf-style: `%.18e` (the default), `%.6f`, `%10.3e`,
    /// `%d`, `%g`, ... (flags `-`, `+`, `0`, space; conversions `e E f F g G d i`).
    /// Complex values are written ` (re+imj)` with each part in this format (the imaginary
    /// one always signed), as NumPy.
    pub fmt: String,
    /// Between the values of a row (default one space).
    pub delimiter: String,
    /// After each row (default `"\n"`).
    pub newline: String,
    /// Written first, each of its lines after `comments` (none when empty).
    pub header: String,
    /// Written last, each of its lines after `comments` (none when empty).
    pub footer: String,
    /// Put before the header and footer lines (default `"# "`).
    pub comments: String,
}

impl Default for SaveTxt {
    fn default() -> Self {
        SaveTxt {
            fmt: "%.18e".into(),
            delimiter: " ".into(),
            newline: "\n".into(),
            header: String::new(),
            footer: String::new(),
            comments: "# ".into(),
        }
    }
}

/// One printf conversion: flags, width, precision and conversion character.
#[derive(Clone, Debug, PartialEq)]
struct Spec {
    prefix: String,
    suffix: String,
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    conv: char,
}

impl Spec {
    /// Parses one `%[flags][width][.precision]conv` with literal text around it (`%%` is a
    /// literal `%`).
    fn parse(fmt: &str) -> std::result::Result<Spec, String> {
        let bad = || {
            format!(
                "unsupported format {fmt:?}: expected one %[flags][width][.precision](e|E|f|F|g|G|d|i) \
                 with text around it"
            )
        };
        let (mut prefix, mut rest) = (String::new(), fmt);
        loop {
            let i = rest.find('%').ok_or_else(bad)?;
            prefix.push_str(&rest[..i]);
            if rest[i + 1..].starts_with('%') {
                prefix.push('%');
                rest = &rest[i + 2..];
            } else {
                rest = &rest[i + 1..];
                break;
            }
        }
        let mut chars = rest.chars().peekable();
        let mut s = Spec {
            prefix,
            suffix: String::new(),
            left: false,
            plus: false,
            space: false,
            zero: false,
            width: 0,
            precision: None,
            conv: 'e',
        };
        while let Some(&c) = chars.peek() {
            match c {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '0' => s.zero = true,
                _ => break,
            }
            chars.next();
        }
        let digits = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
            let mut n: Option<usize> = None;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = Some(n.unwrap_or(0) * 10 + d as usize);
                chars.next();
            }
            n
        };
        s.width = digits(&mut chars).unwrap_or(0);
        if chars.peek() == Some(&'.') {
            chars.next();
            s.precision = Some(digits(&mut chars).unwrap_or(0));
        }
        s.conv = chars.next().ok_or_else(bad)?;
        if !"eEfFgGdi".contains(s.conv) {
            return Err(bad());
        }
        let tail: String = chars.collect();
        if tail.replace("%%", "").contains('%') {
            return Err(bad());
        }
        s.suffix = tail.replace("%%", "%");
        Ok(s)
    }

    /// `v` formatted as C's printf formats it, with the text around.
    fn format(&self, v: f64) -> String {
        format!("{}{}{}", self.prefix, self.number(v), self.suffix)
    }

    /// `v` formatted as C's printf formats it.
    fn number(&self, v: f64) -> String {
        // `%d` formats the integer part, whose sign is the one printed (`-0.5` is `0`).
        let integer = "di".contains(self.conv);
        let v = if integer { v.trunc() } else { v };
        let body = if v.is_nan() {
            "nan".to_string()
        } else if v.is_infinite() {
            "inf".to_string()
        } else {
            match self.conv {
                'e' | 'E' => exp_form(v.abs(), self.precision.unwrap_or(6)),
                'f' | 'F' => format!("{:.*}", self.precision.unwrap_or(6), v.abs()),
                'g' | 'G' => general_form(v.abs(), self.precision.unwrap_or(6)),
                _ => format!("{:.0}", v.abs()),
            }
        };
        let body = if self.conv.is_ascii_uppercase() {
            body.to_uppercase()
        } else {
            body
        };
        let sign = if v.is_sign_negative() && !v.is_nan() && !(integer && v == 0.0) {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        };
        let len = sign.len() + body.len();
        if len >= self.width {
            return format!("{sign}{body}");
        }
        let pad = self.width - len;
        if self.left {
            format!("{sign}{body}{}", " ".repeat(pad))
        } else if self.zero && v.is_finite() {
            format!("{sign}{}{body}", "0".repeat(pad))
        } else {
            format!("{}{sign}{body}", " ".repeat(pad))
        }
    }
}

/// `x >= 0` in C's `%.{p}e` form: `d.ddde+XX`, the exponent signed and of two digits at least.
fn exp_form(x: f64, p: usize) -> String {
    let s = format!("{x:.p$e}");
    let (mant, exp) = s.split_once('e').expect("Rust's {:e} has an exponent");
    let e: i32 = exp.parse().expect("an integer exponent");
    format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// `x >= 0` in C's `%.{p}g` form: `%e` or `%f` by the exponent, trailing zeros removed.
fn general_form(x: f64, p: usize) -> String {
    let p = p.max(1);
    if x == 0.0 {
        return "0".into();
    }
    let e = format!("{x:.prec$e}", prec = p - 1);
    let exp: i32 = e
        .split_once('e')
        .expect("an exponent")
        .1
        .parse()
        .expect("an integer");
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if exp < -4 || exp >= p as i32 {
        let s = exp_form(x, p - 1);
        let (mant, rest) = s.split_once('e').expect("an exponent");
        format!("{}e{rest}", trim(mant.to_string()))
    } else {
        trim(format!("{x:.prec$}", prec = (p as i32 - 1 - exp) as usize))
    }
}

/// Parses one field as an element of `dt`, as a [`Scalar`].
fn parse_field(dt: DType, s: &str) -> std::result::Result<Scalar, String> {
    let bad = || format!("cannot parse {s:?} as {}", dt.name());
    if dt.is_complex() {
        return parse_complex(s).map(Scalar::C128).ok_or_else(bad);
    }
    if dt == DType::Bool {
        return match s {
            "True" | "true" => Ok(Scalar::Bool(true)),
            "False" | "false" => Ok(Scalar::Bool(false)),
            _ => s
                .parse::<f64>()
                .map(|v| Scalar::Bool(v != 0.0))
                .map_err(|_| bad()),
        };
    }
    if dt.is_integer() {
        let v: i128 = s.parse().map_err(|_| bad())?;
        let (lo, hi) = int_range(dt);
        if v < lo || v > hi {
            return Err(format!("{s} is out of the range of {}", dt.name()));
        }
        return Ok(if v < 0 {
            Scalar::I64(v as i64)
        } else {
            Scalar::U64(v as u64)
        });
    }
    s.parse::<f64>().map(Scalar::F64).map_err(|_| bad())
}

/// The least and greatest values of an integer dtype.
fn int_range(dt: DType) -> (i128, i128) {
    let bits = dt.size_of() as u32 * 8;
    if dt.is_signed_integer() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// A complex number as Python writes it: `1+2j`, `(1-2j)`, `3j`, `-1e-3+4.5e+2j`, `2`.
fn parse_complex(s: &str) -> Option<c128> {
    let s = s.trim();
    let s = s
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(s);
    let Some(body) = s.strip_suffix('j').or_else(|| s.strip_suffix('J')) else {
        return s.parse::<f64>().ok().map(|re| c128::new(re, 0.0));
    };
    // The split between the parts: the last sign that is not the first character and does
    // not follow an exponent's `e`.
    let bytes = body.as_bytes();
    let split = (1..bytes.len())
        .rev()
        .find(|&i| matches!(bytes[i], b'+' | b'-') && !matches!(bytes[i - 1], b'e' | b'E'));
    match split {
        Some(i) => {
            let re = body[..i].parse::<f64>().ok()?;
            let im = match &body[i..] {
                "+" => 1.0,
                "-" => -1.0,
                t => t.parse::<f64>().ok()?,
            };
            Some(c128::new(re, im))
        }
        None => {
            let im = match body {
                "" | "+" => 1.0,
                "-" => -1.0,
                t => t.parse::<f64>().ok()?,
            };
            Some(c128::new(0.0, im))
        }
    }
}

/// The rows of fields of `text` under `opts`: each `(line number, fields)`.
fn rows<'t>(text: &'t str, opts: &LoadTxt) -> Vec<(usize, Vec<&'t str>)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().skip(opts.skiprows) {
        if opts.max_rows.is_some_and(|m| out.len() >= m) {
            break;
        }
        let line = match opts.comments {
            Some(c) => line.split(c).next().unwrap_or(""),
            None => line,
        };
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = match opts.delimiter {
            None => line.split_whitespace().collect(),
            Some(d) => line.split(d).map(str::trim).collect(),
        };
        out.push((n + 1, fields));
    }
    out
}

/// Reads `path` into an array of `T` on `dev`; `missing`: the value of empty fields
/// (`genfromtxt`), else an empty field is an error.
fn read_text<T: Element, B: ArrayBackend>(
    op: &'static str,
    path: &Path,
    opts: &LoadTxt,
    missing: Option<Scalar>,
    dev: &B,
) -> Result<Array<T, B>> {
    let ctx = Ctx::new(op, path);
    if opts.ndmin > 2 {
        return Err(Error::invalid(
            op,
            format!("ndmin must be 0, 1 or 2, got {}", opts.ndmin),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| ctx.err(format!("cannot read: {e}")))?;
    let rows = rows(&text, opts);
    let mut data: Vec<T> = Vec::new();
    let mut ncols: Option<usize> = None;
    for (line, fields) in &rows {
        let picked: Vec<&str> = match &opts.usecols {
            None => fields.clone(),
            Some(cols) => {
                let mut v = Vec::with_capacity(cols.len());
                for &c in cols {
                    let k = if c < 0 { c + fields.len() as isize } else { c };
                    if k < 0 || k as usize >= fields.len() {
                        return Err(ctx.err(format!(
                            "line {line}: column {c} is out of range for a row of {} columns",
                            fields.len()
                        )));
                    }
                    v.push(fields[k as usize]);
                }
                v
            }
        };
        match ncols {
            None => ncols = Some(picked.len()),
            Some(n) if n != picked.len() => {
                return Err(ctx.err(format!(
                    "line {line}: {} columns where the first row has {n}",
                    picked.len()
                )));
            }
            _ => {}
        }
        for (col, f) in picked.iter().enumerate() {
            let s = match (f.is_empty(), missing) {
                (true, Some(m)) => m,
                _ => parse_field(T::DTYPE, f)
                    .map_err(|m| ctx.err(format!("line {line}, column {col}: {m}")))?,
            };
            data.push(T::from_scalar(s));
        }
    }
    let (r, c) = (rows.len(), ncols.unwrap_or(0));
    // NumPy's shapes: (rows, columns) with every axis of length 1 squeezed away while the
    // result has more than `ndmin` dimensions, then at least `ndmin` (a lone value or row
    // becomes one row of one dimension with `ndmin = 1`, a column with `ndmin = 2`).
    let mut shape: Vec<usize> = if r == 0 { vec![0] } else { vec![r, c] };
    if shape.len() > opts.ndmin {
        shape.retain(|&d| d != 1);
    }
    if shape.len() < opts.ndmin {
        shape = match (opts.ndmin, shape.len()) {
            (1, _) => vec![1],
            (_, 0) => vec![1, 1],
            (_, _) => vec![shape[0], 1],
        };
    }
    Array::from_vec(data, &shape, dev)
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.loadtxt(path, dtype=T, ...)`: the numbers of a text file, one row per
    /// line (see [`LoadTxt`] for the delimiter, comments, skipped rows, columns, row limit
    /// and least dimensions). A file of one row or one column gives a 1-d array, as NumPy.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file, and the line and column of a field that does not
    /// parse as `T` or of a row of another length.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let path = std::env::temp_dir().join(format!("cuprite-loadtxt-{}.csv", std::process::id()));
    /// std::fs::write(&path, "x,y\n1,2.5\n3,-4e2  # a comment\n").unwrap();
    /// let a = Array::<f64, B>::loadtxt(&path, &io::LoadTxt::default().delimiter(',').skiprows(1), dev)?;
    /// assert_eq!((a.shape(), a.to_vec()?), (&[2usize, 2][..], vec![1.0, 2.5, 3.0, -400.0]));
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn loadtxt(path: impl AsRef<Path>, opts: &LoadTxt, dev: &B) -> Result<Self> {
        read_text("loadtxt", path.as_ref(), opts, None, dev)
    }

    /// NumPy's `np.genfromtxt` for numbers: [`loadtxt`](Self::loadtxt) where an empty field
    /// (`1,,3`) is a missing value that takes `filling` (NumPy's `filling_values`; NaN is
    /// NumPy's default for floats).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let path = std::env::temp_dir().join(format!("cuprite-genfromtxt-{}.csv", std::process::id()));
    /// std::fs::write(&path, "1,,3\n4,5,\n").unwrap();
    /// let a = Array::<f64, B>::genfromtxt(&path, &io::LoadTxt::default().delimiter(','), f64::NAN, dev)?;
    /// let v = a.to_vec()?;
    /// assert!(v[1].is_nan() && v[5].is_nan() && v[3] == 4.0);
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn genfromtxt(path: impl AsRef<Path>, opts: &LoadTxt, filling: T, dev: &B) -> Result<Self> {
        read_text(
            "genfromtxt",
            path.as_ref(),
            opts,
            Some(filling.to_scalar()),
            dev,
        )
    }

    /// NumPy's `np.savetxt(path, a, fmt, delimiter, newline, header, footer, comments)` for
    /// a 1-d (one value per line, as NumPy) or 2-d array; the file is written whole or not
    /// at all.
    ///
    /// # Errors
    /// A 0-d array or one of more than two dimensions, or a format outside [`SaveTxt::fmt`]'s
    /// ([`Error::InvalidArgument`]), [`Error::Io`] when the file cannot be written.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let path = std::env::temp_dir().join(format!("cuprite-savetxt-{}.txt", std::process::id()));
    /// let a = Array::<f64, B>::from_vec(vec![1.0, -2.5, 1e-10, 300.0], &[2, 2], dev)?;
    /// a.savetxt(&path, &io::SaveTxt { fmt: "%.3e".into(), delimiter: ",".into(), ..Default::default() })?;
    /// assert_eq!(std::fs::read_to_string(&path).unwrap(), "1.000e+00,-2.500e+00\n1.000e-10,3.000e+02\n");
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn savetxt(&self, path: impl AsRef<Path>, opts: &SaveTxt) -> Result<()> {
        const OP: &str = "savetxt";
        if self.ndim() == 0 || self.ndim() > 2 {
            return Err(Error::invalid(
                OP,
                format!("expected a 1-d or 2-d array, got shape {:?}", self.shape()),
            ));
        }
        let spec = Spec::parse(&opts.fmt).map_err(|m| Error::invalid(OP, m))?;
        let signed = Spec {
            plus: true,
            ..spec.clone()
        };
        let values = self.to_vec()?;
        let cols = if self.ndim() == 2 { self.shape()[1] } else { 1 };
        let mut out = String::new();
        let commented = |out: &mut String, text: &str| {
            for l in text.split('\n') {
                out.push_str(&opts.comments);
                out.push_str(l);
                out.push_str(&opts.newline);
            }
        };
        if !opts.header.is_empty() {
            commented(&mut out, &opts.header);
        }
        for (i, v) in values.iter().enumerate() {
            if i % cols.max(1) != 0 {
                out.push_str(&opts.delimiter);
            }
            match v.to_scalar().widen_half() {
                // NumPy's ` (re+imj)`: the imaginary part always signed.
                Scalar::C64(z) => out.push_str(&format!(
                    " ({}{}j)",
                    spec.format(z.re as f64),
                    signed.format(z.im as f64)
                )),
                Scalar::C128(z) => {
                    out.push_str(&format!(" ({}{}j)", spec.format(z.re), signed.format(z.im)))
                }
                s => out.push_str(&spec.format(<f64 as Element>::from_scalar(s))),
            }
            if (i + 1) % cols.max(1) == 0 {
                out.push_str(&opts.newline);
            }
        }
        if !opts.footer.is_empty() {
            commented(&mut out, &opts.footer);
        }
        let path = path.as_ref();
        let ctx = Ctx::new(OP, path);
        write_atomically(&ctx, path, |mut file| {
            file.write_all(out.as_bytes())
                .map_err(|e| ctx.err(format!("write failed: {e}")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_forms_match_c() {
        let f = |fmt: &str, v: f64| Spec::parse(fmt).unwrap().format(v);
        assert_eq!(f("%.18e", 1.0), "1.000000000000000000e+00");
        assert_eq!(f("%.3e", -2.5e-10), "-2.500e-10");
        assert_eq!(f("%.2e", 1e100), "1.00e+100");
        assert_eq!(f("%.4f", 1.23456), "1.2346");
        assert_eq!(f("x=%.1f%%", 0.25), "x=0.2%");
        assert_eq!(f("%%%d", 3.0), "%3");
        assert_eq!(f("%8.2f", -1.5), "   -1.50");
        assert_eq!(f("%-8.2f|", 1.5), "1.50    |");
        assert_eq!(f("%08.2f", -1.5), "-0001.50");
        assert_eq!(f("%+.1f", 2.0), "+2.0");
        assert_eq!(f("%d", 42.0), "42");
        assert_eq!(f("%d", -7.0), "-7");
        assert_eq!(f("%d", -0.5), "0");
        assert_eq!(f("%d", -2.7), "-2");
        assert_eq!(f("%5d", -0.3), "    0");
        assert_eq!(f("%g", 0.0001), "0.0001");
        assert_eq!(f("%g", 0.00001), "1e-05");
        assert_eq!(f("%g", 123456.0), "123456");
        assert_eq!(f("%g", 1234567.0), "1.23457e+06");
        assert_eq!(f("%.3g", 2.5), "2.5");
        assert_eq!(f("%E", 1.0), "1.000000E+00");
        assert_eq!(f("%.2e", f64::NAN), "nan");
        assert_eq!(f("%.2e", f64::NEG_INFINITY), "-inf");
        assert_eq!(f("%.1f", -0.0), "-0.0");
        for bad in ["%", "%q", "%.2e%", "%e %e", "%5", "text"] {
            assert!(Spec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn complex_fields_parse_as_python_writes_them() {
        let c = |re, im| Some(c128::new(re, im));
        assert_eq!(parse_complex("1+2j"), c(1.0, 2.0));
        assert_eq!(parse_complex("(1-2j)"), c(1.0, -2.0));
        assert_eq!(parse_complex("3j"), c(0.0, 3.0));
        assert_eq!(parse_complex("-j"), c(0.0, -1.0));
        assert_eq!(parse_complex("-1e-3+4.5e+2j"), c(-1e-3, 450.0));
        assert_eq!(parse_complex("2.5"), c(2.5, 0.0));
        assert_eq!(parse_complex("1+2"), None);
        assert_eq!(parse_complex("abc"), None);
    }

    #[test]
    fn integer_fields_are_integers_in_range() {
        assert_eq!(parse_field(DType::U8, "255"), Ok(Scalar::U64(255)));
        assert!(parse_field(DType::U8, "256").is_err());
        assert!(parse_field(DType::I8, "-129").is_err());
        assert!(parse_field(DType::I64, "1.5").is_err());
        assert_eq!(parse_field(DType::Bool, "True"), Ok(Scalar::Bool(true)));
        assert_eq!(parse_field(DType::Bool, "0"), Ok(Scalar::Bool(false)));
        assert!(parse_field(DType::F64, "1,5").is_err());
        assert_eq!(
            parse_field(DType::F32, "inf"),
            Ok(Scalar::F64(f64::INFINITY))
        );
    }
}
