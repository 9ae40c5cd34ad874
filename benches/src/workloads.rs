//! The comparison workloads as data: the anchor workloads of the notebooks cuprite grew from
//! scaled to a given machine. The same list drives the cuprite cases ([`crate::cases`]) and,
//! through [`spec_json`], the NumPy script `scripts/bench_numpy.py`, so both time exactly the
//! same shapes.

/// The `scale` of [`default_workloads`] that gives the sizes of the anchor table
/// (/work/shared/ANCHORS.md): 2 GB element-wise arrays, 50M-element reductions and sorts,
/// 10 000 x 10 000 matmuls. It needs a GPU with about 16 GB free and a host with 32 GB.
pub const ANCHOR_SCALE: f64 = 10.0;

/// Which operation a workload times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkloadId {
    /// `ones(shape)` in f64.
    Ones,
    /// `x *= 5` in place, f64.
    MulScalarInplace,
    /// `x *= 5; x *= x; x += x` in place, f64.
    ChainInplace,
    /// `a + b` into a new array, f64.
    Add,
    /// `x.copy()` of a contiguous f64 array: the device's copy bandwidth, the ceiling the
    /// memory-bound rows are reported against.
    Copy,
    /// `a + b` on a small array, repeated `inner` times: the per-call overhead.
    AddSmall,
    /// `sum(x)` of every element, f64.
    Sum,
    /// `sum(m, axis=0)` of a 2-D f64 array.
    SumAxis0,
    /// `sum(m, axis=1)` of a 2-D f64 array.
    SumAxis1,
    /// `sqrt(sum(x * x))`, f64.
    Norm,
    /// `m.T.copy()` of a 2-D f64 array.
    TransposeCopy,
    /// `sort(x)` of an f64 sin wave.
    SortF64,
    /// `sort(x)` of uniform random f32.
    SortF32,
    /// `m = sort(x).reshape(-1, 1000); (m - m.mean(0)) / m.std(0)` on uniform random f64.
    Pipeline,
    /// `a @ b` of square f64 matrices (`dims = [n]`).
    MatmulF64,
    /// `a @ b` of square f32 matrices (`dims = [n]`).
    MatmulF32,
    /// `svd(a)` (U, S, Vh) of a square f64 matrix of uniform [0, 1) values (`dims = [n]`).
    SvdF64,
    /// `inv(a)` of a square f64 matrix of uniform [0, 1) values (`dims = [n]`).
    InvF64,
    /// `solve(a, b)` of the same matrix and one right-hand side `b` of uniform [-1, 1)
    /// values (`dims = [n]`).
    SolveF64,
    /// `cholesky(a @ a.T + n I)`: the lower Cholesky factor of a symmetric positive definite
    /// f64 matrix built from uniform [0, 1) values (`dims = [n]`).
    CholeskyF64,
    /// `qr(a)` (reduced: `Q` and `R`) of a square f64 matrix of uniform [0, 1) values
    /// (`dims = [n]`).
    QrF64,
    /// `rng.random(n)`: uniform [0, 1) f64 from a seeded generator (NumPy and CuPy:
    /// `xp.random.random(n)`, the legacy global generator).
    RandomF64,
    /// The same draw; NumPy and CuPy use `xp.random.default_rng(0).random(n)`.
    RandomF64Rng,
    /// `fft(x)` of one complex128 signal of `2^k` points.
    FftC128,
    /// `fft(x, axis=-1)` of a `[batch, 4096]` complex128 array.
    FftBatch,
    /// `histogram(x, bins=100)` (counts and edges) of approximately normal f64
    /// ([`crate::data::normal`]).
    HistogramF64,
    /// `bincount(k)` of i64 uniform in `0..1000`.
    BincountI64,
    /// `add.at(a, idx, v)`: f64 values `v` added into `a = zeros(1000)` at i64 indices uniform
    /// in `0..1000` (so every element is hit about `n / 1000` times); `a` is reset untimed.
    AddAtF64,
    /// `isin(a, t)` of i64 `a` against `t` of the same length, both uniform in `0..2n`.
    IsinI64,
    /// `intersect1d(a, b)` of two i64 arrays of length `n`, both uniform in `0..2n`.
    Intersect1dI64,
    /// `lexsort((f, k))`: indices sorting by an i64 primary key `k` uniform in `0..1000`,
    /// ties broken by an f64 secondary key `f` uniform in [0, 1).
    Lexsort2Keys,
    /// `interp(x, xp, fp)`: f64 points uniform in [-0.1, 1.1) into a table of 100 000 evenly
    /// spaced points of [0, 1] (some points left and right of it).
    InterpF64,
    /// `convolve(a, v)` (mode full) of an f64 signal by a kernel of 1000 values, both
    /// uniform in [-1, 1).
    ConvolveF64,
    /// `exp(x)` of f32 uniform in [-10, 10) (transcendentals on f32).
    ExpF32,
    /// `x.astype(float32)` of f64 uniform in [-1000, 1000).
    AstypeF64F32,
    /// `x.argmax()` of f64 uniform in [-1, 1).
    ArgmaxF64,
    /// `x.take(idx)`: f64 values gathered by `n` i64 indices uniform in `0..n`.
    TakeF64,
    /// `x[x > 0.5]` (boolean-mask selection) of f64 uniform in [-1, 1).
    MaskSelectF64,
    /// `x[::2] * 2` of `2n` f64 values: an op on a strided view.
    StridedMulF64,
    /// `a + b.T` of two square f64 matrices of `round(sqrt(n))` rows.
    AddTransposedF64,
    /// `x.mean(axis=0)` of f32 `(n / 1000, 1000)` uniform in [0, 1).
    MeanAxis0F32,
    /// `concatenate([a, b])` of two f64 halves of `n / 2`.
    ConcatenateF64,
    /// The stable `argsort` of f64 uniform in [-1, 1).
    ArgsortStableF64,
    /// `where(x > 0, x, 0)` of f64 uniform in [-1, 1) (a comparison operand and a 0-d one).
    WhereF64,
}

