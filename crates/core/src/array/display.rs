//! Printing arrays the way NumPy does: `Display` is `print(a)` (`[[1. 2.]\n [3. 4.]]`),
//! `Debug` is `repr(a)` (`array([[1., 2.], ...], dtype=float32)`). Arrays of more than 1000
//! elements are summarised with `...`, and only the printed corners are downloaded.

use super::Array;
use crate::backend::BackendBase;
use crate::dtype::{DType, Element, Scalar, bf16};
use crate::error::Result;
use crate::slice::SliceArg;
use std::fmt;

/// Arrays with more elements than this are summarised (NumPy's `threshold`).
pub const PRINT_THRESHOLD: usize = 1000;
/// Elements kept at each end of a summarised axis (NumPy's `edgeitems`).
pub const EDGE_ITEMS: usize = 3;
/// Maximum printed line width (NumPy's `linewidth`).
pub const LINE_WIDTH: usize = 75;
/// Fractional digits of floats (NumPy's `precision`).
const PRECISION: usize = 8;

/// The printed part of an array: a dense block of host values plus, per axis, where the
/// `...` goes (the number of leading items before it), if anywhere.
struct Printed<T> {
    shape: Vec<usize>,
    data: Vec<T>,
    gap: Vec<Option<usize>>,
}

/// Downloads the corners of `a` that the printout shows: one transfer per corner block.
fn fetch<T: Element, B: BackendBase>(a: &Array<T, B>) -> Result<Printed<T>> {
    let summarise = a.size() > PRINT_THRESHOLD;
    let pieces: Vec<Vec<(SliceArg, usize)>> = a
        .shape()
        .iter()
        .map(|&n| {
            if summarise && n > 2 * EDGE_ITEMS {
                let e = EDGE_ITEMS as isize;
                vec![
                    (SliceArg::from(..e), EDGE_ITEMS),
                    (SliceArg::from(-e..), EDGE_ITEMS),
                ]
            } else {
                vec![(SliceArg::from(..), n)]
            }
        })
        .collect();
    let shape: Vec<usize> = pieces.iter().map(|p| p.iter().map(|x| x.1).sum()).collect();
    let gap = pieces
        .iter()
        .map(|p| (p.len() == 2).then_some(EDGE_ITEMS))
        .collect();
    let total: usize = shape.iter().product();
    let mut data = vec![T::ZERO; total];
    let ndim = shape.len();
    // Iterate over every combination of pieces (2^k blocks for k summarised axes).
    let counts: Vec<usize> = pieces.iter().map(|p| p.len()).collect();
    let mut choice = vec![0usize; ndim];
    loop {
        let args: Vec<SliceArg> = (0..ndim).map(|ax| pieces[ax][choice[ax]].0).collect();
        let block = a.with_layout(crate::slice::apply_slice(a.layout(), &args)?);
        let values = block.to_vec()?;
        let origin: Vec<usize> = (0..ndim)
            .map(|ax| if choice[ax] == 1 { EDGE_ITEMS } else { 0 })
            .collect();
        let bshape = block.shape().to_vec();
        for (flat, v) in values.into_iter().enumerate() {
            let (mut rem, mut dst, mut stride) = (flat, 0usize, 1usize);
            for ax in (0..ndim).rev() {
                let i = rem % bshape[ax].max(1);
                rem /= bshape[ax].max(1);
                dst += (origin[ax] + i) * stride;
                stride *= shape[ax];
            }
            data[dst] = v;
        }
        // Next combination.
        let mut ax = ndim;
        loop {
            if ax == 0 {
                return Ok(Printed { shape, data, gap });
            }
            ax -= 1;
            choice[ax] += 1;
            if choice[ax] < counts[ax] {
                break;
            }
            choice[ax] = 0;
        }
    }
}

/// True when NumPy would print these floats (of precision `prec`) in scientific notation:
/// some magnitude at or above `10^min(8, precision)` (NumPy 2's cutoff: 1e3 for float16, 1e6
/// for float32, 1e8 for float64), below 1e-4, or magnitudes more than 1e3 apart.
fn use_scientific(values: &[f64], prec: Prec) -> bool {
    let cutoff = prec.array_cutoff();
    let (mut min, mut max, mut any) = (f64::INFINITY, 0.0f64, false);
    for v in values.iter().map(|v| v.abs()) {
        if v.is_finite() && v != 0.0 {
            min = min.min(v);
            max = max.max(v);
            any = true;
        }
    }
    any && (max >= cutoff || min < 1e-4 || max / min > 1e3)
}

