//! The index primitives on a GPU, checked against the CPU backend on the same data and views
//! for every element type: results bit for bit, errors equal, and an erroring scatter
//! leaving its destination unchanged. Ignored by default (they need a CUDA device and NVRTC);
//! without a device they print why and pass. Its data helpers are shared with the mask tests.

use crate::buffer::CudaBuffer;
use crate::test_support::{assert_same, gpu};
use crate::Cuda;
use cuprite_core::backend::IndexOps;
use cuprite_core::{c128, c64, BackendBase, DType, Element, Layout, Result, Scalar};
use cuprite_cpu::Cpu;

/// Distinct-ish values of any type, zeros and (for floats) NaN and -0.0 among them.
pub(crate) fn vals<T: Element>(n: usize, seed: usize) -> Vec<T> {
    (0..n)
        .map(|i| {
            let i = i + seed;
            match T::DTYPE {
                DType::Bool => T::from_scalar(Scalar::Bool(i % 3 == 1)),
                d if d.is_integer() => T::from_scalar(Scalar::I64((i * 37 % 251) as i64 % 7)),
                _ => {
                    let (re, im) = match i % 11 {
                        0 => (0.0, 0.0),
                        1 => (-0.0, 0.0),
                        2 => (f64::NAN, 0.0),
                        3 => (0.0, 1.5),
                        4 => (0.0, -0.0),
                        _ => (i as f64 * 0.37 - 50.0, i as f64 + 0.5),
                    };
                    T::from_scalar(Scalar::C128(c128::new(re, im)))
                }
            }
        })
        .collect()
}

/// Runs `check::<T>` for every element type.
macro_rules! for_all_types {
    ($check:ident, $dev:expr) => {{
        $check::<bool>($dev)?;
        $check::<u8>($dev)?;
        $check::<i32>($dev)?;
        $check::<i64>($dev)?;
        $check::<f32>($dev)?;
        $check::<f64>($dev)?;
        $check::<c64>($dev)?;
        $check::<c128>($dev)?;
    }};
}
pub(crate) use for_all_types;

/// Elements of the source buffers.
const BASE: usize = 24000;

/// Indices for a buffer of `len` elements, all in `-n..n` (both signs), with repeats.
fn indices(len: usize, n: usize, seed: usize) -> Vec<i64> {
    let n = n.max(1) as i64;
    (0..len)
        .map(|i| ((i as i64 * 7919 + seed as i64 * 31) % (2 * n)) - n)
        .collect()
}

/// An index buffer of `len` elements: in range for `n`, except `bad` positions set to
/// out-of-range values (alternately `n` and `-n - 1`).
fn index_buffer(len: usize, n: usize, seed: usize, bad: &[usize]) -> Vec<i64> {
    let mut v = indices(len, n, seed);
    for (k, &b) in bad.iter().enumerate() {
        v[b] = if k % 2 == 0 {
            n as i64 + k as i64
        } else {
            -(n as i64) - 1 - k as i64
        };
    }
    v
}

/// The CPU's and the GPU's answers agree: equal data, or equal errors.
#[track_caller]
fn agree<T: Element>(
    dev: &Cuda,
    cpu: Result<cuprite_cpu::CpuBuffer<T>>,
    gpu: Result<CudaBuffer<T>>,
    what: &str,
) -> Result<()> {
    match (cpu, gpu) {
        (Ok(c), Ok(g)) => assert_same(&dev.download(&g)?, c.as_slice(), what),
        (Err(c), Err(g)) => assert_eq!(g, c, "{what}"),
        (c, g) => panic!(
            "{what} ({}): cpu {:?}, gpu {:?}",
            T::DTYPE,
            c.err(),
            g.err()
        ),
    }
    Ok(())
}

