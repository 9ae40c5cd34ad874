//! The "real programs" benchmark group (`cargo xtask bench --group programs`): scientific
//! programs of PolyBench and NPBench written in generic cuprite code line for line as their
//! NumPy originals (`scripts/bench_programs.py` holds the NumPy and CuPy versions), timed
//! beside NumPy in the same run at two sizes, at one thread and at the machine's default
//! threads, every result checked against NumPy's before it is timed. A micro section
//! ([`micro`]) times one statement per known slow cause the same way.
//!
//! A program is a generic function over `B: ArrayBackend` in one of the family files
//! ([`stencils`], [`factor`], [`dense`], [`indexing`], [`cfd`], [`micro`]) plus an `init`
//! that builds its inputs from integer formulas (`((i*j+1) % n) / n`), computed identically
//! by the Python script, so no input files are exchanged. [`PROGRAMS`] lists them with their
//! sizes and tolerances; [`prepare`] builds one, ready to time ([`Runnable`]). The timing
//! loop, the child processes per thread setting and the Python subprocess live in
//! [`runner`]; the table in [`table`]; the options in [`options`].

// NumPy's negative slice bounds (`1..-1` is `1:-1`) are slice arguments here, not ranges.
#![allow(clippy::reversed_empty_ranges)]

pub mod cfd;
pub mod dense;
pub mod factor;
pub mod indexing;
pub mod micro;
pub mod options;
pub mod runner;
pub mod stencils;
pub mod table;

use cuprite::{c128, Array, ArrayBackend, Result};

/// One program (or micro row): its key, what it does, its parameters per size and how its
/// outputs are compared with NumPy's.
#[derive(Clone, Copy, Debug)]
pub struct ProgramDef {
    /// Key used on the command line, in the JSON and by the Python script.
    pub key: &'static str,
    /// One line: what the program computes.
    pub what: &'static str,
    /// Parameters of the small size (the meaning is the program's).
    pub small: &'static [usize],
    /// Parameters of the medium size; empty for the micro rows (one size only).
    pub medium: &'static [usize],
    /// Relative tolerance of the check (with an absolute floor of `rtol * max|ref|`).
    pub rtol: f64,
    /// Fraction of elements allowed to differ (chaotic or binned programs), else 0.
    pub bad_frac: f64,
    /// Calls per timed run (micro rows repeat a short statement); times are per call.
    pub inner: usize,
    /// Whether this is a row of the micro section.
    pub micro: bool,
}

const fn prog(
    key: &'static str,
    what: &'static str,
    small: &'static [usize],
    medium: &'static [usize],
    rtol: f64,
) -> ProgramDef {
    ProgramDef {
        key,
        what,
        small,
        medium,
        rtol,
        bad_frac: 0.0,
        inner: 1,
        micro: false,
    }
}

const fn micro_row(
    key: &'static str,
    what: &'static str,
    params: &'static [usize],
    inner: usize,
) -> ProgramDef {
    ProgramDef {
        key,
        what,
        small: params,
        medium: &[],
        rtol: 1e-9,
        bad_frac: 0.0,
        inner,
        micro: true,
    }
}