impl WorkloadId {
    /// Every workload, in table order.
    pub const ALL: [WorkloadId; 44] = [
        WorkloadId::Ones,
        WorkloadId::MulScalarInplace,
        WorkloadId::ChainInplace,
        WorkloadId::Add,
        WorkloadId::Copy,
        WorkloadId::AddSmall,
        WorkloadId::Sum,
        WorkloadId::SumAxis0,
        WorkloadId::SumAxis1,
        WorkloadId::Norm,
        WorkloadId::TransposeCopy,
        WorkloadId::SortF64,
        WorkloadId::SortF32,
        WorkloadId::Pipeline,
        WorkloadId::MatmulF64,
        WorkloadId::MatmulF32,
        WorkloadId::SvdF64,
        WorkloadId::InvF64,
        WorkloadId::SolveF64,
        WorkloadId::CholeskyF64,
        WorkloadId::QrF64,
        WorkloadId::RandomF64,
        WorkloadId::RandomF64Rng,
        WorkloadId::FftC128,
        WorkloadId::FftBatch,
        WorkloadId::HistogramF64,
        WorkloadId::BincountI64,
        WorkloadId::AddAtF64,
        WorkloadId::IsinI64,
        WorkloadId::Intersect1dI64,
        WorkloadId::Lexsort2Keys,
        WorkloadId::InterpF64,
        WorkloadId::ConvolveF64,
        WorkloadId::ExpF32,
        WorkloadId::AstypeF64F32,
        WorkloadId::ArgmaxF64,
        WorkloadId::TakeF64,
        WorkloadId::MaskSelectF64,
        WorkloadId::StridedMulF64,
        WorkloadId::AddTransposedF64,
        WorkloadId::MeanAxis0F32,
        WorkloadId::ConcatenateF64,
        WorkloadId::ArgsortStableF64,
        WorkloadId::WhereF64,
    ];

