//! Test-only enumeration of every (op, element type) pair that cuprite-core's trait bounds
//! allow, found by the compiler rather than by hand: each op is probed with each of the eight
//! element types through autoref-based specialisation (a method of `Probe<K, T>` exists only
//! where `K: UnaryOp<T>` or `K: BinaryOp<T>` holds; elsewhere the method of `&Probe`, which
//! does nothing, is picked). Each found pair yields the programs it uses (for the NVRTC
//! compile test) and a check that runs it on a GPU against the host's `apply`.

use super::tests_gpu::{self, TestElem};
use crate::device::Cuda;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::*;
use cuprite_core::{c128, c64, DType, Element, Scalar};
use cuprite_kernels::elementwise::Variant;
use std::marker::PhantomData;

/// A GPU check of one op on one element type: the failures it found.
pub(super) type Runner = Box<dyn Fn(&Cuda) -> Vec<String> + Send + Sync>;

/// Everything the probes found.
#[derive(Default)]
pub(super) struct Cases {
    /// Programs: (variant, op name, element dtype, result dtype).
    pub programs: Vec<(Variant, &'static str, DType, DType)>,
    /// GPU checks, labelled `name/dtype`.
    pub runs: Vec<(String, Runner)>,
}

impl Cases {
    fn program(&mut self, v: Variant, name: &'static str, t: DType, out: DType) {
        if !self.programs.contains(&(v, name, t, out)) {
            self.programs.push((v, name, t, out));
        }
    }
    fn run(&mut self, label: String, r: Runner) {
        self.runs.push((label, r));
    }
}

/// An op value probed with the element type `T`.
pub(super) struct Probe<K, T>(pub K, PhantomData<T>);

impl<K, T> Probe<K, T> {
    pub fn new(op: K) -> Self {
        Probe(op, PhantomData)
    }
}

pub(super) trait UnaryYes {
    fn unary(&self, c: &mut Cases);
}
pub(super) trait UnaryNo {
    fn unary(&self, _c: &mut Cases) {}
}
impl<T: TestElem, K: UnaryOp<T>> UnaryYes for Probe<K, T>
where
    K::Out: TestElem,
{
    fn unary(&self, c: &mut Cases) {
        c.program(Variant::Unary, K::NAME, T::DTYPE, K::Out::DTYPE);
        let op = self.0;
        let label = format!("{}/{}", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                tests_gpu::check_unary(d, K::NAME, &|x| op.apply(x), &|b, l| d.unary(op, b, l))
            }),
        );
    }
}
impl<K, T> UnaryNo for &Probe<K, T> {}

pub(super) trait UnaryInplaceYes {
    fn unary_inplace(&self, c: &mut Cases);
}
pub(super) trait UnaryInplaceNo {
    fn unary_inplace(&self, _c: &mut Cases) {}
}
impl<T: TestElem, K: UnaryOp<T, Out = T>> UnaryInplaceYes for Probe<K, T> {
    fn unary_inplace(&self, c: &mut Cases) {
        c.program(Variant::UnaryInplace, K::NAME, T::DTYPE, T::DTYPE);
        let op = self.0;
        let label = format!("{}/{} in place", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                let gpu = |b: &mut _, l: &_| d.unary_inplace(op, b, l);
                tests_gpu::check_unary_inplace(d, K::NAME, &|x| op.apply(x), &gpu)
            }),
        );
    }
}
impl<K, T> UnaryInplaceNo for &Probe<K, T> {}

pub(super) trait BinaryYes {
    fn binary(&self, c: &mut Cases);
}
pub(super) trait BinaryNo {
    fn binary(&self, _c: &mut Cases) {}
}
impl<T: TestElem, K: BinaryOp<T>> BinaryYes for Probe<K, T>
where
    K::Out: TestElem,
{
    fn binary(&self, c: &mut Cases) {
        for v in [Variant::Binary, Variant::Scalar, Variant::RScalar] {
            c.program(v, K::NAME, T::DTYPE, K::Out::DTYPE);
        }
        let op = self.0;
        let label = format!("{}/{}", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                tests_gpu::check_binary(
                    d,
                    K::NAME,
                    &|x, y| op.apply(x, y),
                    &|a, la, b, lb| d.binary(op, a, la, b, lb),
                    &|a, la, s, first| d.binary_scalar(op, a, la, s, first),
                )
            }),
        );
    }
}
impl<K, T> BinaryNo for &Probe<K, T> {}

