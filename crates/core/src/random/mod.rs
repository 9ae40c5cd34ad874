//! Random numbers in the style of NumPy's `Generator`: a [`Generator`] seeded explicitly draws
//! arrays of any shape on any backend from a counter-based Philox4x32-10 stream.
//!
//! - The key is the seed; the counter is the position in the stream. Each draw reserves a
//!   range of call numbers ([`Draw`]) on the host and advances the generator, so two draws
//!   differ and no draw ever waits for the device.
//! - Every output element is a pure function of (seed, call number, index): the same seed
//!   gives **bit-identical** arrays on `Cpu` and `Cuda` for every distribution here (uniform,
//!   integers, normal, lognormal, exponential, gamma, beta, Poisson, binomial, permutation,
//!   shuffle, choice, and NumPy's other distributions: Cauchy, t, chi-square, F and their
//!   noncentral forms, Laplace, logistic, Gumbel, Weibull, Pareto, Rayleigh, Wald,
//!   triangular, power, von Mises, geometric, negative binomial, Zipf, logarithmic series,
//!   hypergeometric, Dirichlet, multinomial, permuted, bytes). Parameters are scalars (or host
//!   slices): NumPy's broadcasting of array-valued parameters is not offered. Transcendental
//!   functions are cuprite's own ([`math`]), computed with
//!   the same IEEE operations in the same order on both backends, and the CUDA kernels are
//!   compiled without fused multiply-add. The one exception is [`Generator::multivariate_normal`],
//!   whose final matrix product is the backend's `matmul` and so agrees to rounding (a few
//!   ulps), not bit for bit.
//! - Independent streams: [`Generator::spawn`] derives child generators with keys of their
//!   own, like NumPy's `SeedSequence.spawn`.
//!
//! ```
//! use cuprite_core::random::Generator;
//! # use cuprite_core::*;
//! # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
//! let mut rng = Generator::new(42);
//! let u = rng.random::<f64, B>(&[2, 3], dev)?;
//! assert!(u.to_vec()?.iter().all(|&x| (0.0..1.0).contains(&x)));
//! let v = rng.random::<f64, B>(&[2, 3], dev)?;
//! assert_ne!(u.to_vec()?, v.to_vec()?); // the state advanced
//! let again = Generator::new(42).random::<f64, B>(&[2, 3], dev)?;
//! assert_eq!(u.to_vec()?, again.to_vec()?); // same seed, same bits
//! assert!(rng.normal::<f32, B>(0.0, -1.0, &[3], dev).is_err());
//! # Ok(()) }
//! # demo(&cuprite_cpu::Cpu::new()).unwrap();
//! ```

mod choice;
mod compose;
mod discrete;
mod dists;
pub mod math;
pub mod philox;
pub mod sample;
pub mod sample_more;

pub use choice::{SPARSE_MIN_POPULATION, SPARSE_RATIO, sparse_sample, uses_sparse_sampling};
pub use philox::{Draw, Stream, philox4x32_10};
pub use sample::{FloatDist, IntDist};

use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Float, Integer};
use crate::error::{Error, Result};

/// A seeded, counter-based random generator (Philox4x32-10). Cheap to copy; a copy replays
/// the same stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Generator {
    key: [u32; 2],
    calls: u64,
    spawned: u64,
}

/// The call number kept for deriving spawned keys (never reserved by a draw).
const SPAWN_CALL: u64 = u64::MAX;

/// Errors unless `ok`, naming the op.
pub(crate) fn require(op: &'static str, ok: bool, msg: impl FnOnce() -> String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::invalid(op, msg()))
    }
}

/// The number of elements of `size`, or an error naming the op when it overflows.
pub(crate) fn numel(op: &'static str, size: &[usize]) -> Result<usize> {
    size.iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| Error::invalid(op, format!("size {size:?} has too many elements")))
}

impl Generator {
    /// A generator whose key is `seed` (low word first) at the start of its stream.
    pub fn new(seed: u64) -> Self {
        Generator {
            key: [seed as u32, (seed >> 32) as u32],
            calls: 0,
            spawned: 0,
        }
    }

    /// The Philox key.
    pub fn key(&self) -> [u32; 2] {
        self.key
    }

    /// Call numbers used so far (the position in the stream).
    pub fn position(&self) -> u64 {
        self.calls
    }

