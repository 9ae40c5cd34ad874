//! The device handle without a GPU and with one: `Cuda::new` never panics; where no device
//! can be used it returns `BackendUnavailable` with a reason a person can act on.

use cuprite_core::Error;
use cuprite_cuda::Cuda;

#[test]
fn new_returns_a_device_or_says_why_not() {
    match Cuda::new(0) {
        Ok(dev) => {
            assert!(Cuda::device_count() >= 1);
            assert!(!dev.name().is_empty());
        }
        Err(Error::BackendUnavailable { backend, reason }) => {
            assert_eq!(backend, "cuda");
            assert_eq!(Cuda::device_count(), 0);
            assert!(
                reason.contains("driver") || reason.contains("device"),
                "the reason names what is missing: {reason}"
            );
        }
        Err(e) => panic!("unexpected error: {e}"),
    }
}

#[test]
fn an_ordinal_past_the_last_device_is_unavailable() {
    let n = Cuda::device_count();
    let e = Cuda::new(n + 3).unwrap_err();
    assert!(
        matches!(e, Error::BackendUnavailable { .. }),
        "expected BackendUnavailable, got {e}"
    );
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn compiled_kernels_are_cached_on_disk_and_a_corrupt_entry_is_recompiled() {
    let dir = std::env::temp_dir().join(format!("cuprite-nvrtc-cache-{}", std::process::id()));
    std::env::set_var("CUPRITE_CACHE_DIR", &dir);
    let src = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n";
    let first = cuprite_cuda::nvrtc::compile_cached("k.cu", src, "sm_90").unwrap();
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(entries.len(), 1, "one entry written");
    let path = entries[0].path();
    let t = std::time::Instant::now();
    assert_eq!(
        cuprite_cuda::nvrtc::compile_cached("k.cu", src, "sm_90").unwrap(),
        first
    );
    assert!(
        t.elapsed().as_millis() < 50,
        "the second call reads the disk cache"
    );
    std::fs::write(&path, b"garbage").unwrap();
    assert_eq!(
        cuprite_cuda::nvrtc::compile_cached("k.cu", src, "sm_90").unwrap(),
        first
    );
    let bad = "extern \"C\" __global__ void k(float* x) {\n  x[0] = undefined_name;\n}\n";
    let e = cuprite_cuda::nvrtc::compile_cached("bad.cu", bad, "sm_90")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("undefined_name") && e.contains("x[0] = undefined_name;"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
