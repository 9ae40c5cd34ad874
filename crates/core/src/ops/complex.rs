//! Parts of complex numbers: `real`, `imag`, `conj`, `angle`. `real`, `imag` and `angle` are
//! defined on every [`Inexact`] type (for real floats `real` is the identity, `imag` is zero
//! and `angle` is 0 or pi, `atan2(0, x)`, as NumPy); `conj` on every [`Numeric`] type, the
//! identity on real and integer ones.

use super::{Angle, Conj, Im, Re, UnaryOp};
use crate::dtype::{Inexact, Numeric, Scalar};
use num_complex::ComplexFloat;

impl<T: Inexact> UnaryOp<T> for Re {
    type Out = <T as Inexact>::RealPart;
    #[inline(always)]
    fn apply(&self, x: T) -> Self::Out {
        ComplexFloat::re(x)
    }
}
impl<T: Inexact> UnaryOp<T> for Im {
    type Out = <T as Inexact>::RealPart;
    #[inline(always)]
    fn apply(&self, x: T) -> Self::Out {
        ComplexFloat::im(x)
    }
}
impl<T: Numeric> UnaryOp<T> for Conj {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        // The identity on real and integer types (the match folds away per type).
        match x.to_scalar() {
            Scalar::C64(v) => T::from_scalar(Scalar::C64(v.conj())),
            Scalar::C128(v) => T::from_scalar(Scalar::C128(v.conj())),
            _ => x,
        }
    }
}
impl<T: Inexact> UnaryOp<T> for Angle {
    type Out = <T as Inexact>::RealPart;
    #[inline(always)]
    fn apply(&self, x: T) -> Self::Out {
        num_traits::Float::atan2(ComplexFloat::im(x), ComplexFloat::re(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::c64;

    #[test]
    fn parts_of_real_and_complex_values() {
        let z = c64::new(-1.0, 2.0);
        assert_eq!(Re.apply(z), -1.0);
        assert_eq!(Im.apply(z), 2.0);
        assert_eq!(Conj.apply(z), c64::new(-1.0, -2.0));
        assert_eq!(Im.apply(3.0f64), 0.0);
        assert_eq!(Angle.apply(-0.0f64), std::f64::consts::PI);
        assert_eq!(Angle.apply(2.0f32), 0.0);
    }
}
