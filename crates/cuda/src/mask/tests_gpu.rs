//! The mask primitives on a GPU, checked against the CPU backend on the same data and views
//! for every element type (contiguous, strided, reversed, transposed, broadcast, 0-d, empty,
//! several tiles), an erroring `mask_assign` leaving its destination unchanged, and counts
//! over a broadcast view of 2^32 elements (the 64-bit paths and a many-tile scan) checked
//! analytically. Ignored by default (they need a CUDA device and NVRTC).

use crate::index::tests_gpu::{for_all_types, vals};
use crate::test_support::{assert_same, gpu};
use crate::Cuda;
use cuprite_core::backend::MaskOps;
use cuprite_core::{c128, c64, BackendBase, Element, Layout, Result};
use cuprite_cpu::Cpu;

/// Elements of the source buffers (several tiles of 4096).
const BASE: usize = 100_003;

/// Masks with runs, isolated trues and a density that varies along the buffer.
fn mask_data(n: usize) -> Vec<bool> {
    (0..n)
        .map(|i| match (i / 5000) % 4 {
            0 => i % 3 == 1,
            1 => true,
            2 => false,
            _ => (i * 7919) % 13 < 2,
        })
        .collect()
}

/// (data view, mask view) pairs of one shape.
fn select_cases() -> Vec<(Layout, Layout)> {
    let c = Layout::contiguous(&[BASE]);
    let t = Layout::contiguous(&[200, 300]).transposed();
    vec![
        (c.clone(), c.clone()),
        (
            Layout::new(vec![7, 13], vec![13, 1], 5),
            Layout::new(vec![7, 13], vec![1, 7], 3),
        ),
        (t.clone(), t.clone()),
        (t, Layout::contiguous(&[300, 200])),
        (
            Layout::new(vec![500], vec![-3], 2000),
            Layout::new(vec![500], vec![2], 1),
        ),
        // A mask of the leading axis broadcast over the trailing one, and a broadcast source.
        (
            Layout::contiguous(&[300, 70]),
            Layout::new(vec![300, 70], vec![1, 0], 0),
        ),
        (
            Layout::new(vec![300, 70], vec![0, 1], 9),
            Layout::contiguous(&[300, 70]),
        ),
        (
            Layout::new(vec![], vec![], 17),
            Layout::new(vec![], vec![], 1),
        ),
        (
            Layout::new(vec![], vec![], 17),
            Layout::new(vec![], vec![], 0),
        ),
        (Layout::contiguous(&[0, 5]), Layout::contiguous(&[0, 5])),
        (
            Layout::new(vec![3, 0], vec![1, 3], 4),
            Layout::contiguous(&[3, 0]),
        ),
    ]
}

