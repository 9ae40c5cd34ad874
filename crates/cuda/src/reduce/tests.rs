//! Tests of the reduction family without a GPU: the planning logic, the op-name tables, and
//! (`--ignored`, needs libnvrtc) every program the trait methods can request compiling.

use super::plan::{self, choose, choose_scan, split, Dims, Kernel, ScanKernel, Split, ToStrided};
use super::{arg_name, Program};
use cuprite_core::ops::*;
use cuprite_core::{bf16, c128, c64, f16, ArgKind, Element, Layout};

const SMS: usize = 132;

fn dims(shape: &[usize], strides: &[isize]) -> Dims {
    Dims {
        shape: shape.to_vec(),
        strides: strides.to_vec(),
    }
}

#[test]
fn split_keeps_output_order_and_merges() {
    let l = Layout::contiguous(&[2, 3, 4, 5]);
    let (k, r, b) = split(&l, &[1, 3], true);
    assert_eq!(k, dims(&[2, 4], &[60, 5]));
    assert_eq!(r, dims(&[3, 5], &[20, 1]));
    assert_eq!(b, 0);
    // Neighbouring reduced axes merge; so do neighbouring kept ones.
    let (k, r, _) = split(&l, &[2, 3], true);
    assert_eq!(k, dims(&[6], &[20]));
    assert_eq!(r, dims(&[20], &[1]));
    // Length-1 axes vanish; everything reduced leaves no kept dimension.
    let l1 = Layout::contiguous(&[1, 7, 1]);
    let (k, r, _) = split(&l1, &[0, 1, 2], true);
    assert!(k.shape.is_empty());
    assert_eq!(r, dims(&[7], &[1]));
}

#[test]
fn split_flips_and_sorts_reduced_axes_only_when_allowed() {
    // A reversed row: reduced with the base moved to its last element.
    let l = Layout::contiguous(&[10]).slice_axis(0, 9, 10, -1);
    let (_, r, b) = split(&l, &[0], true);
    assert_eq!((r, b), (dims(&[10], &[1]), 0));
    let (_, r, b) = split(&l, &[0], false);
    assert_eq!((r, b), (dims(&[10], &[-1]), 9));
    // A transposed matrix reduced over both axes reads one contiguous run.
    let t = Layout::contiguous(&[30, 40]).transposed();
    let (k, r, _) = split(&t, &[0, 1], true);
    assert!(k.shape.is_empty());
    assert_eq!(r, dims(&[1200], &[1]));
}

#[test]
fn the_kernel_follows_the_fastest_dimension() {
    // sum(axis=0) of a C-contiguous 5000 x 10000: a thread per column, rows split in chunks.
    let l = Layout::contiguous(&[5000, 10000]);
    let (k, r, _) = split(&l, &[0], true);
    let s = choose(&k, &r, SMS);
    assert_eq!(s.kernel, Kernel::Cols);
    assert!(s.n_chunks > 8 && s.n_chunks * 10000 >= SMS * 2048, "{s:?}");
    assert_eq!(s.n_chunks, 5000usize.div_ceil(s.chunk));
    // sum(axis=1): a warp per row, each row cut into a few aligned chunks (5000 warps
    // would be a little more than one wave of the resident ones).
    let (k, r, _) = split(&l, &[1], true);
    let s = choose(&k, &r, SMS);
    assert_eq!(
        s.kernel,
        Kernel::Rows {
            group: 32,
            contig: true
        }
    );
    assert!(s.n_chunks >= 2 && s.chunk.is_multiple_of(64), "{s:?}");
    assert!(5000 * s.n_chunks >= 4 * SMS * 1024 / 32, "{s:?}");
    assert_eq!(s.n_chunks, 10000usize.div_ceil(s.chunk));
    // Many rows fill the device alone: no chunks.
    let (k, r, _) = split(&Layout::contiguous(&[50000, 1000]), &[1], true);
    let s = choose(&k, &r, SMS);
    assert_eq!((s.chunk, s.n_chunks), (1000, 1), "{s:?}");
    // Everything: blocks over aligned chunks of one contiguous run.
    let (k, r, _) = split(&l, &[0, 1], true);
    let s = choose(&k, &r, SMS);
    assert_eq!(
        s.kernel,
        Kernel::Rows {
            group: 256,
            contig: true
        }
    );
    assert_eq!(s.chunk % 64, 0);
    assert!(s.n_chunks >= SMS * 4 && (s.n_chunks - 1) * s.chunk < 50_000_000);
    // Short rows: a thread per output.
    let (k, r, _) = split(&Layout::contiguous(&[100000, 5]), &[1], true);
    assert_eq!(
        choose(&k, &r, SMS).kernel,
        Kernel::Rows {
            group: 1,
            contig: true
        }
    );
    // A transposed matrix: its axis 0 is contiguous in memory, its axis 1 strided.
    let t = Layout::contiguous(&[300, 200]).transposed();
    let (k, r, _) = split(&t, &[0], true);
    assert_eq!(
        choose(&k, &r, SMS).kernel,
        Kernel::Rows {
            group: 32,
            contig: true
        }
    );
    let (k, r, _) = split(&t, &[1], true);
    assert_eq!(choose(&k, &r, SMS).kernel, Kernel::Cols);
    // Strided rows: every other column of a matrix, reduced along the rows.
    let s = Layout::contiguous(&[300, 400]).slice_axis(1, 0, 200, 2);
    let (k, r, _) = split(&s, &[1], true);
    assert_eq!(
        choose(&k, &r, SMS).kernel,
        Kernel::Rows {
            group: 32,
            contig: false
        }
    );
}

