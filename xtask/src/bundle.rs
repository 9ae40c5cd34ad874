//! `cargo xtask bundle`: everything a GPU host without a Rust toolchain needs to run the
//! test suite and the benchmarks, in one directory (default `bundle/`):
//!
//! ```text
//! run.sh          runs it all, one log per binary (see the script's header)
//! MANIFEST.txt    how it was built, and every file with its package, target and size
//! payload.tar.xz  the binaries (unpacked by run.sh into a temporary directory):
//!   tests/        every test binary of the workspace, built with the facade's `cuda`
//!                 feature (`cuprite.test.suite`, `cuprite-cuda.lib`, ...), except the
//!                 proc-macro crate's (it needs the toolchain's shared libstd)
//!   benches/      every bench target of cuprite-benches but numpy_compare: the criterion
//!                 benches (`cuprite-benches.bench.reduce`, ...) and the side-by-side ones
//!                 (`cuprite-benches.bench.dtypes`, `cuprite-benches.bench.multi_gpu`)
//!   bin/          numpy_compare (the comparison runner) and every example of the facade
//! scripts/        the Python references: bench_numpy.py, bench_cupy.py,
//!                 multi_gpu_reference.py, ... (run.sh points the benches at them)
//! fixtures/       the NumPy-made test fixtures (run.sh exports CUPRITE_FIXTURES_DIR)
//! ```
//!
//! `--tests`, `--benches` and `--examples` take `all` (the default), `none` or a list
//! ([`bundle_select`]): `--tests cuprite-cuda:lib --benches per_op --examples none` is the
//! bundle of the CUDA backend's own tests and one bench. `--test-profile` builds the test
//! binaries with the test profile instead of release.
//!
//! By default all of it comes from one release profile (`cargo test --release`, `cargo
//! bench`, `cargo build --release` share their dependencies' artifacts); binaries are stripped after they
//! are copied, then packed with xz (the stripped test binaries alone weigh more than the
//! 64 MiB a GPU run carries; xz shrinks them about 8x). `--no-compress` leaves `tests/`,
//! `benches/` and `bin/` unpacked. Doc tests cannot be bundled: rustdoc builds them when they
//! run.

use crate::bundle_select::{self, Selection};
use crate::cargo::{self, Artifact};
use crate::run_sh;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most a bundle may weigh: what the GPU host's runner carries.
const MAX_BYTES: u64 = 64 << 20;

/// The workspace root (xtask lives in `<root>/xtask`).
fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Options of `cargo xtask bundle`.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The output directory.
    pub out: PathBuf,
    /// Whether to strip the binaries.
    pub strip: bool,
    /// Whether to pack the binaries into `payload.tar.xz`.
    pub compress: bool,
    /// The test binaries, benches and examples to build.
    pub tests: Selection,
    pub benches: Selection,
    pub examples: Selection,
    /// Test binaries with the test profile instead of release.
    pub test_profile: bool,
}

impl Options {
    /// Parses `[--out DIR] [--no-strip] [--no-compress] [--tests S] [--benches S]
    /// [--examples S] [--test-profile]`; a relative `--out` is against the current
    /// directory, the default `bundle/` against the workspace root.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            out: root().join("bundle"),
            strip: true,
            compress: true,
            tests: Selection::All,
            benches: Selection::All,
            examples: Selection::All,
            test_profile: false,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--out" => {
                    let v = it.next().ok_or("--out needs a directory")?;
                    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
                    o.out = cwd.join(v);
                }
                "--no-strip" => o.strip = false,
                "--no-compress" => o.compress = false,
                "--test-profile" => o.test_profile = true,
                "--tests" | "--benches" | "--examples" => {
                    let v = it.next().ok_or(format!("{a} needs all, none or a list"))?;
                    let sel = Selection::parse(a, v)?;
                    match a.as_str() {
                        "--tests" => o.tests = sel,
                        "--benches" => o.benches = sel,
                        _ => o.examples = sel,
                    }
                }
                other => return Err(format!("unknown bundle option {other}")),
            }
        }
        Ok(o)
    }
}

