//! Running cargo from xtask: plain commands, and builds whose `--message-format=json` output
//! names the executables they produced ([`Artifact`]).

use serde_json::Value;
use std::env;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The cargo that runs xtask (`$CARGO`), else `cargo`.
fn cargo_exe() -> String {
    env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

/// Runs a cargo command, returning whether it succeeded.
pub fn run(args: &[&str], envs: &[(&str, String)]) -> bool {
    eprintln!("== cargo {}", args.join(" "));
    let mut cmd = Command::new(cargo_exe());
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    match cmd.status() {
        Ok(s) => s.success(),
        Err(e) => {
            eprintln!("xtask: could not run cargo: {e}");
            false
        }
    }
}

/// An executable a build produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// The package's name (`cuprite-core`).
    pub package: String,
    /// The target's name (`cuprite_core`, `arith`, `numpy_compare`).
    pub target: String,
    /// The target's first kind (`lib`, `bin`, `test`, `bench`, `example`).
    pub kind: String,
    /// Whether it was built as a libtest harness (`profile.test`).
    pub test: bool,
    /// The executable's path.
    pub path: PathBuf,
}

impl Artifact {
    /// A file name for the bundle, unique within a workspace: `cuprite-core.lib`,
    /// `cuprite.test.arith`, `xtask.bin.xtask`.
    pub fn bundle_name(&self) -> String {
        match self.kind.as_str() {
            "lib" | "proc-macro" => format!("{}.lib", self.package),
            kind => format!("{}.{kind}.{}", self.package, self.target),
        }
    }
}

/// The package name in a cargo package id, in both the current format
/// (`path+file:///w/crates/core#cuprite-core@0.1.0`, or `path+file:///w/xtask#0.1.0` when
/// the name is the directory's) and the old one (`cuprite-core 0.1.0 (path+file:///...)`).
pub fn package_name(id: &str) -> String {
    if let Some((url, frag)) = id.split_once('#') {
        if !url.contains(' ') {
            return match frag.split_once('@') {
                Some((name, _)) => name.to_string(),
                None => url
                    .trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .unwrap_or(url)
                    .to_string(),
            };
        }
    }
    id.split_whitespace().next().unwrap_or(id).to_string()
}

/// The executable of one `compiler-artifact` message, if it has one.
pub fn parse_artifact(line: &str) -> Option<Artifact> {
    let v: Value = serde_json::from_str(line).ok()?;
    if v["reason"] != "compiler-artifact" {
        return None;
    }
    let path = v["executable"].as_str()?;
    Some(Artifact {
        package: package_name(v["package_id"].as_str()?),
        target: v["target"]["name"].as_str()?.to_string(),
        kind: v["target"]["kind"][0].as_str()?.to_string(),
        test: v["profile"]["test"].as_bool().unwrap_or(false),
        path: PathBuf::from(path),
    })
}

/// Runs a cargo build with `--message-format=json` appended (its human-readable messages go
/// to our stderr) and returns the executables it produced, or why it failed.
pub fn build(args: &[&str]) -> Result<Vec<Artifact>, String> {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--message-format=json-render-diagnostics");
    eprintln!("== cargo {}", all.join(" "));
    let mut child = Command::new(cargo_exe())
        .args(&all)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    let mut out = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading cargo's output: {e}"))?;
            if let Some(a) = parse_artifact(&line) {
                out.push(a);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo {} failed ({status})", args.join(" ")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_in_every_id_format() {
        assert_eq!(
            package_name("path+file:///w/crates/core#cuprite-core@0.1.0"),
            "cuprite-core"
        );
        assert_eq!(package_name("path+file:///w/xtask#0.1.0"), "xtask");
        assert_eq!(
            package_name("cuprite-core 0.1.0 (path+file:///w/crates/core)"),
            "cuprite-core"
        );
    }

    #[test]
    fn test_executables_are_found() {
        let line = r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/cuprite#0.1.0","manifest_path":"/w/crates/cuprite/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"arith","src_path":"/w/crates/cuprite/tests/arith.rs","edition":"2021","doc":false,"doctest":false,"test":true},"profile":{"opt_level":"3","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":true},"features":["cpu","cuda"],"filenames":["/w/target/release/deps/arith-0123"],"executable":"/w/target/release/deps/arith-0123","fresh":false}"#;
        let a = parse_artifact(line).unwrap();
        assert_eq!(a.package, "cuprite");
        assert_eq!(a.bundle_name(), "cuprite.test.arith");
        assert!(a.test);
        assert_eq!(a.path, PathBuf::from("/w/target/release/deps/arith-0123"));
        let lib = line
            .replace(r#""kind":["test"]"#, r#""kind":["lib"]"#)
            .replace("#0.1.0", "#cuprite-core@0.1.0");
        assert_eq!(
            parse_artifact(&lib).unwrap().bundle_name(),
            "cuprite-core.lib"
        );
        let rlib = line.replace(
            r#""executable":"/w/target/release/deps/arith-0123""#,
            r#""executable":null"#,
        );
        assert_eq!(parse_artifact(&rlib), None);
        assert_eq!(
            parse_artifact(r#"{"reason":"build-finished","success":true}"#),
            None
        );
    }
}
