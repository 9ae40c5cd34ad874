//! NumPy's continuous `Generator` distributions beyond the normal family, gamma and beta:
//! each a [`FloatDist`] sampler (bit-identical on every backend) with NumPy's parameter checks.
//! Parameters are scalars: NumPy's broadcasting of array-valued parameters is not offered.

use super::{FloatDist, Generator, require};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Float;
use crate::error::Result;

/// `loc`/`scale` checks shared by laplace, logistic and gumbel (NumPy: `scale < 0`).
fn loc_scale(op: &'static str, loc: f64, scale: f64) -> Result<()> {
    require(
        op,
        loc.is_finite() && scale.is_finite() && scale >= 0.0,
        || format!("need finite loc and scale >= 0, got loc={loc}, scale={scale}"),
    )
}

/// A positive, finite parameter `name` of `op`.
fn positive(op: &'static str, name: &str, v: f64) -> Result<()> {
    require(op, v.is_finite() && v > 0.0, || {
        format!("need a finite {name} > 0, got {name}={v}")
    })
}

/// A non-negative, finite parameter `name` of `op`.
fn non_negative(op: &'static str, name: &str, v: f64) -> Result<()> {
    require(op, v.is_finite() && v >= 0.0, || {
        format!("need a finite {name} >= 0, got {name}={v}")
    })
}

