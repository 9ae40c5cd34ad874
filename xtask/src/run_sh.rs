//! The `run.sh` of a bundle: runs every test binary (GPU tests included), the comparison,
//! the examples and, on request, the criterion benches and the multi-GPU test binary and
//! benchmark, on a host without a Rust toolchain, with one log per binary and a one-line
//! summary per binary.

/// The script; `@BUILD_INFO@` becomes a comment line saying how the bundle was built.
const TEMPLATE: &str = r##"#!/usr/bin/env bash
# cuprite GPU bundle: the workspace's test binaries (built with the facade's `cuda` feature),
# the comparison with NumPy/CuPy, the examples and the criterion benches, for a GPU host
# with no Rust toolchain. Made by `cargo xtask bundle`. The binaries (tests/, benches/, bin/)
# are packed in payload.tar.xz and unpacked into a temporary directory at each run.
# @BUILD_INFO@
#
# usage: ./run.sh [LOG_DIR] [PART...]
#   LOG_DIR   where the logs go (default: $OUT, else ./logs); one <name>.log per binary,
#             summary.txt with the lines printed here, compare.{log,md,json},
#             crossover_OP.{log,md,png,svg}, multi_gpu_bench.log and multi_gpu.md
#   PART      tests | compare | crossover | examples | criterion | bench | multigpu | all
#             (default: tests compare examples; quickstart runs that example alone;
#             bench runs the side-by-side benches named in BENCH_BIN; a part whose
#             binaries a partial bundle lacks is skipped with a note;
#             multigpu runs the multi-GPU test binary alone, then the multi-GPU
#             benchmark (copies between GPUs beside CuPy, all_reduce beside
#             torch.distributed), both with NCCL's warnings on; criterion leaves that
#             benchmark to it)
#
# Environment:
#   TEST_FILTER      only test binaries whose name contains this (e.g. cuprite.test.)
#   TEST_ARGS        extra libtest arguments for every test binary (e.g. "--test-threads 4")
#   TEST_TIMEOUT     seconds per test binary (default 1200; needs `timeout`)
#   BENCH_SCALE      sizes of the comparison (default 10 = the anchor sizes: 2 GB arrays,
#                    50M-element sorts, 10000x10000 matmuls; about 20 GB of GPU memory)
#   BENCH_RUNS       timed runs per workload (default 7)
#   BENCH_BACKENDS   cuprite backends of the comparison (default cuda; cpu,cuda adds the CPU
#                    backend, slow at scale 10)
#   BENCH_ARGS       extra arguments of the comparison (e.g. "--filter sum,sort_f64")
#   CROSSOVER        workloads swept over sizes by the crossover part (default
#                    add,sum,matmul_f64), each drawn to crossover_OP.png and .svg
#   CROSSOVER_SCALE  largest size of the sweeps (default 1 = 1/10 of the anchor sizes)
#   CROSSOVER_BACKENDS  cuprite backends of the sweeps (default cpu,cuda)
#   EXAMPLE_ARGS     arguments of every example (default "--backend cuda")
#   QUICKSTART_ARGS  arguments of the quickstart (default: EXAMPLE_ARGS)
#   CRITERION_ARGS   extra arguments of every criterion bench (e.g. a name filter: cuda_)
#   BENCH_BIN        benches the bench part runs, by target name (e.g. per_op,batched_linalg)
#   BENCH_BIN_ARGS   their arguments (default "--backend cuda")
#   MULTIGPU_ARGS    extra arguments of the multi-GPU benchmark (e.g. "--max-bytes 256M
#                    --gpus 2 --runs 5"; default: every GPU, 1 MiB to 4 GiB)
#   MULTIGPU_TIMEOUT seconds for the multi-GPU benchmark (default 1800; needs `timeout`)
#   PYTHON           the interpreter with numpy and cupy, and torch for the multi-GPU
#                    benchmark (default python3)
#
# Doc tests are not in the bundle: rustdoc compiles them when they run, which needs a Rust
# toolchain. Run `cargo test --doc --features cuprite/cuda` on a machine that has one.
#
# Exit status: 0 when every test binary passed and every part run succeeded; 1 otherwise
# (a failed or crashed test binary, a wrong result or error in the comparison, ...).

set -u
B="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() { sed -n '2,/^$/p' "$B/run.sh" | sed 's/^# \{0,1\}//'; }

