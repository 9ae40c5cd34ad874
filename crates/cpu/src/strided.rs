//! Element-wise loops over strided and broadcast views, row by row: the views' axes are
//! merged jointly (core's [`merge_axes`]), the innermost merged axis is a *row* walked by a
//! tight loop specialised for unit and zero strides (slices the compiler vectorises, or one
//! broadcast value), and the rows (or, for long rows, pieces of rows) are split over rayon
//! above [`par::PAR_MIN`] elements.
//!
//! This replaces ndarray's generic `Zip` (and the zero-fill of the output it needed) for
//! sliced stencil operands such as `a[1:-1, 1:-1] + a[1:-1, :-2]`, broadcast rows and
//! columns, and in-place updates of sliced destinations.

use crate::par;
use crate::simd;
use cuprite_core::layout::merge_axes;
use cuprite_core::{Element, Layout};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// One view's walk: the buffer offset of its first element and its strides along the
/// merged axes.
struct Walk {
    base: isize,
    strides: Vec<isize>,
}

/// The joint walk of several views of one shape: merged lengths (the last one is the row)
/// and each view's walk.
struct Rows {
    outer: Vec<usize>,
    row: usize,
    walks: Vec<Walk>,
}

impl Rows {
    /// `views`: (offset, strides) of each view of `shape`.
    fn new(shape: &[usize], views: &[(isize, &[isize])]) -> Rows {
        let strides: Vec<&[isize]> = views.iter().map(|v| v.1).collect();
        let m = merge_axes(shape, &strides);
        let (outer, row) = match m.shape.split_last() {
            Some((&row, outer)) => (outer.to_vec(), row),
            None => (Vec::new(), 1),
        };
        let walks = views
            .iter()
            .zip(m.strides)
            .map(|(v, s)| Walk {
                base: v.0,
                strides: if s.is_empty() { vec![0] } else { s },
            })
            .collect();
        Rows { outer, row, walks }
    }

    fn count(&self) -> usize {
        self.outer.iter().product()
    }

    /// The inner stride of view `v`.
    fn inner(&self, v: usize) -> isize {
        *self.walks[v].strides.last().unwrap_or(&0)
    }

    /// Calls `f(row index, [offset of the row's first element in each view])` for the rows
    /// `first..first + n`, in order.
    fn each<const N: usize>(&self, first: usize, n: usize, mut f: impl FnMut(usize, [isize; N])) {
        let nd = self.outer.len();
        let mut idx = vec![0usize; nd];
        let mut rem = first;
        for d in (0..nd).rev() {
            idx[d] = rem % self.outer[d];
            rem /= self.outer[d];
        }
        let mut offs = [0isize; N];
        for (v, o) in offs.iter_mut().enumerate() {
            let w = &self.walks[v];
            *o = w.base
                + (0..nd)
                    .map(|d| idx[d] as isize * w.strides[d])
                    .sum::<isize>();
        }
        for r in first..first + n {
            f(r, offs);
            // Odometer step to the next row.
            for d in (0..nd).rev() {
                idx[d] += 1;
                for (v, o) in offs.iter_mut().enumerate() {
                    *o += self.walks[v].strides[d];
                }
                if idx[d] < self.outer[d] {
                    break;
                }
                for (v, o) in offs.iter_mut().enumerate() {
                    *o -= self.walks[v].strides[d] * self.outer[d] as isize;
                }
                idx[d] = 0;
            }
        }
    }

    /// Calls `f(offsets, len)` on every element of the walk in *runs*: `len` consecutive
    /// elements (C order) of one row, `offsets` the buffer offsets of the run's first
    /// element in each view. Serial below [`par::PAR_MIN`] elements; above, the runs are
    /// split over rayon: whole rows, about [`par::CHUNK`] elements a task, or, for rows
    /// longer than two tasks (a long 1-d view such as `a[::-1]` is one row), pieces of
    /// [`par::CHUNK`] elements of each row. Every task runs in [`simd::wide_for`]`::<A, O>`.
    fn for_runs<A: Element, O: Element, const N: usize>(
        &self,
        f: impl Fn([isize; N], usize) + Sync,
    ) {
        let (count, len) = (self.count(), self.row);
        let rows = |first: usize, n: usize| {
            simd::wide_for::<A, O, _>(|| self.each::<N>(first, n, |_, offs| f(offs, len)))
        };
        if par::serial(count * len) {
            rows(0, count);
        } else if len > 2 * par::CHUNK {
            let pieces = len.div_ceil(par::CHUNK);
            (0..count * pieces).into_par_iter().for_each(|t| {
                let (r, k0) = (t / pieces, t % pieces * par::CHUNK);
                let n = par::CHUNK.min(len - k0);
                simd::wide_for::<A, O, _>(|| {
                    self.each::<N>(r, 1, |_, offs| {
                        let at = std::array::from_fn(|v| offs[v] + k0 as isize * self.inner(v));
                        f(at, n)
                    })
                })
            });
        } else {
            let per = (par::CHUNK / len.max(1)).max(1);
            (0..count.div_ceil(per))
                .into_par_iter()
                .for_each(|t| rows(t * per, per.min(count - t * per)));
        }
    }
}

