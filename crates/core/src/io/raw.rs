//! Elements as the bytes of a `.npy` stream, moved in bulk: a piece of the file is read
//! straight into the memory of the elements (then byte-swapped in place when the file's
//! byte order is not the host's), and a piece of an array is written as its own bytes. Every
//! bit pattern is a valid integer, float or complex number; a `bool` byte must be 0 or 1
//! (NumPy never writes another), anything else is an error naming the element.
//!
//! The views of elements as bytes are `bytemuck`'s checked casts (this crate has no
//! `unsafe`).

use super::header::read_full;
use crate::dtype::{Element, bf16, c64, c128, f16};
use std::io::{self, Read, Write};

/// An element type as raw bytes in a `.npy` stream.
pub(crate) trait RawElement: Element {
    /// Bytes of one scalar to reverse when the byte order differs: the element's size, or
    /// half of it for a complex pair.
    const WORD: usize;

    /// The elements' bytes in memory (host byte order), or `None` where not every byte
    /// pattern is an element (`bool`).
    fn bytes_mut(s: &mut [Self]) -> Option<&mut [u8]>;

    /// The elements' bytes in memory (host byte order).
    fn bytes(s: &[Self]) -> &[u8];
}

macro_rules! raw_numeric {
    ($($t:ty => $word:expr),* $(,)?) => {$(
        impl RawElement for $t {
            const WORD: usize = $word;
            fn bytes_mut(s: &mut [Self]) -> Option<&mut [u8]> {
                Some(bytemuck::cast_slice_mut(s))
            }
            fn bytes(s: &[Self]) -> &[u8] {
                bytemuck::cast_slice(s)
            }
        }
    )*};
}
raw_numeric!(
    i8 => 1, u8 => 1, i16 => 2, u16 => 2, i32 => 4, u32 => 4, i64 => 8, u64 => 8,
    f16 => 2, bf16 => 2, f32 => 4, f64 => 8, c64 => 4, c128 => 8,
);

impl RawElement for bool {
    const WORD: usize = 1;
    fn bytes_mut(_: &mut [Self]) -> Option<&mut [u8]> {
        None
    }
    fn bytes(s: &[Self]) -> &[u8] {
        bytemuck::cast_slice(s)
    }
}

/// Reverses the bytes of every scalar of `bytes`.
fn swap_words(bytes: &mut [u8], word: usize) {
    if word > 1 {
        bytes.chunks_exact_mut(word).for_each(<[u8]>::reverse);
    }
}

/// Fills `dst` with elements read from `r`, swapping their byte order when `swap`; returns
/// the number of bytes read, less than `dst`'s worth when the stream ends early (the rest of
/// `dst` is then as it was). `scratch` serves `bool`, whose bytes must be 0 or 1: another is
/// an [`io::ErrorKind::InvalidData`] error naming the element, counted from `first`.
pub(crate) fn read_elements_into<T: RawElement>(
    r: &mut impl Read,
    dst: &mut [T],
    swap: bool,
    first: usize,
    scratch: &mut Vec<u8>,
) -> io::Result<usize> {
    if let Some(bytes) = T::bytes_mut(dst) {
        let got = read_full(r, bytes)?;
        if swap {
            swap_words(&mut bytes[..got], T::WORD);
        }
        return Ok(got);
    }
    scratch.clear();
    scratch.resize(std::mem::size_of_val(dst), 0);
    let got = read_full(r, scratch)?;
    for (i, (d, &b)) in dst.iter_mut().zip(&scratch[..got]).enumerate() {
        if b > 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("element {}: invalid value for bool: {b}", first + i),
            ));
        }
        *d = T::from_scalar(crate::dtype::Scalar::Bool(b == 1));
    }
    Ok(got)
}

/// Writes `s` little-endian, as `.npy` files are written; `scratch` holds a swapped copy on
/// a big-endian host.
pub(crate) fn write_elements_le<T: RawElement>(
    w: &mut impl Write,
    s: &[T],
    scratch: &mut Vec<u8>,
) -> io::Result<()> {
    if cfg!(target_endian = "little") || T::WORD == 1 {
        return w.write_all(T::bytes(s));
    }
    scratch.clear();
    scratch.extend_from_slice(T::bytes(s));
    swap_words(scratch, T::WORD);
    w.write_all(scratch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<T: RawElement>(bytes: &[u8], len: usize, swap: bool) -> (Vec<T>, usize) {
        let mut v = vec![T::ZERO; len];
        let got = read_elements_into(&mut &bytes[..], &mut v, swap, 0, &mut Vec::new()).unwrap();
        (v, got)
    }

    #[test]
    fn reads_either_byte_order() {
        let le: Vec<u8> = [1.5f64, -2.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let be: Vec<u8> = [1.5f64, -2.0]
            .iter()
            .flat_map(|x| x.to_be_bytes())
            .collect();
        let native_is_le = cfg!(target_endian = "little");
        assert_eq!(read::<f64>(&le, 2, !native_is_le), (vec![1.5, -2.0], 16));
        assert_eq!(read::<f64>(&be, 2, native_is_le), (vec![1.5, -2.0], 16));
        // A complex number swaps each part, not the pair.
        let z: Vec<u8> = [3.0f32, -4.0]
            .iter()
            .flat_map(|x| x.to_be_bytes())
            .collect();
        assert_eq!(
            read::<c64>(&z, 1, native_is_le).0,
            vec![c64::new(3.0, -4.0)]
        );
        let i: Vec<u8> = (-7i32).to_be_bytes().to_vec();
        assert_eq!(read::<i32>(&i, 1, native_is_le).0, vec![-7]);
    }

    #[test]
    fn bools_are_0_or_1_and_short_streams_say_so() {
        assert_eq!(
            read::<bool>(&[0, 1, 1, 0], 4, false),
            (vec![false, true, true, false], 4)
        );
        let mut v = [false; 3];
        let e = read_elements_into(&mut &[1, 0, 2][..], &mut v, false, 10, &mut Vec::new());
        assert_eq!(
            e.unwrap_err().to_string(),
            "element 12: invalid value for bool: 2"
        );
        assert_eq!(read::<bool>(&[1], 3, false), (vec![true, false, false], 1));
        assert_eq!(read::<i64>(&[0; 12], 2, true), (vec![0, 0], 12));
    }

    #[test]
    fn writes_little_endian() {
        let mut out = Vec::new();
        write_elements_le(&mut out, &[1i32, -2], &mut Vec::new()).unwrap();
        assert_eq!(out, [1, 0, 0, 0, 254, 255, 255, 255]);
        out.clear();
        write_elements_le(&mut out, &[true, false], &mut Vec::new()).unwrap();
        assert_eq!(out, [1, 0]);
        out.clear();
        write_elements_le(&mut out, &[c128::new(1.0, -0.0)], &mut Vec::new()).unwrap();
        let want: Vec<u8> = [1.0f64, -0.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(out, want);
    }
}