    /// The everyday workloads of `cases_everyday.rs`: mid-sized (1M, 10M at the anchor
    /// scale), where a fixed cost per call shows.
    pub fn is_everyday(self) -> bool {
        matches!(
            self,
            WorkloadId::ExpF32
                | WorkloadId::AstypeF64F32
                | WorkloadId::ArgmaxF64
                | WorkloadId::TakeF64
                | WorkloadId::MaskSelectF64
                | WorkloadId::StridedMulF64
                | WorkloadId::AddTransposedF64
                | WorkloadId::MeanAxis0F32
                | WorkloadId::ConcatenateF64
                | WorkloadId::ArgsortStableF64
                | WorkloadId::WhereF64
        )
    }

    /// The stable key shared with `scripts/bench_numpy.py`.
    pub fn key(self) -> &'static str {
        match self {
            WorkloadId::Ones => "ones",
            WorkloadId::MulScalarInplace => "mul_scalar_inplace",
            WorkloadId::ChainInplace => "chain_inplace",
            WorkloadId::Add => "add",
            WorkloadId::Copy => "copy",
            WorkloadId::AddSmall => "add_small",
            WorkloadId::Sum => "sum",
            WorkloadId::SumAxis0 => "sum_axis0",
            WorkloadId::SumAxis1 => "sum_axis1",
            WorkloadId::Norm => "norm",
            WorkloadId::TransposeCopy => "transpose_copy",
            WorkloadId::SortF64 => "sort_f64",
            WorkloadId::SortF32 => "sort_f32",
            WorkloadId::Pipeline => "pipeline",
            WorkloadId::MatmulF64 => "matmul_f64",
            WorkloadId::MatmulF32 => "matmul_f32",
            WorkloadId::SvdF64 => "svd_f64",
            WorkloadId::InvF64 => "inv_f64",
            WorkloadId::SolveF64 => "solve_f64",
            WorkloadId::CholeskyF64 => "cholesky_f64",
            WorkloadId::QrF64 => "qr_f64",
            WorkloadId::RandomF64 => "random_f64",
            WorkloadId::RandomF64Rng => "random_f64_rng",
            WorkloadId::FftC128 => "fft_c128",
            WorkloadId::FftBatch => "fft_batch",
            WorkloadId::HistogramF64 => "histogram_f64",
            WorkloadId::BincountI64 => "bincount_i64",
            WorkloadId::AddAtF64 => "add_at_f64",
            WorkloadId::IsinI64 => "isin_i64",
            WorkloadId::Intersect1dI64 => "intersect1d_i64",
            WorkloadId::Lexsort2Keys => "lexsort_2keys",
            WorkloadId::InterpF64 => "interp_f64",
            WorkloadId::ConvolveF64 => "convolve_f64",
            WorkloadId::ExpF32 => "exp_f32",
            WorkloadId::AstypeF64F32 => "astype_f64_f32",
            WorkloadId::ArgmaxF64 => "argmax_f64",
            WorkloadId::TakeF64 => "take_f64",
            WorkloadId::MaskSelectF64 => "mask_select_f64",
            WorkloadId::StridedMulF64 => "strided_mul_f64",
            WorkloadId::AddTransposedF64 => "add_transposed_f64",
            WorkloadId::MeanAxis0F32 => "mean_axis0_f32",
            WorkloadId::ConcatenateF64 => "concatenate_f64",
            WorkloadId::ArgsortStableF64 => "argsort_stable_f64",
            WorkloadId::WhereF64 => "where_f64",
        }
    }

    /// What the workload computes, in NumPy terms (the table's first column).
    pub fn description(self) -> &'static str {
        match self {
            WorkloadId::Ones => "ones f64",
            WorkloadId::MulScalarInplace => "x *= 5 f64",
            WorkloadId::ChainInplace => "x *= 5; x *= x; x += x f64",
            WorkloadId::Add => "a + b f64",
            WorkloadId::Copy => "copy f64 (bandwidth ceiling)",
            WorkloadId::AddSmall => "a + b f64 (per call)",
            WorkloadId::Sum => "sum f64",
            WorkloadId::SumAxis0 => "sum(axis=0) f64",
            WorkloadId::SumAxis1 => "sum(axis=1) f64",
            WorkloadId::Norm => "norm = sqrt(sum(x*x)) f64",
            WorkloadId::TransposeCopy => "transpose copy f64",
            WorkloadId::SortF64 => "sort f64 (sin wave)",
            WorkloadId::SortF32 => "sort f32 (random)",
            WorkloadId::Pipeline => "pipeline sort/reshape/(m-mean0)/std0",
            WorkloadId::MatmulF64 => "matmul f64",
            WorkloadId::MatmulF32 => "matmul f32",
            WorkloadId::SvdF64 => "svd f64 (U, S, Vh)",
            WorkloadId::InvF64 => "inv f64",
            WorkloadId::SolveF64 => "solve f64 (one right-hand side)",
            WorkloadId::CholeskyF64 => "cholesky f64",
            WorkloadId::QrF64 => "qr f64 (reduced Q, R)",
            WorkloadId::RandomF64 => "random f64 (vs xp.random.random)",
            WorkloadId::RandomF64Rng => "random f64 (vs default_rng().random)",
            WorkloadId::FftC128 => "fft c128",
            WorkloadId::FftBatch => "fft c128 batched along the last axis",
            WorkloadId::HistogramF64 => "histogram f64 (100 bins, normal)",
            WorkloadId::BincountI64 => "bincount i64 (values 0..1000)",
            WorkloadId::AddAtF64 => "add.at f64 into 1000 (duplicate indices)",
            WorkloadId::IsinI64 => "isin i64 (against as many)",
            WorkloadId::Intersect1dI64 => "intersect1d i64 (two of n)",
            WorkloadId::Lexsort2Keys => "lexsort 2 keys (i64 primary, f64)",
            WorkloadId::InterpF64 => "interp f64 (into 100 000 points)",
            WorkloadId::ConvolveF64 => "convolve f64 (full, kernel of 1000)",
            WorkloadId::ExpF32 => "exp f32",
            WorkloadId::AstypeF64F32 => "astype f64 -> f32",
            WorkloadId::ArgmaxF64 => "argmax f64",
            WorkloadId::TakeF64 => "take f64 (random i64 indices)",
            WorkloadId::MaskSelectF64 => "x[x > 0.5] f64",
            WorkloadId::StridedMulF64 => "x[::2] * 2 f64",
            WorkloadId::AddTransposedF64 => "a + b.T f64 (square)",
            WorkloadId::MeanAxis0F32 => "mean(axis=0) f32",
            WorkloadId::ConcatenateF64 => "concatenate two halves f64",
            WorkloadId::ArgsortStableF64 => "stable argsort f64 (random)",
            WorkloadId::WhereF64 => "where(x > 0, x, 0) f64",
        }
    }
}

