//! Whether two arrays see the same memory: [`Array::may_share_memory`] (NumPy's bounds check:
//! do the byte extents of the two views overlap) and [`Array::shares_memory`] (exact: is
//! there a byte both views reach, solved as NumPy does as a bounded linear Diophantine
//! equation, so interleaved strided views of one buffer are told apart). Addresses come from
//! [`BackendBase::buffer_address`]; nothing is read from the device.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};

/// The search gives up after this many steps (NumPy's exact solver has no bound; this one
/// returns an error instead of running for ever on adversarial strides).
const MAX_WORK: u64 = 50_000_000;

/// One view as bytes: the address of its first element, its byte strides and lengths.
struct Span {
    base: i128,
    dims: Vec<(i128, i128)>,
    item: i128,
}

impl Span {
    fn of<T: Element, B: ArrayBackend>(a: &Array<T, B>, op: &'static str) -> Result<Option<Self>> {
        if a.size() == 0 {
            return Ok(None);
        }
        let Some(addr) = a.device.buffer_address(&a.buf) else {
            return Err(Error::invalid(
                op,
                format!(
                    "the {} backend cannot tell buffer addresses",
                    a.device.label()
                ),
            ));
        };
        let item = T::DTYPE.size_of() as i128;
        let base = addr as i128 + a.layout.offset() as i128 * item;
        let dims = a
            .shape()
            .iter()
            .zip(a.strides())
            .map(|(&d, &s)| (s as i128 * item, d as i128))
            .collect();
        Ok(Some(Span { base, dims, item }))
    }