#[test]
fn small_reductions_to_one_output_take_one_launch() {
    for rsize in [17, 512, 513, 1000, 4096] {
        let (k, r, _) = split(&Layout::contiguous(&[rsize]), &[0], true);
        let s = choose(&k, &r, SMS);
        assert_eq!(s.n_chunks, 1, "{rsize}: {s:?}");
        let group = if rsize <= 512 { 32 } else { 256 };
        assert_eq!(
            s.kernel,
            Kernel::Rows {
                group,
                contig: true
            },
            "{rsize}"
        );
    }
    // Larger ones are still split over the device.
    let (k, r, _) = split(&Layout::contiguous(&[1 << 20]), &[0], true);
    assert!(choose(&k, &r, SMS).n_chunks > 1);
}

#[test]
fn chunks_cover_every_position_once() {
    for &(n_out, rsize) in &[
        (1usize, 1usize),
        (1, 63),
        (1, 1 << 26),
        (3, 100_000),
        (7, 17),
    ] {
        let k = dims(&[n_out], &[rsize as isize]);
        let r = dims(&[rsize], &[1]);
        let s = choose(&k, &r, SMS);
        assert!(s.chunk >= 1 && s.n_chunks >= 1);
        assert!(s.chunk * s.n_chunks >= rsize, "{s:?}");
        assert!(s.chunk * (s.n_chunks - 1) < rsize, "{s:?}");
    }
}

#[test]
fn partials_are_combined_along_their_layout() {
    let rows = Split {
        kernel: Kernel::Rows {
            group: 256,
            contig: true,
        },
        chunk: 64,
        n_chunks: 1000,
    };
    assert_eq!(rows.partials(1), (32, 1000, 1));
    let cols = Split {
        kernel: Kernel::Cols,
        chunk: 100,
        n_chunks: 20,
    };
    assert_eq!(cols.partials(5000), (32, 1, 5000));
    assert_eq!(cols.partials(1 << 16), (1, 1, 1 << 16));
    let few = Split {
        n_chunks: 8,
        ..cols
    };
    assert_eq!(few.partials(5000), (1, 1, 5000));
}

#[test]
fn scans_pick_lanes_or_tiles() {
    // cumsum of a long vector: blocks over tiles, chunked, tile-aligned.
    let s = choose_scan(1, 50_000_000, usize::MAX, 1, SMS);
    assert_eq!(s.kernel, ScanKernel::Coop(256));
    assert!(s.n_chunks > 1);
    assert_eq!(s.chunk % (256 * plan::SCAN_ITEMS), 0);
    assert!(s.chunk * (s.n_chunks - 1) < 50_000_000);
    // cumsum(axis=0) of a wide matrix: a thread per column, no chunks.
    let s = choose_scan(1_000_000, 50, 1, 1_000_000, SMS);
    assert_eq!((s.kernel, s.n_chunks), (ScanKernel::Thread, 1));
    // Few tall columns: chunks along the axis.
    let s = choose_scan(4, 1_000_000, 1, 4, SMS);
    assert_eq!(s.kernel, ScanKernel::Thread);
    assert!(s.n_chunks > 1 && s.chunk * s.n_chunks >= 1_000_000);
    // Many short rows: a thread per row.
    let s = choose_scan(100_000, 8, 8, 1, SMS);
    assert_eq!(s.kernel, ScanKernel::Thread);
    // Medium rows: a warp per row.
    let s = choose_scan(10_000, 1000, 1000, 1, SMS);
    assert_eq!(s.kernel, ScanKernel::Coop(32));
}