/// Empties `out` for a new bundle: it must not exist, be empty, or hold a previous bundle
/// (a `MANIFEST.txt` and a `run.sh`), so a mistyped `--out` never deletes anything else.
fn prepare_out(out: &Path) -> Result<(), String> {
    if out.exists() {
        let empty = fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .next()
            .is_none();
        let previous = out.join("MANIFEST.txt").is_file() && out.join("run.sh").is_file();
        if !empty && !previous {
            return Err(format!(
                "{} exists and is not a bundle (no MANIFEST.txt and run.sh): not replacing it",
                out.display()
            ));
        }
        fs::remove_dir_all(out).map_err(|e| format!("removing {}: {e}", out.display()))?;
    }
    for d in [
        "tests",
        "benches",
        "bin",
        "scripts",
        "fixtures",
        "fixtures/npy",
    ] {
        fs::create_dir_all(out.join(d)).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

/// One line describing the build: date, git revision, rustc.
fn build_info() -> String {
    let run = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .current_dir(root())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let date = run("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "?".into());
    let rev = run("git", &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "?".into());
    let dirty = match run("git", &["status", "--porcelain", "--untracked-files=no"]) {
        Some(s) if !s.is_empty() => " with uncommitted changes",
        _ => "",
    };
    let rustc = run("rustc", &["--version"]).unwrap_or_else(|| "rustc ?".into());
    format!("{date} from git {rev}{dirty}, {rustc}, features cuprite/cuda")
}

/// What a partial bundle holds, for its build line (empty parts name no binary).
fn describe(opts: &Options, tests: usize, benches: usize, examples: usize) -> String {
    let profile = if opts.test_profile {
        "test binaries with the test profile"
    } else {
        "test binaries in release"
    };
    format!("{tests} test binaries, {benches} benches, {examples} examples, {profile}")
}

/// What was copied into the bundle: relative path, package, kind, target.
struct Entry {
    rel: String,
    what: String,
}

/// Copies `src` to `out/rel`, stripping it if asked; returns the manifest entry.
fn copy_binary(a: &Artifact, out: &Path, rel: String, strip: bool) -> Result<Entry, String> {
    let dst = out.join(&rel);
    fs::copy(&a.path, &dst).map_err(|e| format!("copying {}: {e}", a.path.display()))?;
    if strip {
        let ok = Command::new("strip")
            .arg("--strip-all")
            .arg(&dst)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            eprintln!("xtask bundle: warning: `strip` failed on {rel}; kept unstripped");
        }
    }
    Ok(Entry {
        rel,
        what: format!("{} {} {}", a.package, a.kind, a.target),
    })
}

/// Copies the files of `src` with extension `ext` into `out/dir`.
fn copy_files(src: &Path, ext: &str, out: &Path, dir: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let rd = fs::read_dir(src).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_file() && p.extension().is_some_and(|e| e == ext) {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let rel = format!("{dir}/{name}");
            fs::copy(&p, out.join(&rel)).map_err(|e| format!("copying {}: {e}", p.display()))?;
            entries.push(Entry {
                rel,
                what: format!("from {}", p.strip_prefix(root()).unwrap_or(&p).display()),
            });
        }
    }
    Ok(entries)
}

/// Sorts the artifacts by bundle name and rejects two with the same name.
fn unique(mut v: Vec<Artifact>) -> Result<Vec<Artifact>, String> {
    v.sort_by_key(Artifact::bundle_name);
    v.dedup_by(|a, b| a.path == b.path);
    for w in v.windows(2) {
        if w[0].bundle_name() == w[1].bundle_name() {
            return Err(format!(
                "two executables would be named {}: {} and {}",
                w[0].bundle_name(),
                w[0].path.display(),
                w[1].path.display()
            ));
        }
    }
    Ok(v)
}

/// Runs the cargo invocation `args` (none: nothing to build) and keeps its artifacts of
/// target kind `kind`, uniquely named.
fn build_kind(args: Option<Vec<String>>, kind: &str) -> Result<Vec<Artifact>, String> {
    let Some(args) = args else {
        return Ok(Vec::new());
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    unique(
        cargo::build(&args)?
            .into_iter()
            .filter(|a| a.kind == kind)
            .collect(),
    )
}

/// Builds the bundle.
pub fn bundle(opts: &Options) -> Result<(), String> {
    std::env::set_current_dir(root()).map_err(|e| format!("cd {}: {e}", root().display()))?;
    let mut tests = Vec::new();
    for args in bundle_select::test_builds(&opts.tests, !opts.test_profile) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        tests.extend(cargo::build(&args)?);
    }
    // A proc-macro crate's test binary links the toolchain's shared libstd, which a host
    // without Rust lacks: its tests run where the toolchain is (CI), not in the bundle.
    let tests = unique(
        tests
            .into_iter()
            .filter(|a| a.test && a.kind != "proc-macro")
            .collect(),
    )?;
    if tests.is_empty() && opts.tests != Selection::Nothing {
        return Err("cargo test --no-run named no test executable".into());
    }
    let benches = build_kind(bundle_select::bench_build(&opts.benches), "bench")?;
    let compare = benches
        .iter()
        .find(|a| a.target == "numpy_compare")
        .cloned();
    if compare.is_none() && opts.benches == Selection::All {
        return Err("the numpy_compare bench was not built".into());
    }
    let examples = build_kind(bundle_select::example_build(&opts.examples), "example")?;
    if opts.examples == Selection::All && !examples.iter().any(|a| a.target == "quickstart") {
        return Err("the quickstart example was not built".into());
    }

    let out = &opts.out;
    prepare_out(out)?;
    let mut entries = Vec::new();
    for a in &tests {
        entries.push(copy_binary(
            a,
            out,
            format!("tests/{}", a.bundle_name()),
            opts.strip,
        )?);
    }
    for a in benches.iter().filter(|a| a.target != "numpy_compare") {
        entries.push(copy_binary(
            a,
            out,
            format!("benches/{}", a.bundle_name()),
            opts.strip,
        )?);
    }
    if let Some(compare) = &compare {
        entries.push(copy_binary(
            compare,
            out,
            "bin/numpy_compare".into(),
            opts.strip,
        )?);
    }
    for a in &examples {
        entries.push(copy_binary(
            a,
            out,
            format!("bin/{}", a.target),
            opts.strip,
        )?);
    }
    entries.extend(copy_files(&root().join("scripts"), "py", out, "scripts")?);
    for (sub, ext) in [("", "json"), ("/npy", "npy"), ("/npy", "npz")] {
        entries.extend(copy_files(
            &root().join(format!("crates/cuprite/tests/fixtures{sub}")),
            ext,
            out,
            &format!("fixtures{sub}"),
        )?);
    }

    let info = format!(
        "{}; {}",
        build_info(),
        describe(opts, tests.len(), benches.len(), examples.len())
    );
    let run = out.join("run.sh");
    fs::write(&run, run_sh::script(&info)).map_err(|e| format!("writing run.sh: {e}"))?;
    set_executable(&run)?;

    let mut total = 0u64;
    let mut manifest = format!("cuprite GPU bundle, built {info}\n\n");
    let mut sizes = Vec::new();
    for e in &entries {
        let size = fs::metadata(out.join(&e.rel)).map(|m| m.len()).unwrap_or(0);
        total += size;
        sizes.push((size, e.rel.clone()));
        manifest += &format!("{:<52} {:>10}  {}\n", e.rel, size, e.what);
    }
    manifest += &format!("\ntotal {total} bytes before packing\n");
    fs::write(out.join("MANIFEST.txt"), manifest).map_err(|e| format!("MANIFEST.txt: {e}"))?;
    if opts.compress {
        pack(out, &["tests", "benches", "bin"])?;
        total = dir_size(out);
        sizes = vec![(total, "payload.tar.xz and the rest".to_string())];
    }

    sizes.sort();
    eprintln!(
        "bundle: {} ({} test binaries, {} benches, {:.1} MiB)",
        out.display(),
        tests.len(),
        benches.len(),
        total as f64 / (1u64 << 20) as f64
    );
    if total > MAX_BYTES {
        let largest: Vec<String> = sizes
            .iter()
            .rev()
            .take(5)
            .map(|(s, r)| format!("{r} ({:.1} MiB)", *s as f64 / (1u64 << 20) as f64))
            .collect();
        return Err(format!(
            "the bundle weighs {:.1} MiB, over the 64 MiB a GPU run carries; largest: {}",
            total as f64 / (1u64 << 20) as f64,
            largest.join(", ")
        ));
    }
    eprintln!(
        "run it on the GPU host: bash {}/run.sh [LOG_DIR] [PART...]",
        out.display()
    );
    Ok(())
}

/// Packs the directories `dirs` of `out` into `out/payload.tar.xz` and removes them.
fn pack(out: &Path, dirs: &[&str]) -> Result<(), String> {
    eprintln!("== tar -cJf payload.tar.xz {}", dirs.join(" "));
    let status = Command::new("tar")
        .env("XZ_OPT", "-6 -T0")
        .arg("-cJf")
        .arg(out.join("payload.tar.xz"))
        .arg("-C")
        .arg(out)
        .args(dirs)
        .status()
        .map_err(|e| format!("could not run tar: {e}"))?;
    if !status.success() {
        return Err(format!(
            "tar failed ({status}); --no-compress skips packing"
        ));
    }
    for d in dirs {
        fs::remove_dir_all(out.join(d)).map_err(|e| format!("removing {d}: {e}"))?;
    }
    Ok(())
}

/// Total size of the files under `dir`.
fn dir_size(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| match e.file_type() {
                    Ok(t) if t.is_dir() => dir_size(&e.path()),
                    _ => e.metadata().map(|m| m.len()).unwrap_or(0),
                })
                .sum()
        })
        .unwrap_or(0)
}

