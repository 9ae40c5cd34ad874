//! The header of a `.npy` stream: the magic string, the format version, and the Python dict
//! literal `{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }` that says the element
//! type (with its byte order), the order of the data and the shape. Read and checked here
//! before any data is touched; every problem is a message for the caller to wrap in
//! [`Error::Io`](crate::Error::Io) with the file's name. The dict is parsed by `py_literal`
//! (the parser `npyz` uses), the type string by `npyz`.

use crate::dtype::DType;
use crate::layout::{MAX_NDIM, checked_shape_size};
use npyz::{TypeChar, TypeStr};
use num_traits::ToPrimitive;
use py_literal::Value;
use std::io::{self, Read, Write};

/// The first six bytes of every `.npy` stream.
pub(crate) const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// The longest header read: NumPy writes well under 1 KiB for 64 dimensions, and refuses
/// headers above 10 000 bytes unless told otherwise.
const MAX_HEADER_LEN: usize = 1 << 16;

/// The deepest bracket nesting a header may have (a plain dtype needs 2).
const MAX_NESTING: usize = 16;

/// What a `.npy` header says about the data after it.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    /// The element type.
    pub dtype: DType,
    /// The type string as written in the file, byte order included (`>i4`).
    pub typestr: TypeStr,
    /// The shape.
    pub shape: Vec<usize>,
    /// True when the data is in Fortran (column-major) order.
    pub fortran_order: bool,
    /// Number of elements (checked: its byte count fits an array).
    pub size: usize,
    /// Bytes before the data: magic, version, header length and header.
    pub len: u64,
}

impl Header {
    /// Bytes of data the header announces.
    pub fn data_bytes(&self) -> u64 {
        self.size as u64 * self.dtype.size_of() as u64
    }
}

/// Writes the header NumPy's `np.save` writes for `dtype`, `shape` and the order: format
/// 1.0 (2.0 when the dict is too long for a 16-bit length), the dict padded with spaces and
/// a newline so that the data starts at a multiple of 64 bytes.
pub(crate) fn write_header(
    w: &mut impl Write,
    dtype: DType,
    shape: &[usize],
    fortran_order: bool,
) -> io::Result<()> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let order = if fortran_order { "True" } else { "False" };
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': {order}, 'shape': {shape}, }}",
        typestr_of(dtype)
    );
    // Magic, version and length, then the dict and at least the newline.
    let pad = |len_bytes: usize| (64 - (8 + len_bytes + dict.len() + 1) % 64) % 64;
    let mut out = MAGIC.to_vec();
    let text_len = dict.len() + pad(2) + 1;
    if let Ok(len) = u16::try_from(text_len) {
        out.extend([1, 0]);
        out.extend(len.to_le_bytes());
    } else {
        let text_len = dict.len() + pad(4) + 1;
        let len = u32::try_from(text_len)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "header too long"))?;
        out.extend([2, 0]);
        out.extend(len.to_le_bytes());
    }
    let len_bytes = out.len() - 8;
    out.extend(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', pad(len_bytes)));
    out.push(b'\n');
    w.write_all(&out)
}

/// Reads into `buf` until it is full or the stream ends; the number of bytes read.
pub(crate) fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

fn read_err(e: io::Error) -> String {
    format!("read failed: {e}")
}