PARTS=()
LOG=""
for a in "$@"; do
    case "$a" in
        tests|compare|crossover|examples|quickstart|criterion|bench|multigpu|all) PARTS+=("$a") ;;
        -h|--help) usage; exit 0 ;;
        *)
            if [ -z "$LOG" ]; then LOG="$a"; else
                echo "run.sh: unexpected argument $a (see --help)" >&2; exit 2
            fi ;;
    esac
done
[ -n "$LOG" ] || LOG="${OUT:-./logs}"
[ "${#PARTS[@]}" -gt 0 ] || PARTS=(tests compare examples)
mkdir -p "$LOG" && LOG="$(cd "$LOG" && pwd)" || { echo "run.sh: cannot use $LOG" >&2; exit 2; }
want() {
    local p
    for p in "${PARTS[@]}"; do
        if [ "$p" = "$1" ] || [ "$p" = all ]; then return 0; fi
    done
    return 1
}

SUMMARY="$LOG/summary.txt"
: >"$SUMMARY"
say() { printf '%s\n' "$*" | tee -a "$SUMMARY"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

export CUPRITE_FIXTURES_DIR="${CUPRITE_FIXTURES_DIR:-$B/fixtures}"
export CUPRITE_BENCH_SCRIPTS="${CUPRITE_BENCH_SCRIPTS:-$B/scripts}"
export CUPRITE_PYTHON="${PYTHON:-python3}"
PY="$CUPRITE_PYTHON"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# The binaries: tests/, benches/ and bin/ beside this script, or packed in payload.tar.xz
# (unpacked here into a temporary directory, by tar or else by Python's tarfile).
R="$B"
if [ ! -d "$B/tests" ] && [ -f "$B/payload.tar.xz" ]; then
    R="$WORK/payload"
    mkdir -p "$R"
    if ! tar -xJf "$B/payload.tar.xz" -C "$R" 2>/dev/null; then
        "$PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
            "$B/payload.tar.xz" "$R" || { echo "run.sh: cannot unpack payload.tar.xz" >&2; exit 2; }
    fi
fi
TO=()
if command -v timeout >/dev/null 2>&1; then TO=(timeout "${TEST_TIMEOUT:-1200}"); fi

say "cuprite bundle run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname 2>/dev/null || echo '?')"
say "parts: ${PARTS[*]}; logs: $LOG"
sed -n 's/^# built /built /p' "$B/run.sh" | tee -a "$SUMMARY"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi >"$LOG/nvidia-smi.log" 2>&1
    nvidia-smi -L 2>/dev/null | tee -a "$SUMMARY"
else
    say "nvidia-smi: not found"
fi
"$PY" -c 'import sys, numpy; print("python", sys.version.split()[0], "numpy", numpy.__version__)' \
    2>/dev/null | tee -a "$SUMMARY"
"$PY" -c 'import cupy; print("cupy", cupy.__version__)' 2>/dev/null | tee -a "$SUMMARY"

FAILED=()

run_tests() {
    local t name log start rc line p f i secs status
    local bins=0 tp=0 tf=0 ti=0
    say ""
    say "== test binaries (--include-ignored), logs in $LOG/<name>.log"
    for t in "$R"/tests/*; do
        [ -f "$t" ] && [ -x "$t" ] || continue
        name="$(basename "$t")"
        case "$name" in *"${TEST_FILTER:-}"*) ;; *) continue ;; esac
        log="$LOG/$name.log"
        start="$(now)"
        # shellcheck disable=SC2086
        (cd "$WORK" && ${TO[@]+"${TO[@]}"} "$t" --include-ignored ${TEST_ARGS:-}) >"$log" 2>&1
        rc=$?
        secs="$(since "$start")"
        bins=$((bins + 1))
        line="$(grep -E '^test result: ' "$log" | tail -n 1)"
        if [ -n "$line" ]; then
            read -r p f i <<<"$(printf '%s\n' "$line" |
                sed -E 's/.* ([0-9]+) passed; ([0-9]+) failed; ([0-9]+) ignored.*/\1 \2 \3/')"
            tp=$((tp + p)); tf=$((tf + f)); ti=$((ti + i))
            if [ "$rc" -eq 0 ]; then status=PASS; else status=FAIL; fi
            say "$(printf '%-5s %-44s %6s passed %5s failed %5s ignored %8ss' \
                "$status" "$name" "$p" "$f" "$i" "$secs")"
            if [ "$rc" -ne 0 ]; then
                FAILED+=("$name")
                grep -E '^test .* \.\.\. FAILED$' "$log" | head -n 30 |
                    sed -E 's/^test (.*) \.\.\. FAILED$/        failed: \1/' | tee -a "$SUMMARY"
            fi
        else
            FAILED+=("$name")
            if [ "$rc" -eq 124 ]; then status="TIMEOUT"; else status="CRASH (exit $rc)"; fi
            say "$(printf '%-5s %-44s %s after %ss, no summary line; last lines:' \
                FAIL "$name" "$status" "$secs")"
            tail -n 8 "$log" | sed 's/^/        /' | tee -a "$SUMMARY"
        fi
    done
    say "tests: $bins binaries, $tp passed, $tf failed, $ti ignored"
}

# Whether bin/NAME is in the bundle; says the part is skipped when it is not.
have_bin() {
    if [ -f "$R/bin/$1" ] && [ -x "$R/bin/$1" ]; then return 0; fi
    say ""
    say "SKIP  $2: bin/$1 is not in this bundle"
    return 1
}

run_compare() {
    local start rc
    have_bin numpy_compare compare || return 0
    say ""
    say "== comparison with NumPy/CuPy: scale ${BENCH_SCALE:-10}, backends ${BENCH_BACKENDS:-cuda}"
    start="$(now)"
    # shellcheck disable=SC2086
    (cd "$WORK" && "$R/bin/numpy_compare" --backend "${BENCH_BACKENDS:-cuda}" \
        --scale "${BENCH_SCALE:-10}" --runs "${BENCH_RUNS:-7}" --python "$PY" \
        --json "$LOG/compare.json" --markdown "$LOG/compare.md" ${BENCH_ARGS:-}) \
        >"$LOG/compare.log" 2>&1
    rc=$?
    if [ -f "$LOG/compare.md" ]; then tee -a "$SUMMARY" <"$LOG/compare.md"; fi
    grep -A 100 '^FAILED' "$LOG/compare.log" | tee -a "$SUMMARY"
    if [ "$rc" -eq 0 ]; then
        say "PASS  compare ($(since "$start")s)"
    else
        FAILED+=(compare)
        say "FAIL  compare: exit $rc after $(since "$start")s (see compare.log); last lines:"
        tail -n 8 "$LOG/compare.log" | sed 's/^/        /' | tee -a "$SUMMARY"
    fi
}

run_crossover() {
    local op start rc
    have_bin numpy_compare crossover || return 0
    for op in $(printf '%s' "${CROSSOVER:-add,sum,matmul_f64}" | tr ',' ' '); do
        say ""
        say "== crossover of $op: scale ${CROSSOVER_SCALE:-1}, backends ${CROSSOVER_BACKENDS:-cpu,cuda}"
        start="$(now)"
        (cd "$WORK" && "$R/bin/numpy_compare" --crossover "$op" \
            --backend "${CROSSOVER_BACKENDS:-cpu,cuda}" --scale "${CROSSOVER_SCALE:-1}" \
            --runs "${BENCH_RUNS:-7}" --python "$PY" --plot-dir "$LOG" \
            --markdown "$LOG/crossover_$op.md") >"$LOG/crossover_$op.log" 2>&1
        rc=$?
        if [ -f "$LOG/crossover_$op.md" ]; then tee -a "$SUMMARY" <"$LOG/crossover_$op.md"; fi
        if [ "$rc" -eq 0 ]; then
            say "PASS  crossover $op ($(since "$start")s)"
        else
            FAILED+=("crossover.$op")
            say "FAIL  crossover $op: exit $rc (see crossover_$op.log); last lines:"
            tail -n 8 "$LOG/crossover_$op.log" | sed 's/^/        /' | tee -a "$SUMMARY"
        fi
    done
}

run_example() {
    local name="$1" args="$2" start rc
    say ""
    say "== example $name $args"
    start="$(now)"
    # shellcheck disable=SC2086
    (cd "$WORK" && "$R/bin/$name" $args) >"$LOG/example.$name.log" 2>&1
    rc=$?
    grep -E ' ms$|checked|MISMATCH|PASS|FAIL' "$LOG/example.$name.log" | tee -a "$SUMMARY"
    if [ "$rc" -eq 0 ]; then
        say "PASS  example $name ($(since "$start")s)"
    else
        FAILED+=("example.$name")
        say "FAIL  example $name: exit $rc (see example.$name.log); last lines:"
        tail -n 8 "$LOG/example.$name.log" | sed 's/^/        /' | tee -a "$SUMMARY"
    fi
}

run_examples() {
    local f name
    for f in "$R"/bin/*; do
        [ -f "$f" ] || continue
        name="$(basename "$f")"
        [ "$name" = numpy_compare ] && continue
        if [ "$name" = quickstart ]; then
            run_example quickstart "${QUICKSTART_ARGS:-${EXAMPLE_ARGS:---backend cuda}}"
        else
            run_example "$name" "${EXAMPLE_ARGS:---backend cuda}"
        fi
    done
}

run_criterion() {
    local b name log rc
    say ""
    say "== criterion benches ${CRITERION_ARGS:-}"
    for b in "$R"/benches/*; do
        [ -f "$b" ] && [ -x "$b" ] || continue
        name="$(basename "$b")"
        # The multigpu part runs this one, with its own options and logs.
        case "$name" in *.multi_gpu) continue ;; esac
        log="$LOG/criterion.$name.log"
        # shellcheck disable=SC2086
        (cd "$WORK" && CARGO_TARGET_DIR="$WORK/target" "$b" --bench ${CRITERION_ARGS:-}) \
            >"$log" 2>&1
        rc=$?
        # One line per bench: the name (alone on its line when long) and its time interval.
        awk '/time:/ { if ($1 == "time:") print prev, $0; else print $0 } NF { prev = $0 }' \
            "$log" | sed -E 's/ +/ /g' | tee -a "$SUMMARY"
        if [ "$rc" -ne 0 ]; then
            FAILED+=("criterion.$name")
            say "FAIL  criterion $name: exit $rc (see $log)"
        fi
    done
}

run_bench_bins() {
    local n b log rc start
    for n in $(printf '%s' "${BENCH_BIN:-}" | tr ',' ' '); do
        b="$R/benches/cuprite-benches.bench.$n"
        say ""
        say "== bench $n ${BENCH_BIN_ARGS:---backend cuda}"
        if [ ! -f "$b" ] || [ ! -x "$b" ]; then
            FAILED+=("bench.$n")
            say "FAIL  bench $n: benches/$(basename "$b") is not in the bundle"
            continue
        fi
        log="$LOG/bench.$n.log"
        start="$(now)"
        # shellcheck disable=SC2086
        (cd "$WORK" && "$b" ${BENCH_BIN_ARGS:---backend cuda}) >"$log" 2>&1
        rc=$?
        grep -E '^\|' "$log" | tee -a "$SUMMARY"
        if [ "$rc" -eq 0 ]; then
            say "PASS  bench $n ($(since "$start")s)"
        else
            FAILED+=("bench.$n")
            say "FAIL  bench $n: exit $rc (see bench.$n.log); last lines:"
            tail -n 8 "$log" | sed 's/^/        /' | tee -a "$SUMMARY"
        fi
    done
}

run_multigpu_bench() {
    local b="$R/benches/cuprite-benches.bench.multi_gpu" start rc to=()
    say ""
    say "== multi-GPU benchmark: copies between GPUs vs CuPy, all_reduce vs torch.distributed ${MULTIGPU_ARGS:-}"
    if [ ! -f "$b" ] || [ ! -x "$b" ]; then
        FAILED+=(multi_gpu_bench)
        say "FAIL  multi_gpu bench: benches/$(basename "$b") is not in the bundle"
        return
    fi
    if command -v timeout >/dev/null 2>&1; then to=(timeout "${MULTIGPU_TIMEOUT:-1800}"); fi
    rm -f "$LOG/multi_gpu.md"
    start="$(now)"
    # shellcheck disable=SC2086
    (cd "$WORK" && NCCL_DEBUG="${NCCL_DEBUG:-WARN}" ${to[@]+"${to[@]}"} "$b" --bench \
        --python "$PY" --markdown "$LOG/multi_gpu.md" ${MULTIGPU_ARGS:-}) \
        >"$LOG/multi_gpu_bench.log" 2>&1
    rc=$?
    if [ -f "$LOG/multi_gpu.md" ]; then tee -a "$SUMMARY" <"$LOG/multi_gpu.md"; fi
    grep -E '^(FAILED|multi_gpu: nothing to measure)' "$LOG/multi_gpu_bench.log" |
        tee -a "$SUMMARY"
    if [ "$rc" -eq 0 ]; then
        say "PASS  multi_gpu bench ($(since "$start")s)"
    else
        FAILED+=(multi_gpu_bench)
        say "FAIL  multi_gpu bench: exit $rc after $(since "$start")s (see multi_gpu_bench.log); last lines:"
        tail -n 8 "$LOG/multi_gpu_bench.log" | sed 's/^/        /' | tee -a "$SUMMARY"
    fi
}

if want tests; then
    run_tests
elif want multigpu; then
    # Its tests need two or more GPUs (they say so and pass on fewer).
    NCCL_DEBUG="${NCCL_DEBUG:-WARN}" TEST_FILTER="${TEST_FILTER:-multi_gpu}" run_tests
fi
if want multigpu; then run_multigpu_bench; fi
if want compare; then run_compare; fi
if want crossover; then run_crossover; fi
if want examples; then
    run_examples
elif want quickstart; then
    run_example quickstart "${QUICKSTART_ARGS:-${EXAMPLE_ARGS:---backend cuda}}"
fi
if want criterion; then run_criterion; fi
if want bench; then run_bench_bins; fi

say ""
if [ "${#FAILED[@]}" -eq 0 ]; then
    say "ALL PASSED"
    exit 0
fi
say "FAILED: ${FAILED[*]}"
exit 1
"##;

/// The script for a bundle built as `build_info` says (one line, no newline).
pub fn script(build_info: &str) -> String {
    TEMPLATE.replace("@BUILD_INFO@", &format!("built {build_info}"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;
    use std::process::Command;

    /// `bash` without the variables run.sh reads, so these tests, run from inside a bundle
    /// run (which sets TEST_FILTER and friends), see the defaults.
    fn bash() -> Command {
        let mut c = Command::new("bash");
        for v in [
            "TEST_FILTER",
            "TEST_ARGS",
            "TEST_TIMEOUT",
            "BENCH_SCALE",
            "BENCH_RUNS",
            "BENCH_BACKENDS",
            "BENCH_ARGS",
            "CROSSOVER",
            "CROSSOVER_SCALE",
            "CROSSOVER_BACKENDS",
            "EXAMPLE_ARGS",
            "QUICKSTART_ARGS",
            "CRITERION_ARGS",
            "BENCH_BIN",
            "BENCH_BIN_ARGS",
            "MULTIGPU_ARGS",
            "MULTIGPU_TIMEOUT",
            "PYTHON",
        ] {
            c.env_remove(v);
        }
        c
    }

    fn write_exe(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// A fake bundle: one passing, one failing and one crashing "test binary", a comparison
    /// that writes its outputs; run.sh must summarise each and exit 1.
    #[test]
    fn run_sh_summarises_and_fails() {
        let dir = std::env::temp_dir().join(format!("xtask-runsh-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["tests", "benches", "bin", "logs"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        write_exe(&dir.join("run.sh"), &script("for a test"));
        write_exe(
            &dir.join("tests/good"),
            "#!/bin/sh\n[ \"$1\" = --include-ignored ] || exit 9\n\
             echo 'test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'\n",
        );
        write_exe(
            &dir.join("tests/bad"),
            "#!/bin/sh\necho 'test a::b ... FAILED'\n\
             echo 'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'\nexit 101\n",
        );
        write_exe(&dir.join("tests/crash"), "#!/bin/sh\necho boom\nexit 139\n");
        write_exe(
            &dir.join("bin/numpy_compare"),
            "#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in --markdown) echo '| table |' > $2;; esac; shift; done\n",
        );
        let out = bash()
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs"))
            .args(["tests", "compare"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains("PASS  good"), "{text}");
        assert!(text.contains("FAIL  bad"), "{text}");
        assert!(text.contains("failed: a::b"), "{text}");
        assert!(text.contains("CRASH (exit 139)"), "{text}");
        assert!(
            text.contains("tests: 3 binaries, 15 passed, 1 failed, 0 ignored"),
            "{text}"
        );
        assert!(
            text.contains("| table |") && text.contains("PASS  compare"),
            "{text}"
        );
        assert!(text.contains("FAILED: bad crash"), "{text}");
        assert!(dir.join("logs/good.log").is_file());
        assert!(dir.join("logs/summary.txt").is_file());

        // One sweep per workload named in CROSSOVER, each with its Markdown.
        let out = bash()
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs"))
            .arg("crossover")
            .env("CROSSOVER", "add,sum")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(text.contains("== crossover of add"), "{text}");
        assert!(text.contains("PASS  crossover sum"), "{text}");
        assert!(dir.join("logs/crossover_sum.md").is_file());

        // The multi-GPU part runs that binary alone, then the multi-GPU benchmark (which
        // the criterion part leaves out), both with NCCL's warnings on.
        write_exe(
            &dir.join("tests/cuprite-cuda.test.multi_gpu"),
            "#!/bin/sh\n[ \"$NCCL_DEBUG\" = WARN ] || exit 9\n\
             echo 'test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'\n",
        );
        write_exe(
            &dir.join("benches/cuprite-benches.bench.multi_gpu"),
            "#!/bin/sh\n[ \"$1\" = --bench ] && [ \"$NCCL_DEBUG\" = WARN ] || exit 9\n\
             echo 'the tables'\n\
             while [ $# -gt 0 ]; do case $1 in --markdown) echo '| multi |' > $2;; esac; shift; done\n",
        );
        let out = bash()
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs"))
            .arg("multigpu")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(
            text.contains("tests: 1 binaries, 4 passed, 0 failed"),
            "{text}"
        );
        assert!(
            text.contains("| multi |") && text.contains("PASS  multi_gpu bench"),
            "{text}"
        );
        assert!(dir.join("logs/multi_gpu_bench.log").is_file());
        assert!(dir.join("logs/multi_gpu.md").is_file());

        // A failing benchmark fails the part; the criterion part leaves it out.
        write_exe(
            &dir.join("benches/cuprite-benches.bench.multi_gpu"),
            "#!/bin/sh\necho 'FAILED: all_reduce x2'\nexit 1\n",
        );
        let out = bash()
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs"))
            .args(["multigpu", "criterion"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains("FAILED: all_reduce x2"), "{text}");
        assert!(text.contains("FAIL  multi_gpu bench: exit 1"), "{text}");
        assert!(text.contains("FAILED: multi_gpu_bench"), "{text}");
        assert!(!dir
            .join("logs/criterion.cuprite-benches.bench.multi_gpu.log")
            .exists());
        std::fs::remove_file(dir.join("tests/cuprite-cuda.test.multi_gpu")).unwrap();
        std::fs::remove_file(dir.join("benches/cuprite-benches.bench.multi_gpu")).unwrap();

        // The same binaries packed into payload.tar.xz.
        let st = Command::new("tar")
            .args(["-cJf", "payload.tar.xz", "tests", "bin"])
            .current_dir(&dir)
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::remove_dir_all(dir.join("tests")).unwrap();
        std::fs::remove_dir_all(dir.join("bin")).unwrap();
        let out = bash()
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs2"))
            .args(["tests"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("tests: 3 binaries, 15 passed, 1 failed"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A partial bundle: one test binary, one side-by-side bench, no numpy_compare and no
    /// examples. The default parts skip what is absent; the bench part runs BENCH_BIN.
    #[test]
    fn run_sh_runs_a_partial_bundle() {
        let dir = std::env::temp_dir().join(format!("xtask-runsh-part-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["tests", "benches", "bin", "logs"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        write_exe(&dir.join("run.sh"), &script("partial"));
        write_exe(
            &dir.join("tests/cuprite-cuda.lib"),
            "#!/bin/sh
echo 'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'
",
        );
        write_exe(
            &dir.join("benches/cuprite-benches.bench.per_op"),
            "#!/bin/sh
[ \"$1 $2\" = '--backend cuda' ] || exit 9
echo 'noise'
echo '| row | 1.0 |'
",
        );
        let out = bash()
            .env("BENCH_BIN", "per_op")
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs"))
            .args(["tests", "compare", "examples", "bench"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(text.contains("SKIP  compare: bin/numpy_compare"), "{text}");
        assert!(
            text.contains("| row | 1.0 |") && !text.contains("noise"),
            "{text}"
        );
        assert!(text.contains("PASS  bench per_op"), "{text}");
        assert!(text.contains("ALL PASSED"), "{text}");
        // A bench that is not in the bundle fails the part.
        let out = bash()
            .env("BENCH_BIN", "fft")
            .arg(dir.join("run.sh"))
            .arg(dir.join("logs"))
            .arg("bench")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains("FAIL  bench fft"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