    /// `n` child generators with keys of their own (the first two words of the Philox block
    /// at counter `(k_lo, k_hi, 2^64 - 1)` for the `k`-th child ever spawned), each
    /// independent of the parent and of each other. Spawning again gives new children.
    ///
    /// ```
    /// use cuprite_core::random::Generator;
    /// let mut g = Generator::new(1);
    /// let kids = g.spawn(2);
    /// assert_ne!(kids[0].key(), kids[1].key());
    /// assert_ne!(g.spawn(1)[0].key(), kids[0].key());
    /// ```
    pub fn spawn(&mut self, n: usize) -> Vec<Generator> {
        (0..n)
            .map(|_| {
                let k = self.spawned;
                self.spawned += 1;
                let w = philox4x32_10(
                    [
                        k as u32,
                        (k >> 32) as u32,
                        SPAWN_CALL as u32,
                        (SPAWN_CALL >> 32) as u32,
                    ],
                    self.key,
                );
                Generator {
                    key: [w[0], w[1]],
                    calls: 0,
                    spawned: 0,
                }
            })
            .collect()
    }

    /// Reserves the call numbers of a draw of `n` elements and advances the state.
    pub fn reserve(&mut self, op: &'static str, n: usize) -> Result<Draw> {
        let need = Draw::calls(n);
        let end = self.calls.checked_add(need).filter(|&e| e < SPAWN_CALL);
        let Some(end) = end else {
            return Err(Error::invalid(
                op,
                "the generator's stream is exhausted; spawn a new one",
            ));
        };
        let d = Draw::new(self.key, self.calls);
        self.calls = end;
        Ok(d)
    }

    /// Uniform values in `[0, 1)` of shape `size` (NumPy `rng.random(size, dtype)`): f64 has
    /// 53 random bits, f32 24.
    pub fn random<T: Float, B: ArrayBackend>(
        &mut self,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        self.uniform_impl("random", T::zero(), T::one(), size, dev)
    }

    /// Uniform values in `[low, high)` (NumPy `rng.uniform(low, high, size)`), computed as
    /// `low + (high - low) * u` in `T`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] unless `low < high` and `high - low` is finite.
    pub fn uniform<T: Float, B: ArrayBackend>(
        &mut self,
        low: T,
        high: T,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "uniform";
        require(
            OP,
            low < high && num_traits::Float::is_finite(high - low),
            || format!("need low < high with a finite difference, got low={low}, high={high}"),
        )?;
        self.uniform_impl(OP, low, high, size, dev)
    }

    fn uniform_impl<T: Float, B: ArrayBackend>(
        &mut self,
        op: &'static str,
        low: T,
        high: T,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        let n = numel(op, size)?;
        let d = self.reserve(op, n)?;
        let buf = dev.random_uniform(n, &d, low, high)?;
        Ok(Array::from_contiguous(buf, size, dev))
    }

    pub(crate) fn float_impl<T: Float, B: ArrayBackend>(
        &mut self,
        op: &'static str,
        dist: FloatDist,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        let n = numel(op, size)?;
        let d = self.reserve(op, n)?;
        let buf = dev.random_float::<T>(n, &d, dist)?;
        Ok(Array::from_contiguous(buf, size, dev))
    }

    pub(crate) fn int_impl<T: Integer, B: ArrayBackend>(
        &mut self,
        op: &'static str,
        dist: IntDist,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        let n = numel(op, size)?;
        let d = self.reserve(op, n)?;
        let buf = dev.random_int::<T>(n, &d, dist)?;
        Ok(Array::from_contiguous(buf, size, dev))
    }

    /// Standard normal values (NumPy `rng.standard_normal(size, dtype)`).
    pub fn standard_normal<T: Float, B: ArrayBackend>(
        &mut self,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        self.normal(0.0, 1.0, size, dev)
    }

    /// Normal values with mean `loc` and standard deviation `scale` (NumPy `rng.normal`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `scale < 0` or a parameter is not finite.
    pub fn normal<T: Float, B: ArrayBackend>(
        &mut self,
        loc: f64,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "normal";
        require(
            OP,
            loc.is_finite() && scale.is_finite() && scale >= 0.0,
            || format!("need finite loc and scale >= 0, got loc={loc}, scale={scale}"),
        )?;
        self.float_impl(OP, FloatDist::Normal { loc, scale }, size, dev)
    }

    /// Log-normal values: `exp` of a normal with mean `mean` and standard deviation `sigma`
    /// (NumPy `rng.lognormal`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `sigma < 0` or a parameter is not finite.
    pub fn lognormal<T: Float, B: ArrayBackend>(
        &mut self,
        mean: f64,
        sigma: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "lognormal";
        require(
            OP,
            mean.is_finite() && sigma.is_finite() && sigma >= 0.0,
            || format!("need finite mean and sigma >= 0, got mean={mean}, sigma={sigma}"),
        )?;
        self.float_impl(OP, FloatDist::LogNormal { mean, sigma }, size, dev)
    }

