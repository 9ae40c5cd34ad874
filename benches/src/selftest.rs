//! The test runner of the bench binaries that carry their own unit tests (`dtypes`,
//! `multi_gpu`): a bench built with `harness = false` gets no libtest, so started without
//! `--bench` (as `cargo test` starts it) the binary runs its tests with this small one,
//! libtest style, and with `--bench` it runs the bench.

/// A named unit test.
pub type Test = (&'static str, fn());

/// libtest's flags, accepted and ignored (`cargo test --bench NAME -- --nocapture`).
const LIBTEST_FLAGS: [&str; 8] = [
    "--nocapture",
    "--show-output",
    "--quiet",
    "-q",
    "--exact",
    "--include-ignored",
    "--ignored",
    "--test",
];

/// Whether `arg` is a flag of libtest rather than of the bench.
pub fn is_libtest_flag(arg: &str) -> bool {
    LIBTEST_FLAGS.contains(&arg) || arg.starts_with("--test-threads") || arg.starts_with("--color")
}

/// Runs the tests whose name contains `filter`; 0 when all pass, else 101.
pub fn run(bench: &str, tests: &[Test], filter: Option<&str>) -> i32 {
    let chosen: Vec<&Test> = tests
        .iter()
        .filter(|(name, _)| filter.is_none_or(|f| name.contains(f)))
        .collect();
    println!("\nrunning {} tests", chosen.len());
    let mut failed = Vec::new();
    for (name, f) in &chosen {
        match std::panic::catch_unwind(*f) {
            Ok(()) => println!("test {name} ... ok"),
            Err(_) => {
                println!("test {name} ... FAILED");
                failed.push(*name);
            }
        }
    }
    if !failed.is_empty() {
        println!("\nfailures:");
        for name in &failed {
            println!("    {name}");
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out\n\
         (the {bench} bench's unit tests; pass --bench to run the bench)",
        if failed.is_empty() { "ok" } else { "FAILED" },
        chosen.len() - failed.len(),
        failed.len(),
        tests.len() - chosen.len()
    );
    if failed.is_empty() {
        0
    } else {
        101
    }
}

/// The arguments of a bench run (`--bench` among them). Otherwise the process ends here:
/// `--help` prints `usage`; without `--bench` the unit tests run (a bench option without
/// `--bench` is refused, exit 2).
pub fn bench_args(bench: &str, usage: &str, tests: &[Test]) -> Vec<String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{usage}");
        std::process::exit(0);
    }
    if !args.iter().any(|a| a == "--bench") {
        let ours = |a: &&String| a.starts_with('-') && !is_libtest_flag(a);
        if let Some(o) = args.iter().find(ours) {
            eprintln!(
                "{bench}: {o} without --bench: without it the binary runs its unit tests \
                 (add --bench to run the bench)\n\n{usage}"
            );
            std::process::exit(2);
        }
        let filter = args.iter().find(|a| !a.starts_with('-'));
        std::process::exit(run(bench, tests, filter.map(String::as_str)));
    }
    args
}