/// How a workload's speed is expressed besides its time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rate {
    /// The minimum number of bytes the workload must read and write (GB/s).
    Bytes(f64),
    /// Floating-point operations (GFLOP/s).
    Flops(f64),
    /// Elements processed (M elements/s), for sorts.
    Elements(f64),
}

impl Rate {
    /// The rate achieved in `ms` milliseconds, with its unit: `"12.3 GB/s"`.
    pub fn format(self, ms: f64) -> String {
        let s = ms * 1e-3;
        match self {
            Rate::Bytes(b) => format!("{:.1} GB/s", b / s / 1e9),
            Rate::Flops(f) => format!("{:.1} GFLOP/s", f / s / 1e9),
            Rate::Elements(e) => format!("{:.1} Melem/s", e / s / 1e6),
        }
    }
}

/// One workload: an operation, the shape it runs on and how many calls one timed run makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// The operation.
    pub id: WorkloadId,
    /// The input shape (`[n]` = an `n x n` matrix for the matmuls).
    pub dims: Vec<usize>,
    /// Calls per timed run; times are reported per call.
    pub inner: usize,
}

impl Workload {
    /// Number of elements of the input.
    pub fn elements(&self) -> usize {
        match self.id {
            WorkloadId::MatmulF64
            | WorkloadId::MatmulF32
            | WorkloadId::SvdF64
            | WorkloadId::InvF64
            | WorkloadId::SolveF64
            | WorkloadId::CholeskyF64
            | WorkloadId::QrF64 => self.dims[0] * self.dims[0],
            _ => self.dims.iter().product(),
        }
    }

