//! The unit tests of the `multi_gpu` bench, run by the binary itself when it is started
//! without `--bench` (`cargo test -p cuprite-benches --bench multi_gpu`: a bench with
//! `harness = false` gets no libtest, so this is a small one): the options and the size
//! schedule, the input pattern and the host checks, the rates, the reference's JSON lines
//! and arguments, and the tables. No GPU needed.

use crate::check::{
    check_samples, nccl_version_text, pattern, sample_indices, scaled, PATTERN_LEN,
};
use crate::options::{inner, parse_args, parse_bytes, size_label, sizes, worlds};
use crate::reference::{parse, Plan};
use crate::table::{
    bus_factor, copy_failed, copy_section, gbps, rate, reduce_failed, reduce_section, CopyRow,
    ReduceRow, Time,
};
use cuprite_benches::selftest::Test;

/// Every unit test of the bench.
pub const TESTS: [Test; 12] = [
    ("options_parse", options_parse),
    ("options_reject_bad_values", options_reject_bad_values),
    ("byte_sizes", byte_sizes),
    ("schedule", schedule),
    ("pattern_sums_are_exact", pattern_sums_are_exact),
    ("sampled_checks", sampled_checks),
    ("rates", rates),
    ("reference_lines", reference_lines),
    ("reference_needs_about", reference_needs_about),
    ("reference_arguments", reference_arguments),
    ("copy_table", copy_table),
    ("all_reduce_table", all_reduce_table),
];

fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn options_parse() {
    let o = parse_args(&args(&[
        "--bench",
        "--max-bytes",
        "64M",
        "--gpus",
        "2",
        "--runs",
        "5",
        "--warmup",
        "0",
        "--markdown",
        "out.md",
        "--no-torch",
        "cuda_",
    ]))
    .unwrap();
    assert_eq!(o.max_bytes, 64 << 20);
    assert_eq!(o.gpus, Some(2));
    assert_eq!((o.runs, o.warmup), (5, 0));
    assert_eq!(o.markdown, Some("out.md".into()));
    assert!(o.run_python && o.cupy && !o.torch);
    let d = parse_args(&args(&["--bench"])).unwrap();
    assert_eq!(d.max_bytes, 4 << 30);
    assert_eq!((d.gpus, d.runs, d.warmup), (None, 10, 3));
}

fn options_reject_bad_values() {
    let bad = |v: &[&str]| parse_args(&args(v)).is_err();
    assert!(bad(&["--gpus", "0"]));
    assert!(bad(&["--runs", "0"]));
    assert!(bad(&["--runs"]));
    assert!(bad(&["--warmup", "-1"]));
    assert!(bad(&["--max-bytes", "lots"]));
    assert!(bad(&["--max-bytes", "6"]));
    assert!(bad(&["--sizes", "4"]));
}

fn byte_sizes() {
    assert_eq!(parse_bytes("4G"), Ok(4 << 30));
    assert_eq!(parse_bytes("4GiB"), Ok(4 << 30));
    assert_eq!(parse_bytes("256mb"), Ok(256 << 20));
    assert_eq!(parse_bytes("1k"), Ok(1024));
    assert_eq!(parse_bytes("1048576"), Ok(1 << 20));
    assert_eq!(parse_bytes("64B"), Ok(64));
    for bad in ["", "0", "3", "4X", "G", "1.5G", "-4"] {
        assert!(parse_bytes(bad).is_err(), "{bad:?}");
    }
    assert_eq!(size_label(1 << 20), "1 MiB");
    assert_eq!(size_label(4 << 30), "4 GiB");
    assert_eq!(size_label(3 << 10), "3 KiB");
    assert_eq!(size_label(4100), "4100 B");
}

fn schedule() {
    let full = sizes(4 << 30);
    assert_eq!(full.len(), 7);
    assert_eq!((full[0], full[6]), (1 << 20, 4 << 30));
    assert!(full.windows(2).all(|w| w[1] == 4 * w[0]));
    assert_eq!(sizes(100 << 20), vec![1 << 20, 4 << 20, 16 << 20, 64 << 20]);
    assert_eq!(sizes(4096), vec![4096]);
    assert_eq!(inner(1 << 20), 20);
    assert_eq!(inner(16 << 20), 20);
    assert_eq!(inner(64 << 20), 8);
    assert_eq!(inner(256 << 20), 2);
    assert_eq!(inner(4 << 30), 1);
    assert_eq!(worlds(1), vec![1]);
    assert_eq!(worlds(2), vec![2]);
    assert_eq!(worlds(8), vec![8, 2]);
}