/// Every program and micro row, in table order.
pub const PROGRAMS: &[ProgramDef] = &[
    prog(
        "jacobi_2d",
        "jacobi-2d: 5-point stencil on views, [N, TSTEPS]",
        &[64, 20],
        &[400, 50],
        1e-10,
    ),
    prog(
        "heat_3d",
        "heat-3d: 7-point 3-d stencil on views, [N, TSTEPS]",
        &[16, 10],
        &[50, 20],
        1e-10,
    ),
    prog(
        "lu",
        "PolyBench lu row loop, A[i,j] /= A[j,j] aliased, [N]",
        &[20],
        &[120],
        1e-9,
    ),
    prog(
        "cholesky",
        "PolyBench cholesky row loop, [N]",
        &[25],
        &[150],
        1e-9,
    ),
    prog(
        "gramschmidt",
        "PolyBench gramschmidt, column norms and dots, [M, N]",
        &[20, 15],
        &[160, 120],
        1e-8,
    ),
    prog(
        "covariance",
        "PolyBench covariance, loop over columns with @ of vectors, [M, N]",
        &[40, 50],
        &[300, 400],
        1e-9,
    ),
    prog(
        "mlp",
        "MLP forward: 3 dense layers + relu + softmax, [batch, in, hidden1, hidden2, out]",
        &[8, 64, 64, 64, 16],
        &[256, 512, 512, 256, 64],
        1e-8,
    ),
    prog(
        "softmax",
        "stable softmax along the last axis of a 2-d array, [rows, cols]",
        &[32, 64],
        &[1000, 2000],
        1e-10,
    ),
    ProgramDef {
        bad_frac: 2e-3,
        ..prog(
            "mandelbrot",
            "mandelbrot (NPBench mandelbrot1): complex128 masked updates, [XN, YN, MAXITER]",
            &[40, 40, 20],
            &[300, 300, 40],
            1e-6,
        )
    },
    prog(
        "cavity_flow",
        "NPBench cavity flow: pressure Poisson + velocity updates on views, [NX/NY, NT, NIT]",
        &[21, 2, 5],
        &[61, 20, 50],
        1e-8,
    ),
    prog(
        "nbody",
        "NPBench nbody (no energy): pairwise distances by broadcasting, [N, NT]",
        &[20, 5],
        &[400, 10],
        1e-8,
    ),
    ProgramDef {
        bad_frac: 1e-2,
        ..prog(
            "azimint_hist",
            "NPBench azimint_hist: np.histogram of radii with and without weights, [N, NPT]",
            &[10_000, 100],
            &[1_000_000, 1000],
            1e-9,
        )
    },
    prog(
        "spmv_coo",
        "sparse matvec: np.bincount(rows, weights=data * x[indices]), [NROWS, NNZ/ROW]",
        &[2000, 5],
        &[200_000, 10],
        1e-10,
    ),
    prog(
        "fdtd_2d",
        "PolyBench fdtd-2d: 3 field updates on views, [NX, NY, TMAX]",
        &[40, 50, 10],
        &[400, 500, 20],
        1e-10,
    ),
    prog(
        "gesummv",
        "PolyBench gesummv: alpha*A@x + beta*B@x, [N]",
        &[200],
        &[2000],
        1e-10,
    ),
    micro_row(
        "stencil1d_loop",
        "b[1:-1] = (a[:-2]+a[1:-1]+a[2:])/3; swap; [n, steps] (per step)",
        &[200_000, 100],
        100,
    ),
    micro_row("vecdot_1000", "v @ v, 1000 f64 (x200)", &[1000], 200),
    micro_row(
        "vecmat_600x500",
        "v(600) @ M(600x500) (x50)",
        &[600, 500],
        50,
    ),
    micro_row(
        "matvec_500x600",
        "M(500x600) @ v(600) (x50)",
        &[500, 600],
        50,
    ),
    micro_row("ge_scalar", "x >= 0.5, 400 000 f64 (x10)", &[400_000], 10),
    micro_row(
        "ge_0d",
        "x >= np.float64 0-d array, 400 000 f64 (x10)",
        &[400_000],
        10,
    ),
    micro_row(
        "bmatmul_bcast",
        "(60,60,1,128) @ (128,128) broadcast right operand",
        &[60, 128],
        1,
    ),
    micro_row(
        "shifted_add_2d",
        "a[1:-1,1:-1] + a[1:-1,:-2], 148x148 f64 (x100)",
        &[148],
        100,
    ),
    micro_row(
        "shifted_add_3d",
        "a[1:-1,1:-1,1:-1] + a[1:-1,1:-1,:-2], 64^3 f64 (x10)",
        &[64],
        10,
    ),
    micro_row(
        "mask_select_c128",
        "z[mask], 15 625 c128 (x100)",
        &[15_625],
        100,
    ),
    micro_row(
        "abs_c128_small",
        "abs(z), 15 625 c128 (x100)",
        &[15_625],
        100,
    ),
    micro_row("abs_c128_1m", "abs(z), 1 000 000 c128", &[1_000_000], 1),
    micro_row(
        "lu_diag_div",
        "A[i,j] /= A[j,j] for j < i, 220x220, the view borrowed (per statement)",
        &[220],
        220 * 219 / 2,
    ),
    micro_row(
        "lu_diag_div_owned",
        "A[i,j] /= A[j,j] for j < i, 220x220, the view handed over (per statement)",
        &[220],
        220 * 219 / 2,
    ),
];

/// The definition of `key`.
pub fn def(key: &str) -> Option<&'static ProgramDef> {
    PROGRAMS.iter().find(|p| p.key == key)
}

/// A prepared program: fresh inputs (untimed), one run (timed, ending with a device sync),
/// its outputs for the check.
pub trait Runnable {
    /// Rebuilds the inputs (untimed; in-place programs overwrite them).
    fn reset(&mut self) -> Result<()>;
    /// Runs the program once and waits for the device.
    fn run(&mut self) -> Result<()>;
    /// The outputs of the last run, as f64 on the host.
    fn outputs(&self) -> Result<Vec<Vec<f64>>>;
}

/// An output of a program, of its own element type; compared as f64 (bool and integers
/// converted, complex as interleaved real and imaginary parts, as NumPy's
/// `z.view(np.float64)`).
pub enum Out<B: ArrayBackend> {
    /// A float array.
    F(Array<f64, B>),
    /// A boolean array.
    Bool(Array<bool, B>),
    /// An integer array.
    I(Array<i64, B>),
    /// A complex array.
    C(Array<c128, B>),
}

impl<B: ArrayBackend> Out<B> {
    /// The elements as f64 on the host (C order).
    pub fn to_f64(&self) -> Result<Vec<f64>> {
        Ok(match self {
            Out::F(a) => a.to_vec()?,
            Out::Bool(a) => a.to_vec()?.into_iter().map(|x| x as u8 as f64).collect(),
            Out::I(a) => a.to_vec()?.into_iter().map(|x| x as f64).collect(),
            Out::C(a) => a.to_vec()?.into_iter().flat_map(|z| [z.re, z.im]).collect(),
        })
    }
}