    /// The shape as printed in the table: `25000000`, `500x10000`, `2000x2000 @ 2000x2000`.
    pub fn size_text(&self) -> String {
        let d: Vec<String> = self.dims.iter().map(|d| d.to_string()).collect();
        match self.id {
            WorkloadId::MatmulF64 | WorkloadId::MatmulF32 => {
                let n = self.dims[0];
                format!("{n}x{n} @ {n}x{n}")
            }
            WorkloadId::SvdF64
            | WorkloadId::InvF64
            | WorkloadId::SolveF64
            | WorkloadId::CholeskyF64
            | WorkloadId::QrF64 => {
                let n = self.dims[0];
                format!("{n}x{n}")
            }
            WorkloadId::AddAtF64 => format!("{} into 1000", self.dims[0]),
            WorkloadId::IsinI64 => format!("{0} in {0}", self.dims[0]),
            WorkloadId::Intersect1dI64 => format!("{0} and {0}", self.dims[0]),
            WorkloadId::Lexsort2Keys => format!("2 keys x {}", self.dims[0]),
            WorkloadId::InterpF64 => format!("{} into 100000", self.dims[0]),
            WorkloadId::ConvolveF64 => format!("{} by 1000", self.dims[0]),
            _ => d.join("x"),
        }
    }

