//! Host-side planning of element-wise launches: op parameters as kernel arguments, the
//! vector width and aligned head of the contiguous kernels, when the tiled kernel pays,
//! bounds checks of views, and the axis order of in-place updates (any order works when
//! every element is independent, so the destination's memory order is used, which makes
//! transposed and reversed views contiguous).

use crate::launch::Strided;
use cuprite_core::{DType, Element, Error, Layout, Result, Scalar};

/// A value of an element type as the bytes of a kernel argument (the driver reads as many as
/// the kernel's parameter has), so launches need not be generic over the element type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct ArgBytes([u8; 16]);

impl ArgBytes {
    /// The bytes of `v`.
    pub fn of<T: Element>(v: T) -> Self {
        let mut b = [0u8; 16];
        let n = std::mem::size_of::<T>().min(16);
        b[..n].copy_from_slice(&crate::ffi::element_bytes(&v)[..n]);
        ArgBytes(b)
    }

    /// The bytes of the value `s`, in its own type.
    pub fn of_scalar(s: Scalar) -> Self {
        match s {
            Scalar::Bool(v) => ArgBytes::of(v),
            Scalar::I8(v) => ArgBytes::of(v),
            Scalar::U8(v) => ArgBytes::of(v),
            Scalar::I16(v) => ArgBytes::of(v),
            Scalar::U16(v) => ArgBytes::of(v),
            Scalar::I32(v) => ArgBytes::of(v),
            Scalar::U32(v) => ArgBytes::of(v),
            Scalar::I64(v) => ArgBytes::of(v),
            Scalar::U64(v) => ArgBytes::of(v),
            Scalar::F16(v) => ArgBytes::of(v),
            Scalar::BF16(v) => ArgBytes::of(v),
            Scalar::F32(v) => ArgBytes::of(v),
            Scalar::F64(v) => ArgBytes::of(v),
            Scalar::C64(v) => ArgBytes::of(v),
            Scalar::C128(v) => ArgBytes::of(v),
        }
    }

    /// The 16 bytes.
    pub fn bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

/// The op parameters as the kernels take them (`T p0, T p1, double d0, double d1, long long
/// k`, `OpParams` in ops.cuh): parameters of the element type fill `t` in order, f64 ones fill
/// `d` in order, and a bool or integer one sets `k`. A parameter may fill several (the
/// functor reads the slots it documents).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct OpArgs {
    pub t: [ArgBytes; 2],
    pub d: [f64; 2],
    pub k: i64,
}

impl OpArgs {
    /// Packs `params` (an op's `params()`) of the op `op` on elements of type `T`; an error
    /// when one has no slot.
    pub fn new<T: Element>(op: &'static str, params: &[Scalar]) -> Result<Self> {
        OpArgs::of(op, T::DTYPE, params)
    }

    /// [`OpArgs::new`] for elements of type `t`.
    pub fn of(op: &'static str, t: DType, params: &[Scalar]) -> Result<Self> {
        let mut a = OpArgs {
            t: [ArgBytes::default(); 2],
            d: [0.0; 2],
            k: 0,
        };
        let (mut nt, mut nd, mut nk) = (0, 0, 0);
        for &p in params {
            let mut placed = false;
            if Scalar::dtype(p) == t && nt < 2 {
                a.t[nt] = ArgBytes::of_scalar(p);
                nt += 1;
                placed = true;
            }
            if let Scalar::F64(v) = p {
                if nd < 2 {
                    a.d[nd] = v;
                    nd += 1;
                    placed = true;
                }
            }
            let int = match p {
                Scalar::Bool(v) => Some(v as i64),
                Scalar::U8(v) => Some(v as i64),
                Scalar::I32(v) => Some(v as i64),
                Scalar::I64(v) => Some(v),
                _ => None,
            };
            if let Some(v) = int {
                if nk < 1 {
                    a.k = v;
                    nk += 1;
                    placed = true;
                }
            }
            if !placed {
                return Err(Error::invalid(
                    op,
                    format!(
                        "the cuda kernels take at most two {t} parameters, two f64 and one \
                         integer parameter; got {params:?}"
                    ),
                ));
            }
        }
        Ok(a)
    }
}

/// Elements per 16-byte vector of the contiguous kernels (`VW` in elementwise.cu): 16 bytes
/// of the wider of the operand and result types.
pub(crate) fn vec_width(t_size: usize, out_size: usize) -> usize {
    16 / t_size.max(out_size)
}

