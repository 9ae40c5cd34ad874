//! Draws composed from the samplers and element-wise array ops, bit-identical on every
//! backend because each step is: the Dirichlet (normalised gammas, or NumPy's stick-breaking
//! on betas when every `alpha` is below 0.1), the multinomial (categorical draws counted per
//! row), `permuted` (an independent shuffle of every lane along an axis, by sorting random
//! keys) and `bytes` (random bytes on the host).

use super::{FloatDist, Generator, IntDist, numel, require};
use crate::array::Array;
use crate::backend::{ArrayBackend, host_vec};
use crate::dtype::Element;
use crate::error::Result;

/// `size` followed by `k`.
fn with_last(size: &[usize], k: usize) -> Vec<usize> {
    let mut s = size.to_vec();
    s.push(k);
    s
}

/// The shape as `reshape` takes it.
fn isize_shape(size: &[usize]) -> Vec<isize> {
    size.iter().map(|&d| d as isize).collect()
}

impl Generator {
    /// Dirichlet vectors with concentrations `alpha` (NumPy `rng.dirichlet(alpha, size)`):
    /// shape `size + [alpha.len()]`, f64, each row summing to 1. Gammas divided by their
    /// sum, or (as NumPy, when every `alpha` is below 0.1, where the gammas would underflow)
    /// stick-breaking on beta draws. Zero concentrations give zeros; all zero gives rows of
    /// zeros (as NumPy). `alpha` is a host slice (NumPy's broadcasting is not offered).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(1).dirichlet(&[1.0, 2.0, 3.0], &[4], dev)?;
    /// assert_eq!(x.shape(), &[4, 3]);
    /// for row in x.to_vec()?.chunks(3) {
    ///     assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    /// }
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when an `alpha` is negative
    /// or not finite, or the output size overflows.
    pub fn dirichlet<B: ArrayBackend>(
        &mut self,
        alpha: &[f64],
        size: &[usize],
        dev: &B,
    ) -> Result<Array<f64, B>> {
        const OP: &str = "dirichlet";
        if let Some(a) = alpha.iter().find(|a| !(a.is_finite() && **a >= 0.0)) {
            return Err(crate::Error::invalid(
                OP,
                format!("need finite alpha >= 0, got alpha containing {a}"),
            ));
        }
        let k = alpha.len();
        let out_shape = with_last(size, k);
        numel(OP, &out_shape)?;
        let amax = alpha.iter().copied().fold(0.0, f64::max);
        if k == 0 || amax == 0.0 {
            return Array::zeros(&out_shape, dev);
        }
        let mut cols: Vec<Array<f64, B>> = Vec::with_capacity(k);
        if amax < 0.1 {
            // csum[j] = alpha[j] + ... + alpha[k - 1].
            let mut csum = vec![0.0; k + 1];
            for j in (0..k).rev() {
                csum[j] = alpha[j] + csum[j + 1];
            }
            let mut acc = Array::<f64, B>::ones(size, dev)?;
            for j in 0..k - 1 {
                if csum[j + 1] == 0.0 {
                    // The rest is 0, so this component takes what is left.
                    cols.push(acc);
                    acc = Array::zeros(size, dev)?;
                    break;
                }
                let dist = FloatDist::Beta {
                    a: alpha[j],
                    b: csum[j + 1],
                };
                let v: Array<f64, B> = self.float_impl(OP, dist, size, dev)?;
                cols.push(acc.try_mul(&v)?);
                let one_minus = Array::<f64, B>::ones(size, dev)?.try_sub(&v)?;
                acc = acc.try_mul(&one_minus)?;
            }
            while cols.len() < k - 1 {
                cols.push(Array::zeros(size, dev)?);
            }
            cols.push(acc);
        } else {
            let mut acc = Array::<f64, B>::zeros(size, dev)?;
            for &a in alpha {
                let dist = FloatDist::Gamma {
                    shape: a,
                    scale: 1.0,
                };
                let g: Array<f64, B> = self.float_impl(OP, dist, size, dev)?;
                acc = acc.try_add(&g)?;
                cols.push(g);
            }
            // NumPy multiplies by the reciprocal of the sum.
            let inv = Array::<f64, B>::ones(size, dev)?.try_div(&acc)?;
            for c in cols.iter_mut() {
                *c = c.try_mul(&inv)?;
            }
        }
        let refs: Vec<&Array<f64, B>> = cols.iter().collect();
        Array::stack(&refs, -1)
    }