/// Reads and checks the header, leaving `r` at the first byte of the data.
pub(crate) fn read_header(r: &mut impl Read) -> Result<Header, String> {
    let mut pre = [0u8; 8];
    let got = read_full(r, &mut pre).map_err(read_err)?;
    let magic_len = got.min(MAGIC.len());
    if pre[..magic_len] != MAGIC[..magic_len] || got == 0 {
        return Err(format!(
            "not a .npy file: it does not start with the magic string \\x93NUMPY (found {:?})",
            String::from_utf8_lossy(&pre[..magic_len])
        ));
    }
    if got < pre.len() {
        return Err(format!(
            "truncated header: the file ends after {got} bytes, inside the magic string and \
             version"
        ));
    }
    let (major, minor) = (pre[6], pre[7]);
    let len_bytes = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => {
            return Err(format!(
                "unsupported .npy format version {major}.{minor} (cuprite reads 1.0, 2.0 and \
                 3.0)"
            ));
        }
    };
    let mut len_buf = [0u8; 4];
    let got = read_full(r, &mut len_buf[..len_bytes]).map_err(read_err)?;
    if got < len_bytes {
        return Err("truncated header: the file ends inside the header length".into());
    }
    let header_len = u32::from_le_bytes(len_buf) as usize;
    if header_len > MAX_HEADER_LEN {
        return Err(format!(
            "the header is {header_len} bytes long, more than the {MAX_HEADER_LEN} cuprite reads"
        ));
    }
    let mut text = vec![0u8; header_len];
    let got = read_full(r, &mut text).map_err(read_err)?;
    if got < header_len {
        return Err(format!(
            "truncated header: the header is {header_len} bytes long, the file ends after {got} \
             of them"
        ));
    }
    // Versions 1 and 2 are latin-1, version 3 is UTF-8.
    let text: String = if major == 3 {
        String::from_utf8(text).map_err(|_| "the header is not valid UTF-8".to_string())?
    } else {
        text.iter().map(|&b| b as char).collect()
    };
    let mut header = parse_dict(&text)?;
    header.len = (8 + len_bytes + header_len) as u64;
    Ok(header)
}

/// Parses the header's dict literal.
fn parse_dict(text: &str) -> Result<Header, String> {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "the header nests brackets more than {MAX_NESTING} deep"
                    ));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let value: Value =
        text.trim_end_matches(['\n', ' ', '\0'])
            .parse()
            .map_err(|e: py_literal::ParseError| {
                let first = e.to_string();
                let first = first.lines().next().unwrap_or("").to_string();
                format!("the header is not a Python dict literal ({first}): {text:?}")
            })?;
    let Value::Dict(items) = value else {
        return Err(format!("the header is not a Python dict: {text:?}"));
    };
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    for (key, value) in items {
        match key.as_string().map(String::as_str) {
            Some("descr") => descr = Some(value),
            Some("fortran_order") => fortran = Some(value),
            Some("shape") => shape = Some(value),
            _ => {
                return Err(format!(
                    "the header has the key {key}; a .npy header has exactly 'descr', \
                     'fortran_order' and 'shape'"
                ));
            }
        }
    }
    let missing = |k: &str| format!("the header has no '{k}': {text:?}");
    let fortran_order = match fortran.ok_or_else(|| missing("fortran_order"))? {
        Value::Boolean(b) => b,
        other => return Err(format!("'fortran_order' is {other}, not True or False")),
    };
    let shape = parse_shape(&shape.ok_or_else(|| missing("shape"))?)?;
    let typestr = parse_descr(&descr.ok_or_else(|| missing("descr"))?)?;
    let dtype = dtype_of(&typestr)?;
    let size = checked_shape_size("", &shape, dtype.size_of()).map_err(|_| {
        format!(
            "the header's shape {shape:?} of {dtype} is larger than an array may be \
             (isize::MAX bytes)"
        )
    })?;
    Ok(Header {
        dtype,
        typestr,
        shape,
        fortran_order,
        size,
        len: 0,
    })
}

fn parse_shape(v: &Value) -> Result<Vec<usize>, String> {
    let dims = match v {
        Value::Tuple(d) | Value::List(d) => d,
        other => return Err(format!("'shape' is {other}, not a tuple of integers")),
    };
    if dims.len() > MAX_NDIM {
        return Err(format!(
            "the header's shape has {} dimensions, more than the {MAX_NDIM} an array may have",
            dims.len()
        ));
    }
    dims.iter()
        .map(|d| match d {
            Value::Integer(i) => i
                .to_usize()
                .ok_or_else(|| format!("the header's shape {v} has the dimension {i}")),
            other => Err(format!(
                "the header's shape {v} has {other}, not a non-negative integer"
            )),
        })
        .collect()
}

fn parse_descr(v: &Value) -> Result<TypeStr, String> {
    match v {
        Value::String(s) if s.is_ascii() => s
            .parse()
            .map_err(|e: npyz::ParseTypeStrError| format!("unsupported dtype '{s}' ({e})")),
        Value::List(_) => Err(format!(
            "unsupported dtype {v}: a structured (record) dtype; cuprite reads arrays of \
             {SUPPORTED}"
        )),
        other => Err(format!("unsupported dtype {other}")),
    }
}

