//! The sizes and repeat counts of one `dtypes` run (`--quick` or the full ones), passed on
//! to `scripts/bench_dtypes.py` so every system times the same work, and the bytes and
//! floating-point operations each workload is credited with.

/// Sizes and counts of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizes {
    /// Side of the square matrices of the f16 and bf16 products (8192; 256 with `--quick`).
    pub mat: usize,
    /// Elements of the f16 arrays of the copy, `a + b` and sum rows (2^28; 2^20).
    pub n: usize,
    /// Side of the square u16 image of the normalisation pipeline (8192; 256).
    pub img: usize,
    /// Timed calls per figure, after 3 untimed ones (50; 10).
    pub runs: usize,
}

impl Sizes {
    /// The sizes of the issue: 8192^3 products, 2^28-element f16 arrays, an 8192 x 8192
    /// u16 image.
    pub const FULL: Sizes = Sizes {
        mat: 8192,
        n: 1 << 28,
        img: 8192,
        runs: 50,
    };

    /// Small sizes for a smoke run.
    pub const QUICK: Sizes = Sizes {
        mat: 256,
        n: 1 << 20,
        img: 256,
        runs: 10,
    };

    /// The same sizes as `bench_dtypes.py` options.
    pub fn script_args(&self) -> Vec<String> {
        [
            ("--mat", self.mat),
            ("--n", self.n),
            ("--img", self.img),
            ("--runs", self.runs),
        ]
        .iter()
        .flat_map(|(k, v)| [k.to_string(), v.to_string()])
        .collect()
    }

    /// Floating-point operations of one product (`2 m^3`).
    pub fn matmul_flops(&self) -> f64 {
        2.0 * (self.mat as f64).powi(3)
    }

    /// Bytes moved by `x.copy()` of `n` f16 (read + write).
    pub fn copy_bytes(&self) -> f64 {
        2.0 * 2.0 * self.n as f64
    }

    /// Bytes moved by `a + b` on `n` f16 (two reads, one write).
    pub fn add_bytes(&self) -> f64 {
        3.0 * 2.0 * self.n as f64
    }

    /// Bytes read by `x.sum()` of `n` f16 (the 2-byte result aside).
    pub fn sum_bytes(&self) -> f64 {
        2.0 * self.n as f64
    }

    /// Bytes moved by the eight kernels of the u16 pipeline, per pixel: the cast to f32
    /// (2 + 4), min and max (4 each), `y - lo` and `* scale` (4 + 4 each), the cast back
    /// (4 + 2); the two 0-d kernels aside. 36 bytes a pixel.
    pub fn pipeline_bytes(&self) -> f64 {
        36.0 * (self.img * self.img) as f64
    }

    /// `2^k` for a power of two, else the count (`2^28`, `1000`).
    pub fn count_label(n: usize) -> String {
        if n.is_power_of_two() && n >= 1024 {
            format!("2^{}", n.trailing_zeros())
        } else {
            n.to_string()
        }
    }
}