/// The number of leading elements to process one by one so that every pointer (address, size
/// of its element) is aligned to a whole vector of `vw` elements after them; `n` (everything
/// one by one) when no such head exists or `vw` is 1 and a pointer is misaligned. Element
/// sizes and `vw` are powers of two.
pub(crate) fn vector_head(ptrs: &[(u64, usize)], n: usize, vw: usize) -> usize {
    (0..vw)
        .find(|&h| {
            ptrs.iter()
                .all(|&(p, s)| (p + (h * s) as u64) & ((vw * s) as u64 - 1) == 0)
        })
        .map_or(n, |h| h.min(n))
}

/// Whether the coalesced 2-d view `s` walks axis 0 faster in memory than axis 1 and is not
/// broadcast along axis 0 (`tile_transposed` in elementwise.cu).
pub(crate) fn tile_transposed(s: &Strided) -> bool {
    let (s0, s1) = (s.strides[0].unsigned_abs(), s.strides[1].unsigned_abs());
    s0 != 0 && s0 < s1
}

/// Whether the out-of-place views `v` (jointly coalesced) go through `ew_tiled`: two axes of
/// at least a tile each, one operand walking axis 0 faster than axis 1. The strided kernel
/// reads such an operand with one 32-byte sector per element across a warp.
pub(crate) fn tiled_pays(v: &[Strided]) -> bool {
    const TILE: i64 = 32;
    v[0].ndim == 2
        && v[0].shape[0] >= TILE
        && v[0].shape[1] >= TILE
        && v.iter().any(tile_transposed)
}

