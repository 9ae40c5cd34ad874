//! The opt-in TF32 mode of the CUDA backend's f32 products (`Cuda::set_tf32`), alone in its
//! own test binary because the setting is per device and process-wide. Inputs are chosen so
//! the two modes give different exact answers: every element of `A` is `1 + 2^-12`, which
//! f32 holds exactly and TF32 (10 mantissa bits) rounds to 1, and `B` is all ones, so each
//! element of `A @ B` is `256 + 2^-4` in full precision and `256` with TF32. Ignored without
//! a GPU.

#[cfg(feature = "cuda")]
#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn tf32_is_opt_in_and_leaves_f64_alone() {
    use cuprite::prelude::*;
    let dev = Cuda::new(0).expect("CUDA device 0");
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