fn pattern_sums_are_exact() {
    let p = pattern();
    assert_eq!(p.len(), PATTERN_LEN);
    assert!(p
        .iter()
        .all(|&v| v.fract() == 0.0 && (-1000.0..=1000.0).contains(&v)));
    assert!(p.iter().any(|&v| v != p[0]), "the pattern is a constant");
    assert!(p.iter().any(|&v| v < 0.0) && p.iter().any(|&v| v > 0.0));
    // Sums of equal values in any grouping are exact: adding one rank at a time gives
    // the scaled pattern bit for bit.
    let s8 = scaled(&p, 8);
    for (i, &v) in p.iter().enumerate().step_by(997) {
        let mut acc = 0.0f32;
        for _ in 0..8 {
            acc += v;
        }
        assert_eq!(acc.to_bits(), s8[i].to_bits());
        assert_eq!((4.0 * v + 4.0 * v).to_bits(), s8[i].to_bits());
    }
}

fn sampled_checks() {
    let p = pattern();
    for n in [
        1,
        2,
        5,
        PATTERN_LEN - 3,
        PATTERN_LEN,
        3 * PATTERN_LEN + 7,
        1 << 30,
    ] {
        let idx = sample_indices(n);
        assert!(!idx.is_empty());
        assert_eq!(idx[0], 0);
        assert_eq!(*idx.last().unwrap(), n - 1);
        assert!(idx.windows(2).all(|w| w[0] < w[1]), "{n}: {idx:?}");
    }
    assert!(sample_indices(0).is_empty());
    let n = 3 * PATTERN_LEN;
    let good: Vec<(usize, f32)> = sample_indices(n)
        .into_iter()
        .map(|i| (i, p[i % PATTERN_LEN] * 4.0))
        .collect();
    assert_eq!(check_samples(&good, &p, 4), Ok(()));
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last].1 += 1.0;
    let e = check_samples(&bad, &p, 4).unwrap_err();
    assert!(e.contains(&format!("element {}", n - 1)), "{e}");
    assert!(check_samples(&good, &p, 3).is_err());
    assert_eq!(nccl_version_text(22_803), "2.28.3");
    assert_eq!(nccl_version_text(2708), "2.7.8");
}

fn rates() {
    assert!((gbps(1_000_000_000, 1000.0) - 1.0).abs() < 1e-12);
    assert!((gbps(2_000_000, 0.01) - 200.0).abs() < 1e-9);
    assert_eq!(bus_factor(1), 0.0);
    assert_eq!(bus_factor(2), 1.0);
    assert_eq!(bus_factor(8), 1.75);
    assert_eq!(rate(183.5008), "184");
    assert_eq!(rate(52.4288), "52.4");
    assert_eq!(rate(1.234), "1.23");
    assert_eq!(rate(f64::INFINITY), "—");
    let t = Time::from_samples(&[3.0, 1.0, 2.0, 10.0]).unwrap();
    assert_eq!((t.median_ms, t.min_ms), (2.5, 1.0));
    assert_eq!(Time::from_samples(&[]), None);
}

const OUTPUT: &str = r#"NCCL version 2.27.5+cuda13.0
{"kind": "about", "about": "CuPy 14.2.0, PyTorch 2.11.0 (NCCL 2.27.5), Python 3.12.3", "python": "3.12.3", "cupy": "14.2.0", "cupy_error": null, "torch": "2.11.0", "torch_error": null, "torch_nccl": "2.27.5", "cuda_driver": "13.0"}
{"kind": "copy", "src": 0, "dst": 1, "bytes": 1048576, "inner": 20, "runs": 10, "median_ms": 0.01, "min_ms": 0.009}
{"kind": "copy", "src": 0, "dst": 1, "bytes": 4194304, "error": "WRONG RESULT: element 3 is 1.0, expected 2.0"}
{"kind": "all_reduce", "world": 2, "bytes": 1048576, "inner": 20, "runs": 10, "median_ms": 0.02, "min_ms": 0.019}
{"kind": "all_reduce", "world": 8, "error": "error: the ranks failed: ProcessExitedException"}
"#;

fn reference_lines() {
    let r = parse(OUTPUT).unwrap();
    assert!(r.about.starts_with("CuPy 14.2.0"));
    assert_eq!(r.torch_nccl.as_deref(), Some("2.27.5"));
    assert_eq!(r.cuda_driver.as_deref(), Some("13.0"));
    assert_eq!(
        r.copy(0, 1, 1 << 20),
        Some(Ok(Time {
            median_ms: 0.01,
            min_ms: 0.009
        }))
    );
    assert!(r
        .copy(0, 1, 4 << 20)
        .unwrap()
        .unwrap_err()
        .starts_with("WRONG RESULT"));
    assert!(
        r.copy(0, 0, 1 << 20).unwrap().is_err(),
        "a figure never reported"
    );
    assert_eq!(r.reduce(2, 1 << 20).unwrap().unwrap().median_ms, 0.02);
    assert!(r
        .reduce(8, 1 << 20)
        .unwrap()
        .unwrap_err()
        .contains("ranks failed"));
    let missing = parse(
        r#"{"kind": "about", "about": "Python 3.12.3", "cupy_error": "No module named 'cupy'", "torch_error": "--no-torch"}"#,
    )
    .unwrap();
    assert_eq!(missing.copy(0, 1, 1 << 20), None);
    assert_eq!(missing.reduce(2, 1 << 20), None);
    assert_eq!(
        missing.cupy_error.as_deref(),
        Some("No module named 'cupy'")
    );
}