/// The layouts of an in-place update (destination first), with their axes reordered by the
/// destination's strides (largest first) and the destination's negative strides flipped, the
/// same way in every layout: element pairs are unchanged, but a transposed or reversed
/// destination becomes C-contiguous.
pub(crate) fn inplace_order(layouts: &[&Layout]) -> Vec<Layout> {
    let dst = layouts[0];
    if dst.is_c_contiguous() {
        return layouts.iter().map(|l| (*l).clone()).collect();
    }
    let nd = dst.ndim();
    let mut axes: Vec<usize> = (0..nd).collect();
    axes.sort_by_key(|&d| std::cmp::Reverse(dst.strides()[d].unsigned_abs()));
    layouts
        .iter()
        .map(|l| {
            let mut offset = l.offset() as isize;
            let mut shape = Vec::with_capacity(nd);
            let mut strides = Vec::with_capacity(nd);
            for &d in &axes {
                let (n, mut s) = (l.shape()[d], l.strides()[d]);
                if dst.strides()[d] < 0 && n > 0 {
                    offset += (n as isize - 1) * s;
                    s = -s;
                }
                shape.push(n);
                strides.push(s);
            }
            Layout::new(shape, strides, offset.max(0) as usize)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::c128;

    #[test]
    fn parameters_fill_their_slots() {
        let a = OpArgs::new::<f64>("clip", &[Scalar::F64(-1.0), Scalar::F64(2.0)]).unwrap();
        assert_eq!(
            (a.t, a.d),
            ([ArgBytes::of(-1.0), ArgBytes::of(2.0)], [-1.0, 2.0])
        );
        let a = OpArgs::new::<i64>("clip", &[Scalar::I64(-3), Scalar::I64(9)]).unwrap();
        assert_eq!((a.t, a.k), ([ArgBytes::of(-3i64), ArgBytes::of(9i64)], -3));
        let a = OpArgs::new::<u8>(
            "isclose",
            &[Scalar::F64(1e-5), Scalar::F64(1e-8), Scalar::Bool(true)],
        )
        .unwrap();
        assert_eq!((a.d, a.k), ([1e-5, 1e-8], 1));
        let a = OpArgs::new::<f32>("round", &[Scalar::I32(-2)]).unwrap();
        assert_eq!(a.k, -2);
        let a = OpArgs::new::<c128>("none", &[]).unwrap();
        assert_eq!(a.t, [ArgBytes([0; 16]); 2]);
        let e = OpArgs::new::<f32>("odd", &[Scalar::C64(Default::default())]).unwrap_err();
        assert!(
            e.to_string().starts_with("odd: the cuda kernels take"),
            "{e}"
        );
        let two = [Scalar::I32(1), Scalar::I32(2)];
        assert!(OpArgs::new::<f32>("odd", &two).is_err());
        assert!(OpArgs::new::<i32>("fine", &two).is_ok());
    }

    #[test]
    fn argument_bytes_are_the_value_bytes() {
        let z = ArgBytes::of(c128::new(1.5, -2.0));
        assert_eq!(&z.0[..8], &1.5f64.to_ne_bytes());
        assert_eq!(&z.0[8..], &(-2.0f64).to_ne_bytes());
        let t = ArgBytes::of(true);
        assert_eq!(t.0[0], 1);
        assert!(t.0[1..].iter().all(|&x| x == 0));
        assert_eq!(&ArgBytes::of(-3i32).0[..4], &(-3i32).to_ne_bytes());
    }

    #[test]
    fn vector_width_follows_the_wider_type() {
        assert_eq!(vec_width(8, 8), 2);
        assert_eq!(vec_width(1, 1), 16);
        assert_eq!(vec_width(8, 1), 2);
        assert_eq!(vec_width(8, 4), 2);
        assert_eq!(vec_width(16, 8), 1);
        assert_eq!(vec_width(4, 1), 4);
    }

    #[test]
    fn heads_align_every_pointer() {
        // Aligned pointers need no head.
        assert_eq!(vector_head(&[(4096, 8), (8192, 8)], 100, 2), 0);
        // One f64 past a 16-byte boundary: one element first, for both pointers alike.
        assert_eq!(vector_head(&[(4104, 8), (8200, 8)], 100, 2), 1);
        // Misaligned differently: no common head, everything one by one.
        assert_eq!(vector_head(&[(4104, 8), (8192, 8)], 100, 2), 100);
        // f32 input at +4 bytes with a bool output at +1: head 3 aligns both.
        assert_eq!(vector_head(&[(4100, 4), (1025, 1)], 100, 4), 3);
        assert_eq!(vector_head(&[(4100, 4), (1024, 1)], 100, 4), 100);
        // u8 at +5: 11 leading bytes; a short array is all head.
        assert_eq!(vector_head(&[(5, 1)], 100, 16), 11);
        assert_eq!(vector_head(&[(5, 1)], 7, 16), 7);
        // c128 (one element per vector) is aligned or never vectorised.
        assert_eq!(vector_head(&[(32, 16)], 9, 1), 0);
        assert_eq!(vector_head(&[(40, 16)], 9, 1), 9);
    }

    #[test]
    fn the_tiled_kernel_takes_two_axes_with_a_transposed_operand() {
        let view = |l: &Layout| crate::launch::coalesce("t", &[l]).unwrap()[0];
        let both = |a: &Layout, b: &Layout| crate::launch::coalesce("t", &[a, b]).unwrap();
        let c = Layout::contiguous(&[64, 48]);
        let t = Layout::contiguous(&[48, 64]).transposed();
        assert!(tile_transposed(&both(&c, &t)[1]));
        assert!(tiled_pays(&both(&c, &t)));
        assert!(tiled_pays(&[view(&t)]));
        // Row-major operands, a broadcast row or column: the strided kernel.
        assert!(!tiled_pays(&[view(&c)]));
        let row = Layout::contiguous(&[1, 48])
            .broadcast_to("t", &[64, 48])
            .unwrap();
        let col = Layout::contiguous(&[64, 1])
            .broadcast_to("t", &[64, 48])
            .unwrap();
        let every_other = Layout::new(vec![64, 48], vec![96, 2], 0);
        assert!(!tiled_pays(&both(&every_other, &row)));
        assert!(!tile_transposed(&both(&every_other, &col)[1]));
        // A reversed transposed operand still walks axis 0 fastest.
        let rt = Layout::new(vec![64, 48], vec![-1, 64], 63);
        assert!(tiled_pays(&both(&c, &rt)));
        // Fewer than a tile along an axis, or three axes: the strided kernel.
        let thin = Layout::contiguous(&[48, 16]).transposed();
        assert!(!tiled_pays(&[view(&thin)]));
        let t3 = Layout::contiguous(&[4, 48, 64])
            .permute("t", &[0, 2, 1])
            .unwrap();
        assert!(!tiled_pays(&[view(&t3)]));
    }

    #[test]
    fn inplace_order_makes_transposed_and_reversed_views_contiguous() {
        let t = Layout::contiguous(&[3, 4]).transposed();
        let b = Layout::contiguous(&[4])
            .insert_axis(1)
            .broadcast_to("t", &[4, 3])
            .unwrap();
        let o = inplace_order(&[&t, &b]);
        assert!(o[0].is_c_contiguous());
        assert_eq!(
            (o[0].shape(), o[1].strides()),
            (&[3usize, 4][..], &[0isize, 1][..])
        );
        let r = Layout::new(vec![5], vec![-2], 8);
        let c = Layout::contiguous(&[5]);
        let o = inplace_order(&[&r, &c]);
        assert_eq!((o[0].strides(), o[0].offset()), (&[2isize][..], 0));
        // Element pairs are kept: the last element of `c` (offset 4) meets offset 0 of `r`.
        assert_eq!((o[1].strides(), o[1].offset()), (&[-1isize][..], 4));
        let c2 = Layout::contiguous(&[2, 2]);
        assert_eq!(inplace_order(&[&c2])[0], c2);
    }
}