    /// The first and one past the last byte the view reaches.
    fn extent(&self) -> (i128, i128) {
        let (mut lo, mut hi) = (self.base, self.base + self.item);
        for &(s, d) in &self.dims {
            let reach = s * (d - 1);
            if reach < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        (lo, hi)
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

/// Whether `sum(a[k] * x[k]) == b` has a solution with `0 <= x[k] <= ub[k]`, all `a[k] > 0`:
/// a depth-first search over the terms by decreasing coefficient, pruned by the reachable
/// range of the remaining terms and their greatest common divisor. `None` when the work
/// budget runs out.
fn bounded_solution(mut terms: Vec<(i128, i128)>, b: i128) -> Option<bool> {
    terms.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    let n = terms.len();
    // For each k: the largest sum and the gcd of the terms after k.
    let mut max_after = vec![0i128; n + 1];
    let mut gcd_after = vec![0i128; n + 1];
    for k in (0..n).rev() {
        max_after[k] = max_after[k + 1] + terms[k].0 * terms[k].1;
        gcd_after[k] = gcd(gcd_after[k + 1], terms[k].0);
    }
    let mut work = 0u64;
    fn go(
        k: usize,
        b: i128,
        terms: &[(i128, i128)],
        max_after: &[i128],
        gcd_after: &[i128],
        work: &mut u64,
    ) -> Option<bool> {
        *work += 1;
        if *work > MAX_WORK {
            return None;
        }
        if b < 0 || b > max_after[k] {
            return Some(false);
        }
        if k == terms.len() {
            return Some(b == 0);
        }
        if gcd_after[k] != 0 && b % gcd_after[k] != 0 {
            return Some(false);
        }
        let (a, ub) = terms[k];
        let rest = max_after[k + 1];
        let lo = ((b - rest).max(0) + a - 1) / a;
        let hi = (b / a).min(ub);
        let g = gcd_after[k + 1];
        if g == 0 {
            // The last term: b must be a multiple of a within the bound.
            return Some(b % a == 0 && b / a <= ub);
        }
        let mut x = lo;
        while x <= hi {
            let r = b - a * x;
            if r % g == 0 {
                if go(k + 1, r, terms, max_after, gcd_after, work)? {
                    return Some(true);
                }
                // The next x with the same residue modulo g.
                x += g / gcd(a, g);
                continue;
            }
            x += 1;
        }
        Some(false)
    }
    go(0, b, &terms, &max_after, &gcd_after, &mut work)
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Whether the byte ranges of the two views overlap (NumPy's `np.may_share_memory(a,
    /// b)`, its default bounds check): `true` may still mean no element is shared (two
    /// interleaved strided views); `false` is certain. Arrays on different devices, and
    /// empty arrays, share nothing.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a backend that cannot tell buffer addresses.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::zeros(&[6], dev)?;
    /// let even = a.slice(&s![..;2])?;
    /// let odd = a.slice(&s![1..;2])?;
    /// assert!(even.may_share_memory(&odd)?);
    /// assert!(!even.shares_memory(&odd)?);
    /// assert!(!a.may_share_memory(&a.copy()?)?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn may_share_memory<U: Element>(&self, other: &Array<U, B>) -> Result<bool> {
        const OP: &str = "may_share_memory";
        if self.device != other.device {
            return Ok(false);
        }
        let (Some(x), Some(y)) = (Span::of(self, OP)?, Span::of(other, OP)?) else {
            return Ok(false);
        };
        let ((l1, h1), (l2, h2)) = (x.extent(), y.extent());
        Ok(l1 < h2 && l2 < h1)
    }

    /// Whether some byte is reached by both views (NumPy's `np.shares_memory(a, b)`, exact):
    /// when the extents overlap, the equation `base1 + sum(s1 * i) + u = base2 + sum(s2 *
    /// j) + v` over the index ranges of both views and the bytes `u`, `v` of one element is
    /// solved exactly (a bounded search, pruned by ranges and divisibility), so two
    /// interleaved strided views of one buffer share nothing, a view and its reversal share
    /// everything. Arrays on different devices, and empty arrays, share nothing.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a backend that cannot tell buffer addresses, or
    /// strides for which the search exceeds its work budget (NumPy's `TooHardError`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::zeros(&[4, 4], dev)?;
    /// assert!(a.shares_memory(&a.t())?);
    /// assert!(!a.slice(&s![..2, ..])?.shares_memory(&a.slice(&s![2.., ..])?)?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn shares_memory<U: Element>(&self, other: &Array<U, B>) -> Result<bool> {
        const OP: &str = "shares_memory";
        if self.device != other.device {
            return Ok(false);
        }
        let (Some(x), Some(y)) = (Span::of(self, OP)?, Span::of(other, OP)?) else {
            return Ok(false);
        };
        let ((l1, h1), (l2, h2)) = (x.extent(), y.extent());
        if !(l1 < h2 && l2 < h1) {
            return Ok(false);
        }
        // sum(s1 i) - sum(s2 j) + u - v = base2 - base1, every variable in [0, ub]; a
        // negative coefficient c on x becomes -c on (ub - x), moving c * ub to the right.
        let mut rhs = y.base - x.base;
        let mut terms = Vec::new();
        let vars = x
            .dims
            .iter()
            .map(|&(s, d)| (s, d - 1))
            .chain(y.dims.iter().map(|&(s, d)| (-s, d - 1)))
            .chain([(1, x.item - 1), (-1, y.item - 1)]);
        for (c, ub) in vars {
            if c == 0 || ub == 0 {
                continue;
            }
            if c < 0 {
                rhs -= c * ub;
                terms.push((-c, ub));
            } else {
                terms.push((c, ub));
            }
        }
        bounded_solution(terms, rhs).ok_or_else(|| {
            Error::invalid(
                OP,
                format!(
                    "exceeded the work budget of {MAX_WORK} steps for shapes {:?} and {:?} \
                     (strides {:?} and {:?})",
                    self.shape(),
                    other.shape(),
                    self.strides(),
                    other.strides()
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::bounded_solution;

    #[test]
    fn small_systems() {
        // 3x + 5y = 7 has no solution in naturals; = 8 has (1, 1).
        assert_eq!(bounded_solution(vec![(3, 10), (5, 10)], 7), Some(false));
        assert_eq!(bounded_solution(vec![(3, 10), (5, 10)], 8), Some(true));
        // Bounds matter: 2x = 10 with x <= 4 fails.
        assert_eq!(bounded_solution(vec![(2, 4)], 10), Some(false));
        assert_eq!(bounded_solution(vec![], 0), Some(true));
        assert_eq!(bounded_solution(vec![], 1), Some(false));
    }
}
