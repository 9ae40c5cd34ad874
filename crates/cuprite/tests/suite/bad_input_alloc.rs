//! Requests for more memory than the machine has are errors, never aborts: creation (`zeros`,
//! `ones`, `ramp`, `arange`), random draws (`random`, `permutation`), `repeat`,
//! `array_split` and `fft` with 2^40-element results return [`Error::OutOfMemory`] (or an
//! argument error where the size itself overflows), after which the process allocates and
//! computes as before; `choice_index` of 3 out of 2^40 without replacement answers at once.
//!
//! A regression here would abort the whole test binary, so every case runs in a child
//! process: the test re-executes the current test binary with `--exact` its own name and
//! [`CASE_VAR`] naming the case, and asserts the child's exit status and output.

use cuprite::fft::{self, Norm};
use cuprite::prelude::*;
use std::process::Command;

/// Set in the child process to the name of the case it runs.
const CASE_VAR: &str = "CUPRITE_ALLOC_CASE";
/// Printed by a child whose case passed.
const DONE: &str = "alloc case passed";
/// 2^40 elements: 8 TiB of f64, more than RAM + swap of any machine the tests run on.
const HUGE: usize = 1 << 40;

type CaseResult = std::result::Result<(), String>;

/// `Ok` when `r` is [`Error::OutOfMemory`] (or, with `overflow_ok`, an argument or shape
/// error, or `TooBig`, from a size that overflows); otherwise a message saying what came instead.
fn expect_oom<T>(what: &str, r: Result<T>, overflow_ok: bool) -> CaseResult {
    match r {
        Err(Error::OutOfMemory { requested, .. }) if requested > 0 => Ok(()),
        Err(Error::InvalidArgument { .. } | Error::ShapeMismatch { .. } | Error::TooBig { .. })
            if overflow_ok =>
        {
            Ok(())
        }
        Err(e) => Err(format!("{what}: expected OutOfMemory, got the error {e:?}")),
        Ok(_) => Err(format!("{what}: expected OutOfMemory, got a result")),
    }
}

/// Allocates and computes normally: what the process must still do after a refused request.
fn still_works<B: ArrayBackend>(dev: &B) -> CaseResult {
    let run = || -> Result<f64> {
        let a = Array::<f64, B>::ones(&[1000], dev)?;
        let b = Array::<f64, B>::ramp(1000, 0.0, 1.0, dev)?;
        a.try_add(&b)?.sum()?.item()
    };
    match run() {
        Ok(v) if v == 1000.0 + 999.0 * 1000.0 / 2.0 => Ok(()),
        other => Err(format!("after the refused request: {other:?}")),
    }
}

/// Runs `case` in a child process (see the module docs); in the child itself, runs it and
/// reports through the exit status and [`DONE`].
fn in_child<B: ArrayBackend>(name: &str, dev: &B, case: fn(&B) -> CaseResult) {
    if std::env::var(CASE_VAR).as_deref() == Ok(name) {
        match case(dev).and_then(|()| still_works(dev)) {
            Ok(()) => println!("{DONE}"),
            Err(msg) => {
                eprintln!("{name}: {msg}");
                std::process::exit(3);
            }
        }
        return;
    }
    let module = if std::any::type_name::<B>().contains("Cuda") {
        "cuda"
    } else {
        "cpu"
    };
    let test = format!("bad_input_alloc::{module}::{name}");
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([&test, "--exact", "--include-ignored", "--nocapture"])
        .args(["--test-threads", "1"])
        .env(CASE_VAR, name)
        .output()
        .expect("re-running the test binary");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success() && stdout.contains(DONE) && stdout.contains("1 passed"),
        "{test} in a child process: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
}

fn zeros_huge<B: ArrayBackend>(dev: &B) {
    in_child("zeros_huge", dev, |dev| {
        expect_oom("zeros", Array::<f64, B>::zeros(&[HUGE], dev), false)?;
        expect_oom(
            "zeros c128",
            Array::<c128, B>::zeros(&[HUGE, 4], dev),
            false,
        )
    });
}

fn ones_huge<B: ArrayBackend>(dev: &B) {
    in_child("ones_huge", dev, |dev| {
        expect_oom("ones", Array::<f64, B>::ones(&[HUGE], dev), false)?;
        expect_oom(
            "ones i32",
            Array::<i32, B>::ones(&[1 << 20, 1 << 22], dev),
            false,
        )
    });
}

