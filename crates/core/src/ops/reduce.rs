//! Reduction and scan ops: sum, prod, mean, min/max (NaN-propagating), all/any,
//! count_nonzero, the NaN-ignoring variants, cumsum/cumprod, and the small helper ops the
//! composed statistics (var/std, median, quantile) are built from.

use super::{
    AbsSqDiff, All, Any, BinaryOp, CountNonzero, CumProd, CumSum, Max, Mean, Min, NanMax, NanMean,
    NanMin, NanSum, Prod, PropagateNan, ReduceOp, ScanOp, Sum, SumAbsSq,
};
use crate::Scalar;
use crate::dtype::{Element, Float, Inexact, Numeric, Real};

/// The work type sums of `T` are carried out in (f32 for the 16-bit floats).
pub(crate) type Work<T> = <T as Numeric>::Work;

/// `acc / n` in the work type `W` of an inexact type, converted to `O` (one rounding for the
/// 16-bit floats, whose work type is f32).
#[inline(always)]
pub(crate) fn div_to<W: Element, O: Element>(acc: W, n: f64) -> O {
    O::from_scalar(match acc.to_scalar() {
        Scalar::F32(v) => Scalar::F32(v / n as f32),
        Scalar::F64(v) => Scalar::F64(v / n),
        Scalar::C64(v) => Scalar::C64(v / crate::dtype::c64::new(n as f32, 0.0)),
        Scalar::C128(v) => Scalar::C128(v / crate::dtype::c128::new(n, 0.0)),
        // Work types of inexact types are the four above.
        other => other,
    })
}

/// Folds in the work type of the accumulation type with `$step` (`add`/`mul`) from `$init`,
/// skipping NaN when `$skip_nan`; the result is the accumulation type.
macro_rules! accumulate {
    ($name:ident, $init:ident, $step:ident, skip_nan = $skip_nan:literal) => {
        impl<T: Element> ReduceOp<T> for $name {
            type Acc = Work<T::Accum>;
            type Out = T::Accum;
            #[inline(always)]
            fn init(&self) -> Work<T::Accum> {
                <Work<T::Accum> as Element>::$init
            }
            #[inline(always)]
            fn fold(&self, acc: Work<T::Accum>, x: T) -> Work<T::Accum> {
                if $skip_nan && x.is_nan_value() {
                    acc
                } else {
                    acc.$step(x.cast())
                }
            }
            #[inline(always)]
            fn combine(&self, a: Work<T::Accum>, b: Work<T::Accum>) -> Work<T::Accum> {
                a.$step(b)
            }
            #[inline(always)]
            fn finish(&self, acc: Work<T::Accum>, _count: usize) -> T::Accum {
                acc.cast()
            }
        }
    };
}
accumulate!(Sum, ZERO, add, skip_nan = false);
accumulate!(NanSum, ZERO, add, skip_nan = true);
accumulate!(Prod, ONE, mul, skip_nan = false);

impl<T: Element> ReduceOp<T> for Mean {
    type Acc = Work<T::Mean>;
    type Out = T::Mean;
    #[inline(always)]
    fn init(&self) -> Work<T::Mean> {
        <Work<T::Mean> as Element>::ZERO
    }
    #[inline(always)]
    fn fold(&self, acc: Work<T::Mean>, x: T) -> Work<T::Mean> {
        acc.add(x.cast())
    }
    #[inline(always)]
    fn combine(&self, a: Work<T::Mean>, b: Work<T::Mean>) -> Work<T::Mean> {
        a.add(b)
    }
    #[inline(always)]
    fn finish(&self, acc: Work<T::Mean>, count: usize) -> T::Mean {
        div_to(acc, count as f64)
    }
}

macro_rules! extremum {
    ($name:ident, $init:ident, $better:tt, nan_propagates = $prop:literal) => {
        impl<T: Real> ReduceOp<T> for $name {
            type Acc = T;
            type Out = T;
            #[inline(always)]
            fn init(&self) -> T {
                if !$prop && T::DTYPE.is_float() {
                    // NaN marks "nothing seen yet" for the NaN-ignoring variants of floats.
                    T::from_scalar(crate::dtype::Scalar::F64(f64::NAN))
                } else {
                    T::$init()
                }
            }
            #[inline(always)]
            fn fold(&self, acc: T, x: T) -> T {
                // Branch-free selects (they vectorise): `acc` wins when it is at least as
                // good; NaN propagation comes from `acc != acc` (keep a NaN accumulator) or
                // `x != x` (never take a NaN) in the NaN-ignoring variants.
                #[allow(clippy::eq_op)]
                let keep = if $prop {
                    acc $better x || acc != acc
                } else {
                    acc $better x || x != x
                };
                if keep {
                    acc
                } else {
                    x
                }
            }
            #[inline(always)]
            fn combine(&self, a: T, b: T) -> T {
                self.fold(a, b)
            }
            #[inline(always)]
            fn finish(&self, acc: T, _count: usize) -> T {
                acc
            }
        }
    };
}
extremum!(Min, max_value, <=, nan_propagates = true);
extremum!(Max, min_value, >=, nan_propagates = true);
extremum!(NanMin, max_value, <=, nan_propagates = false);
extremum!(NanMax, min_value, >=, nan_propagates = false);

