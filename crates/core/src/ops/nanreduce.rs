//! The ops behind the NaN-ignoring statistics: `nanprod` (a product treating NaN as one),
//! and the two steps of `nanvar` after its NaN-ignoring mean: [`NanSqDev`], the squared
//! deviation of every element with NaN inputs marked by `-1` (a squared magnitude is never
//! negative), and [`NanVar`], which sums the unmarked deviations and divides by
//! `count - ddof`, giving NaN where that is not positive (NumPy's `nanvar` rules).

use super::reduce::{Work, div_to};
use super::{BinaryOp, NanProd, NanSqDev, ReduceOp};
use crate::dtype::{Element, Float, Inexact, Numeric, Scalar};

impl<T: Element> ReduceOp<T> for NanProd {
    type Acc = Work<T::Accum>;
    type Out = T::Accum;
    #[inline(always)]
    fn init(&self) -> Work<T::Accum> {
        <Work<T::Accum> as Element>::ONE
    }
    #[inline(always)]
    fn fold(&self, acc: Work<T::Accum>, x: T) -> Work<T::Accum> {
        if x.is_nan_value() {
            acc
        } else {
            acc.mul(x.cast())
        }
    }
    #[inline(always)]
    fn combine(&self, a: Work<T::Accum>, b: Work<T::Accum>) -> Work<T::Accum> {
        a.mul(b)
    }
    #[inline(always)]
    fn finish(&self, acc: Work<T::Accum>, _count: usize) -> T::Accum {
        acc.cast()
    }
}

impl<T: Inexact> BinaryOp<T> for NanSqDev {
    type Out = T::RealPart;
    #[inline(always)]
    fn apply(&self, x: T, mean: T) -> T::RealPart {
        if x.is_nan_value() {
            return -T::RealPart::ONE;
        }
        if T::DTYPE.is_half() {
            // In f32, rounded once (as every op of a 16-bit float).
            let d = x.cast::<f32>() - mean.cast::<f32>();
            return Element::from_scalar(Scalar::F32(d * d));
        }
        let d = x - mean;
        if T::DTYPE.is_complex() {
            let (re, im) = (d.re(), d.im());
            re * re + im * im
        } else {
            let re = d.re();
            re * re
        }
    }
}

/// The last step of `nanvar`: the sum of the deviations not marked `-1` by [`NanSqDev`],
/// divided by `n - ddof` with `n` their number; NaN when `n - ddof <= 0` (NumPy's
/// "Degrees of freedom <= 0 for slice" gives NaN, never inf).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanVar {
    /// Delta degrees of freedom.
    pub ddof: f64,
}

impl NanVar {
    /// Degrees of freedom worth testing (the registry's examples): none, one, and more than
    /// the elements of a small reduction.
    pub(crate) fn parameter_examples() -> Vec<Self> {
        [0.0, 1.0, 200.0]
            .into_iter()
            .map(|ddof| NanVar { ddof })
            .collect()
    }
}

impl<T: Float> ReduceOp<T> for NanVar {
    type Acc = (Work<T>, usize);
    type Out = T;
    #[inline(always)]
    fn init(&self) -> (Work<T>, usize) {
        (<Work<T> as Element>::ZERO, 0)
    }
    #[inline(always)]
    fn fold(&self, acc: (Work<T>, usize), x: T) -> (Work<T>, usize) {
        if x < T::ZERO {
            acc
        } else {
            (acc.0.add(x.cast()), acc.1 + 1)
        }
    }
    #[inline(always)]
    fn combine(&self, a: (Work<T>, usize), b: (Work<T>, usize)) -> (Work<T>, usize) {
        (a.0.add(b.0), a.1 + b.1)
    }
    #[inline(always)]
    fn finish(&self, acc: (Work<T>, usize), _count: usize) -> T {
        let dof = acc.1 as f64 - self.ddof;
        if dof > 0.0 {
            div_to(acc.0, dof)
        } else {
            T::nan()
        }
    }
    fn params(&self) -> Vec<Scalar> {
        vec![Scalar::F64(self.ddof)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::c64;
    use crate::ops::reduce::fold_all as run;

    #[test]
    fn nanprod_skips_nan() {
        assert_eq!(run(NanProd, &[2.0f64, f64::NAN, 3.0]), 6.0);
        assert_eq!(run(NanProd, &[f32::NAN]), 1.0);
        assert_eq!(run(NanProd, &[200u8, 3]), 600u64);
        assert_eq!(run(NanProd, &[true, false]), 0i64);
        let z = run(NanProd, &[c64::new(0.0, 1.0), c64::new(f32::NAN, 0.0)]);
        assert_eq!(z, c64::new(0.0, 1.0));
    }

    #[test]
    fn nanvar_steps() {
        let xs = [1.0f64, f64::NAN, 3.0];
        let sq: Vec<f64> = xs.iter().map(|&x| NanSqDev.apply(x, 2.0)).collect();
        assert_eq!(sq, vec![1.0, -1.0, 1.0]);
        assert_eq!(run(NanVar { ddof: 0.0 }, &sq), 1.0);
        assert_eq!(run(NanVar { ddof: 1.0 }, &sq), 2.0);
        assert!(run(NanVar { ddof: 2.0 }, &sq).is_nan());
        assert!(run(NanVar { ddof: 0.0 }, &[-1.0f32]).is_nan());
        assert!(run(NanVar { ddof: 0.0 }, &[1.0, f64::NAN]).is_nan());
        let d = NanSqDev.apply(c64::new(3.0, 4.0), c64::new(0.0, 0.0));
        assert_eq!(d, 25.0f32);
    }
}
