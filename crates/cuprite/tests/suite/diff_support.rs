//! What the differential modules (`differential`, `differential_linalg`, `fft_differential`,
//! `random_differential`) share: the GPU under test, the deterministic input generator both
//! backends draw from, the check that two outcomes agree in kind (both arrays of one shape,
//! or both errors with one message), and [`on_both!`], which evaluates one expression on each
//! backend.

use cuprite::prelude::*;

/// The GPU under test.
pub fn gpu() -> Cuda {
    Cuda::new(0).expect("CUDA device 0")
}

/// A small deterministic generator (xorshift64*), so both backends see identical inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }

    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    /// `n` values with real (and, for complex types, imaginary) parts uniform in
    /// `[-scale, scale)`.
    pub fn uniform<T: Element>(&mut self, n: usize, scale: f64) -> Vec<T> {
        (0..n)
            .map(|_| {
                let re = self.unit() * scale;
                let im = self.unit() * scale;
                T::from_scalar(cuprite::Scalar::C128(c128::new(re, im)))
            })
            .collect()
    }
}

/// Checks that the CPU and CUDA outcomes of `what` agree in kind: both errors with the same
/// message (returns `None`), or both arrays of the same shape (returns them for the caller's
/// value comparison). Anything else panics, naming `what`.
#[track_caller]
pub fn outcomes<T: Element>(
    what: &str,
    c: Result<Array<T, Cpu>>,
    g: Result<Array<T, Cuda>>,
) -> Option<(Array<T, Cpu>, Array<T, Cuda>)> {
    match (c, g) {
        (Ok(c), Ok(g)) => {
            assert_eq!(c.shape(), g.shape(), "{what}: shapes differ");
            Some((c, g))
        }
        (Err(c), Err(g)) => {
            assert_eq!(c.to_string(), g.to_string(), "{what}: errors differ");
            None
        }
        (Ok(_), Err(g)) => panic!("{what}: cpu succeeded, cuda failed: {g}"),
        (Err(c), Ok(_)) => panic!("{what}: cuda succeeded, cpu failed: {c}"),
    }
}

/// Evaluates `$body` (a `Result<Array<_, _>>`, with `$dev` bound to the backend) once on the
/// CPU and once on the GPU, each inside a closure so that `?` works in it, and returns the
/// pair `(cpu, cuda)`. The calling module allows `clippy::redundant_closure_call`.
macro_rules! on_both {
    (|$dev:ident| $body:expr) => {{
        let cpu = Cpu::new();
        let cuda = $crate::diff_support::gpu();
        let c = (|| {
            let $dev = &cpu;
            $body
        })();
        let g = (|| {
            let $dev = &cuda;
            $body
        })();
        (c, g)
    }};
}
pub(crate) use on_both;