fn ramp_huge<B: ArrayBackend>(dev: &B) {
    in_child("ramp_huge", dev, |dev| {
        expect_oom("ramp", Array::<i64, B>::ramp(HUGE, 0, 1, dev), false)
    });
}

fn arange_huge<B: ArrayBackend>(dev: &B) {
    in_child("arange_huge", dev, |dev| {
        expect_oom("arange", Array::<i64, B>::arange(0, 1 << 59, 1, dev), true)?;
        expect_oom(
            "arange f64",
            Array::<f64, B>::arange(0.0, 1e15, 1.0, dev),
            true,
        )
    });
}

fn random_huge<B: ArrayBackend>(dev: &B) {
    in_child("random_huge", dev, |dev| {
        let mut g = Generator::new(7);
        expect_oom("random", g.random::<f64, B>(&[HUGE], dev), false)?;
        expect_oom(
            "normal",
            g.standard_normal::<f32, B>(&[HUGE, 2], dev),
            false,
        )?;
        expect_oom("integers", g.integers::<i64, B>(0, 10, &[HUGE], dev), false)
    });
}

fn permutation_huge<B: ArrayBackend>(dev: &B) {
    in_child("permutation_huge", dev, |dev| {
        expect_oom(
            "permutation",
            Generator::new(1).permutation(HUGE, dev),
            false,
        )
    });
}

fn repeat_huge<B: ArrayBackend>(dev: &B) {
    in_child("repeat_huge", dev, |dev| {
        let a = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev).map_err(|e| e.to_string())?;
        expect_oom("repeat", a.repeat(HUGE, None), true)?;
        expect_oom(
            "repeat per element",
            a.repeat(vec![HUGE, HUGE], Some(0)),
            true,
        )?;
        expect_oom(
            "repeat overflow",
            a.repeat(vec![usize::MAX, 2], Some(0)),
            true,
        )
    });
}

fn array_split_huge<B: ArrayBackend>(dev: &B) {
    in_child("array_split_huge", dev, |dev| {
        let a = Array::<f64, B>::ones(&[4], dev).map_err(|e| e.to_string())?;
        expect_oom("array_split", a.array_split(Sections::N(HUGE), 0), false)
    });
}

fn fft_huge<B: ArrayBackend>(dev: &B) {
    in_child("fft_huge", dev, |dev| {
        let x = Array::<f64, B>::ones(&[4], dev).map_err(|e| e.to_string())?;
        expect_oom("fft", fft::fft(&x, Some(HUGE), -1, Norm::Backward), true)?;
        expect_oom("rfft", fft::rfft(&x, Some(HUGE), -1, Norm::Backward), true)?;
        expect_oom("ifft", fft::ifft(&x, Some(HUGE), -1, Norm::Backward), true)
    });
}

fn choice_from_huge_population<B: ArrayBackend>(dev: &B) {
    in_child("choice_from_huge_population", dev, |dev| {
        let t = std::time::Instant::now();
        let mut g = Generator::new(11);
        let c = g
            .choice_index(HUGE, &[3], false, None, dev)
            .and_then(|c| c.to_vec())
            .map_err(|e| format!("choice_index: {e}"))?;
        let secs = t.elapsed().as_secs_f64();
        let distinct = c[0] != c[1] && c[1] != c[2] && c[0] != c[2];
        let in_range = c.iter().all(|&v| v >= 0 && (v as usize) < HUGE);
        if c.len() != 3 || !distinct || !in_range || secs > 5.0 {
            return Err(format!("choice_index gave {c:?} in {secs} s"));
        }
        // The same through `choice` of a broadcast view (nothing allocated for the population).
        let a = Array::<i64, B>::ramp(1, 5, 0, dev)
            .and_then(|a| a.broadcast_to(&[HUGE]))
            .map_err(|e| e.to_string())?;
        let v = g
            .choice(&a, &[2, 2], false, None)
            .and_then(|c| c.to_vec())
            .map_err(|e| format!("choice: {e}"))?;
        if v != vec![5; 4] {
            return Err(format!("choice of a broadcast view gave {v:?}"));
        }
        Ok(())
    });
}

cuprite::test_backends!(
    zeros_huge,
    ones_huge,
    ramp_huge,
    arange_huge,
    random_huge,
    permutation_huge,
    repeat_huge,
    array_split_huge,
    fft_huge,
    choice_from_huge_population,
);
