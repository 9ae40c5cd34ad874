//! Draws composed from the primitives and existing array ops: permutations and shuffles
//! (a stable argsort of 64-bit random keys), `choice` with and without replacement, with or
//! without probabilities (inverse CDF by `searchsorted`; Efraimidis–Spirakis keys `E_i / p_i`
//! for weighted sampling without replacement), and the multivariate normal (a Cholesky
//! factor computed on the host, where the `d x d` covariance lives, then one `matmul` on the
//! device). Everything but the multivariate normal is bit-identical across backends because
//! its building blocks are. Sampling a few elements without replacement from a large
//! population ([`uses_sparse_sampling`]) never allocates the population: a sparse
//! Fisher–Yates shuffle on the host ([`sparse_sample`]) takes O(k) memory and time.

use super::sample::bounded;
use super::{Draw, Generator, IntDist, numel, require};
use crate::array::{Array, Side};
use crate::backend::ArrayBackend;
use crate::backend::{host_out_of_memory, host_vec};
use crate::dtype::{Element, Float};
use crate::error::{Error, Result};
use crate::slice::SliceArg;
use std::collections::HashMap;

/// The tolerance on `sum(p) - 1` (NumPy's `sqrt(eps)`).
const P_SUM_TOL: f64 = 1.490_116_119_384_765_6e-8;

/// Populations up to this size are sampled without replacement as a prefix of a permutation
/// (the stream `choice` has always had); larger ones by [`sparse_sample`] when they are also
/// more than [`SPARSE_RATIO`] times the sample, where a permutation would allocate far more
/// than the `k` results.
pub const SPARSE_MIN_POPULATION: usize = 1 << 16;
/// See [`SPARSE_MIN_POPULATION`].
pub const SPARSE_RATIO: usize = 4;

/// Whether `choice` without replacement and without `p` draws `k` of `n` by
/// [`sparse_sample`] (memory O(k)) rather than as a permutation prefix (memory O(n)).
pub fn uses_sparse_sampling(n: usize, k: usize) -> bool {
    n > SPARSE_MIN_POPULATION && n / SPARSE_RATIO > k
}

/// `k` distinct indices of `0..n` in uniformly random order: the first `k` steps of a
/// Fisher–Yates shuffle of `0..n` whose array is virtual, with the displaced entries in a
/// hash map, so memory and time are O(k) whatever `n` is. Step `i` swaps position `i` with
/// `i + bounded(n - i)` drawn from element `i` of the draw `d`, so the result is a pure
/// function of `(d, n, k)` and the same on every backend.
///
/// # Errors
/// [`Error::OutOfMemory`] when `k` results cannot be held.
pub fn sparse_sample(d: &Draw, n: usize, k: usize) -> Result<Vec<i64>> {
    let k = k.min(n);
    let mut out = host_vec::<i64>(k)?;
    let mut moved: HashMap<u64, u64> = HashMap::new();
    moved
        .try_reserve(k)
        .map_err(|_| host_out_of_memory(k.saturating_mul(16)))?;
    let n = n as u64;
    for i in 0..k as u64 {
        let j = i + bounded(&mut d.element(i), n - i);
        let at_i = moved.get(&i).copied().unwrap_or(i);
        let at_j = moved.get(&j).copied().unwrap_or(j);
        // Position i is never read again: only position j needs to remember the swap.
        moved.remove(&i);
        if j != i {
            moved.insert(j, at_i);
        }
        out.push(at_j as i64);
    }
    Ok(out)
}

fn isize_shape(size: &[usize]) -> Vec<isize> {
    size.iter().map(|&d| d as isize).collect()
}