/// Reads `len` elements from `s[off]` with stride `st` (0: one value repeated), mapped.
#[inline(always)]
fn row1<A: Copy, O>(o: &mut [MaybeUninit<O>], s: &[A], off: isize, st: isize, f: &impl Fn(A) -> O) {
    let len = o.len();
    match st {
        1 => {
            let off = off as usize;
            for (o, &x) in o.iter_mut().zip(&s[off..off + len]) {
                o.write(f(x));
            }
        }
        0 => {
            let x = s[off as usize];
            for o in o.iter_mut() {
                o.write(f(x));
            }
        }
        _ => {
            for (k, o) in o.iter_mut().enumerate() {
                o.write(f(s[(off + k as isize * st) as usize]));
            }
        }
    }
}

/// `out[i] = f(a[i])` for a view `a` of `la` (any strides) into a fresh C-order output;
/// every slot of `out` is written.
pub(crate) fn map1<A: Element, O: Element>(
    out: &mut [MaybeUninit<O>],
    a: &[A],
    la: &Layout,
    f: impl Fn(A) -> O + Sync,
) {
    assert_eq!(out.len(), la.size(), "strided map1: lengths differ");
    if out.is_empty() {
        return;
    }
    let c = Layout::contiguous(la.shape());
    let rows = Rows::new(
        la.shape(),
        &[(0, c.strides()), (la.offset() as isize, la.strides())],
    );
    let sa = rows.inner(1);
    let dst = Dst(out.as_mut_ptr());
    rows.for_runs::<A, O, 2>(|[oo, oa], len| {
        // SAFETY: view 0 is `out`'s own C order, so a run is the slots `oo..oo + len` of
        // `out`, and every slot belongs to one run only: no other reference to them exists.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.ptr().offset(oo), len) };
        row1(o, a, oa, sa, &f);
    });
}

/// `out[i] = f(a[i], b[i])` for views `a`, `b` of one shape (any strides, broadcast ones
/// included) into a fresh C-order output; every slot of `out` is written.
pub(crate) fn map2<A: Element, B: Element, O: Element>(
    out: &mut [MaybeUninit<O>],
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> O + Sync,
) {
    assert_eq!(out.len(), la.size(), "strided map2: lengths differ");
    debug_assert_eq!(la.shape(), lb.shape());
    if out.is_empty() {
        return;
    }
    let c = Layout::contiguous(la.shape());
    let rows = Rows::new(
        la.shape(),
        &[
            (0, c.strides()),
            (la.offset() as isize, la.strides()),
            (lb.offset() as isize, lb.strides()),
        ],
    );
    let (sa, sb) = (rows.inner(1), rows.inner(2));
    let dst = Dst(out.as_mut_ptr());
    rows.for_runs::<A, O, 3>(|[oo, oa, ob], len| {
        // SAFETY: as in `map1`: the run is the slots `oo..oo + len` of `out`, written by
        // this run only.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.ptr().offset(oo), len) };
        match (sa, sb) {
            (1, 1) => {
                let (oa, ob) = (oa as usize, ob as usize);
                let (xa, xb) = (&a[oa..oa + len], &b[ob..ob + len]);
                for ((o, &x), &y) in o.iter_mut().zip(xa).zip(xb) {
                    o.write(f(x, y));
                }
            }
            (_, 0) => {
                let y = b[ob as usize];
                row1(o, a, oa, sa, &|x| f(x, y));
            }
            (0, _) => {
                let x = a[oa as usize];
                row1(o, b, ob, sb, &|y| f(x, y));
            }
            _ => {
                for (k, o) in o.iter_mut().enumerate() {
                    let k = k as isize;
                    o.write(f(a[(oa + k * sa) as usize], b[(ob + k * sb) as usize]));
                }
            }
        }
    });
}

