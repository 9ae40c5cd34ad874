//! Run-time compilation of CUDA C with NVRTC to a cubin for the device's own architecture,
//! and the on-disk cache of compiled cubins.
//!
//! The cache lives in `$CUPRITE_CACHE_DIR`, else `$XDG_CACHE_HOME/cuprite/kernels`, else
//! `~/.cache/cuprite/kernels`. An entry is keyed by a hash of the source, the options, the
//! NVRTC major version the bindings are built for and the architecture; the file repeats the
//! full key and a checksum of the cubin, so a collision or a corrupt file is recompiled, never
//! trusted. Entries are written to a temporary file and renamed into place, so concurrent
//! processes never see half a file.
//!
//! The key needs nothing from NVRTC itself: a process whose kernels are all on disk never
//! loads the NVRTC library (loading it took most of the 17 ms of such a process's first
//! kernel call). A cubin is machine code for one architecture, valid whichever NVRTC release
//! of the major version produced it.

use crate::ffi::nvrtc::Program;
use cudarc::nvrtc::result;
use cuprite_core::{Error, Result};
use std::ffi::CString;
use std::path::PathBuf;

const MAGIC: &[u8; 8] = b"CUPRCUB1";

fn unavailable(reason: impl Into<String>) -> Error {
    Error::BackendUnavailable {
        backend: "cuda",
        reason: reason.into(),
    }
}

/// NVRTC's version `(major, minor)`, or why NVRTC cannot be used.
pub fn nvrtc_version() -> Result<(i32, i32)> {
    static V: std::sync::OnceLock<std::result::Result<(i32, i32), String>> =
        std::sync::OnceLock::new();
    V.get_or_init(crate::ffi::nvrtc::version)
        .clone()
        .map_err(unavailable)
}

/// The directory of the on-disk cache.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("CUPRITE_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("cuprite").join("kernels"))
}

