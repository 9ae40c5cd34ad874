//! NumPy's discrete `Generator` distributions beyond integers, Poisson and binomial:
//! geometric, negative binomial, Zipf, logarithmic series and hypergeometric, each an
//! [`IntDist`] sampler (bit-identical on every backend) drawn as i64 with NumPy's parameter
//! checks. Parameters are scalars: NumPy's broadcasting of array-valued parameters is not
//! offered.

use super::sample::POISSON_LAM_MAX;
use super::{Generator, IntDist, require};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::error::Result;

/// NumPy's bound on `ngood` and `nbad` of the hypergeometric.
const HYPERGEOMETRIC_MAX: i64 = 1_000_000_000;

impl Generator {
    /// The number of Bernoulli(`p`) trials up to and including the first success (NumPy
    /// `rng.geometric(p, size)`), at least 1.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(1).geometric(0.25, &[50], dev)?.to_vec()?;
    /// assert!(x.iter().all(|&k| k >= 1));
    /// assert_eq!(Generator::new(1).geometric(1.0, &[2], dev)?.to_vec()?, vec![1, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `0 < p <= 1`.
    pub fn geometric<B: ArrayBackend>(
        &mut self,
        p: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "geometric";
        require(OP, p > 0.0 && p <= 1.0, || {
            format!("need 0 < p <= 1, got p={p}")
        })?;
        self.int_impl(OP, IntDist::Geometric { p }, size, dev)
    }

    /// The number of failures before the `n`-th success in Bernoulli(`p`) trials (NumPy
    /// `rng.negative_binomial(n, p, size)`; `n` may be fractional): a Poisson draw whose
    /// mean is Gamma(`n`, `(1 - p) / p`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(2).negative_binomial(3.0, 0.4, &[50], dev)?.to_vec()?;
    /// assert!(x.iter().all(|&k| k >= 0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `n > 0` is finite and
    /// `0 < p <= 1`, and (as NumPy) when `(1 - p) / p * (n + 10 sqrt(n))` reaches the
    /// largest Poisson mean, so the Poisson step could overflow.
    pub fn negative_binomial<B: ArrayBackend>(
        &mut self,
        n: f64,
        p: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "negative_binomial";
        require(OP, n.is_finite() && n > 0.0 && p > 0.0 && p <= 1.0, || {
            format!("need a finite n > 0 and 0 < p <= 1, got n={n}, p={p}")
        })?;
        let max_lam = (1.0 - p) / p * (n + 10.0 * n.sqrt());
        require(OP, max_lam < POISSON_LAM_MAX, || {
            format!(
                "n too large or p too small (n={n}, p={p}): the Poisson mean could reach {max_lam:e}"
            )
        })?;
        self.int_impl(OP, IntDist::NegativeBinomial { n, p }, size, dev)
    }

    /// Zipf (zeta) values with exponent `a > 1` (NumPy `rng.zipf(a, size)`), by Devroye's
    /// rejection method; values beyond `i64::MAX` are drawn again.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(3).zipf(2.0, &[50], dev)?.to_vec()?;
    /// assert!(x.iter().all(|&k| k >= 1));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `a > 1` (NaN fails).
    pub fn zipf<B: ArrayBackend>(
        &mut self,
        a: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "zipf";
        require(OP, a > 1.0, || format!("need a > 1, got a={a}"))?;
        self.int_impl(OP, IntDist::Zipf { a }, size, dev)
    }

    /// Logarithmic series values with parameter `p` (NumPy `rng.logseries(p, size)`), by
    /// Kemp's method: `P(k) = -p^k / (k ln(1 - p))`, `k >= 1`.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(4).logseries(0.6, &[50], dev)?.to_vec()?;
    /// assert!(x.iter().all(|&k| k >= 1));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `0 <= p < 1`.
    pub fn logseries<B: ArrayBackend>(
        &mut self,
        p: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "logseries";
        require(OP, (0.0..1.0).contains(&p), || {
            format!("need 0 <= p < 1, got p={p}")
        })?;
        self.int_impl(OP, IntDist::Logseries { p }, size, dev)
    }

    /// The number of good items among `nsample` drawn without replacement from `ngood` good
    /// and `nbad` bad ones (NumPy `rng.hypergeometric(ngood, nbad, nsample, size)`): urn
    /// simulation for small samples, Stadlober's HRUA method for samples of 10 or more.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(5).hypergeometric(7, 5, 6, &[50], dev)?.to_vec()?;
    /// assert!(x.iter().all(|&k| (1..=6).contains(&k)));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when a count is negative,
    /// `ngood` or `nbad` reaches 10^9 (NumPy's bound), or `nsample > ngood + nbad`.
    pub fn hypergeometric<B: ArrayBackend>(
        &mut self,
        ngood: i64,
        nbad: i64,
        nsample: i64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "hypergeometric";
        let got = || format!("ngood={ngood}, nbad={nbad}, nsample={nsample}");
        require(OP, ngood >= 0 && nbad >= 0 && nsample >= 0, || {
            format!("need non-negative counts, got {}", got())
        })?;
        require(
            OP,
            ngood < HYPERGEOMETRIC_MAX && nbad < HYPERGEOMETRIC_MAX,
            || {
                format!(
                    "both ngood and nbad must be less than {HYPERGEOMETRIC_MAX}, got {}",
                    got()
                )
            },
        )?;
        require(OP, nsample <= ngood + nbad, || {
            format!("need nsample <= ngood + nbad, got {}", got())
        })?;
        let dist = IntDist::Hypergeometric {
            ngood,
            nbad,
            nsample,
        };
        self.int_impl(OP, dist, size, dev)
    }
}
