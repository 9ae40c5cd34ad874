//! Tests of a CUDA device's shared state: the memory counters and limit, and the module
//! cache. Each reads a device-wide counter, so they run one at a time (a lock), in their own
//! test binary, where no other test allocates or compiles meanwhile. They need a GPU and are
//! `#[ignore]`d: run with `--ignored` on a GPU host.
#![cfg(feature = "cuda")]

use cuprite::prelude::*;
use std::sync::{Mutex, MutexGuard};

/// Serialises the tests of this file.
static DEVICE_STATE: Mutex<()> = Mutex::new(());

fn lock() -> MutexGuard<'static, ()> {
    DEVICE_STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The GPU under test.
fn gpu() -> Cuda {
    Cuda::new(0).expect("CUDA device 0")
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn out_of_memory_is_an_error_and_leaves_other_arrays_intact() {
    let _one_at_a_time = lock();
    let g = gpu();
    let keep = Array::<f64, Cuda>::full(&[1000], 3.0, &g).unwrap();
    // More than any GPU has: the allocation fails, the cache is freed, the error names sizes.
    let huge = Array::<f64, Cuda>::zeros(&[1 << 40], &g);
    match huge {
        Err(Error::OutOfMemory { requested, .. }) => assert_eq!(requested, 8 << 40),
        other => panic!(
            "expected OutOfMemory, got {:?}",
            other.map(|a| a.shape().to_vec())
        ),
    }
    // A user limit turns a normal allocation into the same error.
    g.set_memory_limit(Some(g.memory_in_use() + 1024));
    assert!(matches!(
        Array::<f64, Cuda>::zeros(&[1 << 20], &g),
        Err(Error::OutOfMemory { .. })
    ));
    g.set_memory_limit(None);
    assert_eq!(keep.sum().unwrap().item().unwrap(), 3000.0);
    let before = g.memory_in_use();
    // 512 MiB, dropped: its memory stays cached by the pool until freed.
    drop(Array::<f64, Cuda>::zeros(&[1 << 26], &g).unwrap());
    assert_eq!(g.memory_in_use(), before);
    g.synchronize().unwrap();
    assert!(g.memory_cached().unwrap() >= 512 << 20);
    g.free_cached().unwrap();
    // What remains is the unused part of the pool's blocks that still hold live arrays.
    let left = g.memory_cached().unwrap();
    assert!(left < 128 << 20, "{left} bytes still cached");
    assert_eq!(keep.sum().unwrap().item().unwrap(), 3000.0);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn kernel_cache_survives_a_new_handle() {
    let _one_at_a_time = lock();
    let g = gpu();
    let a = Array::<f64, Cuda>::ones(&[10], &g).unwrap();
    let _ = (&a + &a).sum().unwrap().item().unwrap();
    let loaded = g.loaded_modules();
    let h = Cuda::new(0).unwrap();
    let b = Array::<f64, Cuda>::ones(&[10], &h).unwrap();
    assert_eq!((&a + &b).sum().unwrap().item().unwrap(), 20.0);
    assert_eq!(
        h.loaded_modules(),
        loaded,
        "the same kernels are reused, not recompiled"
    );
    let dir = cuprite_cuda_cache_dir();
    assert!(dir.is_dir(), "the disk cache exists at {}", dir.display());
}

fn cuprite_cuda_cache_dir() -> std::path::PathBuf {
    cuprite::cuda::nvrtc::cache_dir().expect("a cache directory")
}