macro_rules! bool_reduce {
    ($name:ident, $init:literal, |$a:ident, $x:ident| $fold:expr, |$p:ident, $q:ident| $comb:expr) => {
        impl<T: Element> ReduceOp<T> for $name {
            type Acc = bool;
            type Out = bool;
            #[inline(always)]
            fn init(&self) -> bool {
                $init
            }
            #[inline(always)]
            fn fold(&self, $a: bool, $x: T) -> bool {
                $fold
            }
            #[inline(always)]
            fn combine(&self, $p: bool, $q: bool) -> bool {
                $comb
            }
            #[inline(always)]
            fn finish(&self, acc: bool, _count: usize) -> bool {
                acc
            }
        }
    };
}
bool_reduce!(All, true, |a, x| a & x.is_truthy(), |p, q| p & q);
bool_reduce!(Any, false, |a, x| a | x.is_truthy(), |p, q| p | q);

impl<T: Element> ReduceOp<T> for CountNonzero {
    type Acc = i64;
    type Out = i64;
    #[inline(always)]
    fn init(&self) -> i64 {
        0
    }
    #[inline(always)]
    fn fold(&self, acc: i64, x: T) -> i64 {
        acc + x.is_truthy() as i64
    }
    #[inline(always)]
    fn combine(&self, a: i64, b: i64) -> i64 {
        a + b
    }
    #[inline(always)]
    fn finish(&self, acc: i64, _count: usize) -> i64 {
        acc
    }
}

/// Sum divided by `max(count - ddof, 0)`: the last step of `var` (a sum of squared
/// deviations over `count - ddof` degrees of freedom; zero degrees give inf or NaN, as NumPy).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DdofMean {
    /// Delta degrees of freedom.
    pub ddof: f64,
}

impl DdofMean {
    /// Degrees of freedom worth testing (the registry's examples): none, one, and more
    /// than the elements of a small reduction.
    pub(crate) fn parameter_examples() -> Vec<Self> {
        [0.0, 1.0, 200.0]
            .into_iter()
            .map(|ddof| DdofMean { ddof })
            .collect()
    }
}

impl<T: Element> ReduceOp<T> for NanMean {
    type Acc = (Work<T::Mean>, usize);
    type Out = T::Mean;
    #[inline(always)]
    fn init(&self) -> (Work<T::Mean>, usize) {
        (<Work<T::Mean> as Element>::ZERO, 0)
    }
    #[inline(always)]
    fn fold(&self, acc: (Work<T::Mean>, usize), x: T) -> (Work<T::Mean>, usize) {
        if x.is_nan_value() {
            acc
        } else {
            (acc.0.add(x.cast()), acc.1 + 1)
        }
    }
    #[inline(always)]
    fn combine(
        &self,
        a: (Work<T::Mean>, usize),
        b: (Work<T::Mean>, usize),
    ) -> (Work<T::Mean>, usize) {
        (a.0.add(b.0), a.1 + b.1)
    }
    #[inline(always)]
    fn finish(&self, acc: (Work<T::Mean>, usize), _count: usize) -> T::Mean {
        div_to(acc.0, acc.1 as f64)
    }
}

impl<T: Float> ReduceOp<T> for DdofMean {
    type Acc = Work<T>;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> Work<T> {
        <Work<T> as Element>::ZERO
    }
    #[inline(always)]
    fn fold(&self, acc: Work<T>, x: T) -> Work<T> {
        acc.add(x.cast())
    }
    #[inline(always)]
    fn combine(&self, a: Work<T>, b: Work<T>) -> Work<T> {
        a.add(b)
    }
    #[inline(always)]
    fn finish(&self, acc: Work<T>, count: usize) -> T {
        div_to(acc, (count as f64 - self.ddof).max(0.0))
    }
    fn params(&self) -> Vec<Scalar> {
        vec![Scalar::F64(self.ddof)]
    }
}

impl<T: Inexact> ReduceOp<T> for SumAbsSq {
    type Acc = Work<T::RealPart>;
    type Out = T::RealPart;
    #[inline(always)]
    fn init(&self) -> Work<T::RealPart> {
        <Work<T::RealPart> as Element>::ZERO
    }
    #[inline(always)]
    fn fold(&self, acc: Work<T::RealPart>, x: T) -> Work<T::RealPart> {
        let re: Work<T::RealPart> = x.re().cast();
        if T::DTYPE.is_complex() {
            let im: Work<T::RealPart> = x.im().cast();
            acc.add(re.mul(re).add(im.mul(im)))
        } else {
            acc.add(re.mul(re))
        }
    }
    #[inline(always)]
    fn combine(&self, a: Work<T::RealPart>, b: Work<T::RealPart>) -> Work<T::RealPart> {
        a.add(b)
    }
    #[inline(always)]
    fn finish(&self, acc: Work<T::RealPart>, _count: usize) -> T::RealPart {
        acc.cast()
    }
}