    /// The work of one call, for the rate column.
    pub fn rate(&self) -> Rate {
        let n = self.elements() as f64;
        match self.id {
            WorkloadId::Ones => Rate::Bytes(8.0 * n),
            WorkloadId::MulScalarInplace => Rate::Bytes(16.0 * n),
            WorkloadId::ChainInplace => Rate::Bytes(48.0 * n),
            WorkloadId::Add | WorkloadId::AddSmall => Rate::Bytes(24.0 * n),
            WorkloadId::Sum | WorkloadId::SumAxis0 | WorkloadId::SumAxis1 | WorkloadId::Norm => {
                Rate::Bytes(8.0 * n)
            }
            WorkloadId::Copy | WorkloadId::TransposeCopy => Rate::Bytes(16.0 * n),
            WorkloadId::SortF64 | WorkloadId::SortF32 | WorkloadId::Pipeline => Rate::Elements(n),
            WorkloadId::MatmulF64 | WorkloadId::MatmulF32 => {
                Rate::Flops(2.0 * (self.dims[0] as f64).powi(3))
            }
            // LAPACK's operation counts: about 22 n^3 for an SVD with both sets of vectors
            // (Golub-Van Loan), 2 n^3 for an inverse through LU, 2/3 n^3 for the LU of a solve,
            // 1/3 n^3 for a Cholesky factor, 4/3 n^3 for Householder QR and as much again to
            // form the reduced Q.
            WorkloadId::SvdF64 => Rate::Flops(22.0 * (self.dims[0] as f64).powi(3)),
            WorkloadId::InvF64 => Rate::Flops(2.0 * (self.dims[0] as f64).powi(3)),
            WorkloadId::SolveF64 => Rate::Flops(2.0 / 3.0 * (self.dims[0] as f64).powi(3)),
            WorkloadId::CholeskyF64 => Rate::Flops(1.0 / 3.0 * (self.dims[0] as f64).powi(3)),
            WorkloadId::QrF64 => Rate::Flops(8.0 / 3.0 * (self.dims[0] as f64).powi(3)),
            // Writing the output is the whole cost of a counter-based generator.
            WorkloadId::RandomF64 | WorkloadId::RandomF64Rng => Rate::Bytes(8.0 * n),
            // Reading and writing 16-byte elements once: the floor of a transform that fits
            // no cache (the conventional 5 n log2 n flop count says little on a GPU).
            WorkloadId::FftC128 | WorkloadId::FftBatch => Rate::Bytes(32.0 * n),
            // The range (the extremes, or the largest value for bincount) must be known before
            // the first element is binned: two reads of the input.
            WorkloadId::HistogramF64 | WorkloadId::BincountI64 => Rate::Bytes(16.0 * n),
            // One read of the indices and of the values; the 1000 sums stay in cache.
            WorkloadId::AddAtF64 => Rate::Bytes(16.0 * n),
            // Sort-based: the elements of both inputs (two keys of `n` for the lexsort).
            WorkloadId::IsinI64 | WorkloadId::Intersect1dI64 | WorkloadId::Lexsort2Keys => {
                Rate::Elements(2.0 * n)
            }
            // Points interpolated.
            WorkloadId::InterpF64 => Rate::Elements(n),
            // The multiply-adds of the direct sums (whatever method computes them).
            WorkloadId::ConvolveF64 => Rate::Flops(2.0 * n * 1000.0),
            WorkloadId::ExpF32 => Rate::Bytes(8.0 * n),
            WorkloadId::AstypeF64F32 => Rate::Bytes(12.0 * n),
            WorkloadId::ArgmaxF64 => Rate::Bytes(8.0 * n),
            WorkloadId::TakeF64 => Rate::Bytes(24.0 * n),
            WorkloadId::MaskSelectF64 => Rate::Bytes(10.0 * n),
            WorkloadId::StridedMulF64 => Rate::Bytes(24.0 * n),
            WorkloadId::AddTransposedF64 => Rate::Bytes(24.0 * n),
            WorkloadId::MeanAxis0F32 => Rate::Bytes(4.0 * n),
            WorkloadId::ConcatenateF64 => Rate::Bytes(16.0 * n),
            WorkloadId::ArgsortStableF64 => Rate::Elements(n),
            WorkloadId::WhereF64 => Rate::Bytes(17.0 * n),
        }
    }
}