impl Generator {
    /// A random permutation of `0..n` (NumPy `rng.permutation(n)`), as i64.
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut p = Generator::new(3).permutation(10, dev)?.to_vec()?;
    /// p.sort();
    /// assert_eq!(p, (0..10).collect::<Vec<i64>>());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn permutation<B: ArrayBackend>(&mut self, n: usize, dev: &B) -> Result<Array<i64, B>> {
        let keys: Array<i64, B> = self.int_impl("permutation", IntDist::Bits, &[n], dev)?;
        keys.argsort(0)
    }

    /// A copy of `x` with its sub-arrays along axis 0 in random order (NumPy
    /// `rng.permutation(x)`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d array.
    pub fn shuffled<T: Element, B: ArrayBackend>(
        &mut self,
        x: &Array<T, B>,
    ) -> Result<Array<T, B>> {
        require("shuffle", x.ndim() > 0, || {
            "cannot shuffle a 0-d array".to_string()
        })?;
        let perm = self.permutation(x.shape()[0], x.device())?;
        x.take(&perm, Some(0))
    }

    /// Shuffles `x` in place along axis 0 (NumPy `rng.shuffle(x)`).
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut x = Array::<f64, B>::arange(0.0, 6.0, 1.0, dev)?.reshape(&[3, 2])?;
    /// Generator::new(1).shuffle(&mut x)?;
    /// let v = x.to_vec()?;
    /// assert!(v.chunks(2).all(|r| r[1] == r[0] + 1.0)); // rows move whole
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d array.
    pub fn shuffle<T: Element, B: ArrayBackend>(&mut self, x: &mut Array<T, B>) -> Result<()> {
        let s = self.shuffled(x)?;
        x.assign(&s)
    }

    /// Indices in `0..n` drawn as [`Generator::choice`] draws elements: shape `size`, with or
    /// without replacement, uniformly or with probabilities `p` (length `n`, non-negative,
    /// summing to 1 within 1.5e-8).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `n == 0` and something is to be drawn, when `p` has
    /// the wrong length, a negative or non-finite entry or does not sum to 1, and when more
    /// elements are asked for without replacement than `n` (or than the non-zero entries of
    /// `p`).
    pub fn choice_index<B: ArrayBackend>(
        &mut self,
        n: usize,
        size: &[usize],
        replace: bool,
        p: Option<&[f64]>,
        dev: &B,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "choice";
        let k = numel(OP, size)?;
        require(OP, n > 0 || k == 0, || {
            format!("cannot draw {k} elements from an empty population")
        })?;
        if let Some(p) = p {
            require(OP, p.len() == n, || {
                format!("p has {} entries but the population has {n}", p.len())
            })?;
            if let Some(bad) = p.iter().find(|v| !(v.is_finite() && **v >= 0.0)) {
                return Err(Error::invalid(
                    OP,
                    format!("probabilities must be finite and non-negative, got {bad}"),
                ));
            }
            let sum: f64 = p.iter().sum();
            require(OP, (sum - 1.0).abs() <= P_SUM_TOL, || {
                format!("probabilities must sum to 1, got sum(p)={sum}")
            })?;
            let nonzero = p.iter().filter(|&&v| v > 0.0).count();
            require(OP, replace || k <= nonzero, || {
                format!(
                    "cannot take {k} elements without replacement: only {nonzero} have \
                     non-zero probability"
                )
            })?;
        } else {
            require(OP, replace || k <= n, || {
                format!("cannot take {k} elements without replacement from a population of {n}")
            })?;
        }
        let flat = match (replace, p) {
            (true, None) => {
                return self.integers::<i64, B>(0, n.max(1) as i64, size, dev);
            }
            (true, Some(p)) => {
                // Inverse CDF: the number of CDF entries <= u, u uniform in [0, 1).
                let mut acc = 0.0;
                let mut cdf: Vec<f64> = p
                    .iter()
                    .map(|v| {
                        acc += v;
                        acc
                    })
                    .collect();
                let total = acc;
                cdf.iter_mut().for_each(|c| *c /= total);
                if let Some(last) = cdf.last_mut() {
                    *last = 1.0;
                }
                let cdf = Array::<f64, B>::from_vec(cdf, &[n], dev)?;
                let u = self.random::<f64, B>(&[k], dev)?;
                cdf.searchsorted(&u, Side::Right)?
            }
            (false, None) if uses_sparse_sampling(n, k) => {
                let d = self.reserve(OP, k)?;
                Array::<i64, B>::from_vec(sparse_sample(&d, n, k)?, &[k], dev)?
            }
            (false, None) => self
                .permutation(n, dev)?
                .slice(&[SliceArg::from(..k as isize)])?,
            (false, Some(p)) => {
                // The k smallest of E_i / p_i (E_i exponential) are a weighted sample
                // without replacement; p_i = 0 gives +inf (or NaN), sorted last.
                let e = self.exponential::<f64, B>(1.0, &[n], dev)?;
                let w = Array::<f64, B>::from_vec(p.to_vec(), &[n], dev)?;
                e.try_div(&w)?
                    .argsort(0)?
                    .slice(&[SliceArg::from(..k as isize)])?
            }
        };
        flat.reshape(&isize_shape(size))
    }

    /// Elements of `a` along axis 0 drawn at random (NumPy `rng.choice(a, size, replace, p)`):
    /// the result has shape `size + a.shape[1..]`. See [`Generator::choice_index`].
    ///
    /// ```
    /// # use cuprite_core::{*, random::Generator};
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![10, 20, 30], &[3], dev)?;
    /// let mut rng = Generator::new(0);
    /// let c = rng.choice(&a, &[5], true, Some(&[0.0, 0.5, 0.5]))?.to_vec()?;
    /// assert!(c.iter().all(|&x| x == 20 || x == 30));
    /// let mut all = rng.choice(&a, &[3], false, None)?.to_vec()?;
    /// all.sort();
    /// assert_eq!(all, vec![10, 20, 30]);
    /// assert!(rng.choice(&a, &[4], false, None).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`Generator::choice_index`], and [`Error::InvalidArgument`] for a 0-d `a`.
    pub fn choice<T: Element, B: ArrayBackend>(
        &mut self,
        a: &Array<T, B>,
        size: &[usize],
        replace: bool,
        p: Option<&[f64]>,
    ) -> Result<Array<T, B>> {
        require("choice", a.ndim() > 0, || {
            "a must be at least 1-d".to_string()
        })?;
        let idx = self.choice_index(a.shape()[0], size, replace, p, a.device())?;
        a.take(&idx, Some(0))
    }

    /// Multivariate normal vectors with mean `mean` (length `d`) and covariance `cov` (`d x d`,
    /// row-major, symmetric positive semi-definite), shape `size + [d]` (NumPy
    /// `rng.multivariate_normal(mean, cov, size)`). The Cholesky factor `L` of `cov` is
    /// computed on the host (in f64; a zero pivot is allowed for semi-definite matrices), then
    /// `mean + z @ L^T` for standard normal `z` on the device. The product goes through the
    /// backend's `matmul`, so results agree across backends to rounding, not bit for bit.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the lengths disagree, an entry is not finite, or `cov`
    /// is not symmetric positive semi-definite.
    pub fn multivariate_normal<T: Float, B: ArrayBackend>(
        &mut self,
        mean: &[f64],
        cov: &[f64],
        size: &[usize],
        dev: &B,
    ) -> Result<Array<T, B>> {
        const OP: &str = "multivariate_normal";
        let d = mean.len();
        require(OP, cov.len() == d * d, || {
            format!(
                "cov must be {d} x {d} = {} entries, got {}",
                d * d,
                cov.len()
            )
        })?;
        require(OP, mean.iter().chain(cov).all(|v| v.is_finite()), || {
            "mean and cov must be finite".to_string()
        })?;
        let l = cholesky_psd(OP, cov, d)?;
        let m = numel(OP, size)?;
        let mut out_shape = isize_shape(size);
        out_shape.push(d as isize);
        let z = self.standard_normal::<T, B>(&[m, d], dev)?;
        if m == 0 || d == 0 {
            return z.reshape(&out_shape);
        }
        let lt: Vec<T> = (0..d * d)
            .map(|ij| T::from_f64(l[(ij % d) * d + ij / d]))
            .collect();
        let lt = Array::<T, B>::from_vec(lt, &[d, d], dev)?;
        let mu =
            Array::<T, B>::from_vec(mean.iter().map(|&v| T::from_f64(v)).collect(), &[d], dev)?;
        z.matmul(&lt)?.try_add(&mu)?.reshape(&out_shape)
    }
}