/// 64-bit FNV-1a with a seed (two seeds give the 128-bit cache key).
fn fnv(seed: u64, data: &[u8]) -> u64 {
    let mut h = 0xcbf29ce484222325u64 ^ seed;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The options every kernel is compiled with.
pub(crate) fn options(arch: &str) -> Vec<String> {
    vec![
        format!("--gpu-architecture={arch}"),
        "-std=c++17".into(),
        "-default-device".into(),
        "--device-as-default-execution-space".into(),
    ]
}

/// Compiles `source` for `arch` (`sm_90`), through the disk cache. `name` is used in error
/// messages and as the program's file name.
pub fn compile_cached(name: &str, source: &str, arch: &str) -> Result<Vec<u8>> {
    compile_cached_with(name, source, arch, &[])
}

/// [`compile_cached`] with `extra` options after the defaults (part of the cache key).
pub fn compile_cached_with(
    name: &str,
    source: &str,
    arch: &str,
    extra: &[&str],
) -> Result<Vec<u8>> {
    compile_cached_in(cache_dir(), name, source, arch, extra)
}

/// [`compile_cached_with`] with the cache in `dir` (none: no disk cache).
fn compile_cached_in(
    dir: Option<PathBuf>,
    name: &str,
    source: &str,
    arch: &str,
    extra: &[&str],
) -> Result<Vec<u8>> {
    let mut opts = options(arch);
    opts.extend(extra.iter().map(|o| o.to_string()));
    let (key, key_text) = cache_key(arch, &opts, "", source);
    let path = dir.map(|d| d.join(format!("{key}.cubin")));
    if let Some(p) = &path {
        if let Some(cubin) = read_entry(p, &key_text) {
            return Ok(cubin);
        }
    }
    let cubin = compile(name, source, &opts)?;
    if let Some(p) = &path {
        write_entry(p, &key_text, &cubin);
    }
    Ok(cubin)
}

/// The NVRTC major version of the bindings (`cuda-13000`: 13), part of every cache key.
const NVRTC_MAJOR: i32 = crate::driver::MIN_DRIVER_VERSION / 1000;

/// The cache key of a program (32 hex digits) and the full text it hashes: the NVRTC major
/// version, the architecture, the options, `extra` (lines of its own) and the source.
fn cache_key(arch: &str, opts: &[String], extra: &str, source: &str) -> (String, String) {
    let key_text = format!(
        "nvrtc {NVRTC_MAJOR}\n{arch}\n{}\n{extra}{source}",
        opts.join(" ")
    );
    let key = format!(
        "{:016x}{:016x}",
        fnv(0, key_text.as_bytes()),
        fnv(0x9e3779b97f4a7c15, key_text.as_bytes())
    );
    (key, key_text)
}

/// Splits a little-endian u64 off the front.
fn take_u64(r: &[u8]) -> Option<(u64, &[u8])> {
    let (n, r) = r.split_at_checked(8)?;
    Some((u64::from_le_bytes(n.try_into().ok()?), r))
}

/// Reads a cache entry; `None` when absent, for another key, or corrupt.
fn read_entry(path: &PathBuf, key_text: &str) -> Option<Vec<u8>> {
    let data = std::fs::read(path).ok()?;
    let rest = data.strip_prefix(MAGIC.as_slice())?;
    let (klen, rest) = take_u64(rest)?;
    let (k, rest) = rest.split_at_checked(klen as usize)?;
    if k != key_text.as_bytes() {
        return None;
    }
    let (clen, rest) = take_u64(rest)?;
    let (cubin, rest) = rest.split_at_checked(clen as usize)?;
    let (sum, rest) = take_u64(rest)?;
    (rest.is_empty() && sum == fnv(0, cubin)).then(|| cubin.to_vec())
}

/// Writes a cache entry atomically; failures only cost a later recompile.
fn write_entry(path: &PathBuf, key_text: &str, cubin: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut data = Vec::with_capacity(cubin.len() + key_text.len() + 32);
    data.extend_from_slice(MAGIC);
    data.extend_from_slice(&(key_text.len() as u64).to_le_bytes());
    data.extend_from_slice(key_text.as_bytes());
    data.extend_from_slice(&(cubin.len() as u64).to_le_bytes());
    data.extend_from_slice(cubin);
    data.extend_from_slice(&fnv(0, cubin).to_le_bytes());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = path.with_extension(format!("tmp.{}.{nanos}", std::process::id()));
    if std::fs::write(&tmp, &data).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Compiles without the cache. A compile error carries NVRTC's log and, for each line the
/// log points at, the source line itself.
pub fn compile(name: &str, source: &str, opts: &[String]) -> Result<Vec<u8>> {
    nvrtc_version()?;
    let src = CString::new(source).map_err(|_| Error::invalid("compile", "source has a NUL"))?;
    let cname = CString::new(name).map_err(|_| Error::invalid("compile", "name has a NUL"))?;
    let fail = |what: &str, e: result::NvrtcError| Error::Backend {
        op: "compile",
        msg: format!("{name}: {what}: {e:?}"),
    };
    let prog = Program::new(&src, &cname).map_err(|e| fail("create", e))?;
    match prog.compile(opts) {
        Ok(()) => prog.cubin().map_err(|e| fail("get cubin", e)),
        Err(e) => Err(Error::Backend {
            op: "compile",
            msg: format!(
                "{name}: NVRTC failed ({e:?}):\n{}",
                annotate(&prog.log(), source, name)
            ),
        }),
    }
}

/// Appends the offending source line under every log line of the form `name(LINE): ...`.
fn annotate(log: &str, source: &str, name: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for l in log.lines() {
        out.push_str(l);
        out.push('\n');
        let line_no = l
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.split(')').next())
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(src) = line_no.and_then(|n| lines.get(n.wrapping_sub(1))) {
            out.push_str(&format!(
                "    {:>5} | {}\n",
                line_no.unwrap_or(0),
                src.trim_end()
            ));
        }
    }
    out
}

/// [`compile_cached_with`] for a program whose kernels include C++ templates instantiated by
/// name expressions (`"my_sum<float>"`, NVRTC's `nvrtcAddNameExpression`). Returns the cubin
/// and, for each expression in order, its lowered (mangled) name to look the kernel up by.
/// Both are cached on disk under a key that includes the expressions.
pub fn compile_cached_named(
    name: &str,
    source: &str,
    arch: &str,
    extra: &[&str],
    name_expressions: &[&str],
) -> Result<(Vec<u8>, Vec<String>)> {
    let mut opts = options(arch);
    opts.extend(extra.iter().map(|o| o.to_string()));
    let names = format!("name expressions: {}\n", name_expressions.join("\u{1}"));
    let (key, key_text) = cache_key(arch, &opts, &names, source);
    let dir = cache_dir();
    let cubin_path = dir.as_ref().map(|d| d.join(format!("{key}.cubin")));
    let names_path = dir.as_ref().map(|d| d.join(format!("{key}.names")));
    if let (Some(cp), Some(np)) = (&cubin_path, &names_path) {
        let names = read_entry(np, &key_text).and_then(|n| String::from_utf8(n).ok());
        if let (Some(cubin), Some(names)) = (read_entry(cp, &key_text), names) {
            let lowered: Vec<String> = names.split('\n').map(str::to_string).collect();
            if lowered.len() == name_expressions.len() {
                return Ok((cubin, lowered));
            }
        }
    }
    let (cubin, lowered) = compile_named(name, source, &opts, name_expressions)?;
    if let (Some(cp), Some(np)) = (&cubin_path, &names_path) {
        write_entry(np, &key_text, lowered.join("\n").as_bytes());
        write_entry(cp, &key_text, &cubin);
    }
    Ok((cubin, lowered))
}

/// [`compile`] with name expressions: each is registered before compiling and its lowered
/// name read back after.
pub fn compile_named(
    name: &str,
    source: &str,
    opts: &[String],
    name_expressions: &[&str],
) -> Result<(Vec<u8>, Vec<String>)> {
    nvrtc_version()?;
    let src = CString::new(source).map_err(|_| Error::invalid("compile", "source has a NUL"))?;
    let cname = CString::new(name).map_err(|_| Error::invalid("compile", "name has a NUL"))?;
    let exprs = name_expressions
        .iter()
        .map(|e| CString::new(*e))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|_| Error::invalid("compile", "a name expression has a NUL"))?;
    let fail = |what: &str, e: result::NvrtcError| Error::Backend {
        op: "compile",
        msg: format!("{name}: {what}: {e:?}"),
    };
    let prog = Program::new(&src, &cname).map_err(|e| fail("create", e))?;
    for (e, c) in name_expressions.iter().zip(&exprs) {
        prog.add_name_expression(c)
            .map_err(|err| fail(&format!("name expression {e:?}"), err))?;
    }
    if let Err(e) = prog.compile(opts) {
        return Err(Error::Backend {
            op: "compile",
            msg: format!(
                "{name}: NVRTC failed ({e:?}):\n{}",
                annotate(&prog.log(), source, name)
            ),
        });
    }
    let mut lowered = Vec::with_capacity(exprs.len());
    for (e, c) in name_expressions.iter().zip(&exprs) {
        match prog.lowered_name(c) {
            Ok(Some(l)) => lowered.push(l),
            Ok(None) => {
                return Err(Error::invalid(
                    "compile",
                    format!("no lowered name for {e:?}"),
                ))
            }
            Err(err) => return Err(fail(&format!("lowered name of {e:?}"), err)),
        }
    }
    Ok((prog.cubin().map_err(|e| fail("get cubin", e))?, lowered))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cover_every_input_and_a_hit_needs_no_nvrtc() {
        let opts = options("sm_90");
        let (k, text) = cache_key("sm_90", &opts, "", "src");
        assert!(text.starts_with("nvrtc 13\nsm_90\n"), "{text}");
        assert_eq!(k.len(), 32);
        assert_ne!(k, cache_key("sm_80", &opts, "", "src").0);
        assert_ne!(k, cache_key("sm_90", &opts[..1], "", "src").0);
        assert_ne!(k, cache_key("sm_90", &opts, "x\n", "src").0);
        assert_ne!(k, cache_key("sm_90", &opts, "", "src2").0);
        // An entry on disk is returned as it is: NVRTC (absent on machines without CUDA) is
        // not loaded for a hit.
        let dir = std::env::temp_dir().join(format!("cuprite-hit-test-{}", std::process::id()));
        write_entry(&dir.join(format!("{k}.cubin")), &text, b"the cubin");
        let got = compile_cached_in(Some(dir.clone()), "k.cu", "src", "sm_90", &[]).unwrap();
        assert_eq!(got, b"the cubin");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cache_entries_round_trip_and_reject_corruption() {
        let dir = std::env::temp_dir().join(format!("cuprite-cache-test-{}", std::process::id()));
        let p = dir.join("k.cubin");
        write_entry(&p, "key", b"cubin bytes");
        assert_eq!(
            read_entry(&p, "key").as_deref(),
            Some(b"cubin bytes".as_slice())
        );
        assert_eq!(read_entry(&p, "other key"), None);
        let mut data = std::fs::read(&p).unwrap();
        let n = data.len();
        data[n - 12] ^= 1;
        std::fs::write(&p, &data).unwrap();
        assert_eq!(read_entry(&p, "key"), None);
        std::fs::write(&p, b"CUPRCUB1\xff").unwrap();
        assert_eq!(read_entry(&p, "key"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn compile_errors_quote_the_source_line() {
        let log = "k.cu(2): error: identifier \"y\" is undefined\n";
        let a = annotate(log, "int x;\nint z = y;\n", "k.cu");
        assert!(a.contains("int z = y;"), "{a}");
    }
}

/// Kernel-source checks that need NVRTC but no GPU: run with `--ignored` where libnvrtc is
/// found (`LD_LIBRARY_PATH` naming its directory).
#[cfg(test)]
pub(crate) mod compile_check {
    /// Compiles a program for sm_90 and panics with NVRTC's log on failure.
    pub(crate) fn assert_compiles(name: &str, source: &str) {
        assert_compiles_with(name, source, &[]);
    }

    /// [`assert_compiles`] with `extra` options after the defaults.
    pub(crate) fn assert_compiles_with(name: &str, source: &str, extra: &[&str]) {
        let mut opts = super::options("sm_90");
        opts.extend(extra.iter().map(|o| o.to_string()));
        if let Err(e) = super::compile(name, source, &opts) {
            panic!("{e}");
        }
    }

    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn name_expressions_give_lowered_names() {
        let src = "template <class T> __global__ void twice(T* x, int n) {\n\
                   int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }\n";
        let opts = super::options("sm_90");
        let (cubin, lowered) =
            super::compile_named("t.cu", src, &opts, &["twice<float>", "twice<double>"]).unwrap();
        assert!(!cubin.is_empty());
        assert_eq!(lowered, ["_Z5twiceIfEvPT_i", "_Z5twiceIdEvPT_i"]);
    }

    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn common_header_compiles() {
        let src = cuprite_kernels::program(
            &["extern \"C\" __global__ void k(c128* o, const float* x, Strided s, long long n) {\n\
               GRID_STRIDE(i, n) { o[i] = cast<c128>(x[strided_offset(s, i)]) * mk(1.0, 2.0) / mk(3.0, 1.0); }\n}"],
            &[("T", "double")],
        );
        assert_compiles("common.cu", &src);
    }
}
