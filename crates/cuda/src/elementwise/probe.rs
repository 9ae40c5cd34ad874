//! Test-only enumeration of every (op, element type) pair that cuprite-core's trait bounds
//! allow, found by the compiler rather than by hand: each op of core's registry
//! (`elementwise_ops!`) is probed with each of the eight element types through autoref-based
//! specialisation (a method of `Probe<K, T>` exists only
//! where `K: UnaryOp<T>` or `K: BinaryOp<T>` holds; elsewhere the method of `&Probe`, which
//! does nothing, is picked). Each found pair yields the programs it uses (for the NVRTC
//! compile test) and a check that runs it on a GPU against the host's `apply`.

use super::tests_gpu::{self, TestElem};
use crate::device::Cuda;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::*;
use cuprite_core::{bf16, c128, c64, f16, DType, Element};
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
        let tol = K::DECL.tolerance;
        let label = format!("{}/{}", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                tests_gpu::check_unary(d, tol, &|x| op.apply(x), &|b, l| d.unary(op, b, l))
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
        let tol = K::DECL.tolerance;
        let label = format!("{}/{} in place", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                let gpu = |b: &mut _, l: &_| d.unary_inplace(op, b, l);
                tests_gpu::check_unary_inplace(d, tol, &|x| op.apply(x), &gpu)
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
        let tol = K::DECL.tolerance;
        let label = format!("{}/{}", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                tests_gpu::check_binary(
                    d,
                    tol,
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
        let tol = K::DECL.tolerance;
        let label = format!("{}/{} in place", K::NAME, T::DTYPE);
        c.run(
            label,
            Box::new(move |d| {
                let gpu = |a: &mut _, la: &_, b: &_, lb: &_| d.binary_inplace(op, a, la, b, lb);
                let gpu_scalar = |a: &mut _, la: &_, s| d.binary_scalar_inplace(op, a, la, s);
                let host = |x, y| op.apply(x, y);
                tests_gpu::check_binary_inplace(d, tol, &host, &gpu, &gpu_scalar)
            }),
        );
    }
}
impl<K, T> BinaryInplaceNo for &Probe<K, T> {}

/// Probes every example value of the op type `$op` (which may name the element type as `E`,
/// as the registry writes generic ops: `Clip<E>`) with every element type.
macro_rules! probe {
    ($c:expr, $op:ty) => {
        probe!(@each $c, $op; bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, c64, c128);
    };
    (@each $c:expr, $op:ty; $($t:ty),*) => {$({
        #[allow(dead_code)]
        type E = $t;
        for op in <$op as Declared>::examples() {
            let p = Probe::<$op, $t>::new(op);
            (&p).unary($c);
            (&p).unary_inplace($c);
            (&p).binary($c);
            (&p).binary_inplace($c);
        }
    })*};
}

/// Every element-wise op of core's registry with every element type it accepts (ops with
/// parameters with each of their example values).
pub(super) fn all_cases() -> Cases {
    let mut cases = Cases::default();
    let c = &mut cases;
    macro_rules! probe_registry {
        ($( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
            $(, $params:ident)?
            $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+)
                -> $out:ty $body:block)?;
        )*) => {
            $( probe!(c, $ty $(<$g>)?); )*
        };
    }
    cuprite_core::elementwise_ops!(probe_registry);
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::ops::registry::{OpKind, ELEMENTWISE};
    use cuprite_kernels::elementwise::functors;

    /// Runs without a GPU: an op declared without its CUDA functor (or a functor left behind
    /// by a removed op) fails here, never in a user's program.
    #[test]
    fn every_declared_op_has_a_functor_and_back() {
        let defined = functors();
        for d in ELEMENTWISE {
            assert!(
                defined.contains(&d.name),
                "{}: the op is declared in crates/core/src/ops/registry.rs, but \
                 kernels/src/ops.cuh defines no functor op_{}",
                d.name,
                d.name
            );
        }
        for f in defined {
            assert!(
                ELEMENTWISE.iter().any(|d| d.name == f),
                "op_{f} in kernels/src/ops.cuh belongs to no op of the registry"
            );
        }
    }

    #[test]
    fn probes_find_every_declared_op_with_its_kind() {
        let c = all_cases();
        for d in ELEMENTWISE {
            let found: Vec<_> = c.programs.iter().filter(|p| p.1 == d.name).collect();
            assert!(!found.is_empty(), "{}: no element type", d.name);
            let unary = d.kind == OpKind::Unary;
            assert!(
                found
                    .iter()
                    .all(|p| matches!(p.0, Variant::Unary | Variant::UnaryInplace) == unary),
                "{}: probed as another kind than declared",
                d.name
            );
        }
        assert!(c
            .programs
            .iter()
            .all(|p| ELEMENTWISE.iter().any(|d| d.name == p.1)));
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
        assert!(has(Variant::Unary, "clip", DType::I64));
        assert!(!has(Variant::Unary, "clip", DType::C64));
        let abs = c
            .programs
            .iter()
            .find(|p| p.1 == "absolute" && p.2 == DType::C64);
        assert_eq!(abs.map(|p| p.3), Some(DType::F32));
        // Ops with parameters run once per example value.
        let rounds = c
            .runs
            .iter()
            .filter(|r| r.0 == format!("round/{}", DType::F64))
            .count();
        assert_eq!(rounds, RoundDecimals::examples().len());
    }
}
