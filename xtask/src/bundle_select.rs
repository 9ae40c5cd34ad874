//! What a bundle holds: every test binary, bench and example (the default), or only those a
//! run needs (`--tests`, `--benches`, `--examples`), and the cargo invocations that build
//! them. A bundle of one area's tests builds in minutes where the whole bundle takes most of
//! an hour on two cores; `--test-profile` builds the test binaries with the test profile
//! (the workspace's opt-levels for tests) instead of release, which is most of the saving.

/// A selection of one kind of binary.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// Everything of the kind.
    All,
    /// Nothing of the kind.
    Nothing,
    /// These names.
    Only(Vec<String>),
}

impl Selection {
    /// `all`, `none`, or a comma-separated list of names.
    pub fn parse(flag: &str, v: &str) -> Result<Selection, String> {
        match v {
            "all" => Ok(Selection::All),
            "none" => Ok(Selection::Nothing),
            _ => {
                let names: Vec<String> = v
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                if names.is_empty() {
                    Err(format!("{flag} needs all, none or a list of names"))
                } else {
                    Ok(Selection::Only(names))
                }
            }
        }
    }
}

/// The features a test build of `package` needs for the CUDA backend (`None`: it has no
/// such feature; the CUDA crate is always CUDA). The facade's tests are built for the
/// device alone (`device-tests-only`: no `cpu`/`fused_cpu` expansions, which CI runs),
/// half the binary a GPU run carries.
fn cuda_feature(package: &str) -> Option<&'static str> {
    match package {
        "cuprite" => Some("cuda,device-tests-only"),
        "cuprite-benches" => Some("cuda"),
        _ => None,
    }
}

/// The cargo invocations building the test binaries of `sel`: the whole workspace with the
/// facade's `cuda` feature, or one invocation per name: `PACKAGE` (every test target of
/// the package), `PACKAGE:lib` (its library's unit tests) or `PACKAGE:TARGET` (one
/// integration test target, such as `cuprite:suite`).
pub fn test_builds(sel: &Selection, release: bool) -> Vec<Vec<String>> {
    let base = |v: &mut Vec<String>| {
        v.push("test".into());
        if release {
            v.push("--release".into());
        }
    };
    match sel {
        Selection::Nothing => Vec::new(),
        Selection::All => {
            let mut v = Vec::new();
            base(&mut v);
            v.extend(["--workspace", "--features", "cuprite/cuda", "--no-run"].map(String::from));
            vec![v]
        }
        Selection::Only(names) => names
            .iter()
            .map(|name| {
                let (package, target) = match name.split_once(':') {
                    Some((p, t)) => (p, Some(t)),
                    None => (name.as_str(), None),
                };
                let mut v = Vec::new();
                base(&mut v);
                v.extend(["-p".to_string(), package.to_string()]);
                match target {
                    Some("lib") => v.push("--lib".into()),
                    Some(t) => v.extend(["--test".to_string(), t.to_string()]),
                    None => {}
                }
                if let Some(f) = cuda_feature(package) {
                    v.extend(["--features".to_string(), f.to_string()]);
                }
                v.push("--no-run".into());
                v
            })
            .collect(),
    }
}

/// The cargo invocation building the benches of `sel` (`None`: no benches).
pub fn bench_build(sel: &Selection) -> Option<Vec<String>> {
    let mut v: Vec<String> = ["bench", "-p", "cuprite-benches", "--features", "cuda"]
        .map(String::from)
        .to_vec();
    match sel {
        Selection::Nothing => return None,
        Selection::All => {}
        Selection::Only(names) => {
            for n in names {
                v.extend(["--bench".to_string(), n.clone()]);
            }
        }
    }
    v.push("--no-run".into());
    Some(v)
}

/// The cargo invocation building the facade's examples of `sel` (`None`: no examples).
pub fn example_build(sel: &Selection) -> Option<Vec<String>> {
    let mut v: Vec<String> = ["build", "--release", "-p", "cuprite", "--features", "cuda"]
        .map(String::from)
        .to_vec();
    match sel {
        Selection::Nothing => return None,
        Selection::All => v.push("--examples".into()),
        Selection::Only(names) => {
            for n in names {
                v.extend(["--example".to_string(), n.clone()]);
            }
        }
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(v: &[&str]) -> Selection {
        Selection::Only(v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn selections_parse() {
        assert_eq!(Selection::parse("--tests", "all"), Ok(Selection::All));
        assert_eq!(Selection::parse("--tests", "none"), Ok(Selection::Nothing));
        assert_eq!(
            Selection::parse("--tests", "cuprite-cuda:lib,cuprite:suite"),
            Ok(only(&["cuprite-cuda:lib", "cuprite:suite"]))
        );
        assert!(Selection::parse("--tests", ",").is_err());
    }

    #[test]
    fn test_builds_name_packages_and_targets() {
        let all = test_builds(&Selection::All, true);
        assert_eq!(
            all,
            vec![[
                "test",
                "--release",
                "--workspace",
                "--features",
                "cuprite/cuda",
                "--no-run"
            ]
            .map(String::from)
            .to_vec()]
        );
        let some = test_builds(
            &only(&["cuprite-cuda:lib", "cuprite:suite", "cuprite-core"]),
            false,
        );
        assert_eq!(
            some[0],
            ["test", "-p", "cuprite-cuda", "--lib", "--no-run"].map(String::from)
        );
        assert_eq!(
            some[1],
            [
                "test",
                "-p",
                "cuprite",
                "--test",
                "suite",
                "--features",
                "cuda,device-tests-only",
                "--no-run"
            ]
            .map(String::from)
        );
        assert_eq!(
            some[2],
            ["test", "-p", "cuprite-core", "--no-run"].map(String::from)
        );
        assert!(test_builds(&Selection::Nothing, true).is_empty());
    }

    #[test]
    fn bench_and_example_builds() {
        assert_eq!(bench_build(&Selection::Nothing), None);
        let b = bench_build(&only(&["per_op", "batched_linalg"])).unwrap();
        assert_eq!(b.join(" "), "bench -p cuprite-benches --features cuda --bench per_op --bench batched_linalg --no-run");
        assert!(bench_build(&Selection::All)
            .unwrap()
            .ends_with(&["--no-run".to_string()]));
        assert_eq!(example_build(&Selection::Nothing), None);
        let e = example_build(&only(&["quickstart"])).unwrap();
        assert_eq!(
            e.join(" "),
            "build --release -p cuprite --features cuda --example quickstart"
        );
        assert!(example_build(&Selection::All)
            .unwrap()
            .contains(&"--examples".to_string()));
    }
}
