//! The unit tests of the `dtypes` bench, run by the binary itself when it is started without
//! `--bench` (`cargo test -p cuprite-benches --bench dtypes`: a bench with `harness = false`
//! gets no libtest, so this is a small one): the options, the script's JSON, the host checks
//! passing right results and failing wrong ones, the u16 pipeline on the CPU backend against
//! the host computation, the table's ratio goal and the choice of the bf16 reference. No GPU
//! needed.

use crate::host::{self, Half};
use crate::reference::{parse, Skip};
use crate::sizes::Sizes;
use crate::table::{Figure, Figures, Goal, Rate, Row, Table, Unit};
use crate::{bf16_cublas, parse_args, rows, semantics_notes, Found};
use cuprite::{bf16, f16, Array, Cpu};
use cuprite_benches::selftest::{is_libtest_flag, Test};

/// Every unit test of the bench.
pub const TESTS: [Test; 14] = [
    ("options_parse", options_parse),
    ("options_reject_bad_values", options_reject_bad_values),
    ("sizes_script_args", sizes_script_args),
    ("reference_json_parses", reference_json_parses),
    (
        "reference_json_rejects_garbage",
        reference_json_rejects_garbage,
    ),
    ("inputs_are_in_range", inputs_are_in_range),
    ("freivalds_f16", freivalds_f16),
    ("freivalds_bf16", freivalds_bf16),
    ("exact_check", exact_check),
    ("f16_ulp_values", f16_ulp_values),
    ("sum_check", sum_check),
    ("pipeline_on_cpu", pipeline_on_cpu),
    ("ratio_goal_and_tflops", ratio_goal_and_tflops),
    ("bf16_reference_choice", bf16_reference_choice),
];

fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn options_parse() {
    let o = parse_args(&args(&[
        "--quick",
        "--runs",
        "7",
        "--no-torch",
        "--json",
        "out.json",
        "--bench",
    ]))
    .unwrap();
    assert_eq!(
        o.sizes,
        Sizes {
            runs: 7,
            ..Sizes::QUICK
        }
    );
    assert_eq!(
        o.skip,
        Skip {
            cupy: false,
            torch: true
        }
    );
    assert_eq!(o.json.as_deref(), Some(std::path::Path::new("out.json")));
    assert!(o.run_python);
    let o = parse_args(&args(&["--bench", "--no-python"])).unwrap();
    assert_eq!(o.sizes, Sizes::FULL);
    assert!(!o.run_python);
    assert!(is_libtest_flag("--nocapture") && is_libtest_flag("--test-threads=1"));
    assert!(!is_libtest_flag("--quick"));
}

fn options_reject_bad_values() {
    for bad in [
        &["--runs", "0"][..],
        &["--runs", "x"],
        &["--runs"],
        &["--fast"],
        &["--json"],
    ] {
        assert!(parse_args(&args(bad)).is_err(), "{bad:?}");
    }
}

fn sizes_script_args() {
    assert_eq!(
        Sizes::QUICK.script_args(),
        args(&["--mat", "256", "--n", "1048576", "--img", "256", "--runs", "10"])
    );
    assert_eq!(Sizes::FULL.copy_bytes(), 4.0 * (1u64 << 28) as f64);
    assert_eq!(Sizes::FULL.matmul_flops(), 2.0 * 8192f64.powi(3));
    assert_eq!(Sizes::count_label(1 << 28), "2^28");
    assert_eq!(Sizes::count_label(1000), "1000");
}

const SAMPLE: &str = r#"{
  "about": "CuPy 14.2.0 (CUDA runtime 13.0, NVIDIA H200), PyTorch 2.9.0, NumPy 2.4.6",
  "cupy_error": null, "torch_error": "ModuleNotFoundError: No module named 'torch'",
  "cupy_accelerators": "cub",
  "results": [
    {"id": "matmul_f16_ms", "value": 1.5, "samples": [1.4, 1.5, 1.6], "checked": true},
    {"id": "sum_f16_ms", "value": 0.2, "samples": [0.2], "abs_error": 63.5},
    {"id": "matmul_bf16_ms", "error": "CuPy has no bfloat16 here: TypeError: x"},
    {"id": "torch_matmul_f16_ms", "error": "PyTorch not run: no module"}
  ]
}"#;

