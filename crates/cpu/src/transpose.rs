//! Cache-blocked copies of transposed views: when the fastest-varying input axis is not the
//! last one (a `.t()` view, a Fortran-order array), a plain strided walk touches a new cache
//! line for every element. Copying square tiles instead reads and writes whole lines.

use crate::par::PAR_MIN;
use cuprite_core::layout::merge_axes;
use cuprite_core::Layout;
use rayon::prelude::*;

/// Tile edge in elements.
const TILE: usize = 32;

/// Merges axes that are contiguous with each other and drops axes of length 1 (core's
/// [`merge_axes`]); returns (shape, strides) of an equivalent view.
pub fn coalesce(layout: &Layout) -> (Vec<usize>, Vec<isize>) {
    let m = merge_axes(layout.shape(), &[layout.strides()]);
    let strides = m.strides.into_iter().next().unwrap_or_default();
    (m.shape, strides)
}

/// A transposed layout as a batch of 2-D transposes: `(batch shape, batch strides, rows,
/// cols, row stride, col stride)` where the output is `[batch.., rows, cols]` and the input's
/// rows are contiguous-ish (|col stride| > 1 and |row stride| == 1).
pub struct Transposed {
    batch_shape: Vec<usize>,
    batch_strides: Vec<isize>,
    rows: usize,
    cols: usize,
    rs: isize,
    cs: isize,
}

/// Recognises layouts worth a blocked copy.
pub fn as_transposed(layout: &Layout) -> Option<Transposed> {
    if layout.size() < PAR_MIN / 4 {
        return None;
    }
    let (shape, strides) = coalesce(layout);
    let n = shape.len();
    if n < 2 || strides[n - 2].abs() != 1 || strides[n - 1].abs() == 1 {
        return None;
    }
    Some(Transposed {
        batch_shape: shape[..n - 2].to_vec(),
        batch_strides: strides[..n - 2].to_vec(),
        rows: shape[n - 2],
        cols: shape[n - 1],
        rs: strides[n - 2],
        cs: strides[n - 1],
    })
}

/// Writes `f` of every element of the view described by `t` (starting at `offset` of `src`)
/// into C-order `out`.
pub fn map_transposed<T: Copy + Send + Sync, O: Send>(
    src: &[T],
    offset: usize,
    t: &Transposed,
    out: &mut [O],
    f: impl Fn(T) -> O + Sync,
) {
    let plane = t.rows * t.cols;
    if plane == 0 {
        return;
    }
    let row_blocks = t.rows.div_ceil(TILE);
    // Small copies stay on the calling thread: a hand-over to rayon costs more than a
    // 200 x 200 transpose.
    let serial = crate::par::serial(out.len());
    let one_plane = |(b, dst): (usize, &mut [O])| {
        // Offset of batch element b.
        let mut base = offset as isize;
        let mut rem = b;
        for (&d, &s) in t.batch_shape.iter().zip(&t.batch_strides).rev() {
            base += (rem % d) as isize * s;
            rem /= d;
        }
        let copy_block = |rb: usize, dst_rows: &mut [O]| {
            let r0 = rb * TILE;
            let r1 = (r0 + TILE).min(t.rows);
            for c0 in (0..t.cols).step_by(TILE) {
                let c1 = (c0 + TILE).min(t.cols);
                for r in r0..r1 {
                    let row = &mut dst_rows[(r - r0) * t.cols..(r - r0 + 1) * t.cols];
                    let src_row = base + r as isize * t.rs;
                    for c in c0..c1 {
                        row[c] = f(src[(src_row + c as isize * t.cs) as usize]);
                    }
                }
            }
        };
        if serial {
            dst.chunks_mut(TILE * t.cols)
                .enumerate()
                .for_each(|(rb, rows)| copy_block(rb, rows));
        } else {
            dst.par_chunks_mut(TILE * t.cols)
                .enumerate()
                .with_min_len((row_blocks / 64).max(1))
                .for_each(|(rb, rows)| copy_block(rb, rows));
        }
    };
    if serial {
        out.chunks_mut(plane).enumerate().for_each(one_plane);
    } else {
        out.par_chunks_mut(plane).enumerate().for_each(one_plane);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_copy_matches_a_strided_walk() {
        let (r, c) = (170, 333);
        let data: Vec<u32> = (0..(r * c) as u32).collect();
        let l = Layout::contiguous(&[r, c]).transposed();
        let t = as_transposed(&l).unwrap();
        let mut out = vec![0u32; r * c];
        map_transposed(&data, l.offset(), &t, &mut out, |x| x);
        for i in 0..c {
            for j in 0..r {
                assert_eq!(out[i * r + j], data[j * c + i]);
            }
        }
    }

    #[test]
    fn coalesce_merges_contiguous_axes() {
        let l = Layout::contiguous(&[2, 3, 4]);
        assert_eq!(coalesce(&l), (vec![24], vec![1]));
        let t = Layout::contiguous(&[4, 5, 6])
            .permute("t", &[2, 0, 1])
            .unwrap();
        assert_eq!(coalesce(&t), (vec![6, 20], vec![1, 6]));
    }
}