impl Generator {
    /// Exponential values with mean 1 (NumPy `rng.standard_exponential(size, dtype)`, by
    /// inversion).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(1).standard_exponential::<f64, B>(&[100], dev)?.to_vec()?;
    /// assert!(x.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn standard_exponential<T: Float, B: ArrayBackend>(
        &mut self,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        let dist = FloatDist::Exponential { scale: 1.0 };
        self.float_impl("standard_exponential", dist, size, dev)
    }

    /// Gamma values of shape `shape` and scale 1 (NumPy `rng.standard_gamma`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(1).standard_gamma::<f32, B>(2.5, &[4], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v > 0.0));
    /// assert!(Generator::new(1).standard_gamma::<f64, B>(-1.0, &[4], dev).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `shape` is negative or
    /// not finite.
    pub fn standard_gamma<T: Float, B: ArrayBackend>(
        &mut self,
        shape: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "standard_gamma";
        non_negative(OP, "shape", shape)?;
        let dist = FloatDist::Gamma { shape, scale: 1.0 };
        self.float_impl(OP, dist, size, dev)
    }

    /// Standard Cauchy values (NumPy `rng.standard_cauchy`): the ratio of two normals.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(2).standard_cauchy::<f64, B>(&[2, 2], dev)?;
    /// assert_eq!(x.shape(), &[2, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn standard_cauchy<T: Float, B: ArrayBackend>(
        &mut self,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        self.float_impl("standard_cauchy", FloatDist::StandardCauchy, size, dev)
    }

    /// Student's t values with `df` degrees of freedom (NumPy `rng.standard_t`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(3).standard_t::<f64, B>(5.0, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|v| v.is_finite()));
    /// assert!(Generator::new(3).standard_t::<f64, B>(0.0, &[3], dev).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `df` is positive and
    /// finite.
    pub fn standard_t<T: Float, B: ArrayBackend>(
        &mut self,
        df: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "standard_t";
        positive(OP, "df", df)?;
        self.float_impl(OP, FloatDist::StandardT { df }, size, dev)
    }

    /// Chi-square values with `df` degrees of freedom (NumPy `rng.chisquare`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(4).chisquare::<f64, B>(3.0, &[5], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `df` is positive and
    /// finite.
    pub fn chisquare<T: Float, B: ArrayBackend>(
        &mut self,
        df: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "chisquare";
        positive(OP, "df", df)?;
        self.float_impl(OP, FloatDist::ChiSquare { df }, size, dev)
    }

    /// Noncentral chi-square values (NumPy `rng.noncentral_chisquare(df, nonc, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(5).noncentral_chisquare::<f64, B>(0.5, 2.0, &[5], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `df > 0` and
    /// `nonc >= 0`, both finite.
    pub fn noncentral_chisquare<T: Float, B: ArrayBackend>(
        &mut self,
        df: f64,
        nonc: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "noncentral_chisquare";
        positive(OP, "df", df)?;
        non_negative(OP, "nonc", nonc)?;
        let dist = FloatDist::NoncentralChiSquare { df, nonc };
        self.float_impl(OP, dist, size, dev)
    }

    /// F values with `dfnum` and `dfden` degrees of freedom (NumPy `rng.f`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(6).f::<f64, B>(3.0, 7.0, &[5], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless both are positive and
    /// finite.
    pub fn f<T: Float, B: ArrayBackend>(
        &mut self,
        dfnum: f64,
        dfden: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "f";
        positive(OP, "dfnum", dfnum)?;
        positive(OP, "dfden", dfden)?;
        self.float_impl(OP, FloatDist::F { dfnum, dfden }, size, dev)
    }

    /// Noncentral F values (NumPy `rng.noncentral_f(dfnum, dfden, nonc, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(7).noncentral_f::<f64, B>(3.0, 7.0, 1.5, &[5], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `dfnum, dfden > 0`
    /// and `nonc >= 0`, all finite.
    pub fn noncentral_f<T: Float, B: ArrayBackend>(
        &mut self,
        dfnum: f64,
        dfden: f64,
        nonc: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "noncentral_f";
        positive(OP, "dfnum", dfnum)?;
        positive(OP, "dfden", dfden)?;
        non_negative(OP, "nonc", nonc)?;
        let dist = FloatDist::NoncentralF { dfnum, dfden, nonc };
        self.float_impl(OP, dist, size, dev)
    }

    /// Laplace (double exponential) values (NumPy `rng.laplace(loc, scale, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(8).laplace::<f64, B>(1.0, 0.0, &[3], dev)?;
    /// assert_eq!(x.to_vec()?, vec![1.0; 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `scale < 0` or a
    /// parameter is not finite.
    pub fn laplace<T: Float, B: ArrayBackend>(
        &mut self,
        loc: f64,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "laplace";
        loc_scale(OP, loc, scale)?;
        self.float_impl(OP, FloatDist::Laplace { loc, scale }, size, dev)
    }

    /// Logistic values (NumPy `rng.logistic(loc, scale, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(9).logistic::<f32, B>(0.0, 2.0, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|v| v.is_finite()));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `scale < 0` or a
    /// parameter is not finite.
    pub fn logistic<T: Float, B: ArrayBackend>(
        &mut self,
        loc: f64,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "logistic";
        loc_scale(OP, loc, scale)?;
        self.float_impl(OP, FloatDist::Logistic { loc, scale }, size, dev)
    }

    /// Gumbel values (NumPy `rng.gumbel(loc, scale, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(10).gumbel::<f64, B>(0.0, 1.0, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|v| v.is_finite()));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `scale < 0` or a
    /// parameter is not finite.
    pub fn gumbel<T: Float, B: ArrayBackend>(
        &mut self,
        loc: f64,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "gumbel";
        loc_scale(OP, loc, scale)?;
        self.float_impl(OP, FloatDist::Gumbel { loc, scale }, size, dev)
    }

    /// Weibull values of shape `a` and scale 1 (NumPy `rng.weibull`); `a = 0` gives zeros.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(11).weibull::<f64, B>(1.5, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `a` is negative or not
    /// finite.
    pub fn weibull<T: Float, B: ArrayBackend>(
        &mut self,
        a: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "weibull";
        non_negative(OP, "a", a)?;
        self.float_impl(OP, FloatDist::Weibull { a }, size, dev)
    }

    /// Pareto II (Lomax) values of shape `a` (NumPy `rng.pareto`; add 1 and multiply by the
    /// mode for the classical Pareto).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(12).pareto::<f64, B>(3.0, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `a` is positive and
    /// finite.
    pub fn pareto<T: Float, B: ArrayBackend>(
        &mut self,
        a: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "pareto";
        positive(OP, "a", a)?;
        self.float_impl(OP, FloatDist::Pareto { a }, size, dev)
    }

    /// Rayleigh values (NumPy `rng.rayleigh(scale, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(13).rayleigh::<f64, B>(2.0, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v >= 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `scale` is negative or
    /// not finite.
    pub fn rayleigh<T: Float, B: ArrayBackend>(
        &mut self,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "rayleigh";
        non_negative(OP, "scale", scale)?;
        self.float_impl(OP, FloatDist::Rayleigh { scale }, size, dev)
    }

    /// Wald (inverse Gaussian) values (NumPy `rng.wald(mean, scale, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(14).wald::<f64, B>(1.0, 2.0, &[3], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| v > 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless both are positive and
    /// finite.
    pub fn wald<T: Float, B: ArrayBackend>(
        &mut self,
        mean: f64,
        scale: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "wald";
        positive(OP, "mean", mean)?;
        positive(OP, "scale", scale)?;
        self.float_impl(OP, FloatDist::Wald { mean, scale }, size, dev)
    }

    /// Triangular values on `[left, right]` peaking at `mode` (NumPy
    /// `rng.triangular(left, mode, right, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(15).triangular::<f64, B>(-1.0, 0.0, 2.0, &[9], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| (-1.0..=2.0).contains(&v)));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless
    /// `left <= mode <= right` and `left < right`, all finite.
    pub fn triangular<T: Float, B: ArrayBackend>(
        &mut self,
        left: f64,
        mode: f64,
        right: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "triangular";
        let finite = left.is_finite() && mode.is_finite() && right.is_finite();
        require(
            OP,
            finite && left <= mode && mode <= right && left < right,
            || {
                format!(
                    "need finite left <= mode <= right and left < right, \
                     got left={left}, mode={mode}, right={right}"
                )
            },
        )?;
        let dist = FloatDist::Triangular { left, mode, right };
        self.float_impl(OP, dist, size, dev)
    }

    /// Values of the power function distribution `a x^(a - 1)` on `[0, 1]` (NumPy
    /// `rng.power(a, size)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(16).power::<f64, B>(5.0, &[9], dev)?;
    /// assert!(x.to_vec()?.iter().all(|&v| (0.0..=1.0).contains(&v)));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless `a` is positive and
    /// finite.
    pub fn power<T: Float, B: ArrayBackend>(
        &mut self,
        a: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "power";
        positive(OP, "a", a)?;
        self.float_impl(OP, FloatDist::Power { a }, size, dev)
    }

    /// Von Mises values on `[-pi, pi]` with mode `mu` and concentration `kappa` (NumPy
    /// `rng.vonmises(mu, kappa, size)`): Best and Fisher's rejection method, uniform for
    /// `kappa < 1e-8` and a wrapped normal for `kappa > 1e6`, as NumPy.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(17).vonmises::<f64, B>(3.0, 4.0, &[50], dev)?;
    /// let pi = std::f64::consts::PI;
    /// assert!(x.to_vec()?.iter().all(|&v| (-pi..=pi).contains(&v)));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `kappa < 0` or a
    /// parameter is not finite.
    pub fn vonmises<T: Float, B: ArrayBackend>(
        &mut self,
        mu: f64,
        kappa: f64,
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "vonmises";
        require(
            OP,
            mu.is_finite() && kappa.is_finite() && kappa >= 0.0,
            || format!("need finite mu and kappa >= 0, got mu={mu}, kappa={kappa}"),
        )?;
        self.float_impl(OP, FloatDist::VonMises { mu, kappa }, size, dev)
    }
}
