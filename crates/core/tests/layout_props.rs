//! Property tests of `Layout`'s bounds arithmetic against a naive walk over every
//! multi-index: random shapes (lengths 0 and 1 included), strides (negative and zero) and
//! offsets; the exact span, `offset_range` and `check_bounds` must agree with the walk, and
//! every view derived from an in-bounds one by slicing (any steps, extreme ones included),
//! broadcasting, permuting or reshaping must stay in bounds and address the elements the
//! operation names.

use cuprite_core::Layout;
use cuprite_core::slice::{SliceArg, apply_slice};
use proptest::prelude::*;

/// Buffer offsets of every element of `l` in C order, in wide arithmetic.
fn walk(l: &Layout) -> Vec<i128> {
    let shape = l.shape();
    if shape.contains(&0) {
        return Vec::new();
    }
    let mut idx = vec![0usize; shape.len()];
    let mut out = Vec::new();
    loop {
        let off = l.offset() as i128
            + idx
                .iter()
                .zip(l.strides())
                .map(|(&i, &s)| i as i128 * s as i128)
                .sum::<i128>();
        out.push(off);
        let mut ax = shape.len();
        loop {
            if ax == 0 {
                return out;
            }
            ax -= 1;
            idx[ax] += 1;
            if idx[ax] < shape[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
}

/// The indices `0..n` that Python's `list(range(n))[start:stop:step]` selects, by filtering
/// (not by counting, as the code under test does).
fn naive_slice(n: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Vec<usize> {
    let n = n as i128;
    let norm = |v: isize| {
        let v = v as i128;
        if v < 0 { v + n } else { v }
    };
    let step = step as i128;
    let mut sel: Vec<usize> = if step > 0 {
        let lo = start.map_or(0, |v| norm(v).max(0));
        let hi = stop.map_or(n, |v| norm(v).min(n));
        (0..n)
            .filter(|&i| i >= lo && i < hi && (i - lo) % step == 0)
            .map(|i| i as usize)
            .collect()
    } else {
        let hi = start.map_or(n - 1, |v| norm(v).min(n - 1));
        let lo = stop.map_or(-1, |v| norm(v).max(-1));
        (0..n)
            .filter(|&i| i <= hi && i > lo && (hi - i) % -step == 0)
            .map(|i| i as usize)
            .collect()
    };
    if step < 0 {
        sel.reverse();
    }
    sel
}

/// Any layout of rank 0 to 4 with small lengths, strides of either sign and an offset.
fn any_layout() -> impl Strategy<Value = Layout> {
    prop::collection::vec((0usize..5, -12isize..=12), 0..=4).prop_flat_map(|dims| {
        (Just(dims), 0usize..80).prop_map(|(dims, offset)| {
            let (shape, strides) = dims.into_iter().unzip();
            Layout::new(shape, strides, offset)
        })
    })
}

/// A layout that lies inside a buffer, and that buffer's length.
fn valid_layout() -> impl Strategy<Value = (Layout, usize)> {
    (
        prop::collection::vec((0usize..5, -12isize..=12), 0..=4),
        0usize..6,
        0usize..6,
    )
        .prop_map(|(dims, pad_lo, pad_hi)| {
            let (shape, strides): (Vec<usize>, Vec<isize>) = dims.into_iter().unzip();
            let probe = Layout::new(shape.clone(), strides.clone(), 0);
            let (lo, hi) = probe.span().unwrap_or((0, 0));
            let offset = (pad_lo as i128 - lo) as usize;
            let len = (offset as i128 + hi) as usize + pad_hi;
            (Layout::new(shape, strides, offset), len)
        })
}

/// One slice component, with steps and bounds at the ends of `isize` among small ones.
fn any_slice_arg() -> impl Strategy<Value = SliceArg> {
    let bound = prop_oneof![
        4 => (-7isize..=7).prop_map(Some),
        1 => Just(Some(isize::MIN)),
        1 => Just(Some(isize::MAX)),
        2 => Just(None),
    ];
    let step = prop_oneof![
        6 => 1isize..=4,
        6 => -4isize..=-1,
        1 => Just(isize::MAX),
        1 => Just(isize::MIN),
        1 => Just(-isize::MAX),
    ];
    prop_oneof![
        6 => (bound.clone(), bound, step)
            .prop_map(|(start, stop, step)| SliceArg::Range { start, stop, step }),
        2 => (-5isize..5).prop_map(SliceArg::Index),
        1 => Just(SliceArg::NewAxis),
    ]
}

fn in_bounds(offsets: &[i128], len: usize) -> bool {
    offsets.iter().all(|&o| o >= 0 && o < len as i128)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 512 }))]

    #[test]
    fn span_and_bounds_match_the_walk((l, len) in (any_layout(), 0usize..100)) {
        let offs = walk(&l);
        let want = offs.iter().min().map(|&lo| (lo, offs.iter().max().unwrap() + 1));
        prop_assert_eq!(l.span(), want);
        prop_assert_eq!(l.check_bounds("t", len).is_ok(), in_bounds(&offs, len));
        match want {
            None => prop_assert_eq!(l.offset_range(), None),
            Some((lo, hi)) if lo >= 0 => {
                prop_assert_eq!(l.offset_range(), Some((lo as usize, hi as usize)));
            }
            Some(_) => prop_assert_eq!(l.offset_range(), Some((0, usize::MAX))),
        }
    }

    #[test]
    fn slices_stay_in_bounds_and_pick_python_indices(
        (l, len) in valid_layout(),
        args in prop::collection::vec(any_slice_arg(), 0..=5),
    ) {
        prop_assert!(l.check_bounds("t", len).is_ok());
        let consuming = || args.iter().filter(|a| !matches!(a, SliceArg::NewAxis));
        let bad_index = consuming().zip(l.shape()).any(|(a, &n)| {
            matches!(*a, SliceArg::Index(i) if !(-(n as isize)..n as isize).contains(&i))
        });
        let expect_err = consuming().count() > l.ndim() || bad_index;
        let r = apply_slice(&l, &args);
        prop_assert_eq!(r.is_err(), expect_err);
        let Ok(v) = r else { return Ok(()) };
        prop_assert!(v.check_bounds("t", len).is_ok());
        // Reference: for each output axis, the source axis and the source indices it takes
        // (`None` for a new axis); fixed indices for removed axes. Axes not named are full.
        let full = SliceArg::from(..);
        let expanded = args
            .iter()
            .copied()
            .chain(std::iter::repeat_n(full, l.ndim() - consuming().count()));
        let mut fixed = vec![0usize; l.ndim()];
        let mut axes: Vec<Option<(usize, Vec<usize>)>> = Vec::new();
        let mut src = 0;
        for a in expanded {
            match a {
                SliceArg::NewAxis => axes.push(None),
                SliceArg::Index(i) => {
                    let n = l.shape()[src] as isize;
                    fixed[src] = if i < 0 { i + n } else { i } as usize;
                    src += 1;
                }
                SliceArg::Range { start, stop, step } => {
                    axes.push(Some((src, naive_slice(l.shape()[src], start, stop, step))));
                    src += 1;
                }
                SliceArg::Ellipsis => unreachable!("not generated"),
            }
        }
        let want_shape: Vec<usize> =
            axes.iter().map(|a| a.as_ref().map_or(1, |(_, s)| s.len())).collect();
        prop_assert_eq!(v.shape(), &want_shape[..]);
        // Every element of the view is the source element the reference names.
        let got = walk(&v);
        let mut want = Vec::with_capacity(got.len());
        let mut idx = vec![0usize; v.ndim()];
        if !want_shape.contains(&0) {
            loop {
                let mut src_idx = fixed.clone();
                for (k, a) in axes.iter().enumerate() {
                    if let Some((s, sel)) = a {
                        src_idx[*s] = sel[idx[k]];
                    }
                }
                want.push(l.offset() as i128 + src_idx.iter().zip(l.strides())
                    .map(|(&i, &s)| i as i128 * s as i128).sum::<i128>());
                let mut ax = v.ndim();
                let mut done = true;
                while ax > 0 {
                    ax -= 1;
                    idx[ax] += 1;
                    if idx[ax] < want_shape[ax] { done = false; break; }
                    idx[ax] = 0;
                }
                if done { break; }
            }
        }
        prop_assert_eq!(got, want);
    }

    #[test]
    fn broadcasts_stay_in_bounds(
        (l, len) in valid_layout(),
        lead in prop::collection::vec(0usize..4, 0..3),
        stretch in prop::collection::vec(0usize..4, 4),
    ) {
        let mut target = lead.clone();
        for (i, &d) in l.shape().iter().enumerate() {
            target.push(if d == 1 { stretch[i] } else { d });
        }
        let b = l.broadcast_to("t", &target).unwrap();
        prop_assert_eq!(b.shape(), &target[..]);
        prop_assert!(b.check_bounds("t", len).is_ok());
        // Each element of the broadcast is the source element at the clamped index.
        let src = walk(&l);
        let got = walk(&b);
        if !src.is_empty() {
            let n = b.ndim();
            let k = l.ndim();
            let mut idx = vec![0usize; n];
            for &g in &got {
                let mut flat = 0usize;
                for a in 0..k {
                    let i = if l.shape()[a] == 1 { 0 } else { idx[n - k + a] };
                    flat = flat * l.shape()[a] + i;
                }
                prop_assert_eq!(g, src[flat]);
                let mut ax = n;
                while ax > 0 {
                    ax -= 1;
                    idx[ax] += 1;
                    if idx[ax] < target[ax] { break; }
                    idx[ax] = 0;
                }
            }
        }
    }

    #[test]
    fn permutations_stay_in_bounds(
        (l, len) in valid_layout(),
        keys in prop::collection::vec(any::<u32>(), 4),
    ) {
        let mut perm: Vec<usize> = (0..l.ndim()).collect();
        perm.sort_by_key(|&a| keys[a]);
        let axes: Vec<isize> = perm.iter().map(|&a| a as isize).collect();
        let p = l.permute("t", &axes).unwrap();
        prop_assert!(p.check_bounds("t", len).is_ok());
        let mut got = walk(&p);
        let mut want = walk(&l);
        got.sort_unstable();
        want.sort_unstable();
        prop_assert_eq!(got, want);
        for (i, &a) in perm.iter().enumerate() {
            prop_assert_eq!(p.shape()[i], l.shape()[a]);
            prop_assert_eq!(p.strides()[i], l.strides()[a]);
        }
    }

    #[test]
    fn reshapes_keep_the_c_order_of_elements(
        (l, len) in valid_layout(),
        cuts in prop::collection::vec(any::<bool>(), 0..8),
    ) {
        // A new shape of the same size: the prime factors of the size, grouped by `cuts`,
        // with 1s sprinkled in.
        let size: usize = l.shape().iter().product();
        let mut factors = Vec::new();
        let mut m = size;
        let mut p = 2;
        while m > 1 {
            while m.is_multiple_of(p) { factors.push(p); m /= p; }
            p += 1;
        }
        if size == 0 { factors.push(0); }
        let mut shape = Vec::new();
        let mut acc = 1usize;
        for (i, f) in factors.iter().enumerate() {
            acc *= f;
            if cuts.get(i).copied().unwrap_or(true) {
                shape.push(acc);
                acc = 1;
                if cuts.get(i + 1).copied().unwrap_or(false) { shape.push(1); }
            }
        }
        if acc != 1 || shape.is_empty() && size != 1 { shape.push(acc); }
        prop_assert_eq!(shape.iter().product::<usize>(), size);
        if let Some(r) = l.reshaped(&shape) {
            prop_assert_eq!(r.shape(), &shape[..]);
            prop_assert!(r.check_bounds("t", len).is_ok());
            prop_assert_eq!(walk(&r), walk(&l));
        } else {
            // Only a view whose strides do not allow it is refused: a contiguous one never.
            prop_assert!(!l.is_c_contiguous());
        }
    }
}