/// take cases: (source view, axis, index buffer, index view).
fn take_cases() -> Vec<(Layout, usize, Vec<i64>, Layout)> {
    let c3 = Layout::contiguous(&[6, 50, 70]);
    let t2 = Layout::contiguous(&[120, 200]).transposed();
    let rev = Layout::new(vec![50], vec![-2], 120);
    let bc = Layout::new(vec![4, 50], vec![0, 1], 3);
    vec![
        (
            Layout::contiguous(&[BASE]),
            0,
            indices(5000, BASE, 1),
            Layout::contiguous(&[5000]),
        ),
        (
            c3.clone(),
            1,
            indices(12, 50, 2),
            Layout::contiguous(&[3, 4]),
        ),
        (
            c3.clone(),
            1,
            indices(12, 50, 3),
            Layout::contiguous(&[4, 3]).transposed(),
        ),
        (
            c3.clone(),
            0,
            indices(7, 6, 4),
            Layout::new(vec![3], vec![-2], 5),
        ),
        (c3.clone(), 2, indices(9, 70, 5), Layout::contiguous(&[9])),
        (
            t2.clone(),
            0,
            indices(30, 200, 6),
            Layout::contiguous(&[30]),
        ),
        (t2, 1, indices(30, 120, 7), Layout::contiguous(&[2, 15])),
        (rev, 0, indices(100, 50, 8), Layout::contiguous(&[100])),
        (bc.clone(), 0, indices(10, 4, 9), Layout::contiguous(&[10])),
        (bc, 1, indices(10, 50, 9), Layout::contiguous(&[10])),
        // 0-d index, empty index, empty source axes around the taken one.
        (
            c3.clone(),
            1,
            indices(5, 50, 10),
            Layout::new(vec![], vec![], 3),
        ),
        (c3.clone(), 1, vec![], Layout::contiguous(&[0])),
        (
            Layout::contiguous(&[0, 5]),
            1,
            indices(3, 5, 11),
            Layout::contiguous(&[3]),
        ),
        // Errors: the first bad index (C order of the index view) is reported.
        (
            c3.clone(),
            1,
            index_buffer(12, 50, 12, &[7, 2]),
            Layout::contiguous(&[3, 4]),
        ),
        (
            c3,
            1,
            index_buffer(12, 50, 13, &[1, 10]),
            Layout::contiguous(&[4, 3]).transposed(),
        ),
        (
            Layout::contiguous(&[0, 5]),
            1,
            vec![5],
            Layout::contiguous(&[1]),
        ),
        (
            Layout::contiguous(&[0, 5]),
            0,
            vec![0],
            Layout::contiguous(&[1]),
        ),
        (
            Layout::contiguous(&[BASE]),
            0,
            index_buffer(5000, BASE, 14, &[4999]),
            Layout::contiguous(&[5000]),
        ),
        // One element around the taken axis: a strided source behind unit axes with a
        // reversed index view, several bad indices (the first in C order is reported), and
        // an empty source axis.
        (
            Layout::new(vec![1, BASE / 2, 1], vec![BASE as isize, 2, 1], 1),
            1,
            indices(9000, BASE / 2, 15),
            Layout::new(vec![4500], vec![-2], 8999),
        ),
        (
            Layout::contiguous(&[BASE]),
            0,
            index_buffer(20000, BASE, 16, &[19000, 16000, 9000, 12000]),
            Layout::contiguous(&[20000]),
        ),
        (
            Layout::contiguous(&[0]),
            0,
            vec![0, 0],
            Layout::contiguous(&[2]),
        ),
    ]
}

