//! The sizes and repeat counts of one `kernels` run (`--quick` or the full ones), passed on
//! to `scripts/bench_kernels.py` so both sides time the same work.

/// Sizes and counts of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizes {
    /// Elements of the large f32 arrays (10M; 1M with `--quick`).
    pub n: usize,
    /// Elements of the arrays of the launch-overhead loop (1000).
    pub small: usize,
    /// Calls per launch-overhead loop (10 000; 1000).
    pub calls: usize,
    /// Side of the square matrices of the RawKernel product (1024; 256).
    pub mat: usize,
    /// New kernels compiled, and later processes started, per first-call figure (5; 3).
    pub repeats: usize,
    /// Timed calls per device-time figure, after 3 untimed ones (100; 20).
    pub runs: usize,
}

impl Sizes {
    /// The sizes of the issue: 10M f32, 1024 x 1024 matrices.
    pub const FULL: Sizes = Sizes {
        n: 10_000_000,
        small: 1000,
        calls: 10_000,
        mat: 1024,
        repeats: 5,
        runs: 100,
    };

    /// Small sizes for a smoke run.
    pub const QUICK: Sizes = Sizes {
        n: 1_000_000,
        small: 1000,
        calls: 1000,
        mat: 256,
        repeats: 3,
        runs: 20,
    };

    /// The same sizes as `bench_kernels.py` options.
    pub fn script_args(&self) -> Vec<String> {
        [
            ("--n", self.n),
            ("--small", self.small),
            ("--calls", self.calls),
            ("--mat", self.mat),
            ("--repeats", self.repeats),
            ("--runs", self.runs),
        ]
        .iter()
        .flat_map(|(k, v)| [k.to_string(), v.to_string()])
        .collect()
    }

    /// Bytes moved by my_kernel (two inputs read, one output written, f32).
    pub fn my_kernel_bytes(&self) -> f64 {
        3.0 * 4.0 * self.n as f64
    }

    /// Bytes moved by `x.copy()` (read + write, f32).
    pub fn copy_bytes(&self) -> f64 {
        2.0 * 4.0 * self.n as f64
    }

    /// Bytes read by the norm.
    pub fn norm_bytes(&self) -> f64 {
        4.0 * self.n as f64
    }

    /// Floating-point operations of one product.
    pub fn matmul_flops(&self) -> f64 {
        2.0 * (self.mat as f64).powi(3)
    }
}