/// A raw pointer to a destination buffer that runs on several threads write through.
#[derive(Clone, Copy)]
struct Dst<T>(*mut T);
// SAFETY: the pointer is only used to write the elements of distinct runs of a destination
// whose elements are all distinct (a fresh C-order output, or a view checked by `update2`),
// so threads never write or read the same element; `T: Send` values are written.
unsafe impl<T: Send> Send for Dst<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Dst<T> {}

impl<T> Dst<T> {
    /// The pointer (a method, so that closures capture the whole `Send + Sync` wrapper).
    fn ptr(self) -> *mut T {
        self.0
    }
}

/// `x[i] = f(x[i], b[i])` in place over a destination view `lx` of `x` (any strides, no
/// element reached twice) and an operand view `lb` of `b` of the same shape (any strides,
/// broadcast ones included). `x` and `b` are distinct buffers.
pub(crate) fn update2<T: Element, B: Copy + Sync>(
    x: &mut [T],
    lx: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(T, B) -> T + Sync,
) {
    assert!(
        lx.is_writeable_without_overlap() && lx.check_bounds("update2", x.len()).is_ok(),
        "strided update2: the destination must reach distinct elements inside its buffer"
    );
    assert!(lb.check_bounds("update2", b.len()).is_ok());
    if lx.size() == 0 {
        return;
    }
    let rows = Rows::new(
        lx.shape(),
        &[
            (lx.offset() as isize, lx.strides()),
            (lb.offset() as isize, lb.strides()),
        ],
    );
    let (sx, sb) = (rows.inner(0), rows.inner(1));
    let dst = Dst(x.as_mut_ptr());
    rows.for_runs::<T, T, 2>(|[ox, ob], len| {
        // SAFETY: the layout's bounds were checked against `x`, so every position
        // `ox + k * sx` (k < len) is inside it; runs and the positions of a run are distinct
        // elements (no overlap, checked), and each run is written by one task only, so no
        // other reference to these elements exists meanwhile.
        unsafe {
            if sx == 1 {
                let row = std::slice::from_raw_parts_mut(dst.ptr().offset(ox), len);
                match sb {
                    1 => {
                        let ob = ob as usize;
                        for (x, &y) in row.iter_mut().zip(&b[ob..ob + len]) {
                            *x = f(*x, y);
                        }
                    }
                    0 => {
                        let y = b[ob as usize];
                        for x in row.iter_mut() {
                            *x = f(*x, y);
                        }
                    }
                    _ => {
                        for (k, x) in row.iter_mut().enumerate() {
                            *x = f(*x, b[(ob + k as isize * sb) as usize]);
                        }
                    }
                }
            } else {
                for k in 0..len as isize {
                    let p = dst.ptr().offset(ox + k * sx);
                    *p = f(*p, b[(ob + k * sb) as usize]);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Element `i` (C order) of a view, by a plain index walk.
    fn at<T: Copy>(s: &[T], l: &Layout, mut i: usize) -> T {
        let mut off = l.offset() as isize;
        for (&d, &st) in l.shape().iter().zip(l.strides()).rev() {
            off += (i % d) as isize * st;
            i /= d;
        }
        s[off as usize]
    }

    fn layouts() -> Vec<Layout> {
        let c = Layout::contiguous(&[6, 7, 5]);
        vec![
            c.clone(),
            c.transposed().permute("t", &[2, 1, 0]).unwrap(),
            // a[1:, ::-2, 1:4]-like: offset, negative and non-unit strides.
            Layout::new(vec![5, 4, 3], vec![35, -10, 1], 35 + 30 + 1),
            // broadcast rows and a 0-d value.
            Layout::new(vec![5, 4, 3], vec![0, 1, 0], 2),
            Layout::new(vec![5, 4, 3], vec![0, 0, 0], 9),
            // transposed 3-d view.
            Layout::new(vec![5, 4, 3], vec![1, 5, 20], 0),
        ]
    }

    #[test]
    fn rows_visit_every_element_of_every_layout_in_c_order() {
        let src: Vec<f64> = (0..400).map(|i| i as f64 * 0.5 - 7.0).collect();
        let ls = layouts();
        for la in &ls {
            for lb in &ls {
                if la.shape() != lb.shape() {
                    continue;
                }
                let n = la.size();
                let mut out = vec![MaybeUninit::uninit(); n];
                map2(&mut out, &src, la, &src, lb, |x, y| x * 3.0 - y);
                let want: Vec<f64> = (0..n)
                    .map(|i| at(&src, la, i) * 3.0 - at(&src, lb, i))
                    .collect();
                // SAFETY: map2 wrote every slot.
                let got: Vec<f64> = out.iter().map(|o| unsafe { o.assume_init() }).collect();
                assert_eq!(got, want, "{la:?} {lb:?}");
                let mut out = vec![MaybeUninit::uninit(); n];
                map1(&mut out, &src, la, |x| x + 1.0);
                // SAFETY: map1 wrote every slot.
                let got: Vec<f64> = out.iter().map(|o| unsafe { o.assume_init() }).collect();
                assert_eq!(
                    got,
                    (0..n).map(|i| at(&src, la, i) + 1.0).collect::<Vec<_>>()
                );
                if la.is_writeable_without_overlap() {
                    let mut dst = src.clone();
                    update2(&mut dst, la, &src, lb, |x, y| x - 2.0 * y);
                    for i in 0..n {
                        let want = at(&src, la, i) - 2.0 * at(&src, lb, i);
                        assert_eq!(at(&dst, la, i), want, "{la:?} {lb:?} {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn large_views_split_over_threads_give_the_same_elements() {
        let n = 700 * 400;
        let src: Vec<f32> = (0..n).map(|i| (i % 977) as f32).collect();
        let la = Layout::new(vec![698, 397], vec![400, 1], 401);
        let lb = Layout::new(vec![698, 397], vec![0, -1], 399);
        let mut out = vec![MaybeUninit::uninit(); la.size()];
        map2(&mut out, &src, &la, &src, &lb, |x, y| x + y);
        for (i, o) in out.iter().enumerate() {
            // SAFETY: map2 wrote every slot.
            assert_eq!(
                unsafe { o.assume_init() },
                at(&src, &la, i) + at(&src, &lb, i)
            );
        }
        let mut dst = src.clone();
        update2(&mut dst, &la, &src, &lb, |x, y| x * 2.0 + y);
        for i in 0..la.size() {
            assert_eq!(at(&dst, &la, i), at(&src, &la, i) * 2.0 + at(&src, &lb, i));
        }
    }

    /// One long row (a reversed or stepped 1-d view, and a 2-d view of three long rows) is
    /// split into pieces over threads: every element is still written once, in place.
    #[test]
    fn long_rows_split_into_pieces_give_the_same_elements() {
        let n = 280_001;
        let src: Vec<f64> = (0..n).map(|i| (i % 1013) as f64 - 500.0).collect();
        let cases = [
            (
                Layout::new(vec![n], vec![-1], n - 1),
                Layout::contiguous(&[n]),
            ),
            (
                Layout::new(vec![n / 2], vec![2], 1),
                Layout::new(vec![n / 2], vec![0], 7),
            ),
            (
                Layout::new(vec![3, 90_001], vec![90_001, 1], 3),
                Layout::new(vec![3, 90_001], vec![1, 3], 0),
            ),
        ];
        for (la, lb) in &cases {
            let mut out = vec![MaybeUninit::uninit(); la.size()];
            map2(&mut out, &src, la, &src, lb, |x, y| x - 3.0 * y);
            for (i, o) in out.iter().enumerate() {
                // SAFETY: map2 wrote every slot.
                let got = unsafe { o.assume_init() };
                assert_eq!(got, at(&src, la, i) - 3.0 * at(&src, lb, i), "{la:?} {i}");
            }
            let mut out = vec![MaybeUninit::uninit(); la.size()];
            map1(&mut out, &src, la, |x| x * 0.5);
            for (i, o) in out.iter().enumerate() {
                // SAFETY: map1 wrote every slot.
                assert_eq!(unsafe { o.assume_init() }, at(&src, la, i) * 0.5);
            }
            if la.is_writeable_without_overlap() {
                let other: Vec<f64> = src.iter().map(|x| x * 2.0 + 1.0).collect();
                let mut dst = src.clone();
                update2(&mut dst, la, &other, lb, |x, y| x + y);
                for i in 0..la.size() {
                    assert_eq!(at(&dst, la, i), at(&src, la, i) + at(&other, lb, i));
                }
            }
        }
    }
}