    /// Multinomial counts of `n` trials over `pvals.len()` categories (NumPy
    /// `rng.multinomial(n, pvals, size)`): shape `size + [pvals.len()]`, i64, each row
    /// summing to `n`. As NumPy, the last category takes what the others leave
    /// (`1 - sum(pvals[..k - 1])`), whatever `pvals[k - 1]` says. Each row draws its `n`
    /// categories (inverse CDF, as [`Generator::choice_index`]) and counts them, so the work
    /// and temporary memory are proportional to `n` per row (NumPy's conditional binomials
    /// take `k` draws a row): keep `n * prod(size)` within memory. `pvals` is a host slice
    /// (NumPy's broadcasting is not offered).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Generator::new(2).multinomial(20, &[0.2, 0.3, 0.5], &[4], dev)?;
    /// assert_eq!(x.shape(), &[4, 3]);
    /// assert!(x.to_vec()?.chunks(3).all(|r| r.iter().sum::<i64>() == 20));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `n < 0`, `pvals` is
    /// empty, an entry is outside `[0, 1]` or NaN, `sum(pvals[..k - 1]) > 1 + 1e-12`, or the
    /// sizes overflow.
    pub fn multinomial<B: ArrayBackend>(
        &mut self,
        n: i64,
        pvals: &[f64],
        size: &[usize],
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "multinomial";
        require(OP, n >= 0, || format!("need n >= 0, got n={n}"))?;
        let k = pvals.len();
        require(OP, k > 0, || "pvals must not be empty".to_string())?;
        if let Some(p) = pvals.iter().find(|p| !(0.0..=1.0).contains(*p)) {
            return Err(crate::Error::invalid(
                OP,
                format!("need every pval in [0, 1], got {p}"),
            ));
        }
        let head: f64 = pvals[..k - 1].iter().sum();
        require(OP, head <= 1.0 + 1e-12, || {
            format!("sum(pvals[:-1]) = {head} > 1.0")
        })?;
        let out_shape = with_last(size, k);
        let cells = numel(OP, &out_shape)?;
        let rows = numel(OP, size)?;
        let n = usize::try_from(n)
            .map_err(|_| crate::Error::invalid(OP, format!("n={n} does not fit in usize")))?;
        let draws = with_last(&[rows], n);
        numel(OP, &draws)?;
        let mut q = pvals.to_vec();
        q[k - 1] = (1.0 - head).max(0.0);
        let total: f64 = q.iter().sum();
        if total > 0.0 && (total - 1.0).abs() > 1e-12 {
            // Rounding in `1 - head` only; renormalise so `choice` accepts it.
            q.iter_mut().for_each(|v| *v /= total);
        }
        let mut counts = Array::<i64, B>::zeros(&[cells], dev)?;
        if rows > 0 && n > 0 {
            let cat = self.choice_index(k, &draws, true, Some(&q), dev)?;
            let offsets = Array::<i64, B>::arange(0, rows as i64 * k as i64, k as i64, dev)?
                .reshape(&[rows as isize, 1])?;
            let flat = cat.try_add(&offsets)?.flatten()?;
            counts.add_at(&flat, &Array::scalar(1, dev)?)?;
        }
        counts.reshape(&isize_shape(&out_shape))
    }

    /// A copy of `x` with every lane along `axis` shuffled independently (NumPy
    /// `rng.permuted(x, axis)`); `axis = None` shuffles all elements (keeping the shape).
    /// Random 64-bit keys of `x`'s shape are sorted along the axis and `x` gathered by the
    /// result.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i64, B>::arange(0, 6, 1, dev)?.reshape(&[2, 3])?;
    /// let y = Generator::new(3).permuted(&x, Some(1))?.to_vec()?;
    /// let (mut a, mut b) = (y[..3].to_vec(), y[3..].to_vec());
    /// a.sort();
    /// b.sort();
    /// assert_eq!((a, b), (vec![0, 1, 2], vec![3, 4, 5])); // rows keep their elements
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) or an axis error when
    /// `axis` is out of range for `x`.
    pub fn permuted<T: Element, B: ArrayBackend>(
        &mut self,
        x: &Array<T, B>,
        axis: Option<isize>,
    ) -> Result<Array<T, B>> {
        const OP: &str = "permuted";
        let dev = x.device();
        match axis {
            None => {
                let flat = x.flatten()?;
                let keys: Array<i64, B> = self.int_impl(OP, IntDist::Bits, &[x.size()], dev)?;
                let order = keys.argsort(0)?;
                flat.take_along_axis(&order, 0)?
                    .reshape(&isize_shape(x.shape()))
            }
            Some(ax) => {
                let nd = x.ndim() as isize;
                require(OP, (-nd..nd).contains(&ax), || {
                    format!("axis {ax} is out of bounds for an array of dimension {nd}")
                })?;
                let keys: Array<i64, B> = self.int_impl(OP, IntDist::Bits, x.shape(), dev)?;
                let order = keys.argsort(ax)?;
                x.take_along_axis(&order, ax)
            }
        }
    }

    /// `length` random bytes (NumPy `rng.bytes(length)`), computed on the host: element `i`
    /// of one draw gives bytes `8 i .. 8 i + 8` (its first 64 bits, little-endian).
    ///
    /// ```
    /// # use cuprite_core::random::Generator;
    /// let b = Generator::new(4).bytes(10).unwrap();
    /// assert_eq!(b.len(), 10);
    /// assert_eq!(b, Generator::new(4).bytes(10).unwrap());
    /// ```
    ///
    /// # Errors
    /// [`Error::OutOfMemory`](crate::Error::OutOfMemory) when `length` bytes cannot be held.
    pub fn bytes(&mut self, length: usize) -> Result<Vec<u8>> {
        let words = length.div_ceil(8);
        let d = self.reserve("bytes", words)?;
        let mut out = host_vec::<u8>(length)?;
        for i in 0..words {
            let w = d.element(i as u64).next_u64().to_le_bytes();
            let take = (length - 8 * i).min(8);
            out.extend_from_slice(&w[..take]);
        }
        Ok(out)
    }
}