impl<B: ArrayBackend> From<Array<f64, B>> for Out<B> {
    fn from(a: Array<f64, B>) -> Self {
        Out::F(a)
    }
}
impl<B: ArrayBackend> From<Array<bool, B>> for Out<B> {
    fn from(a: Array<bool, B>) -> Self {
        Out::Bool(a)
    }
}
impl<B: ArrayBackend> From<Array<i64, B>> for Out<B> {
    fn from(a: Array<i64, B>) -> Self {
        Out::I(a)
    }
}
impl<B: ArrayBackend> From<Array<c128, B>> for Out<B> {
    fn from(a: Array<c128, B>) -> Self {
        Out::C(a)
    }
}

/// Builds a program's inputs on a device.
type Init<'d, B, S> = Box<dyn Fn(&B) -> Result<S> + 'd>;

/// A [`Runnable`] from an `init` (inputs from formulas) and a `kernel` (the program, giving
/// its outputs).
pub struct Prog<'d, B: ArrayBackend, S> {
    dev: &'d B,
    init: Init<'d, B, S>,
    kernel: fn(&mut S, &B) -> Result<Vec<Out<B>>>,
    state: Option<S>,
    out: Vec<Out<B>>,
}

impl<'d, B: ArrayBackend, S> Prog<'d, B, S> {
    /// A program whose inputs come from `init` and whose run is `kernel`.
    pub fn boxed(
        dev: &'d B,
        init: impl Fn(&B) -> Result<S> + 'd,
        kernel: fn(&mut S, &B) -> Result<Vec<Out<B>>>,
    ) -> Box<dyn Runnable + 'd>
    where
        S: 'd,
    {
        Box::new(Prog {
            dev,
            init: Box::new(init),
            kernel,
            state: None,
            out: Vec::new(),
        })
    }
}

impl<B: ArrayBackend, S> Runnable for Prog<'_, B, S> {
    fn reset(&mut self) -> Result<()> {
        self.out.clear();
        self.state = None;
        self.state = Some((self.init)(self.dev)?);
        self.dev.synchronize()
    }

    fn run(&mut self) -> Result<()> {
        let s = self.state.as_mut().expect("reset before run");
        self.out = (self.kernel)(s, self.dev)?;
        self.dev.synchronize()
    }

    fn outputs(&self) -> Result<Vec<Vec<f64>>> {
        self.out.iter().map(Out::to_f64).collect()
    }
}

/// Prepares program `key` with parameters `p` on `dev`.
pub fn prepare<'d, B: ArrayBackend>(
    key: &str,
    p: &[usize],
    dev: &'d B,
) -> Result<Box<dyn Runnable + 'd>> {
    let p = p.to_vec();
    Ok(match key {
        "jacobi_2d" => stencils::jacobi_2d_case(p, dev),
        "heat_3d" => stencils::heat_3d_case(p, dev),
        "fdtd_2d" => stencils::fdtd_2d_case(p, dev),
        "lu" => factor::lu_case(p, dev),
        "cholesky" => factor::cholesky_case(p, dev),
        "gramschmidt" => factor::gramschmidt_case(p, dev),
        "covariance" => factor::covariance_case(p, dev),
        "mlp" => dense::mlp_case(p, dev),
        "softmax" => dense::softmax_case(p, dev),
        "gesummv" => dense::gesummv_case(p, dev),
        "nbody" => dense::nbody_case(p, dev),
        "mandelbrot" => indexing::mandelbrot_case(p, dev),
        "azimint_hist" => indexing::azimint_hist_case(p, dev),
        "spmv_coo" => indexing::spmv_coo_case(p, dev),
        "cavity_flow" => cfd::cavity_flow_case(p, dev),
        k => micro::case(k, p, dev)
            .ok_or_else(|| cuprite::Error::invalid("programs", format!("unknown program {k:?}")))?,
    })
}

/// `a[i, j] = f(i, j)` as an `n x m` f64 array (the inputs' formulas).
pub fn grid<B: ArrayBackend>(
    n: usize,
    m: usize,
    f: impl Fn(usize, usize) -> f64,
    dev: &B,
) -> Result<Array<f64, B>> {
    let mut v = Vec::with_capacity(n * m);
    for i in 0..n {
        for j in 0..m {
            v.push(f(i, j));
        }
    }
    Array::from_vec(v, &[n, m], dev)
}

/// `a[i] = f(i)` as a 1-d f64 array.
pub fn line<B: ArrayBackend>(n: usize, f: impl Fn(usize) -> f64, dev: &B) -> Result<Array<f64, B>> {
    Array::from_vec((0..n).map(f).collect(), &[n], dev)
}

/// PolyBench's usual init `((i*j+1) % n) / n`.
pub fn frac(i: usize, j: usize, n: usize) -> f64 {
    ((i * j + 1) % n) as f64 / n as f64
}

#[cfg(test)]
mod tests;
