//! NVRTC compile test of every element-wise program the backend can request (ignored: it
//! needs libnvrtc), and unit tests of the module keys.

use super::key;
use super::probe::all_cases;
use crate::ctype::ctype;
use cuprite_core::DType;
use cuprite_kernels::elementwise::{source, Variant};

/// Every program: the (op, dtype) pairs core allows in each variant they use, and `where`
/// for every dtype. Each is (file name for messages, source).
fn all_programs() -> Vec<(String, String)> {
    let mut progs: Vec<(String, String)> = all_cases()
        .programs
        .into_iter()
        .map(|(v, name, t, out)| {
            let file = format!(
                "elementwise-{}-{name}-{}-{}.cu",
                v.name(),
                ctype(t),
                ctype(out)
            );
            (file, source(v, Some(name), ctype(t), ctype(out)))
        })
        .collect();
    for t in DType::ALL {
        let file = format!("elementwise-where-{}.cu", ctype(t));
        progs.push((file, source(Variant::Where, None, ctype(t), ctype(t))));
    }
    progs
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn every_elementwise_program_compiles() {
    let progs = all_programs();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((file, src)) = progs.get(i) else {
                    break;
                };
                crate::nvrtc::compile_check::assert_compiles(file, src);
            });
        }
    });
    println!("{} element-wise programs compiled", progs.len());
}

#[test]
fn program_counts_cover_every_variant() {
    let progs = all_programs();
    for v in Variant::ALL {
        let tag = format!("elementwise-{}-", v.name());
        assert!(progs.iter().any(|(f, _)| f.starts_with(&tag)), "{v:?}");
    }
    let mut files: Vec<&String> = progs.iter().map(|p| &p.0).collect();
    files.sort();
    files.dedup();
    assert_eq!(files.len(), progs.len(), "each program once");
}

#[test]
fn keys_name_variant_op_and_types() {
    assert_eq!(
        key(Variant::Binary, "less", DType::F64, DType::Bool),
        "elementwise|binary|less|double|bool"
    );
    assert_eq!(
        key(Variant::Unary, "absolute", DType::C128, DType::F64),
        "elementwise|unary|absolute|c128|double"
    );
    assert_eq!(
        key(Variant::ScalarInplace, "multiply", DType::U8, DType::U8),
        "elementwise|scalar_inplace|multiply|u8|u8"
    );
}