#[cfg(unix)]
fn set_executable(p: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(p, fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("chmod {}: {e}", p.display()))
}

#[cfg(not(unix))]
fn set_executable(_: &Path) -> Result<(), String> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn art(package: &str, kind: &str, target: &str, path: &str) -> Artifact {
        Artifact {
            package: package.into(),
            target: target.into(),
            kind: kind.into(),
            test: true,
            path: path.into(),
        }
    }

    #[test]
    fn options() {
        let o = Options::parse(&[]).unwrap();
        assert!(o.out.ends_with("bundle") && o.strip && o.compress);
        let o = Options::parse(&["--out".into(), "/tmp/b".into(), "--no-strip".into()]).unwrap();
        assert_eq!(o.out, PathBuf::from("/tmp/b"));
        assert!(!o.strip && o.compress);
        assert!(!Options::parse(&["--no-compress".into()]).unwrap().compress);
        assert!(Options::parse(&["--check".into()]).is_err());
        let args: Vec<String> = [
            "--tests",
            "cuprite-cuda:lib",
            "--benches",
            "none",
            "--test-profile",
        ]
        .map(String::from)
        .to_vec();
        let o = Options::parse(&args).unwrap();
        assert_eq!(o.tests, Selection::Only(vec!["cuprite-cuda:lib".into()]));
        assert_eq!(
            (o.benches, o.examples),
            (Selection::Nothing, Selection::All)
        );
        assert!(o.test_profile);
        assert!(Options::parse(&["--tests".into()]).is_err());
    }

    #[test]
    fn names_must_be_unique() {
        let v = unique(vec![
            art("cuprite", "test", "arith", "/t/arith-1"),
            art("cuprite-core", "lib", "cuprite_core", "/t/core-1"),
            art("cuprite", "test", "arith", "/t/arith-1"),
        ])
        .unwrap();
        assert_eq!(v.len(), 2);
        assert!(unique(vec![
            art("cuprite", "test", "arith", "/t/arith-1"),
            art("cuprite", "test", "arith", "/t/arith-2"),
        ])
        .is_err());
    }

    #[test]
    fn out_dir_is_replaced_only_when_it_is_a_bundle() {
        let dir = std::env::temp_dir().join(format!("xtask-out-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("precious.txt"), "x").unwrap();
        assert!(prepare_out(&dir).is_err());
        assert!(dir.join("precious.txt").is_file());
        fs::write(dir.join("MANIFEST.txt"), "").unwrap();
        fs::write(dir.join("run.sh"), "").unwrap();
        prepare_out(&dir).unwrap();
        assert!(!dir.join("precious.txt").exists() && dir.join("tests").is_dir());
        fs::write(dir.join("tests/t"), "12345").unwrap();
        fs::write(dir.join("bin/b"), "1").unwrap();
        assert_eq!(dir_size(&dir), 6);
        pack(&dir, &["tests", "bin"]).unwrap();
        assert!(dir.join("payload.tar.xz").is_file() && !dir.join("tests").exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