/// The dtypes cuprite reads and writes, for messages.
const SUPPORTED: &str = "bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, \
                         float16, bfloat16 (as '<V2'), float32, float64, complex64, complex128";

/// The element type of a type string, or a message naming the file's dtype as NumPy does.
pub(crate) fn dtype_of(ts: &TypeStr) -> Result<DType, String> {
    let size = ts.size_field();
    Ok(match (ts.type_char(), size) {
        (TypeChar::Bool, 1) => DType::Bool,
        (TypeChar::Int, 1) => DType::I8,
        (TypeChar::Uint, 1) => DType::U8,
        (TypeChar::Int, 2) => DType::I16,
        (TypeChar::Uint, 2) => DType::U16,
        (TypeChar::Int, 4) => DType::I32,
        (TypeChar::Uint, 4) => DType::U32,
        (TypeChar::Int, 8) => DType::I64,
        (TypeChar::Uint, 8) => DType::U64,
        (TypeChar::Float, 2) => DType::F16,
        // bfloat16 as ml_dtypes saves it: NumPy knows no such type and writes two raw bytes.
        (TypeChar::RawData, 2) => DType::BF16,
        (TypeChar::Float, 4) => DType::F32,
        (TypeChar::Float, 8) => DType::F64,
        (TypeChar::Complex, 8) => DType::C64,
        (TypeChar::Complex, 16) => DType::C128,
        (c, _) => {
            let what = match c {
                TypeChar::Int => format!("int{}", size * 8),
                TypeChar::Uint => format!("uint{}", size * 8),
                TypeChar::Float => format!("float{}", size * 8),
                TypeChar::Complex => format!("complex{}", size * 8),
                TypeChar::TimeDelta => "timedelta64".into(),
                TypeChar::DateTime => "datetime64".into(),
                TypeChar::ByteStr => "byte string".into(),
                TypeChar::UnicodeStr => "unicode string".into(),
                TypeChar::Object => "Python objects, pickled".into(),
                TypeChar::RawData => "raw bytes".into(),
                _ => format!("type character {c}"),
            };
            return Err(format!(
                "unsupported dtype '{ts}' ({what}); cuprite reads arrays of {SUPPORTED}"
            ));
        }
    })
}