/// The float type whose values are printed: its shortest round-trip strings are NumPy's
/// digits.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Prec {
    /// float16.
    Half,
    /// bfloat16.
    BHalf,
    /// float32 (and the parts of complex64).
    Single,
    /// float64 (and the parts of complex128).
    Double,
}

impl Prec {
    fn of(d: DType) -> Prec {
        match d {
            DType::F16 => Prec::Half,
            DType::BF16 => Prec::BHalf,
            DType::F32 | DType::C64 => Prec::Single,
            _ => Prec::Double,
        }
    }

    /// The magnitude from which NumPy prints an array of this type in scientific notation:
    /// `10^min(8, precision)` with the type's decimal precision (`np.finfo(t).precision`:
    /// 3, 6, 15); bfloat16, which NumPy does not print, takes float16's.
    fn array_cutoff(self) -> f64 {
        match self {
            Prec::Half | Prec::BHalf => 1e3,
            Prec::Single => 1e6,
            Prec::Double => 1e8,
        }
    }

    /// The magnitude from which NumPy prints a scalar of this type in scientific notation:
    /// `10^precision`, but 1e16 for float64 (`str(np.float32(1e6))` is `1e+06`,
    /// `str(np.float64(1e15))` is `1000000000000000.0`).
    fn scalar_cutoff(self) -> f64 {
        match self {
            Prec::Double => 1e16,
            p => p.array_cutoff(),
        }
    }

    /// True when the decimal string `s` reads back to `v` in this type.
    fn reads_back(self, s: &str, v: f64) -> bool {
        let Ok(x) = s.parse::<f64>() else {
            return false;
        };
        match self {
            Prec::Half => crate::kernel::scalar::f16_from_f64(x).to_f64() == v,
            Prec::BHalf => bf16::from_f64(x).to_f64() == v,
            Prec::Single => x as f32 as f64 == v,
            Prec::Double => x == v,
        }
    }

    /// The shortest string in scientific notation (`1.5e-3`, Rust's `{:e}` style) that reads
    /// back to the finite `v` of this type.
    fn shortest_sci(self, v: f64) -> String {
        match self {
            Prec::Single => format!("{:e}", v as f32),
            Prec::Double => format!("{v:e}"),
            // At most 5 significant digits tell 16-bit floats apart; 17 always read back.
            Prec::Half | Prec::BHalf => (0..17)
                .map(|p| format!("{v:.p$e}"))
                .find(|s| self.reads_back(s, v))
                .unwrap_or_else(|| format!("{v:e}")),
        }
    }

    /// The shortest string in positional notation (`0.0015`, `100`) that reads back to the
    /// finite `v` of this type.
    fn shortest_pos(self, v: f64) -> String {
        match self {
            Prec::Single => format!("{}", v as f32),
            Prec::Double => format!("{v}"),
            Prec::Half | Prec::BHalf => {
                // The same digits as the scientific string, rounded at the same place.
                let s = self.shortest_sci(v);
                let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
                let frac = m.split('.').nth(1).map_or(0, str::len) as i64;
                let e: i64 = e.parse().unwrap_or(0);
                let digits = (frac - e).max(0) as usize;
                format!("{v:.digits$}")
            }
        }
    }
}

/// Fractional digits of the shortest string that reads back to `v` in its own element type
/// (`prec`), in scientific (`sci`) or positional notation.
fn shortest_digits(v: f64, prec: Prec, sci: bool) -> usize {
    let s = if sci {
        prec.shortest_sci(v)
    } else {
        prec.shortest_pos(v)
    };
    let mant = s.split('e').next().unwrap_or("");
    mant.split('.').nth(1).map_or(0, str::len)
}

/// One float in positional notation with at most `PRECISION` fractional digits and no
/// more than its element type's shortest round-trip string needs, trailing zeros removed
/// (NumPy's default `floatmode='maxprec'`: float32 `1.1` prints `1.1`, not `1.10000002`).
fn format_float(v: f64, prec: Prec) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let digits = PRECISION.min(shortest_digits(v, prec, false)).max(1);
    let m = format!("{:.*}", digits, v);
    let m = m.trim_end_matches('0');
    m.to_string()
}