pub(super) trait BinaryInplaceYes {
    fn binary_inplace(&self, c: &mut Cases);
}
pub(super) trait BinaryInplaceNo {
    fn binary_inplace(&self, _c: &mut Cases) {}
}
impl<T: TestElem, K: BinaryOp<T, Out = T>> BinaryInplaceYes for Probe<K, T> {
    fn binary_inplace(&self, c: &mut Cases) {
        for v in [Variant::BinaryInplace, Variant::ScalarInplace] {
            c.program(v, K::NAME, T::DTYPE, T::DTYPE);
        }
        let op = self.0;
        let label = format!("{}/{} in place", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                let gpu = |a: &mut _, la: &_, b: &_, lb: &_| d.binary_inplace(op, a, la, b, lb);
                let gpu_scalar = |a: &mut _, la: &_, s| d.binary_scalar_inplace(op, a, la, s);
                let host = |x, y| op.apply(x, y);
                tests_gpu::check_binary_inplace(d, K::NAME, &host, &gpu, &gpu_scalar)
            }),
        );
    }
}
impl<K, T> BinaryInplaceNo for &Probe<K, T> {}

/// Probes the op value `$op` (an expression that may name the element type as `$t`) with
/// every element type.
macro_rules! probe {
    ($c:expr, |$t:ident| $op:expr) => {
        probe!(@each $c, |$t| $op; bool, u8, i32, i64, f32, f64, c64, c128);
    };
    (@each $c:expr, |$t:ident| $op:expr; $($ty:ty),*) => {$({
        #[allow(dead_code)]
        type $t = $ty;
        let p = Probe::<_, $ty>::new($op);
        (&p).unary($c);
        (&p).unary_inplace($c);
        (&p).binary($c);
        (&p).binary_inplace($c);
    })*};
}

/// A value of `T` converted from an f64 as the host's casts convert it.
fn v<T: Element>(x: f64) -> T {
    T::from_scalar(Scalar::F64(x))
}