/// The little-endian type string NumPy writes for `dtype` (`|b1`, `|u1`, `<i4`, ..., `<c16`).
pub(crate) fn typestr_of(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "|b1",
        DType::I8 => "|i1",
        DType::U8 => "|u1",
        DType::I16 => "<i2",
        DType::U16 => "<u2",
        DType::I32 => "<i4",
        DType::U32 => "<u4",
        DType::I64 => "<i8",
        DType::U64 => "<u8",
        DType::F16 => "<f2",
        DType::BF16 => "<V2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::C64 => "<c8",
        DType::C128 => "<c16",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(header: &str, version: u8) -> Vec<u8> {
        let mut v = MAGIC.to_vec();
        v.extend([version, 0]);
        if version == 1 {
            v.extend((header.len() as u16).to_le_bytes());
        } else {
            v.extend((header.len() as u32).to_le_bytes());
        }
        v.extend(header.as_bytes());
        v
    }

    fn read(bytes: &[u8]) -> Result<Header, String> {
        read_header(&mut &bytes[..])
    }

    #[test]
    fn reads_what_numpy_writes() {
        let text = "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }          \n";
        let h = read(&npy(text, 1)).unwrap();
        assert_eq!(
            (h.dtype, h.shape.as_slice(), h.fortran_order),
            (DType::I32, &[2, 3][..], true)
        );
        assert_eq!(
            (h.size, h.data_bytes(), h.len),
            (6, 24, 10 + text.len() as u64)
        );
        assert_eq!(h.typestr.to_string(), ">i4");
        let h = read(&npy(
            "{'descr': '<c16', 'fortran_order': False, 'shape': ()}",
            2,
        ))
        .unwrap();
        assert_eq!((h.dtype, h.shape.len(), h.size), (DType::C128, 0, 1));
        let h = read(&npy(
            "{'shape': [0, 5], 'fortran_order': False, 'descr': '|b1'}",
            3,
        ))
        .unwrap();
        assert_eq!((h.dtype, h.size), (DType::Bool, 0));
        for d in DType::ALL {
            assert_eq!(dtype_of(&typestr_of(d).parse().unwrap()), Ok(d));
        }
    }

    #[test]
    fn writes_what_numpy_writes() {
        let write = |dtype, shape: &[usize], fortran| {
            let mut out = Vec::new();
            write_header(&mut out, dtype, shape, fortran).unwrap();
            out
        };
        // np.save(f, np.zeros((2, 3))): 128 bytes, the dict padded to 118.
        let h = write(DType::F64, &[2, 3], false);
        let dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
        let mut want = b"\x93NUMPY\x01\x00v\x00".to_vec();
        want.extend(dict.as_bytes());
        want.extend(std::iter::repeat_n(b' ', 118 - dict.len() - 1));
        want.push(b'\n');
        assert_eq!(h, want);
        for (shape, text) in [
            (&[][..], "()"),
            (&[4][..], "(4,)"),
            (&[0, 5, 1][..], "(0, 5, 1)"),
        ] {
            let h = write(DType::Bool, shape, true);
            assert_eq!(h.len() % 64, 0);
            let back = read(&h).unwrap();
            assert_eq!((back.shape.as_slice(), back.fortran_order), (shape, true));
            assert!(String::from_utf8_lossy(&h).contains(&format!("'shape': {text}, }}")));
        }
        // The longest shape an array may have still fits format 1.0.
        let long = write(DType::C128, &[1_000_000_000_000; 64], false);
        assert_eq!((long[6], long.len() % 64), (1, 0));
    }

    #[test]
    fn bad_headers_are_messages() {
        let err = |bytes: &[u8]| read(bytes).unwrap_err();
        assert!(err(b"PK\x03\x04 a zip").starts_with("not a .npy file"));
        assert!(err(b"").starts_with("not a .npy file"));
        assert!(err(b"\x93NUM").starts_with("truncated header"));
        assert!(err(b"\x93NUMPY\x01").starts_with("truncated header"));
        assert!(err(b"\x93NUMPY\x04\x00").starts_with("unsupported .npy format version 4.0"));
        let full = npy(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
            1,
        );
        assert!(err(&full[..20]).starts_with("truncated header: the header is"));
        let cases = [
            (
                "{'descr': '<U5', 'fortran_order': False, 'shape': (3,), }",
                "unsupported dtype '<U5' (unicode string)",
            ),
            (
                "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }",
                "unsupported dtype '|O' (Python objects",
            ),
            (
                "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (3,), }",
                "unsupported dtype '<M8[ns]' (datetime64)",
            ),
            (
                "{'descr': '<f16', 'fortran_order': False, 'shape': (3,), }",
                "unsupported dtype '<f16' (float128)",
            ),
            (
                "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,), }",
                "unsupported dtype [('a', '<f8')]: a structured",
            ),
            (
                "{'descr': '\u{e9}', 'fortran_order': False, 'shape': (3,), }",
                "unsupported dtype",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (-3,), }",
                "the header's shape (-3,) has the dimension -3",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2.5,), }",
                "the header's shape (2.5e0,) has 2.5e0, not a non-negative integer",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
                "the header's shape [4294967296, 4294967296, 4294967296] of float64 is larger",
            ),
            (
                "{'descr': '<f8', 'fortran_order': 0, 'shape': (3,), }",
                "'fortran_order' is 0",
            ),
            (
                "{'descr': '<f8', 'shape': (3,), }",
                "the header has no 'fortran_order'",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'x': 1}",
                "the header has the key 'x'",
            ),
            ("[1, 2]", "the header is not a Python dict"),
            (
                "{'descr': '<f8', 'fortran_order': Fals",
                "the header is not a Python dict literal",
            ),
            (
                "{'descr': [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]}",
                "the header nests brackets",
            ),
        ];
        for (header, start) in cases {
            let e = err(&npy(header, 1));
            assert!(e.starts_with(start), "{header}: {e}");
        }
        let long = " ".repeat(MAX_HEADER_LEN + 1);
        assert!(err(&npy(&long, 2)).contains("more than the 65536 cuprite reads"));
    }
}