/// The lower Cholesky factor of a symmetric positive semi-definite `d x d` matrix (row-major),
/// with columns of zero pivots set to zero.
fn cholesky_psd(op: &'static str, a: &[f64], d: usize) -> Result<Vec<f64>> {
    let scale = a
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    let tol = 1e-10 * scale * d as f64;
    for i in 0..d {
        for j in 0..i {
            let (x, y) = (a[i * d + j], a[j * d + i]);
            require(op, (x - y).abs() <= 1e-8 * scale, || {
                format!("cov must be symmetric: cov[{i}][{j}]={x} but cov[{j}][{i}]={y}")
            })?;
        }
    }
    let mut l = vec![0.0; d * d];
    for j in 0..d {
        let s = a[j * d + j] - (0..j).map(|k| l[j * d + k] * l[j * d + k]).sum::<f64>();
        require(op, s >= -tol, || {
            format!("cov is not positive semi-definite (pivot {j} is {s})")
        })?;
        if s <= tol {
            // A zero pivot: the rest of the column must vanish too.
            for i in j + 1..d {
                let r = a[i * d + j] - (0..j).map(|k| l[i * d + k] * l[j * d + k]).sum::<f64>();
                require(op, r.abs() <= tol.sqrt() * scale.sqrt(), || {
                    format!("cov is not positive semi-definite (zero pivot {j}, entry {i} is {r})")
                })?;
            }
            continue;
        }
        let ljj = s.sqrt();
        l[j * d + j] = ljj;
        for i in j + 1..d {
            let r = a[i * d + j] - (0..j).map(|k| l[i * d + k] * l[j * d + k]).sum::<f64>();
            l[i * d + j] = r / ljj;
        }
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::{cholesky_psd, sparse_sample, uses_sparse_sampling};
    use crate::random::Draw;
    use std::time::Instant;

    fn draw(base: u64) -> Draw {
        Draw::new([0x1234_5678, 0x9abc_def0], base)
    }

    #[test]
    fn sparse_samples_are_distinct_in_range_and_cover_everything() {
        for (n, k) in [
            (1usize, 1usize),
            (5, 5),
            (10, 3),
            (1000, 999),
            (1 << 20, 100),
        ] {
            let s = sparse_sample(&draw(n as u64), n, k).unwrap();
            assert_eq!(s.len(), k);
            let mut sorted = s.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), k, "duplicates for n={n}, k={k}: {s:?}");
            assert!(s.iter().all(|&v| (0..n as i64).contains(&v)));
            if k == n {
                assert_eq!(sorted, (0..n as i64).collect::<Vec<_>>());
            }
        }
        assert!(sparse_sample(&draw(1), 7, 0).unwrap().is_empty());
    }

    #[test]
    fn sparse_samples_are_uniform_ordered_tuples() {
        // Every ordered pair (a, b), a != b, of 0..5 has probability 1/20: Pearson's
        // chi-square with 19 degrees of freedom stays below 43.8 (p = 0.001).
        let (n, trials) = (5usize, 40_000u64);
        let mut counts = [[0u32; 5]; 5];
        for t in 0..trials {
            let s = sparse_sample(&draw(t), n, 2).unwrap();
            counts[s[0] as usize][s[1] as usize] += 1;
        }
        let expected = trials as f64 / 20.0;
        let mut chi2 = 0.0;
        for (a, row) in counts.iter().enumerate() {
            for (b, &c) in row.iter().enumerate() {
                if a == b {
                    assert_eq!(c, 0);
                } else {
                    chi2 += (c as f64 - expected).powi(2) / expected;
                }
            }
        }
        assert!(chi2 < 43.8, "chi2 = {chi2}, counts {counts:?}");
        // The third pick of 3 out of 50: each value 1/50 (49 dof, p = 0.001: 85.4).
        let mut third = [0u32; 50];
        for t in 0..trials {
            third[sparse_sample(&draw(t + trials), 50, 3).unwrap()[2] as usize] += 1;
        }
        let e = trials as f64 / 50.0;
        let chi2: f64 = third.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        assert!(chi2 < 85.4, "chi2 = {chi2}");
    }

    #[test]
    fn huge_populations_are_sampled_at_once() {
        let n = 1usize << 40;
        assert!(uses_sparse_sampling(n, 3));
        let t = Instant::now();
        let s = sparse_sample(&draw(3), n, 3).unwrap();
        assert!(t.elapsed().as_secs_f64() < 0.5, "{:?}", t.elapsed());
        assert_eq!(s.len(), 3);
        assert!(s[0] != s[1] && s[1] != s[2] && s[0] != s[2]);
        assert!(s.iter().all(|&v| v >= 0 && (v as usize) < n));
        // Small populations and large samples keep the permutation path.
        assert!(!uses_sparse_sampling(10_000, 77));
        assert!(!uses_sparse_sampling(1 << 20, 1 << 19));
        assert!(uses_sparse_sampling(1 << 20, 1000));
    }

    #[test]
    fn cholesky_reconstructs_and_rejects() {
        let a = [4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let l = cholesky_psd("t", &a, 3).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let v: f64 = (0..3).map(|k| l[i * 3 + k] * l[j * 3 + k]).sum();
                assert!((v - a[i * 3 + j]).abs() < 1e-12);
            }
        }
        // Semi-definite (rank 1) is fine; indefinite and asymmetric are not.
        assert!(cholesky_psd("t", &[1.0, 1.0, 1.0, 1.0], 2).is_ok());
        let e = cholesky_psd("t", &[1.0, 2.0, 2.0, 1.0], 2).unwrap_err();
        assert!(e.to_string().contains("positive semi-definite"), "{e}");
        assert!(cholesky_psd("t", &[1.0, 0.5, 0.0, 1.0], 2).is_err());
    }
}