/// Floats in scientific notation with one common number of mantissa digits and exponent
/// width, as NumPy prints them.
fn format_scientific(values: &[f64], prec: Prec) -> Vec<String> {
    let parts = |v: f64, digits: usize| -> (String, i32) {
        let s = format!("{:.*e}", digits, v);
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        (mant.to_string(), exp.parse().unwrap_or(0))
    };
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let digits = finite
        .clone()
        .map(|v| {
            let (m, _) = parts(v, PRECISION.min(shortest_digits(v, prec, true)));
            m.split('.')
                .nth(1)
                .unwrap_or("")
                .trim_end_matches('0')
                .len()
        })
        .max()
        .unwrap_or(0);
    let exp_width = finite
        .map(|v| parts(v, digits).1.unsigned_abs().to_string().len())
        .max()
        .unwrap_or(2)
        .max(2);
    values
        .iter()
        .map(|&v| {
            if !v.is_finite() {
                return format_float(v, prec);
            }
            let (m, e) = parts(v, digits);
            let m = if m.contains('.') { m } else { format!("{m}.") };
            let sign = if e < 0 { '-' } else { '+' };
            format!("{m}e{sign}{:0w$}", e.unsigned_abs(), w = exp_width)
        })
        .collect()
}

/// Formats a set of floats the way NumPy formats one array of them.
fn format_floats(values: &[f64], prec: Prec) -> Vec<String> {
    let mut s = if use_scientific(values, prec) {
        format_scientific(values, prec)
    } else {
        values.iter().map(|&v| format_float(v, prec)).collect()
    };
    align_floats(&mut s);
    s
}

/// Pads float strings so the decimal points line up (NumPy pads the fraction on the right).
fn align_floats(strs: &mut [String]) {
    let split = |s: &str| -> (usize, usize) {
        match s.find(['.', 'e']) {
            Some(p) if s.as_bytes()[p] == b'.' => (p, s.len() - p),
            _ => (s.len(), 0),
        }
    };
    // nan and inf take no part in the alignment; they are right-aligned afterwards.
    let numeric = |s: &str| s.bytes().any(|b| b.is_ascii_digit());
    let (mut wi, mut wf) = (0, 0);
    for s in strs.iter().filter(|s| numeric(s)) {
        let (i, f) = split(s);
        wi = wi.max(i);
        wf = wf.max(f);
    }
    for s in strs.iter_mut().filter(|s| numeric(s)) {
        let (i, f) = split(s);
        *s = format!("{}{}{}", " ".repeat(wi - i), s, " ".repeat(wf - f));
    }
}

/// Formats every printed value to a string of one common width.
fn format_values<T: Element>(data: &[T]) -> Vec<String> {
    let scalars: Vec<Scalar> = data.iter().map(|v| v.to_scalar()).collect();
    let prec = Prec::of(T::DTYPE);
    let mut out: Vec<String> = match T::DTYPE {
        DType::F16 | DType::BF16 | DType::F32 | DType::F64 => {
            let vals: Vec<f64> = scalars.iter().map(scalar_re).collect();
            format_floats(&vals, prec)
        }
        DType::C64 | DType::C128 => {
            let re: Vec<f64> = scalars.iter().map(scalar_re).collect();
            let im: Vec<f64> = scalars.iter().map(scalar_im).collect();
            // NumPy formats the real parts as one float array and the imaginary parts as
            // another with an explicit sign, each padded on its own; the `j` goes before
            // the imaginary part's right padding.
            let r = pad_left(format_floats(&re, prec));
            let i = pad_left(format_floats_signed(&im, prec));
            r.iter()
                .zip(&i)
                .map(|(a, b)| {
                    let t = b.trim_end();
                    format!("{a}{t}j{}", &b[t.len()..])
                })
                .collect()
        }
        DType::Bool => scalars
            .iter()
            .map(|s| match s {
                Scalar::Bool(true) => "True".to_string(),
                _ => "False".to_string(),
            })
            .collect(),
        _ => scalars
            .iter()
            .map(|s| match *s {
                Scalar::I8(v) => v.to_string(),
                Scalar::U8(v) => v.to_string(),
                Scalar::I16(v) => v.to_string(),
                Scalar::U16(v) => v.to_string(),
                Scalar::I32(v) => v.to_string(),
                Scalar::U32(v) => v.to_string(),
                Scalar::I64(v) => v.to_string(),
                Scalar::U64(v) => v.to_string(),
                // Only integer dtypes reach here: this is never met.
                other => format!("{other:?}"),
            })
            .collect(),
    };
    let width = out.iter().map(|s| s.len()).max().unwrap_or(0);
    for s in out.iter_mut() {
        *s = format!("{s:>width$}");
    }
    out
}