#[test]
fn the_scan_tile_matches_the_source() {
    let line = format!("#define SCAN_V {}", plan::SCAN_ITEMS);
    assert!(cuprite_kernels::reduce::SOURCE.contains(&line));
}

#[test]
fn grids_are_never_empty() {
    assert_eq!(plan::blocks(1, 1), 1);
    assert_eq!(plan::blocks(5000, 32), 625);
    assert_eq!(plan::blocks(3, 256), 3);
    assert_eq!(plan::blocks(usize::MAX, 256), 1 << 20);
}

#[test]
fn too_many_dimensions_are_an_error() {
    let d = dims(&[2; 9], &[1, 2, 4, 8, 16, 32, 64, 128, 256]);
    let e = d.to_strided("sum", 0).unwrap_err();
    assert!(e.to_string().starts_with("sum: "), "{e}");
}

#[test]
fn op_names_map_to_functors() {
    assert_eq!(red::<f64, _>(DdofMean { ddof: 1.0 }).functor(), "red_var");
    assert_eq!(scan::<u8, _>(CumProd).functor(), "scan_cumprod");
    assert_eq!(arg::<f32>(ArgKind::Min).functor(), "red_argmin");
    let p = Program::reduce::<u8, i64>("sum");
    assert_eq!(p.key(), "reduce|red_sum|u8|i64");
    let src = p.source();
    assert!(src.contains("#define OUT i64") && src.contains("#define OP red_sum"));
    let functor_at = src.find("struct red_sum ").expect("the functor");
    assert!(functor_at < src.find("red_rows_1(").expect("the kernels"));
}

fn red<T: Element, K: ReduceOp<T>>(_: K) -> Program {
    Program::reduce::<T, K::Out>(K::NAME)
}

fn scan<T: Element, K: ScanOp<T>>(_: K) -> Program {
    Program::scan::<T, K::Out>(K::NAME)
}

fn arg<T: Element>(kind: ArgKind) -> Program {
    Program::reduce::<T, i64>(arg_name(kind))
}

/// Every program the trait methods can ask for: each op with each element type its Rust
/// impl accepts (the output type comes from the impl, so the source's static_assert checks
/// the device op computes the host's type).
fn every_program() -> Vec<Program> {
    let mut v = Vec::new();
    macro_rules! all_types {
        ($($t:ty),*) => {$(
            v.push(red::<$t, _>(Sum));
            v.push(red::<$t, _>(NanSum));
            v.push(red::<$t, _>(Prod));
            v.push(red::<$t, _>(Mean));
            v.push(red::<$t, _>(All));
            v.push(red::<$t, _>(Any));
            v.push(red::<$t, _>(CountNonzero));
            v.push(red::<$t, _>(NanMean));
            v.push(arg::<$t>(ArgKind::Min));
            v.push(arg::<$t>(ArgKind::Max));
            v.push(scan::<$t, _>(CumSum));
            v.push(scan::<$t, _>(CumProd));
        )*};
    }
    all_types!(bool, u8, i8, u16, u32, u64, i32, i64, f16, bf16, f32, f64, c64, c128);
    macro_rules! real_types {
        ($($t:ty),*) => {$(
            v.push(red::<$t, _>(Min));
            v.push(red::<$t, _>(Max));
            v.push(red::<$t, _>(NanMin));
            v.push(red::<$t, _>(NanMax));
        )*};
    }
    real_types!(u8, i8, u16, u32, u64, i32, i64, f16, bf16, f32, f64);
    macro_rules! float_types {
        ($($t:ty),*) => {$(
            v.push(red::<$t, _>(DdofMean { ddof: 1.0 }));
        )*};
    }
    float_types!(f16, bf16, f32, f64);
    macro_rules! inexact_types {
        ($($t:ty),*) => {$(
            v.push(red::<$t, _>(SumAbsSq));
        )*};
    }
    inexact_types!(f16, bf16, f32, f64, c64, c128);
    v
}

#[test]
fn every_program_has_its_own_key() {
    let v = every_program();
    assert_eq!(v.len(), 14 * 12 + 11 * 4 + 4 + 6);
    let mut keys: Vec<String> = v.iter().map(|p| p.key()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), v.len());
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn every_program_compiles() {
    let progs = every_program();
    // Spread the compiles over a few threads (NVRTC is thread-safe).
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(8)
        {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = progs.get(i) else { break };
                crate::nvrtc::compile_check::assert_compiles(&p.key(), &p.source());
            });
        }
    });
}
