//! Tests of the memory primitives: host-side logic (always), every kernel instantiation
//! compiling under NVRTC (`--ignored`, needs libnvrtc), and the primitives on a GPU against
//! the CPU backend (`--ignored`, needs a CUDA device; skipped without one).

use super::convert::{is_run, tile_axes};
use super::fill::is_zero_bits;
use crate::launch::coalesce;
use cuprite_core::{c128, c64, DType, Layout};

fn tiles(d: &Layout, s: &Layout) -> Option<(usize, usize)> {
    let v = coalesce("t", &[d, s]).unwrap();
    tile_axes(&v[0], &v[1])
}

#[test]
fn transposes_are_recognised_for_tiling() {
    // The transpose of a C-contiguous matrix, copied into C order.
    let t = Layout::contiguous(&[100, 60]).transposed();
    assert_eq!(tiles(&Layout::contiguous(&[60, 100]), &t), Some((0, 1)));
    // Batched: (b, m, n) -> (b, n, m), and the batch moved inside.
    let src = Layout::contiguous(&[4, 50, 40]);
    let p = src.permute("t", &[0, 2, 1]).unwrap();
    assert_eq!(tiles(&Layout::contiguous(&[4, 40, 50]), &p), Some((1, 2)));
    // (b, m, n) -> (n, b, m): the batch merges with m, leaving one 40 x 200 transpose.
    let p = src.permute("t", &[2, 0, 1]).unwrap();
    assert_eq!(tiles(&Layout::contiguous(&[40, 4, 50]), &p), Some((0, 1)));
    // Assigning a contiguous source into a transposed destination.
    let c = Layout::contiguous(&[60, 100]);
    assert_eq!(tiles(&t, &c), Some((1, 0)));
    // A reversed contiguous axis still reads whole sectors.
    let r = t.slice_axis(0, 59, 60, -1);
    assert_eq!(tiles(&Layout::contiguous(&[60, 100]), &r), Some((0, 1)));
}

#[test]
fn non_transposes_are_not_tiled() {
    let c = Layout::contiguous(&[60, 100]);
    // Same contiguous axis on both sides.
    let c50 = Layout::contiguous(&[60, 50]);
    assert_eq!(tiles(&c50, &c.slice_axis(1, 0, 50, 2)), None);
    assert_eq!(
        tiles(&c50.transposed(), &c.slice_axis(1, 0, 50, 1).transposed()),
        None
    );
    // Broadcast sources (stride 0) keep the gather.
    let b = Layout::contiguous(&[60, 1])
        .broadcast_to("t", &[60, 100])
        .unwrap();
    assert_eq!(tiles(&c, &b), None);
    // Too thin to fill tiles.
    let thin = Layout::contiguous(&[1000, 4]).transposed();
    assert_eq!(tiles(&Layout::contiguous(&[4, 1000]), &thin), None);
    // One axis only.
    let rev = Layout::contiguous(&[100]).slice_axis(0, 99, 100, -1);
    assert_eq!(tiles(&Layout::contiguous(&[100]), &rev), None);
}

#[test]
fn runs_are_contiguous_or_zero_dimensional() {
    let v = coalesce("t", &[&Layout::new(vec![3, 4], vec![4, 1], 9)]).unwrap();
    assert!(is_run(&v[0]) && v[0].offset == 9);
    let v = coalesce("t", &[&Layout::new(vec![], vec![], 5)]).unwrap();
    assert!(is_run(&v[0]) && v[0].offset == 5);
    let v = coalesce("t", &[&Layout::contiguous(&[3, 4]).transposed()]).unwrap();
    assert!(!is_run(&v[0]));
}

#[test]
fn zero_bit_patterns() {
    assert!(is_zero_bits(&0.0f64) && is_zero_bits(&false) && is_zero_bits(&0i32));
    assert!(is_zero_bits(&c128::new(0.0, 0.0)));
    assert!(!is_zero_bits(&-0.0f32) && !is_zero_bits(&c64::new(0.0, -0.0)));
    assert!(!is_zero_bits(&f64::NAN) && !is_zero_bits(&true));
}

/// Every program the memory primitives build: fill and copy for all 8 types, every cast
/// pair, and the ramp of the 7 numeric types.
#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn every_memory_instantiation_compiles() {
    use crate::ctype::ctype;
    use crate::nvrtc::compile_check::assert_compiles;
    use cuprite_kernels::memory::{arange_program, conv_program, fill_program};
    for t in DType::ALL {
        assert_compiles("memory.cu", &fill_program(ctype(t)));
        if t != DType::Bool {
            assert_compiles("memory.cu", &arange_program(ctype(t)));
        }
        for u in DType::ALL {
            assert_compiles("memory.cu", &conv_program(ctype(t), ctype(u)));
        }
    }
}