fn reference_needs_about() {
    assert!(parse("").is_err());
    assert!(parse("Traceback (most recent call last):\n  boom\n").is_err());
    assert!(parse(r#"{"kind": "copy", "src": 0, "dst": 1, "bytes": 4, "error": "x"}"#).is_err());
}

fn reference_arguments() {
    let plan = Plan {
        sizes: vec![1 << 20, 4 << 20],
        inner: vec![20, 20],
        runs: 7,
        warmup: 2,
        copies: vec![(0, 1), (0, 0)],
        worlds: vec![8, 2],
        cupy: true,
        torch: false,
    };
    assert_eq!(
        plan.args(),
        args(&[
            "--sizes",
            "1048576,4194304",
            "--inner",
            "20,20",
            "--runs",
            "7",
            "--warmup",
            "2",
            "--copy",
            "0:1",
            "--copy",
            "0:0",
            "--all-reduce",
            "8",
            "--all-reduce",
            "2",
            "--no-torch",
        ])
    );
}

fn ms(median_ms: f64) -> Time {
    Time {
        median_ms,
        min_ms: median_ms,
    }
}

fn copy_table() {
    let b = 1 << 20;
    let rows = vec![
        CopyRow {
            bytes: b,
            ours: Ok(ms(0.01)),
            theirs: Some(Ok(ms(0.02))),
        },
        CopyRow {
            bytes: 4 * b,
            ours: Err("error: out of memory".into()),
            theirs: Some(Err("WRONG RESULT: element 0".into())),
        },
        CopyRow {
            bytes: 16 * b,
            ours: Err("SKIPPED: needs about 5 x 16 MiB free".into()),
            theirs: None,
        },
    ];
    let s = copy_section("Copy".into(), "CuPy", &rows, None);
    assert_eq!(s.rows[0], args(&["1 MiB", "105", "52.4", "2.00"]));
    assert_eq!(s.rows[1], args(&["4 MiB", "error", "WRONG", "—"]));
    assert_eq!(s.rows[2][1], "skipped");
    assert!(s
        .notes
        .iter()
        .any(|n| n == "4 MiB, cuprite: error: out of memory"));
    assert!(copy_failed(&rows[1]) && !copy_failed(&rows[0]) && !copy_failed(&rows[2]));
    let md = s.markdown();
    assert!(
        md.starts_with("### Copy\n\n| size | cuprite GB/s | CuPy GB/s |"),
        "{md}"
    );
    assert!(
        md.contains("|---|---:|---:|---:|\n| 1 MiB | 105 | 52.4 | 2.00 |\n"),
        "{md}"
    );
    let missing = copy_section("Copy".into(), "CuPy", &rows[..1], Some("no cupy"));
    assert_eq!(missing.notes[0], "CuPy not measured: no cupy");
}

fn all_reduce_table() {
    let b = 1 << 20;
    let row = ReduceRow {
        bytes: b,
        in_place: Ok(ms(0.01)),
        out_of_place: Ok(ms(0.02)),
        theirs: Some(Ok(ms(0.005))),
    };
    let s = reduce_section("all_reduce".into(), 8, std::slice::from_ref(&row), None);
    assert_eq!(
        s.rows[0],
        args(&["1 MiB", "105", "184", "210", "367", "0.50", "91.8"])
    );
    assert!(!reduce_failed(&row));
    let one = reduce_section("all_reduce".into(), 1, std::slice::from_ref(&row), None);
    assert_eq!(
        one.rows[0],
        args(&["1 MiB", "105", "—", "210", "—", "0.50", "52.4"])
    );
    assert!(one.notes.iter().any(|n| n.starts_with("one rank")));
    let wrong = ReduceRow {
        out_of_place: Err("WRONG RESULT: all_reduce on rank 1 of 2".into()),
        ..row
    };
    assert!(reduce_failed(&wrong));
    let s = reduce_section("all_reduce".into(), 2, &[wrong], Some("--no-torch"));
    assert_eq!(s.rows[0][6], "WRONG");
    assert_eq!(s.notes[0], "torch.distributed not measured: --no-torch");
}
