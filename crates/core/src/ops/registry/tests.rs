//! Tests of the registry against the op traits: every declared op implements the trait of
//! its declared kind (and no other) for some element type, under its declared name, and the
//! tables hold what the declarations say.

use super::*;
use crate::dtype::{bf16, c64, c128, f16};
use crate::ops::*;
use std::marker::PhantomData;

/// An op type `K` probed with the element type `T` (autoref specialisation: the methods of
/// `Probe` exist where `K` implements the trait for `T`, the fallbacks of `&Probe` elsewhere).
struct Probe<K, T>(PhantomData<(K, T)>);

macro_rules! kind_probe {
    ($($yes:ident, $no:ident, $m:ident, $tr:ident, $kind:ident;)*) => {$(
        trait $yes {
            fn $m(&self) -> Option<(OpKind, &'static str)>;
        }
        impl<T: Element, K: $tr<T>> $yes for Probe<K, T> {
            fn $m(&self) -> Option<(OpKind, &'static str)> {
                Some((OpKind::$kind, K::NAME))
            }
        }
        trait $no {
            fn $m(&self) -> Option<(OpKind, &'static str)> {
                None
            }
        }
        impl<K, T> $no for &Probe<K, T> {}
    )*};
}
kind_probe! {
    UnaryYes, UnaryNo, unary, UnaryOp, Unary;
    BinaryYes, BinaryNo, binary, BinaryOp, Binary;
    ReduceYes, ReduceNo, reduce, ReduceOp, Reduce;
    ScanYes, ScanNo, scan, ScanOp, Scan;
}

/// The trait kinds (with the trait's `NAME`) each op implements, over the eight element
/// types, next to its declaration and number of examples.
macro_rules! implemented {
    ($( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
        $(, $params:ident)?
        $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+) -> $out:ty $body:block)?;
    )*) => {{
        let mut all: Vec<(OpDecl, Vec<(OpKind, &'static str)>, usize)> = Vec::new();
        $( all.push(implemented!(@op $ty $(<$g>)?; bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, c64, c128)); )*
        all
    }};
    (@op $op:ty; $($t:ty),*) => {{
        let mut found = Vec::new();
        let mut decls = Vec::new();
        let mut examples = 0;
        $({
            #[allow(dead_code)]
            type E = $t;
            let p = Probe::<$op, $t>(PhantomData);
            found.extend((&p).unary());
            found.extend((&p).binary());
            found.extend((&p).reduce());
            found.extend((&p).scan());
            decls.push(<$op as Declared>::DECL);
            examples = examples.max(<$op as Declared>::examples().len());
        })*
        assert!(decls.iter().all(|d| *d == decls[0]), "{decls:?}");
        (decls[0], found, examples)
    }};
}

/// A declaration, the (kind, NAME) pairs its op implements, and its number of examples.
type Found = (OpDecl, Vec<(OpKind, &'static str)>, usize);

fn every_op() -> Vec<Found> {
    let mut v = crate::elementwise_ops!(implemented);
    v.extend(crate::reduction_ops!(implemented));
    v
}

#[test]
fn every_op_implements_the_trait_of_its_declared_kind_under_its_name() {
    let all = every_op();
    assert_eq!(all.len(), ELEMENTWISE.len() + REDUCTIONS.len());
    for (decl, found, examples) in &all {
        assert!(!found.is_empty(), "{decl:?} implements no op trait");
        for (kind, name) in found {
            assert_eq!(*kind, decl.kind, "{decl:?}");
            assert_eq!(*name, decl.name, "{decl:?}: the trait's NAME");
        }
        assert!(*examples >= 1, "{decl:?} has no examples");
    }
}

#[test]
fn tables_hold_the_declarations() {
    for (decl, _, _) in every_op() {
        assert_eq!(find(decl.name), Some(&decl));
    }
    assert!(
        ELEMENTWISE
            .iter()
            .all(|d| matches!(d.kind, OpKind::Unary | OpKind::Binary))
    );
    assert!(
        REDUCTIONS
            .iter()
            .all(|d| matches!(d.kind, OpKind::Reduce | OpKind::Scan))
    );
    assert_eq!(find("clip").map(|d| d.rust), Some("Clip<E>"));
    assert_eq!(find("true_divide").map(|d| d.rust), Some("Div"));
    assert_eq!(find("var").map(|d| d.rust), Some("DdofMean"));
    assert_eq!(find("cumsum").map(|d| d.kind), Some(OpKind::Scan));
    assert_eq!(find("sin").map(|d| d.tolerance), Some(Tolerance::Approx));
    assert_eq!(find("add").map(|d| d.tolerance), Some(Tolerance::Exact));
    assert_eq!(find("argmax"), None);
}

#[test]
fn names_are_unique_and_plain() {
    let mut names: Vec<&str> = ELEMENTWISE
        .iter()
        .chain(REDUCTIONS)
        .map(|d| d.name)
        .collect();
    names.extend(ARG_REDUCTIONS.iter().map(|a| a.1));
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "a name declared twice");
    // Names become parts of C identifiers (`op_<name>`) and module keys.
    for name in names {
        assert!(
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{name:?}"
        );
    }
}

#[test]
fn arg_reductions_name_every_kind() {
    assert_eq!(arg_reduction_name(ArgKind::Min), "argmin");
    for &(kind, name) in ARG_REDUCTIONS {
        assert_eq!(arg_reduction_name(kind), name);
    }
}

#[test]
fn ops_with_parameters_have_several_examples() {
    use crate::ops::{Clip, DdofMean, IsClose, RoundDecimals};
    assert!(Clip::<f32>::examples().len() >= 3);
    assert!(Clip::<i32>::examples().iter().any(|c| c.lo > c.hi));
    assert!(RoundDecimals::examples().iter().any(|r| r.decimals < 0));
    assert!(IsClose::examples().iter().any(|c| c.equal_nan));
    assert!(DdofMean::examples().iter().any(|d| d.ddof > 1.0));
    assert_eq!(crate::ops::Sin::examples().len(), 1);
}

#[test]
fn ops_declared_with_semantics_implement_their_trait_on_their_bound() {
    // The probe's autoref specialisation needs concrete types: a macro, not a generic fn.
    macro_rules! implements {
        ($m:ident, $op:ty, $t:ty) => {
            (&Probe::<$op, $t>(PhantomData)).$m().is_some()
        };
    }
    // `Signbit`: `Real -> bool`; `Deg2Rad`, `LogAddExp`: `Float -> T`.
    assert!(implements!(unary, Signbit, u8) && implements!(unary, Signbit, i64));
    assert!(implements!(unary, Signbit, f32));
    assert!(!implements!(unary, Signbit, bool) && !implements!(unary, Signbit, c64));
    assert!(implements!(unary, Deg2Rad, f64) && !implements!(unary, Deg2Rad, i32));
    assert!(!implements!(unary, Deg2Rad, c128));
    assert!(implements!(binary, LogAddExp, f32) && !implements!(binary, LogAddExp, i64));
    assert!(!implements!(unary, LogAddExp, f32));
    assert!(<Signbit as UnaryOp<i32>>::apply(&Signbit, -1));
    assert_eq!(<Rad2Deg as UnaryOp<f32>>::apply(&Rad2Deg, 0.0), 0.0);
}

#[test]
fn name_of_checks_the_kind() {
    let d = crate::ops::Add::DECL;
    assert_eq!(name_of(d, OpKind::Binary), "add");
    assert!(std::panic::catch_unwind(|| name_of(d, OpKind::Unary)).is_err());
}