impl<T: Inexact> BinaryOp<T> for AbsSqDiff {
    type Out = T::RealPart;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T::RealPart {
        if T::DTYPE.is_half() {
            // In f32, rounded once (as every op of a 16-bit float).
            let d = a.cast::<f32>() - b.cast::<f32>();
            return Element::from_scalar(Scalar::F32(d * d));
        }
        let d = a - b;
        if T::DTYPE.is_complex() {
            let (re, im) = (d.re(), d.im());
            re * re + im * im
        } else {
            let re = d.re();
            re * re
        }
    }
}

impl<T: Float> BinaryOp<T> for PropagateNan {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, probe: T) -> T {
        if probe.is_nan_value() { probe } else { a }
    }
}

impl<T: Element> ScanOp<T> for CumSum {
    type Out = T::Accum;
    #[inline(always)]
    fn init(&self) -> T::Accum {
        T::Accum::ZERO
    }
    #[inline(always)]
    fn step(&self, acc: T::Accum, x: T) -> T::Accum {
        acc.add(x.cast())
    }
}

impl<T: Element> ScanOp<T> for CumProd {
    type Out = T::Accum;
    #[inline(always)]
    fn init(&self) -> T::Accum {
        T::Accum::ONE
    }
    #[inline(always)]
    fn step(&self, acc: T::Accum, x: T) -> T::Accum {
        acc.mul(x.cast())
    }
}

/// A reduction's scalar meaning: `xs` folded in order, then finished (for the ops' tests).
#[cfg(test)]
pub(crate) fn fold_all<T: Element, R: ReduceOp<T>>(op: R, xs: &[T]) -> R::Out {
    let acc = xs.iter().fold(op.init(), |a, &x| op.fold(a, x));
    op.finish(acc, xs.len())
}

#[cfg(test)]
mod tests {
    use super::fold_all as run;
    use super::*;

    #[test]
    fn sum_abs_sq_is_the_squared_norm() {
        assert_eq!(run(SumAbsSq, &[3.0f64, -4.0]), 25.0);
        assert_eq!(run(SumAbsSq, &[crate::dtype::c64::new(3.0, 4.0)]), 25.0f32);
        assert!(run(SumAbsSq, &[1.0f64, f64::NAN]).is_nan());
    }

    #[test]
    fn extrema_and_nan() {
        assert!(run(Max, &[1.0, f64::NAN, 3.0]).is_nan());
        assert_eq!(run(NanMax, &[1.0, f64::NAN, 3.0]), 3.0);
        assert!(run(NanMin, &[f64::NAN, f64::NAN]).is_nan());
        assert_eq!(run(Min, &[3i32, -2, 7]), -2);
        assert_eq!(run(NanMin, &[3u8, 2, 7]), 2);
    }

    #[test]
    fn sums_use_the_accumulation_type() {
        assert_eq!(run(Sum, &[true, true, false]), 2i64);
        assert_eq!(run(Sum, &[200u8, 100]), 300u64);
        assert_eq!(run(Mean, &[1i32, 2]), 1.5f64);
        assert_eq!(run(NanSum, &[1.0f32, f32::NAN]), 1.0);
        assert_eq!(run(CountNonzero, &[0.0, -0.0, 2.0]), 1);
    }

    #[test]
    fn helper_ops() {
        assert_eq!(run(NanMean, &[1.0, f64::NAN, 3.0]), 2.0);
        assert!(run(NanMean, &[f32::NAN]).is_nan());
        assert_eq!(run(NanMean, &[1u8, 2]), 1.5);
        assert_eq!(run(DdofMean { ddof: 1.0 }, &[1.0f64, 2.0, 3.0]), 3.0);
        assert!(run(DdofMean { ddof: 0.0 }, &[] as &[f64]).is_nan());
        let d = BinaryOp::<crate::dtype::c128>::apply(
            &AbsSqDiff,
            crate::dtype::c128::new(3.0, 4.0),
            crate::dtype::c128::new(0.0, 0.0),
        );
        assert_eq!(d, 25.0);
        assert_eq!(BinaryOp::<f32>::apply(&AbsSqDiff, 1.0, 4.0), 9.0);
        assert!(BinaryOp::<f64>::apply(&PropagateNan, 1.0, f64::NAN).is_nan());
        assert_eq!(
            BinaryOp::<f64>::apply(&PropagateNan, 1.0, f64::INFINITY),
            1.0
        );
    }
}