fn reference_json_parses() {
    let r = parse(SAMPLE).unwrap();
    assert!(r.about.starts_with("CuPy 14.2.0"));
    assert_eq!(r.cupy_error, None);
    assert!(r.torch_error.as_deref().unwrap().contains("torch"));
    assert_eq!(
        r.figures["matmul_f16_ms"],
        Ok(Figure {
            value: 1.5,
            samples: vec![1.4, 1.5, 1.6]
        })
    );
    assert!(r.figures["matmul_bf16_ms"]
        .as_ref()
        .unwrap_err()
        .contains("bfloat16"));
    assert_eq!(r.extra("sum_f16_ms", "abs_error"), Some(63.5));
    assert_eq!(r.extra("matmul_f16_ms", "abs_error"), None);
    assert_eq!(r.extra("nope", "abs_error"), None);
}

fn reference_json_rejects_garbage() {
    assert!(parse("not json").is_err());
    assert!(parse(r#"{"about": "x"}"#).is_err());
    assert!(parse(r#"{"results": [{"value": 1.0}]}"#).is_err());
}

fn inputs_are_in_range() {
    let v = host::uniform_half::<bf16>(1000, 1);
    assert!(v.iter().all(|x| (-1.0..=1.0).contains(&x.to_f64())));
    assert_eq!((f16::NAME, bf16::NAME), ("f16", "bf16"));
    let img = host::image_u16(32, 7);
    assert_eq!(img.len(), 1024);
    assert!(img.iter().all(|&p| (1000..=60000).contains(&p)));
}

/// `a b` as the device computes it: products accumulated in f32, rounded once to `T`.
fn product<T: Half>(a: &[T], b: &[T], m: usize) -> Vec<T> {
    let mut c = Vec::with_capacity(m * m);
    for i in 0..m {
        for j in 0..m {
            let acc: f32 = (0..m)
                .map(|k| (a[i * m + k].to_f64() * b[k * m + j].to_f64()) as f32)
                .sum();
            c.push(T::from_f32(acc));
        }
    }
    c
}

fn freivalds<T: Half>() {
    let m = 48;
    let a = host::uniform_half::<T>(m * m, 3);
    let b = host::uniform_half::<T>(m * m, 4);
    let c = product(&a, &b, m);
    host::check_product("product", &c, &a, &b, m).unwrap();
    // One element off by 2 (the elements are about 2.3 in size, the tolerance of a row
    // about 0.06 in f16 and 0.5 in bf16).
    let mut wrong = c.clone();
    wrong[5 * m + 7] = T::from_f32(wrong[5 * m + 7].to_f64() as f32 + 2.0);
    let e = host::check_product("product", &wrong, &a, &b, m).unwrap_err();
    assert!(e.starts_with("WRONG RESULT") && e.contains("row 5"), "{e}");
    // The product with B transposed, and a NaN.
    let bt: Vec<T> = (0..m * m).map(|i| b[(i % m) * m + i / m]).collect();
    assert!(host::check_product("product", &product(&a, &bt, m), &a, &b, m).is_err());
    let mut nan = c.clone();
    nan[0] = T::from_f32(f32::NAN);
    assert!(host::check_product("product", &nan, &a, &b, m).is_err());
    assert!(host::check_product("product", &c[1..], &a, &b, m).is_err());
}

fn freivalds_f16() {
    freivalds::<f16>();
}

fn freivalds_bf16() {
    freivalds::<bf16>();
}

fn exact_check() {
    let x = host::uniform_half::<f16>(100, 9);
    host::check_equal("copy", &x, &x).unwrap();
    let mut y = x.clone();
    y[42] = f16::from_f32(y[42].to_f32() + 1.0);
    let e = host::check_equal("copy", &y, &x).unwrap_err();
    assert!(e.contains("element 42"), "{e}");
    assert!(host::check_equal("copy", &x[1..], &x).is_err());
    // -0.0 is not 0.0 bit for bit.
    let z = [f16::from_f32(0.0)];
    assert!(host::check_equal("copy", &[f16::from_f32(-0.0)], &z).is_err());
}

fn f16_ulp_values() {
    assert_eq!(host::f16_ulp(1.0), 1.0 / 1024.0);
    assert_eq!(host::f16_ulp(-1.5), 1.0 / 1024.0);
    assert_eq!(host::f16_ulp(1000.0), 0.5);
    assert_eq!(host::f16_ulp(40000.0), 32.0);
    assert_eq!(host::f16_ulp(0.0), (-24f64).exp2());
    assert_eq!(host::f16_ulp(1e-6), (-24f64).exp2());
    // It is the spacing of f16 values: the next f16 above 1000 is 1000.5.
    assert_eq!(f16::from_f32(1000.3).to_f32(), 1000.5);
}

fn sum_check() {
    let x = host::uniform_half::<f16>(100_000, 5);
    let (exact, abs_sum) = host::exact_sum(&x);
    let acc: f32 = x.iter().map(|v| v.to_f32()).sum();
    let got = f16::from_f32(acc);
    let err = host::check_sum("sum", got, exact, abs_sum).unwrap();
    assert!(err <= host::sum_tolerance(exact, abs_sum));
    let ulp = host::f16_ulp(exact) as f32;
    let off = f16::from_f32(got.to_f32() + 4.0 * ulp);
    let e = host::check_sum("sum", off, exact, abs_sum).unwrap_err();
    assert!(e.starts_with("WRONG RESULT"), "{e}");
    assert!(host::check_sum("sum", f16::NAN, exact, abs_sum).is_err());
    assert!(host::check_sum("sum", f16::from_f32(0.0), exact, abs_sum).is_err());
}

fn pipeline_on_cpu() {
    let side = 64;
    let hx = host::image_u16(side, 7);
    let dev = Cpu::new();
    let x = Array::<u16, Cpu>::from_vec(hx.clone(), &[side, side], &dev).unwrap();
    let got = crate::ops::normalise_u16(&x).unwrap().to_vec().unwrap();
    assert_eq!(host::check_pipeline("pipeline", &got, &hx), Ok(0));
    let want = host::pipeline_host(&hx);
    assert_eq!(want.iter().min(), Some(&0));
    assert_eq!(want.iter().max(), Some(&65535));
    let mut one = got.clone();
    let i = one.iter().position(|&p| p > 0 && p < 65535).unwrap();
    one[i] += 1;
    assert_eq!(host::check_pipeline("pipeline", &one, &hx), Ok(1));
    one[i] += 1;
    let e = host::check_pipeline("pipeline", &one, &hx).unwrap_err();
    assert!(e.contains(&format!("pixel {i}")), "{e}");
    assert!(host::check_pipeline("pipeline", &got[1..], &hx).is_err());
}

fn fig(v: f64) -> Result<Figure, String> {
    Ok(Figure {
        value: v,
        samples: vec![v],
    })
}

fn ratio_goal_and_tflops() {
    let row = Row {
        id: "mm",
        workload: "mm".into(),
        unit: Unit::Ms,
        rate: Rate::TeraFlops(2e12),
        system: "CuPy",
        their_id: "mm",
        goal: Goal::Ratio(0.9),
    };
    let mut t = Table {
        rows: vec![row.clone()],
        ours: Figures::from([("mm".to_string(), fig(2.0))]),
        theirs: Figures::from([("mm".to_string(), fig(1.9))]),
        copy_bytes: 1.0,
        notes: vec![],
    };
    assert_eq!(t.judge(&row).met, "yes");
    assert_eq!(t.judge(&row).of_copy, None);
    let md = t.markdown_with("CuPy / PyTorch");
    assert!(md.contains("| CuPy / PyTorch |"), "{md}");
    assert!(md.contains("2.000 ms, 1000 TFLOP/s"), "{md}");
    assert!(md.contains(">= 90% of CuPy's rate"), "{md}");
    t.theirs.insert("mm".into(), fig(1.7));
    assert_eq!(t.judge(&row).met, "no");
    t.theirs.insert("mm".into(), Err("CuPy not run".into()));
    assert_eq!(t.judge(&row).met, "?");
    assert!(t.failures().is_empty());
    t.theirs
        .insert("mm".into(), Err("WRONG RESULT: matmul: row 3".into()));
    assert_eq!(t.failures().len(), 1);
    t.ours.insert("mm".into(), Err("out of memory".into()));
    assert_eq!(t.failures().len(), 2);
}

fn bf16_reference_choice() {
    let sizes = Sizes::QUICK;
    let r = parse(SAMPLE).unwrap();
    assert_eq!(bf16_cublas(&r.figures), ("PyTorch", "torch_matmul_bf16_ms"));
    let last_matmul = |theirs: &Figures| {
        rows(&sizes, theirs)
            .into_iter()
            .rfind(|r| r.id == "matmul_bf16_ms")
            .unwrap()
    };
    let row = last_matmul(&r.figures);
    assert_eq!((row.system, row.goal), ("PyTorch", Goal::Ratio(0.9)));
    let notes = semantics_notes(&sizes, &Found::default(), Some(&r));
    assert!(
        notes[0].contains("no bfloat16 product from CuPy (CuPy has no"),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("CuPy 63.5000")),
        "{notes:?}"
    );

    let mut theirs = Figures::new();
    theirs.insert("matmul_bf16_ms".into(), fig(1.0));
    assert_eq!(last_matmul(&theirs).system, "CuPy");
    theirs.insert("matmul_bf16_ms".into(), Err("WRONG RESULT: row 1".into()));
    assert_eq!(last_matmul(&theirs).their_id, "matmul_bf16_ms");
    assert_eq!(rows(&sizes, &theirs).len(), 8);
}