/// Like [`format_floats`] with a sign on every value (`+1.`, `-0.5`, `+nan`, `+inf`), as
/// NumPy prints imaginary parts.
fn format_floats_signed(values: &[f64], prec: Prec) -> Vec<String> {
    let mut s = if use_scientific(values, prec) {
        format_scientific(values, prec)
    } else {
        values.iter().map(|&v| format_float(v, prec)).collect()
    };
    for x in s.iter_mut() {
        if !x.starts_with('-') {
            x.insert(0, '+');
        }
    }
    align_floats(&mut s);
    s
}

/// Right-aligns strings to their common width.
fn pad_left(mut strs: Vec<String>) -> Vec<String> {
    let width = strs.iter().map(|s| s.len()).max().unwrap_or(0);
    for s in strs.iter_mut() {
        *s = format!("{s:>width$}");
    }
    strs
}

/// One float as Python's `str()` prints NumPy's float scalars (the shortest string that
/// reads back to the same value): positional for `1e-4 <= |v| <` the type's cutoff (1e16
/// for float64, 1e6 for float32, 1e3 for float16) and 0 (`5.0`, `0.1`),
/// else scientific (`1e+20`, `1e-05`). `int_like` leaves `.0` off integral values (the
/// parts of a complex scalar: `(1+2j)`).
fn scalar_float_str(v: f64, prec: Prec, int_like: bool) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = v.abs();
    if v == 0.0 || (1e-4..prec.scalar_cutoff()).contains(&a) {
        let s = prec.shortest_pos(v);
        if s.contains('.') || int_like {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        let s = prec.shortest_sci(v);
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", e.unsigned_abs())
    }
}

/// A 0-d array as NumPy's `str()` prints it: the scalar's own string (`5.0`, `1e+20`,
/// `(1+2j)`, `2j`), not the array formatter's (`5.`).
fn scalar_str<T: Element>(v: T) -> String {
    let s = v.to_scalar();
    let prec = Prec::of(T::DTYPE);
    match T::DTYPE {
        DType::F16 | DType::BF16 | DType::F32 | DType::F64 => {
            scalar_float_str(scalar_re(&s), prec, false)
        }
        DType::C64 | DType::C128 => {
            let (re, im) = (scalar_re(&s), scalar_im(&s));
            let im_str = |x: f64| scalar_float_str(x, prec, true);
            if re == 0.0 && !re.is_sign_negative() {
                return format!("{}j", im_str(im));
            }
            let sign = if im.is_sign_negative() && !im.is_nan() {
                '-'
            } else {
                '+'
            };
            format!(
                "({}{sign}{}j)",
                scalar_float_str(re, prec, true),
                im_str(im.abs())
            )
        }
        _ => format_values(&[v]).remove(0),
    }
}

fn scalar_re(s: &Scalar) -> f64 {
    match *s {
        Scalar::F16(v) => v.to_f64(),
        Scalar::BF16(v) => v.to_f64(),
        Scalar::F32(v) => v as f64,
        Scalar::F64(v) => v,
        Scalar::C64(v) => v.re as f64,
        Scalar::C128(v) => v.re,
        _ => 0.0,
    }
}

fn scalar_im(s: &Scalar) -> f64 {
    match *s {
        Scalar::C64(v) => v.im as f64,
        Scalar::C128(v) => v.im,
        _ => 0.0,
    }
}