    /// Exponential values with mean `scale` (NumPy `rng.exponential`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `scale` is negative or not finite.
    pub fn exponential<T: Float, B: ArrayBackend>(
        &mut self,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "exponential";
        require(OP, scale.is_finite() && scale >= 0.0, || {
            format!("need a finite scale >= 0, got scale={scale}")
        })?;
        self.float_impl(OP, FloatDist::Exponential { scale }, size, dev)
    }

    /// Gamma values of shape `k` and scale `scale` (NumPy `rng.gamma(shape, scale, size)`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `k` or `scale` is negative or not finite.
    pub fn gamma<T: Float, B: ArrayBackend>(
        &mut self,
        k: f64,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "gamma";
        require(
            OP,
            k.is_finite() && scale.is_finite() && k >= 0.0 && scale >= 0.0,
            || format!("need finite shape >= 0 and scale >= 0, got shape={k}, scale={scale}"),
        )?;
        self.float_impl(OP, FloatDist::Gamma { shape: k, scale }, size, dev)
    }

    /// Beta values with parameters `a` and `b` (NumPy `rng.beta`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] unless both are positive and finite.
    pub fn beta<T: Float, B: ArrayBackend>(
        &mut self,
        a: f64,
        b: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "beta";
        require(
            OP,
            a.is_finite() && b.is_finite() && a > 0.0 && b > 0.0,
            || format!("need finite a > 0 and b > 0, got a={a}, b={b}"),
        )?;
        self.float_impl(OP, FloatDist::Beta { a, b }, size, dev)
    }

    /// Integers uniform in `[low, high)` (NumPy `rng.integers(low, high, size, dtype)`), for
    /// u8, i32 and i64, unbiased (Lemire's method).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let d = Generator::new(7).integers::<i32, B>(1, 7, &[1000], dev)?.to_vec()?;
    /// assert!(d.iter().all(|&x| (1..7).contains(&x)));
    /// assert!((1..7).all(|face| d.contains(&face)));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `low >= high`.
    pub fn integers<T: Integer, B: ArrayBackend>(
        &mut self,
        low: T,
        high: T,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "integers";
        // Every integer type's values fit an i128; the draw is `low + k` in wrapping i64
        // arithmetic, which a u64 beyond i64::MAX gets back when narrowed.
        let (lo, hi) = (low.to_i128().unwrap_or(0), high.to_i128().unwrap_or(0));
        require(OP, lo < hi, || {
            format!("need low < high, got low={lo}, high={hi}")
        })?;
        let range = (hi - lo) as u64;
        self.int_impl(
            OP,
            IntDist::Integers {
                low: lo as i64,
                range,
            },
            size,
            dev,
        )
    }

    /// Poisson counts with mean `lam` (NumPy `rng.poisson`), as i64.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] unless `0 <= lam <= 9.223372006484771e18` (NumPy's bound).
    pub fn poisson<B: ArrayBackend>(
        &mut self,
        lam: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "poisson";
        require(OP, (0.0..=sample::POISSON_LAM_MAX).contains(&lam), || {
            format!(
                "need 0 <= lam <= {:e}, got lam={lam}",
                sample::POISSON_LAM_MAX
            )
        })?;
        self.int_impl(OP, IntDist::Poisson { lam }, size, dev)
    }

    /// Binomial counts of `n` trials with success probability `p` (NumPy `rng.binomial`), as
    /// i64.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] unless `n >= 0` and `0 <= p <= 1`.
    pub fn binomial<B: ArrayBackend>(
        &mut self,
        n: i64,
        p: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "binomial";
        require(OP, n >= 0 && (0.0..=1.0).contains(&p), || {
            format!("need n >= 0 and 0 <= p <= 1, got n={n}, p={p}")
        })?;
        self.int_impl(OP, IntDist::Binomial { n, p }, size, dev)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_reserve_disjoint_call_ranges() {
        let mut g = Generator::new(5);
        let a = g.reserve("t", 10).unwrap();
        let b = g.reserve("t", 0).unwrap();
        assert_eq!((a.base, b.base, g.position()), (0, 2, 3));
        let mut h = Generator::new(5);
        h.calls = SPAWN_CALL - 2;
        assert!(h.reserve("t", 1).is_err());
    }
}