/// The anchor workloads at about 1/10 of the anchor sizes (`scale = 1.0`), which fits a
/// 2-core, 24 GiB machine: the 2 GB element-wise arrays become 200 MB, the 50M-element
/// reductions and sorts 5M. `scale` multiplies every element count (the first dimension of
/// 2-D/3-D shapes); the side of the matmuls grows 5x per 10x of `scale`
/// (`2000 * scale^log10(5)`: 2000 at 1.0, 10 000 at 10.0); the SVD, the inverse, the solve,
/// the Cholesky factor and the QR grow the same way from 200 (1000 at 10.0). The 1-d FFT has the power of two nearest
/// `2^24 * scale / 10` points; the batched FFT transforms 4096 points, `4096 * scale / 10`
/// times. The histogram and the bincount take 5M elements like the reductions; `add.at`, the
/// set operations and the lexsort 1M (per input); `interp` 1M points and `convolve` a
/// signal of 100 000 (10M and 1M at the anchor scale); `exp` of f32, `astype` and the other everyday workloads (arg-reductions, gathers, masks, views, concatenation, stable argsort) 1M. [`ANCHOR_SCALE`] gives exactly the sizes of
/// the anchor table. The per-call overhead probe (`a + b` on 1000 elements) is not scaled.
pub fn default_workloads(scale: f64) -> Vec<Workload> {
    let s = |n: usize| ((n as f64 * scale).round() as usize).max(1);
    let side = |n: usize| ((n as f64 * scale.powf(5f64.log10())).round() as usize).max(1);
    let w = |id, dims: Vec<usize>| Workload { id, dims, inner: 1 };
    WorkloadId::ALL
        .iter()
        .map(|&id| match id {
            WorkloadId::Ones => w(id, vec![s(100), 500, 500]),
            WorkloadId::MulScalarInplace
            | WorkloadId::ChainInplace
            | WorkloadId::Add
            | WorkloadId::Copy => w(id, vec![s(25_000_000)]),
            WorkloadId::AddSmall => Workload {
                id,
                dims: vec![1000],
                inner: 2000,
            },
            WorkloadId::Sum | WorkloadId::Norm | WorkloadId::SortF64 | WorkloadId::SortF32 => {
                w(id, vec![s(5_000_000)])
            }
            // The pipeline reshapes to 1000 columns: keep whole rows.
            WorkloadId::Pipeline => w(id, vec![s(5000) * 1000]),
            WorkloadId::SumAxis0 | WorkloadId::SumAxis1 | WorkloadId::TransposeCopy => {
                w(id, vec![s(500), 10_000])
            }
            WorkloadId::MatmulF64 | WorkloadId::MatmulF32 => w(id, vec![side(2000)]),
            // 1000 x 1000 at the anchor scale, as the notebooks' SVD and inverse.
            WorkloadId::SvdF64
            | WorkloadId::InvF64
            | WorkloadId::SolveF64
            | WorkloadId::CholeskyF64
            | WorkloadId::QrF64 => w(id, vec![side(200)]),
            WorkloadId::RandomF64 | WorkloadId::RandomF64Rng => w(id, vec![s(5_000_000)]),
            WorkloadId::FftC128 => {
                let k = ((1u64 << 24) as f64 * scale / 10.0).log2().round().max(0.0);
                w(id, vec![1usize << (k as u32)])
            }
            WorkloadId::FftBatch => {
                let batch = ((4096.0 * scale / 10.0).round() as usize).max(1);
                w(id, vec![batch, 4096])
            }
            WorkloadId::HistogramF64 | WorkloadId::BincountI64 => w(id, vec![s(5_000_000)]),
            WorkloadId::AddAtF64
            | WorkloadId::IsinI64
            | WorkloadId::Intersect1dI64
            | WorkloadId::Lexsort2Keys
            | WorkloadId::InterpF64 => w(id, vec![s(1_000_000)]),
            WorkloadId::ConvolveF64 => w(id, vec![s(100_000)]),
            // Mid-sized: 1M (10M at the anchor scale), where a fixed cost per call shows.
            id if id.is_everyday() => w(id, vec![s(1_000_000)]),
            other => unreachable!("{} has no size", other.key()),
        })
        .collect()
}