/// Every element-wise op of cuprite-core with every element type it accepts (ops with
/// parameters with a few parameter values each).
pub(super) fn all_cases() -> Cases {
    let mut c = Cases::default();
    let c = &mut c;
    // arith.rs
    probe!(c, |E| Add);
    probe!(c, |E| Sub);
    probe!(c, |E| Mul);
    probe!(c, |E| Div);
    probe!(c, |E| FloorDiv);
    probe!(c, |E| Rem);
    probe!(c, |E| Neg);
    // binmath.rs
    probe!(c, |E| Pow);
    probe!(c, |E| Atan2);
    probe!(c, |E| Hypot);
    probe!(c, |E| Copysign);
    probe!(c, |E| Fmod);
    probe!(c, |E| Clip::<E> {
        lo: v(-1.5),
        hi: v(7.0)
    });
    probe!(c, |E| Clip::<E> {
        lo: v(5.0),
        hi: v(2.0)
    });
    probe!(c, |E| Clip::<E> {
        lo: v(f64::NAN),
        hi: v(100.0)
    });
    // bitwise.rs
    probe!(c, |E| BitAnd);
    probe!(c, |E| BitOr);
    probe!(c, |E| BitXor);
    probe!(c, |E| BitNot);
    probe!(c, |E| LeftShift);
    probe!(c, |E| RightShift);
    // compare.rs
    probe!(c, |E| Eq);
    probe!(c, |E| Ne);
    probe!(c, |E| Lt);
    probe!(c, |E| Le);
    probe!(c, |E| Gt);
    probe!(c, |E| Ge);
    probe!(c, |E| Maximum);
    probe!(c, |E| Minimum);
    probe!(c, |E| Fmax);
    probe!(c, |E| Fmin);
    probe!(c, |E| LogicalAnd);
    probe!(c, |E| LogicalOr);
    probe!(c, |E| LogicalXor);
    probe!(c, |E| LogicalNot);
    probe!(c, |E| IsNan);
    probe!(c, |E| IsInf);
    probe!(c, |E| IsFinite);
    probe!(c, |E| IsClose::default());
    probe!(c, |E| IsClose {
        rtol: 0.25,
        atol: 0.5,
        equal_nan: true
    });
    // complex.rs
    probe!(c, |E| Re);
    probe!(c, |E| Im);
    probe!(c, |E| Conj);
    probe!(c, |E| Angle);
    // math.rs
    probe!(c, |E| Sqrt);
    probe!(c, |E| Exp);
    probe!(c, |E| Exp2);
    probe!(c, |E| Sin);
    probe!(c, |E| Cos);
    probe!(c, |E| Tan);
    probe!(c, |E| Sinh);
    probe!(c, |E| Cosh);
    probe!(c, |E| Tanh);
    probe!(c, |E| Reciprocal);
    probe!(c, |E| Log);
    probe!(c, |E| Log2);
    probe!(c, |E| Log10);
    probe!(c, |E| Asin);
    probe!(c, |E| Acos);
    probe!(c, |E| Atan);
    probe!(c, |E| Asinh);
    probe!(c, |E| Acosh);
    probe!(c, |E| Atanh);
    probe!(c, |E| Cbrt);
    probe!(c, |E| Expm1);
    probe!(c, |E| Log1p);
    probe!(c, |E| Floor);
    probe!(c, |E| Ceil);
    probe!(c, |E| Trunc);
    probe!(c, |E| RoundHalfEven);
    probe!(c, |E| Square);
    probe!(c, |E| Abs);
    probe!(c, |E| Sign);
    for decimals in [0, 2, -1, -3, -19, -20, 40] {
        probe!(c, |E| RoundDecimals { decimals });
    }
    // reduce.rs
    probe!(c, |E| AbsSqDiff);
    probe!(c, |E| PropagateNan);
    probe!(c, |E| LogAddExp);
    probe!(c, |E| LogAddExp2);
    probe!(c, |E| Signbit);
    probe!(c, |E| Deg2Rad);
    probe!(c, |E| Rad2Deg);
    probe!(c, |E| Heaviside);
    probe!(c, |E| NextAfter);
    probe!(c, |E| NanSqDev);
    std::mem::take(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_kernels::elementwise::{BINARY_OPS, UNARY_OPS};

    #[test]
    fn probes_find_exactly_the_ops_the_kernels_cover() {
        let c = all_cases();
        let mut names: Vec<&str> = c.programs.iter().map(|p| p.1).collect();
        names.sort();
        names.dedup();
        let mut listed: Vec<&str> = UNARY_OPS.iter().chain(BINARY_OPS).copied().collect();
        listed.sort();
        assert_eq!(names, listed);
        // A few pairs the bounds allow or reject.
        let has = |v, n, t| c.programs.iter().any(|p| (p.0, p.1, p.2) == (v, n, t));
        assert!(has(Variant::Unary, "sqrt", DType::C64));
        assert!(!has(Variant::Unary, "sqrt", DType::I32));
        assert!(has(Variant::BinaryInplace, "bitwise_and", DType::Bool));
        assert!(!has(Variant::BinaryInplace, "less", DType::F64));
        assert!(has(Variant::Binary, "less", DType::U8));
        assert!(!has(Variant::Binary, "less", DType::C128));
        assert!(has(Variant::Unary, "absolute", DType::C128));
        assert!(!has(Variant::UnaryInplace, "absolute", DType::C128));
        assert!(has(Variant::UnaryInplace, "absolute", DType::F32));
        assert!(has(Variant::Binary, "equal", DType::C64));
        assert!(!has(Variant::Binary, "add", DType::Bool));
        let abs = c
            .programs
            .iter()
            .find(|p| p.1 == "absolute" && p.2 == DType::C64);
        assert_eq!(abs.map(|p| p.3), Some(DType::F32));
    }
}