/// Writes the nested-bracket body; `indent` is the column where the outer `[` sits.
fn write_nested(
    out: &mut String,
    p: &Printed<String>,
    sep: &str,
    indent: usize,
    axis: usize,
    offset: usize,
) {
    let ndim = p.shape.len();
    out.push('[');
    let n = p.shape[axis];
    let stride: usize = p.shape[axis + 1..].iter().product();
    if axis + 1 == ndim {
        let mut col = indent + axis + 1;
        for i in 0..n {
            let mut item = p.data[offset + i].clone();
            if i + 1 < n || p.gap[axis] == Some(n) {
                item.push_str(sep.trim_end());
            }
            let piece_len = item.len() + if i > 0 { 1 } else { 0 };
            if i > 0 {
                if col + piece_len > LINE_WIDTH {
                    out.push('\n');
                    out.push_str(&" ".repeat(indent + axis + 1));
                    col = indent + axis + 1;
                } else {
                    out.push(' ');
                    col += 1;
                }
            }
            out.push_str(&item);
            col += item.len();
            if p.gap[axis] == Some(i + 1) {
                out.push_str(" ...");
                out.push_str(sep.trim_end());
                col += 4 + sep.trim_end().len();
            }
        }
    } else {
        let blank_lines = "\n".repeat(ndim - axis - 1);
        for i in 0..n {
            if i > 0 {
                out.push_str(sep.trim_end());
                out.push_str(&blank_lines);
                out.push_str(&" ".repeat(indent + axis + 1));
            }
            write_nested(out, p, sep, indent, axis + 1, offset + i * stride);
            if p.gap[axis] == Some(i + 1) {
                out.push_str(sep.trim_end());
                out.push_str(&blank_lines);
                out.push_str(&" ".repeat(indent + axis + 1));
                out.push_str("...");
            }
        }
    }
    out.push(']');
}

fn render<T: Element, B: BackendBase>(a: &Array<T, B>, sep: &str, indent: usize) -> Result<String> {
    let printed = fetch(a)?;
    let strs = format_values(&printed.data);
    if printed.shape.is_empty() {
        return Ok(strs[0].trim().to_string());
    }
    let p = Printed {
        shape: printed.shape,
        data: strs,
        gap: printed.gap,
    };
    let mut out = String::new();
    if a.size() == 0 {
        out.push_str("[]");
        return Ok(out);
    }
    write_nested(&mut out, &p, sep, indent, 0, 0);
    Ok(out)
}

/// The dtypes NumPy's repr leaves implicit.
fn default_dtype(d: DType) -> bool {
    matches!(d, DType::F64 | DType::I64 | DType::Bool | DType::C128)
}

impl<T: Element, B: BackendBase> fmt::Display for Array<T, B> {
    /// Like NumPy's `str(a)`; downloads only the printed elements.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if self.ndim() == 0 {
            fetch(self).map(|p| scalar_str(p.data[0]))
        } else {
            render(self, " ", 0)
        };
        match text {
            Ok(s) => f.write_str(&s),
            Err(e) => write!(
                f,
                "<array on {} could not be read: {e}>",
                self.device.label()
            ),
        }
    }
}

impl<T: Element, B: BackendBase> fmt::Debug for Array<T, B> {
    /// Like NumPy's `repr(a)`; downloads only the printed elements.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body = match render(self, ", ", 6) {
            Ok(s) => s,
            Err(e) => {
                return write!(
                    f,
                    "<array on {} could not be read: {e}>",
                    self.device.label()
                );
            }
        };
        let mut extras = Vec::new();
        if (self.size() == 0 && self.ndim() > 1) || self.size() > PRINT_THRESHOLD {
            extras.push(format!("shape={:?}", ShapeTuple(self.shape())));
        }
        if self.size() == 0 || !default_dtype(T::DTYPE) {
            extras.push(format!("dtype={}", T::DTYPE));
        }
        let text = format!("array({body}");
        if extras.is_empty() {
            return write!(f, "{text})");
        }
        let extras = extras.join(", ");
        let last_line = text.rsplit('\n').next().unwrap_or("").len();
        if last_line + extras.len() + 1 > LINE_WIDTH {
            write!(f, "{text},\n      {extras})")
        } else {
            write!(f, "{text}, {extras})")
        }
    }
}

/// Prints a shape as a Python tuple: `(2, 3)`, `(4,)`.
struct ShapeTuple<'a>(&'a [usize]);

impl fmt::Debug for ShapeTuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|d| d.to_string()).collect();
        if parts.len() == 1 {
            write!(f, "({},)", parts[0])
        } else {
            write!(f, "({})", parts.join(", "))
        }
    }
}
