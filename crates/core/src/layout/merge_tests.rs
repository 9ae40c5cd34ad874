//! Tests of the shared stride arithmetic: fixed cases, and randomized views (lengths 0 and 1,
//! negative, zero and broadcast strides, offsets, axis sets) checked against a naive walk of
//! every multi-index.

use super::*;

/// A small deterministic generator (splitmix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random shape of rank 0..=5 with lengths 0..=4 (0 rarely).
fn shape(r: &mut Rng) -> Vec<usize> {
    let nd = r.below(6);
    (0..nd)
        .map(|_| match r.below(12) {
            0 => 0,
            1..=3 => 1,
            x => x % 4 + 1,
        })
        .collect()
}

/// Random strides for `shape`: often C-contiguous pieces (so axes merge), sometimes
/// negative, zero or arbitrary.
fn strides(r: &mut Rng, shape: &[usize]) -> Vec<isize> {
    let mut s = crate::layout::c_strides(shape);
    let scale = [1isize, 1, 2, 3][r.below(4)];
    for x in s.iter_mut() {
        *x *= scale;
        match r.below(8) {
            0 => *x = -*x,
            1 => *x = 0,
            2 => *x = r.below(40) as isize - 20,
            _ => {}
        }
    }
    s
}

/// Every buffer offset of `dims` from `base`, in C order.
fn walk(shape: &[usize], strides: &[isize], base: isize) -> Vec<isize> {
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; shape.len()];
    for _ in 0..n {
        out.push(
            base + idx
                .iter()
                .zip(strides)
                .map(|(&i, &s)| i as isize * s)
                .sum::<isize>(),
        );
        for k in (0..shape.len()).rev() {
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

fn sorted(mut v: Vec<isize>) -> Vec<isize> {
    v.sort_unstable();
    v
}

#[test]
fn joint_merging_keeps_every_views_offset_sequence() {
    let mut r = Rng(1);
    for _ in 0..3000 {
        let sh = shape(&mut r);
        let views: Vec<Vec<isize>> = (0..1 + r.below(3)).map(|_| strides(&mut r, &sh)).collect();
        let refs: Vec<&[isize]> = views.iter().map(|v| v.as_slice()).collect();
        let m = merge_axes(&sh, &refs);
        assert!(m.ndim() <= sh.len().max(1), "{sh:?} {views:?} -> {m:?}");
        assert!(m.shape.iter().all(|&n| n != 1), "{m:?}");
        for (v, s) in views.iter().enumerate() {
            assert_eq!(
                walk(&m.shape, &m.strides[v], 0),
                walk(&sh, s, 0),
                "{sh:?} {views:?} -> {m:?}"
            );
            let d = m.dims(v).merged();
            assert_eq!(walk(&d.shape, &d.strides, 0), walk(&sh, s, 0));
        }
        let again: Vec<&[isize]> = m.strides.iter().map(|v| v.as_slice()).collect();
        assert_eq!(merge_axes(&m.shape, &again), m, "merging is idempotent");
    }
}

#[test]
fn merging_fixed_cases() {
    let m = merge_axes(&[2, 3, 4], &[&[12, 4, 1]]);
    assert_eq!((m.shape, m.strides), (vec![24], vec![vec![1]]));
    let m = merge_axes(&[2, 1, 3], &[&[3, 99, 1]]);
    assert_eq!((m.shape, m.strides), (vec![6], vec![vec![1]]));
    let m = merge_axes(&[2, 3], &[&[0, 0]]);
    assert_eq!((m.shape, m.strides), (vec![6], vec![vec![0]]));
    // Contiguous in one view but not in the other: nothing merges.
    let m = merge_axes(&[2, 3], &[&[3, 1], &[1, 2]]);
    assert_eq!(
        (m.shape, m.strides),
        (vec![2, 3], vec![vec![3, 1], vec![1, 2]])
    );
    let m = merge_axes(&[], &[&[]]);
    assert_eq!((m.shape, m.strides), (vec![], vec![vec![]]));
    let m = merge_axes(&[4, 0], &[&[1, 1], &[5, 7]]);
    assert_eq!((m.shape, m.strides), (vec![0], vec![vec![0], vec![0]]));
    // The transposes of [4, 5, 6] moved to [6, 4, 5]: the last two axes merge.
    let t = Layout::contiguous(&[4, 5, 6])
        .permute("t", &[2, 0, 1])
        .unwrap();
    let m = merge_axes(t.shape(), &[t.strides()]);
    assert_eq!((m.shape, m.strides), (vec![6, 20], vec![vec![1, 6]]));
}

#[test]
fn reduce_splits_visit_the_same_offsets_per_output() {
    let mut r = Rng(2);
    for _ in 0..3000 {
        let sh = shape(&mut r);
        let st = strides(&mut r, &sh);
        let offset = r.below(200) + 100;
        let l = Layout::new(sh.clone(), st.clone(), offset);
        let axes: Vec<usize> = (0..sh.len()).filter(|_| r.below(2) == 0).collect();
        let kept_axes: Vec<usize> = (0..sh.len()).filter(|a| !axes.contains(a)).collect();
        let kshape: Vec<usize> = kept_axes.iter().map(|&a| sh[a]).collect();
        let kstrides: Vec<isize> = kept_axes.iter().map(|&a| st[a]).collect();
        let rshape: Vec<usize> = axes.iter().map(|&a| sh[a]).collect();
        let rstrides: Vec<isize> = axes.iter().map(|&a| st[a]).collect();
        let outputs = walk(&kshape, &kstrides, offset as isize);
        for reorder in [false, true] {
            let s = l.split_reduce(&axes, reorder);
            let ctx = format!("{l:?} axes {axes:?} reorder {reorder}: {s:?}");
            assert!(s.kept.shape.iter().all(|&n| n != 1), "{ctx}");
            if l.size() == 0 {
                continue;
            }
            assert_eq!(s.kept.size(), outputs.len(), "{ctx}");
            assert_eq!(walk(&s.kept.shape, &s.kept.strides, 0).len(), outputs.len());
            for (p, &o) in outputs.iter().enumerate() {
                let want = walk(&rshape, &rstrides, o);
                let start = s.base + s.kept.offset_of(p);
                let got = walk(&s.reduced.shape, &s.reduced.strides, start);
                if reorder {
                    assert!(s.reduced.strides.iter().all(|&x| x >= 0), "{ctx}");
                    let mut sorted_strides = s.reduced.strides.clone();
                    sorted_strides.sort_unstable_by(|a, b| b.cmp(a));
                    assert_eq!(sorted_strides, s.reduced.strides, "{ctx}");
                    assert_eq!(sorted(got), sorted(want), "{ctx} output {p}");
                } else {
                    assert_eq!(got, want, "{ctx} output {p}");
                }
            }
        }
    }
}

#[test]
fn reduce_split_fixed_cases() {
    let d = |shape: &[usize], strides: &[isize]| Dims::new(shape.to_vec(), strides.to_vec());
    let l = Layout::contiguous(&[2, 3, 4, 5]);
    let s = l.split_reduce(&[1, 3], true);
    assert_eq!(
        (s.kept, s.reduced, s.base),
        (d(&[2, 4], &[60, 5]), d(&[3, 5], &[20, 1]), 0)
    );
    let s = l.split_reduce(&[2, 3], true);
    assert_eq!((s.kept, s.reduced), (d(&[6], &[20]), d(&[20], &[1])));
    let s = Layout::contiguous(&[1, 7, 1]).split_reduce(&[0, 1, 2], true);
    assert_eq!((s.kept, s.reduced), (d(&[], &[]), d(&[7], &[1])));
    let rev = Layout::contiguous(&[10]).slice_axis(0, 9, 10, -1);
    let s = rev.split_reduce(&[0], true);
    assert_eq!((s.reduced, s.base), (d(&[10], &[1]), 0));
    let s = rev.split_reduce(&[0], false);
    assert_eq!((s.reduced, s.base), (d(&[10], &[-1]), 9));
}

#[test]
fn flips_visit_the_same_offsets() {
    let mut r = Rng(3);
    for _ in 0..2000 {
        let sh = shape(&mut r);
        let st = strides(&mut r, &sh);
        let mut d = Dims::new(sh.clone(), st.clone());
        let shift = d.flip_negative();
        assert!(d.strides.iter().all(|&s| s >= 0));
        assert_eq!(
            sorted(walk(&d.shape, &d.strides, shift)),
            sorted(walk(&sh, &st, 0))
        );
    }
}

#[test]
fn bounds_checks_match_the_extreme_offsets_of_a_walk() {
    let mut r = Rng(4);
    for _ in 0..3000 {
        let sh = shape(&mut r);
        let st = strides(&mut r, &sh);
        let offset = r.below(60);
        let l = Layout::new(sh.clone(), st.clone(), offset);
        let offs = walk(&sh, &st, offset as isize);
        let len = r.below(120);
        let inside = offs.iter().all(|&o| o >= 0 && (o as usize) < len);
        assert_eq!(l.check_bounds("t", len).is_ok(), inside, "{l:?} in {len}");
    }
}

#[test]
fn bounds_checks_never_overflow() {
    let huge = Layout::new(vec![3, 4], vec![isize::MAX, 1], 0);
    assert!(huge.check_bounds("t", usize::MAX).is_err());
    let low = Layout::new(vec![2], vec![isize::MIN], usize::MAX);
    assert!(low.check_bounds("t", usize::MAX).is_err());
    let wide = Layout::new(vec![usize::MAX / 2, 2], vec![4, isize::MIN + 1], 7);
    let e = wide.check_bounds("op", 100).unwrap_err().to_string();
    assert!(
        e.contains("op: a view of shape") && e.contains("a buffer of 100"),
        "{e}"
    );
    // Empty views are never out of range, whatever their offset.
    assert!(
        Layout::new(vec![0, 3], vec![3, 1], 1000)
            .check_bounds("t", 0)
            .is_ok()
    );
    // Exactly fitting views are in range; one element more is not.
    let rev = Layout::contiguous(&[5]).slice_axis(0, 4, 5, -1);
    assert!(rev.check_bounds("t", 5).is_ok());
    assert!(rev.check_bounds("t", 4).is_err());
}

#[test]
fn axes_to_end_inverse_restores_the_order() {
    let mut r = Rng(5);
    for _ in 0..500 {
        let nd = r.below(7);
        let mut axes: Vec<usize> = (0..nd).filter(|_| r.below(2) == 0).collect();
        // Shuffle the moved axes.
        for i in (1..axes.len()).rev() {
            axes.swap(i, r.below(i + 1));
        }
        let shape: Vec<usize> = (0..nd).map(|a| a + 2).collect();
        let l = Layout::contiguous(&shape);
        let moved = l.axes_to_end(&axes);
        let perm = axes_to_end_perm(nd, &axes);
        assert_eq!(
            moved.shape(),
            perm.iter().map(|&a| shape[a]).collect::<Vec<_>>()
        );
        let inv = axes_to_end_inverse(nd, &axes);
        let back: Vec<isize> = inv.iter().map(|&a| a as isize).collect();
        assert_eq!(moved.permute("t", &back).unwrap(), l, "{axes:?}");
    }
}