fn check_select<T: Element>(dev: &Cuda) -> Result<()> {
    let data = vals::<T>(BASE, 0);
    let mask = mask_data(BASE);
    let (xc, xg) = (Cpu::new().from_vec(data.clone())?, dev.upload(&data)?);
    let (mc, mg) = (Cpu::new().from_vec(mask.clone())?, dev.upload(&mask)?);
    for (k, (lx, lm)) in select_cases().into_iter().enumerate() {
        let what = format!("mask_select case {k}");
        let (c, cn) = Cpu::new().mask_select(&xc, &lx, &mc, &lm)?;
        let (g, gn) = dev.mask_select(&xg, &lx, &mg, &lm)?;
        assert_eq!(gn, cn, "{what}: count");
        assert_same(&dev.download(&g)?, c.as_slice(), &what);
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn mask_select_matches_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    for_all_types!(check_select, &dev);
    Ok(())
}

/// Views for nonzero and count_nonzero.
fn truthy_cases() -> Vec<Layout> {
    vec![
        Layout::contiguous(&[BASE]),
        Layout::new(vec![7, 13], vec![13, 1], 5),
        Layout::contiguous(&[200, 300]).transposed(),
        Layout::new(
            vec![2, 1, 3, 1, 5, 2, 3, 2, 2, 3],
            vec![2160, 1, 720, 1, 144, 72, 24, 12, 6, 2],
            1,
        ),
        Layout::new(vec![500], vec![-3], 2000),
        Layout::new(vec![300, 70], vec![0, 1], 9),
        Layout::new(vec![], vec![], 17),
        Layout::new(vec![], vec![], 11),
        Layout::contiguous(&[0, 5]),
    ]
}

fn check_truthy<T: Element>(dev: &Cuda) -> Result<()> {
    let data = vals::<T>(BASE, 7);
    let (xc, xg) = (Cpu::new().from_vec(data.clone())?, dev.upload(&data)?);
    for (k, lx) in truthy_cases().into_iter().enumerate() {
        let what = format!("nonzero case {k}");
        let (c, cn) = Cpu::new().nonzero(&xc, &lx)?;
        let (g, gn) = dev.nonzero(&xg, &lx)?;
        assert_eq!(gn, cn, "{what}: count");
        assert_same(&dev.download(&g)?, c.as_slice(), &what);
        let cc = Cpu::new().count_nonzero(&xc, &lx)?;
        assert_eq!(dev.count_nonzero(&xg, &lx)?, cc, "count_nonzero case {k}");
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn nonzero_and_count_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    for_all_types!(check_truthy, &dev);
    Ok(())
}

/// (destination view, mask view, values view) for a mask whose true count the values match
/// (`None`: one value per true element, contiguous), or deliberately not.
fn assign_cases(count: impl Fn(&Layout) -> usize) -> Vec<(Layout, Layout, Layout)> {
    let c = Layout::contiguous(&[BASE]);
    let t = Layout::contiguous(&[200, 300]).transposed();
    let lead = Layout::new(vec![300, 70], vec![1, 0], 0);
    let per = |lm: &Layout| Layout::contiguous(&[count(lm)]);
    let rev = |lm: &Layout| {
        let n = count(lm);
        Layout::new(vec![n], vec![-1], n.saturating_sub(1) + 3)
    };
    vec![
        (c.clone(), c.clone(), per(&c)),
        (c.clone(), c.clone(), Layout::new(vec![1], vec![0], 42)),
        (c.clone(), c.clone(), Layout::new(vec![1, 1], vec![5, 9], 8)),
        (
            t.clone(),
            Layout::contiguous(&[300, 200]),
            rev(&Layout::contiguous(&[300, 200])),
        ),
        (Layout::contiguous(&[300, 70]), lead.clone(), per(&lead)),
        (
            Layout::contiguous(&[300, 70]),
            lead.clone(),
            Layout::new(vec![1], vec![0], 3),
        ),
        // Values broadcast over the trailing axis: [count / 70, 70] with a zero stride.
        (
            Layout::contiguous(&[300, 70]),
            lead.clone(),
            Layout::new(vec![count(&lead) / 70, 70], vec![1, 0], 0),
        ),
        (
            Layout::new(vec![], vec![], 17),
            Layout::new(vec![], vec![], 1),
            Layout::contiguous(&[1]),
        ),
        (
            Layout::contiguous(&[0, 5]),
            Layout::contiguous(&[0, 5]),
            Layout::contiguous(&[0]),
        ),
        // Wrong counts: errors, destination unchanged.
        (c.clone(), c.clone(), Layout::contiguous(&[count(&c) - 1])),
        (c.clone(), c, Layout::contiguous(&[0])),
        (
            Layout::contiguous(&[0, 5]),
            Layout::contiguous(&[0, 5]),
            Layout::contiguous(&[2]),
        ),
    ]
}

fn check_assign<T: Element>(dev: &Cuda) -> Result<()> {
    let mask = mask_data(BASE);
    let (mc, mg) = (Cpu::new().from_vec(mask.clone())?, dev.upload(&mask)?);
    let values = vals::<T>(BASE, 3);
    let (vc, vg) = (Cpu::new().from_vec(values.clone())?, dev.upload(&values)?);
    let count = |lm: &Layout| Cpu::new().count_nonzero(&mc, lm).unwrap_or(0);
    for (k, (ld, lm, lv)) in assign_cases(count).into_iter().enumerate() {
        let what = format!("mask_assign case {k}");
        let start = vals::<T>(BASE, 11);
        let mut dc = Cpu::new().from_vec(start.clone())?;
        let mut dg = dev.upload(&start)?;
        let c = Cpu::new().mask_assign(&mut dc, &ld, &mc, &lm, &vc, &lv);
        let g = dev.mask_assign(&mut dg, &ld, &mg, &lm, &vg, &lv);
        match (&c, &g) {
            (Ok(()), Ok(())) => {}
            (Err(c), Err(g)) => {
                assert_eq!(g, c, "{what}");
                assert_same(&dev.download(&dg)?, &start, &format!("{what}: unchanged"));
            }
            _ => panic!("{what} ({}): cpu {c:?}, gpu {g:?}", T::DTYPE),
        }
        assert_same(&dev.download(&dg)?, dc.as_slice(), &what);
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn mask_assign_matches_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    for_all_types!(check_assign, &dev);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn huge_broadcast_views_take_the_64_bit_paths() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    // 2^16 rows of one 2^16-element row: 2^32 elements, 2^20 tiles.
    let w = 1usize << 16;
    let row: Vec<u8> = (0..w).map(|i| u8::from(i == 5 || i == w - 1)).collect();
    let x = dev.upload(&row)?;
    let l = Layout::new(vec![w, w], vec![0, 1], 0);
    assert_eq!(dev.count_nonzero(&x, &l)?, 2 * w);
    let (nz, n) = dev.nonzero(&x, &l)?;
    assert_eq!(n, 2 * w);
    let nz = dev.download(&nz)?;
    for r in [0, 1, 2, 3, w - 1, w, 2 * w - 2, 2 * w - 1] {
        let want = [(r / 2) as i64, if r % 2 == 0 { 5 } else { w as i64 - 1 }];
        assert_eq!(&nz[2 * r..2 * r + 2], &want, "row {r}");
    }
    let m: Vec<bool> = row.iter().map(|&v| v != 0).collect();
    let mg = dev.upload(&m)?;
    let ramp: Vec<i64> = (0..w as i64).collect();
    let rg = dev.upload(&ramp)?;
    let (sel, n) = dev.mask_select(&rg, &l, &mg, &l)?;
    assert_eq!(n, 2 * w);
    let sel = dev.download(&sel)?;
    assert!(
        sel.chunks(2).all(|p| p == [5, w as i64 - 1]),
        "selection of a huge broadcast view"
    );
    Ok(())
}