fn check_take<T: Element>(dev: &Cuda) -> Result<()> {
    let data = vals::<T>(BASE, 0);
    let (xc, xg) = (Cpu::new().from_vec(data.clone())?, dev.upload(&data)?);
    for (k, (lx, axis, idx, li)) in take_cases().into_iter().enumerate() {
        let (ic, ig) = (Cpu::new().from_vec(idx.clone())?, dev.upload(&idx)?);
        let c = Cpu::new().take(&xc, &lx, axis, &ic, &li);
        let g = dev.take(&xg, &lx, axis, &ig, &li);
        agree(dev, c, g, &format!("take case {k}"))?;
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn take_matches_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    for_all_types!(check_take, &dev);
    Ok(())
}

/// take_along_axis cases: (source view, index buffer, index view, axis).
fn along_cases() -> Vec<(Layout, Vec<i64>, Layout, usize)> {
    let c3 = Layout::contiguous(&[6, 50, 70]);
    vec![
        (
            c3.clone(),
            indices(6 * 9 * 70, 50, 1),
            Layout::contiguous(&[6, 9, 70]),
            1,
        ),
        // Indices broadcast along the leading axis.
        (
            c3.clone(),
            indices(9 * 70, 50, 2),
            Layout::new(vec![6, 9, 70], vec![0, 70, 1], 0),
            1,
        ),
        (
            c3.clone(),
            indices(6 * 50 * 3, 70, 3),
            Layout::contiguous(&[6, 50, 3]),
            2,
        ),
        // Transposed source, reversed indices.
        (
            Layout::contiguous(&[120, 200]).transposed(),
            indices(200 * 7, 120, 4),
            Layout::new(vec![200, 7], vec![-7, 1], 199 * 7),
            1,
        ),
        // A broadcast source.
        (
            Layout::new(vec![5, 50], vec![0, 1], 9),
            indices(5 * 60, 50, 5),
            Layout::contiguous(&[5, 60]),
            1,
        ),
        (
            Layout::new(vec![50], vec![-3], 160),
            indices(80, 50, 6),
            Layout::contiguous(&[80]),
            0,
        ),
        (c3.clone(), vec![], Layout::contiguous(&[6, 0, 70]), 1),
        // Errors, also through a broadcast index view.
        (
            c3.clone(),
            index_buffer(6 * 9 * 70, 50, 7, &[3000, 100]),
            Layout::contiguous(&[6, 9, 70]),
            1,
        ),
        (
            c3,
            index_buffer(9 * 70, 50, 8, &[400, 9]),
            Layout::new(vec![6, 9, 70], vec![0, 70, 1], 0),
            1,
        ),
    ]
}

fn check_along<T: Element>(dev: &Cuda) -> Result<()> {
    let data = vals::<T>(BASE, 3);
    let (xc, xg) = (Cpu::new().from_vec(data.clone())?, dev.upload(&data)?);
    for (k, (lx, idx, li, axis)) in along_cases().into_iter().enumerate() {
        let (ic, ig) = (Cpu::new().from_vec(idx.clone())?, dev.upload(&idx)?);
        let c = Cpu::new().take_along_axis(&xc, &lx, &ic, &li, axis);
        let g = dev.take_along_axis(&xg, &lx, &ig, &li, axis);
        agree(dev, c, g, &format!("take_along_axis case {k}"))?;
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn take_along_axis_matches_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    for_all_types!(check_along, &dev);
    Ok(())
}

/// scatter cases: (destination view, axis, index buffer, index view, value view). Indices
/// repeat a lot, so the order of writes along a lane matters.
fn scatter_cases() -> Vec<(Layout, usize, Vec<i64>, Layout, Layout)> {
    let c3 = Layout::contiguous(&[6, 50, 70]);
    let small = |len: usize, n: usize, seed: usize| -> Vec<i64> {
        (0..len)
            .map(|i| ((i * 13 + seed) % n.min(5)) as i64 - if i % 2 == 0 { 0 } else { n as i64 })
            .collect()
    };
    vec![
        // Short lanes (one thread per lane).
        (
            c3.clone(),
            1,
            small(6 * 9 * 70, 50, 1),
            Layout::contiguous(&[6, 9, 70]),
            Layout::contiguous(&[6, 9, 70]),
        ),
        // Long lanes, few of them (winner buffer): put-like 1-d and 2-d.
        (
            Layout::contiguous(&[BASE]),
            0,
            small(3000, BASE, 2),
            Layout::contiguous(&[3000]),
            Layout::contiguous(&[3000]),
        ),
        (
            c3.clone(),
            1,
            small(6 * 40 * 70, 50, 3),
            Layout::contiguous(&[6, 40, 70]),
            Layout::new(vec![6, 40, 70], vec![0, 70, 1], 11),
        ),
        // Many lanes (one thread per lane) along the last axis.
        (
            Layout::contiguous(&[40000, 3]),
            1,
            small(40000 * 20, 3, 4),
            Layout::contiguous(&[40000, 20]),
            Layout::new(vec![40000, 20], vec![1, 40000], 0),
        ),
        // Strided and reversed destinations, broadcast indices, a scalar value.
        (
            Layout::new(vec![50], vec![-1], 300),
            0,
            small(40, 50, 5),
            Layout::contiguous(&[40]),
            Layout::new(vec![40], vec![0], 7),
        ),
        (
            Layout::contiguous(&[70, 50]).transposed(),
            0,
            small(30, 50, 6),
            Layout::new(vec![30, 70], vec![1, 0], 0),
            Layout::contiguous(&[30, 70]),
        ),
        (
            c3.clone(),
            1,
            vec![],
            Layout::contiguous(&[6, 0, 70]),
            Layout::contiguous(&[6, 0, 70]),
        ),
        // Errors leave the destination unchanged.
        (
            c3.clone(),
            1,
            index_buffer(6 * 9 * 70, 50, 7, &[2000, 5]),
            Layout::contiguous(&[6, 9, 70]),
            Layout::contiguous(&[6, 9, 70]),
        ),
        (
            Layout::contiguous(&[BASE]),
            0,
            index_buffer(3000, BASE, 8, &[2999]),
            Layout::contiguous(&[3000]),
            Layout::contiguous(&[3000]),
        ),
        // Index and value shapes differ.
        (
            c3,
            1,
            indices(6 * 9 * 70, 50, 9),
            Layout::contiguous(&[6, 9, 70]),
            Layout::contiguous(&[6, 9, 7]),
        ),
    ]
}

fn check_scatter<T: Element>(dev: &Cuda) -> Result<()> {
    let values = vals::<T>(40000 * 20 + 64, 5);
    let (vc, vg) = (Cpu::new().from_vec(values.clone())?, dev.upload(&values)?);
    for (k, (ld, axis, idx, li, lv)) in scatter_cases().into_iter().enumerate() {
        let start = vals::<T>(ld.offset_range().map_or(1, |r| r.1).max(BASE), 9);
        let mut dc = Cpu::new().from_vec(start.clone())?;
        let mut dg = dev.upload(&start)?;
        let (ic, ig) = (Cpu::new().from_vec(idx.clone())?, dev.upload(&idx)?);
        let c = Cpu::new().scatter(&mut dc, &ld, axis, &ic, &li, &vc, &lv);
        let g = dev.scatter(&mut dg, &ld, axis, &ig, &li, &vg, &lv);
        let what = format!("scatter case {k}");
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
fn scatter_matches_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    for_all_types!(check_scatter, &dev);
    Ok(())
}