/// The workloads as the JSON list `scripts/bench_numpy.py --spec` reads:
/// `[{"id": "sum", "dims": [5000000], "inner": 1}, ...]`.
pub fn spec_json(workloads: &[Workload]) -> String {
    let items: Vec<String> = workloads
        .iter()
        .map(|w| {
            let dims: Vec<String> = w.dims.iter().map(|d| d.to_string()).collect();
            format!(
                "{{\"id\": \"{}\", \"dims\": [{}], \"inner\": {}}}",
                w.id.key(),
                dims.join(", "),
                w.inner
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_keeps_shapes_valid() {
        let ws = default_workloads(0.01);
        let p = ws.iter().find(|w| w.id == WorkloadId::Pipeline).unwrap();
        assert_eq!(p.dims[0] % 1000, 0);
        let m = ws.iter().find(|w| w.id == WorkloadId::MatmulF64).unwrap();
        assert_eq!(m.dims, vec![80]);
        assert_eq!(ws.len(), WorkloadId::ALL.len());
    }

    #[test]
    fn anchor_scale_gives_the_anchor_sizes() {
        let ws = default_workloads(ANCHOR_SCALE);
        let dims = |id| ws.iter().find(|w| w.id == id).unwrap().dims.clone();
        assert_eq!(dims(WorkloadId::Ones), vec![1000, 500, 500]);
        assert_eq!(dims(WorkloadId::MulScalarInplace), vec![250_000_000]);
        assert_eq!(dims(WorkloadId::Sum), vec![50_000_000]);
        assert_eq!(dims(WorkloadId::SumAxis0), vec![5000, 10_000]);
        assert_eq!(dims(WorkloadId::Pipeline), vec![50_000_000]);
        assert_eq!(dims(WorkloadId::MatmulF64), vec![10_000]);
        assert_eq!(
            default_workloads(1.0)[WorkloadId::InvF64 as usize].dims,
            vec![200]
        );
        assert_eq!(dims(WorkloadId::SvdF64), vec![1000]);
        assert_eq!(dims(WorkloadId::RandomF64), vec![50_000_000]);
        assert_eq!(dims(WorkloadId::FftC128), vec![1 << 24]);
        assert_eq!(dims(WorkloadId::FftBatch), vec![4096, 4096]);
        assert_eq!(
            default_workloads(1.0)[WorkloadId::FftC128 as usize].dims,
            vec![1 << 21]
        );
        assert_eq!(dims(WorkloadId::HistogramF64), vec![50_000_000]);
        assert_eq!(dims(WorkloadId::BincountI64), vec![50_000_000]);
        assert_eq!(dims(WorkloadId::AddAtF64), vec![10_000_000]);
        assert_eq!(dims(WorkloadId::IsinI64), vec![10_000_000]);
        assert_eq!(dims(WorkloadId::Intersect1dI64), vec![10_000_000]);
        assert_eq!(dims(WorkloadId::Lexsort2Keys), vec![10_000_000]);
        assert_eq!(dims(WorkloadId::InterpF64), vec![10_000_000]);
        assert_eq!(dims(WorkloadId::ConvolveF64), vec![1_000_000]);
        assert_eq!(dims(WorkloadId::ExpF32), vec![10_000_000]);
    }

    #[test]
    fn spec_is_json_like() {
        let ws = vec![Workload {
            id: WorkloadId::SumAxis0,
            dims: vec![5, 7],
            inner: 1,
        }];
        assert_eq!(
            spec_json(&ws),
            r#"[{"id": "sum_axis0", "dims": [5, 7], "inner": 1}]"#
        );
    }

    #[test]
    fn keys_are_unique_and_in_table_order() {
        let keys: Vec<&str> = WorkloadId::ALL.iter().map(|w| w.key()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len());
        for (i, id) in WorkloadId::ALL.iter().enumerate() {
            assert_eq!(*id as usize, i, "{}", id.key());
        }
        assert_eq!(
            &keys[keys.len() - 19..keys.len() - 11],
            [
                "histogram_f64",
                "bincount_i64",
                "add_at_f64",
                "isin_i64",
                "intersect1d_i64",
                "lexsort_2keys",
                "interp_f64",
                "convolve_f64"
            ]
        );
    }

    #[test]
    fn counting_and_set_workloads_print_both_sizes() {
        let ws = default_workloads(1.0);
        let size = |id| ws.iter().find(|w| w.id == id).unwrap().size_text();
        assert_eq!(size(WorkloadId::AddAtF64), "1000000 into 1000");
        assert_eq!(size(WorkloadId::IsinI64), "1000000 in 1000000");
        assert_eq!(size(WorkloadId::Lexsort2Keys), "2 keys x 1000000");
        assert_eq!(size(WorkloadId::HistogramF64), "5000000");
        assert_eq!(size(WorkloadId::InterpF64), "1000000 into 100000");
        assert_eq!(size(WorkloadId::ConvolveF64), "100000 by 1000");
    }

    #[test]
    fn rates_format() {
        assert_eq!(Rate::Bytes(2e9).format(1000.0), "2.0 GB/s");
        assert_eq!(Rate::Flops(3e9).format(500.0), "6.0 GFLOP/s");
    }
}
