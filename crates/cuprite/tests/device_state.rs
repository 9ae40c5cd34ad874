//! Tests of a CUDA device's shared state: the memory counters and limit, the module cache and
//! the opt-in TF32 mode of f32 products. Each reads or sets something device-wide, so they run
//! one at a time (a lock), in their own test binary, where no other test allocates, compiles
//! or multiplies meanwhile. They need a GPU and are
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

/// `Cuda::set_tf32`: inputs are chosen so the two modes give different exact answers. Every
/// element of `A` is `1 + 2^-12`, which f32 holds exactly and TF32 (10 mantissa bits) rounds
/// to 1, and `B` is all ones, so each element of `A @ B` is `256 + 2^-4` in full precision
/// and `256` with TF32.
#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn tf32_is_opt_in_and_leaves_f64_alone() {
    let _one_at_a_time = lock();
    let dev = gpu();
    let n = 256;
    let a = Array::<f32, Cuda>::full(&[n, n], 1.0 + 2f32.powi(-12), &dev).unwrap();
    let b = Array::<f32, Cuda>::ones(&[n, n], &dev).unwrap();
    let full = 256.0 + 2f32.powi(-4);
    assert!(!dev.tf32(), "TF32 is off by default");
    assert!(a
        .matmul(&b)
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .all(|&x| x == full));

    dev.set_tf32(true);
    let fast = a.matmul(&b).unwrap().to_vec().unwrap();
    // f64 products ignore the setting.
    let a64 = a.astype::<f64>().unwrap();
    let b64 = b.astype::<f64>().unwrap();
    let exact64 = a64.matmul(&b64).unwrap().to_vec().unwrap();
    dev.set_tf32(false);
    assert!(
        fast.iter().all(|&x| x == 256.0),
        "TF32 rounds 1 + 2^-12 to 1"
    );
    assert!(exact64.iter().all(|&x| x == full as f64));
    assert!(a
        .matmul(&b)
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .all(|&x| x == full));
}

fn cuprite_cuda_cache_dir() -> std::path::PathBuf {
    cuprite::cuda::nvrtc::cache_dir().expect("a cache directory")
}
