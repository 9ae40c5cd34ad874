//! The fusing decorator `Fused<B>` (`cuprite::fusion`): deferred element-wise chains give
//! the wrapped backend's bits, evaluate once, see views and broadcasts, keep the values of
//! arrays written after an expression read them, and report errors at the same calls. Each
//! body takes the wrapped device and compares `Fused<B>` with `B` itself, on the CPU and (on
//! a GPU host) on CUDA. (Every other suite test also runs on `Fused<Cpu>` and `Fused<Cuda>`:
//! `test_backends!`'s `fused_cpu` and `fused_cuda` modules.)

// NumPy's negative slice ends (`1..-1`) read as empty ranges to clippy.
#![allow(clippy::reversed_empty_ranges)]

use cuprite::fusion::{Fused, FusionBackend};
use cuprite::ops::{Add, Mul, Sub};
use cuprite::prelude::*;

/// `n` deterministic values in about [-2, 2], with a NaN, infinities and signed zeros.
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    let mut v: Vec<f64> = (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
        })
        .collect();
    for (i, x) in [f64::NAN, f64::INFINITY, -0.0, 0.0, f64::NEG_INFINITY]
        .into_iter()
        .enumerate()
    {
        if i * 7 < n {
            v[i * 7] = x;
        }
    }
    v
}

/// The chain `(x*y + x - y) * 0.5 + x*x` on any backend.
fn chain<B: ArrayBackend>(x: &Array<f64, B>, y: &Array<f64, B>) -> Result<Array<f64, B>> {
    let half = Array::scalar(0.5, x.device())?;
    x.try_mul(y)?
        .try_add(x)?
        .try_sub(y)?
        .try_mul(&half)?
        .try_add(&x.try_mul(x)?)
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Sizes below one block, across block and thread boundaries, and 0-d/empty shapes.
const SHAPES: &[&[usize]] = &[&[], &[0], &[1], &[4095], &[4097], &[3, 70_001], &[2, 3, 5]];

fn chains_give_the_wrapped_backends_bits_in_one_pass<B: FusionBackend>(dev: &B) {
    let (cpu, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    for shape in SHAPES {
        let n: usize = shape.iter().product();
        let (xv, yv) = (values(n, 1), values(n, 2));
        let want = chain(
            &Array::<f64, B>::from_vec(xv.clone(), shape, &cpu).unwrap(),
            &Array::<f64, B>::from_vec(yv.clone(), shape, &cpu).unwrap(),
        )
        .unwrap()
        .to_vec()
        .unwrap();
        let before = fused.stats();
        let x = Array::from_vec(xv, shape, &fused).unwrap();
        let y = Array::from_vec(yv, shape, &fused).unwrap();
        let z = chain(&x, &y).unwrap();
        assert_eq!(
            fused.stats(),
            before,
            "{shape:?}: nothing runs before the value is read"
        );
        assert_eq!(bits(&z.to_vec().unwrap()), bits(&want), "{shape:?}");
        let after = fused.stats();
        assert_eq!(after.evaluated - before.evaluated, 1, "{shape:?}: one pass");
        assert_eq!(
            after.fused_ops - before.fused_ops,
            6,
            "{shape:?}: six ops in it"
        );
        // Read again: no second evaluation.
        z.to_vec().unwrap();
        assert_eq!(fused.stats(), after);
    }
}

fn in_place_chains_on_whole_arrays_fuse<B: FusionBackend>(dev: &B) {
    let fused = Fused::new(dev.clone()).with_defer_min(0);
    let v = values(10_000, 3);
    let mut x = Array::<f64, _>::from_vec(v.clone(), &[100, 100], &fused).unwrap();
    let before = fused.stats();
    x.scalar_op_inplace(Mul, 5.0).unwrap();
    let x2 = x.clone();
    x.zip_op_inplace(Mul, &x2).unwrap();
    drop(x2);
    let x3 = x.clone();
    x.zip_op_inplace(Add, &x3).unwrap();
    drop(x3);
    let got = x.to_vec().unwrap();
    let want: Vec<f64> = v
        .iter()
        .map(|&a| {
            let b = a * 5.0;
            let c = b * b;
            c + c
        })
        .collect();
    assert_eq!(bits(&got), bits(&want));
    assert!(fused.stats().evaluated - before.evaluated <= 2);
}

/// A chain of in-place ops on a whole array that nothing else holds is one pass writing the
/// array's own memory (`x *= 5; x *= x; x += x`); read by another expression, shared with
/// a clone, written in part or with its operand written, it keeps NumPy's values.
fn in_place_updates_write_the_arrays_own_memory<D: FusionBackend>(dev: &D) {
    use cuprite::ops::Square;
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let v = values(3001, 13);
    let w = values(3001, 14);
    fn body<B: ArrayBackend>(v: &[f64], w: &[f64], dev: &B) -> Result<Vec<Array<f64, B>>> {
        let n = v.len();
        let mut x = Array::<f64, B>::from_vec(v.to_vec(), &[n], dev)?;
        let mut y = Array::<f64, B>::from_vec(w.to_vec(), &[n], dev)?;
        x.scalar_op_inplace(Mul, 5.0)?;
        x.map_op_inplace(Square)?;
        let read = x.scalar_op(Add, 1.0)?; // reads the update's value
        let twin = x.clone(); // shares the pending update
        x.scalar_op_inplace(Mul, 2.0)?;
        x.zip_op_inplace(Add, &y)?; // reads `y`, written next
        y.fill(-1.0)?;
        let mut z = Array::<f64, B>::from_vec(w.to_vec(), &[n], dev)?;
        z.scalar_op_inplace(Sub, 0.5)?;
        z.slice_mut(&s![..10])?.fill(7.0)?; // a part written: the update runs first
        let mut u = Array::<f64, B>::from_vec(v.to_vec(), &[n], dev)?;
        for _ in 0..80 {
            u.scalar_op_inplace(Add, 0.25)?; // past `MAX_OPS`: evaluated on the way
        }
        Ok(vec![x, read, twin, y, z, u])
    }
    let want = body(&v, &w, &plain).unwrap();
    let got = body(&v, &w, &fused).unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(bits(&g.to_vec().unwrap()), bits(&w.to_vec().unwrap()));
    }
    // The seed chain alone: one evaluation, written into the array itself.
    let mut x = Array::<f64, _>::from_vec(v.clone(), &[3001], &fused).unwrap();
    let before = fused.stats();
    x.scalar_op_inplace(Mul, 5.0).unwrap();
    x.map_op_inplace(Square).unwrap();
    x.scalar_op_inplace(Mul, 2.0).unwrap();
    fused.synchronize().unwrap();
    let done = fused.stats().since(&before);
    if D::WRITES_VIEWS {
        assert_eq!((done.evaluated, done.fused_ops, done.into_views), (1, 3, 1));
    }
    let want: Vec<f64> = v.iter().map(|&a| (a * 5.0) * (a * 5.0) * 2.0).collect();
    assert_eq!(bits(&x.to_vec().unwrap()), bits(&want));
}

/// Chains of in-place ops are evaluated over the updated array's own blocks: unary ops,
/// scalars (`** 0.5` and `** -1.5`, the CPU's sqrt forms), another array, a broadcast
/// column, the array itself (`x *= x`), on a whole array across blocks and threads, on views
/// with contiguous rows, on a column and on a reversed view (no runs), in f64 and f32: the
/// wrapped backend's bits, one evaluation per chain.
fn update_chains_rewrite_their_blocks_in_place<D: FusionBackend>(dev: &D) {
    use cuprite::ops::{Div, Maximum, Neg, Pow, Sqrt, Square};
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let (r, c) = (37usize, 1201usize);
    let v = values(r * c, 21);
    let w = values(r * c, 22);
    fn body<T: Float, B: ArrayBackend>(
        v: &[f64],
        w: &[f64],
        dims: [usize; 2],
        dev: &B,
    ) -> Result<Vec<Array<T, B>>> {
        let cast = |v: &[f64], shape: &[usize]| {
            Array::<f64, B>::from_vec(v.to_vec(), shape, dev)?.astype::<T>()
        };
        let t = |x: f64| T::from_f64(x);
        let y = cast(w, &dims)?;
        let col = cast(&w[..dims[0]], &[dims[0], 1])?;
        // A whole array, across blocks (and threads).
        let mut x = cast(v, &dims)?;
        x.map_op_inplace(Neg)?;
        x.scalar_op_inplace(Mul, t(5.0))?;
        x.zip_op_inplace(Add, &y)?;
        x.map_op_inplace(Square)?;
        x.scalar_op_inplace(Pow, t(0.5))?;
        x.zip_op_inplace(Mul, &col)?; // a scalar within each row
        x.scalar_op_inplace(Add, t(1.0))?;
        x.scalar_op_inplace(Pow, t(-1.5))?;
        x.zip_op_inplace(Maximum, &y)?;
        let x2 = x.clone(); // `x *= x`: the shared pending value goes to a new buffer
        x.zip_op_inplace(Div, &x2)?;
        drop(x2);
        // Views: contiguous rows, a column, a reversed view, each rewritten by a chain
        // whose right-hand sides are pending.
        let mut a = cast(v, &dims)?;
        let rhs = y.slice(&s![1..-1, 2..])?.scalar_op(Mul, t(0.5))?;
        a.slice_mut(&s![1..-1, ..-2])?.zip_op_inplace(Sub, &rhs)?;
        let colv = y.slice(&s![.., 3])?.sqrt()?;
        a.slice_mut(&s![.., 7])?.zip_op_inplace(Add, &colv)?;
        let back = y.slice(&s![2, ..])?.scalar_op(Add, t(2.0))?;
        a.slice_mut(&s![5, ..;-1])?.zip_op_inplace(Mul, &back)?;
        let mut u = cast(v, &dims)?;
        u.map_op_inplace(Sqrt)?;
        u.slice_mut(&s![.., 1..])?
            .zip_op_inplace(Add, &y.slice(&s![.., ..-1])?.square()?)?;
        Ok(vec![x, a, u])
    }
    fn check<T: Float, D: FusionBackend>(
        v: &[f64],
        w: &[f64],
        dims: [usize; 2],
        plain: &D,
        fused: &Fused<D>,
    ) {
        let want = body::<T, D>(v, w, dims, plain).unwrap();
        let before = fused.stats();
        let got = body::<T, Fused<D>>(v, w, dims, fused).unwrap();
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            let (g, w) = (g.astype::<f64>().unwrap(), w.astype::<f64>().unwrap());
            assert_eq!(
                bits(&g.to_vec().unwrap()),
                bits(&w.to_vec().unwrap()),
                "array {k}, {}",
                T::DTYPE
            );
        }
        if D::WRITES_VIEWS {
            assert!(
                fused.stats().since(&before).into_views >= 4,
                "the chains are written in place"
            );
        }
    }
    check::<f64, D>(&v, &w, [r, c], &plain, &fused);
    check::<f32, D>(&v, &w, [r, c], &plain, &fused);
    // Integers (wrapping at the ends of the range) and complex values.
    fn ints<B: ArrayBackend>(v: &[i64], dev: &B) -> Result<Vec<i64>> {
        let n = v.len();
        let y = Array::<i64, B>::from_vec(v.iter().rev().copied().collect(), &[n], dev)?;
        let mut x = Array::<i64, B>::from_vec(v.to_vec(), &[n], dev)?;
        x.scalar_op_inplace(Mul, 3)?;
        x.zip_op_inplace(Add, &y)?;
        x.scalar_op_inplace(Sub, 7)?;
        x.to_vec()
    }
    let iv: Vec<i64> = (0..9001i64)
        .map(|i| (i * 7919) % 20011 - 10005)
        .chain([i64::MAX, i64::MIN])
        .collect();
    assert_eq!(ints(&iv, &fused).unwrap(), ints(&iv, &plain).unwrap());
    fn complex<B: ArrayBackend>(v: &[f64], dev: &B) -> Result<Vec<c128>> {
        let n = v.len() / 2;
        let z: Vec<c128> = (0..n).map(|i| c128::new(v[2 * i], v[2 * i + 1])).collect();
        let mut x = Array::<c128, B>::from_vec(z.clone(), &[n], dev)?;
        let y = Array::<c128, B>::from_vec(z.into_iter().rev().collect(), &[n], dev)?;
        x.zip_op_inplace(Mul, &y)?;
        x.scalar_op_inplace(Add, c128::new(0.5, -1.0))?;
        x.to_vec()
    }
    let (zg, zw) = (complex(&v, &fused).unwrap(), complex(&v, &plain).unwrap());
    let zb = |z: &[c128]| -> Vec<(u64, u64)> {
        z.iter().map(|c| (c.re.to_bits(), c.im.to_bits())).collect()
    };
    assert_eq!(zb(&zg), zb(&zw));
}

fn views_and_broadcasts_are_read_inside_the_expression<D: FusionBackend>(dev: &D) {
    let (cpu, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let v = values(60 * 70, 4);
    fn body<B: ArrayBackend>(a: &Array<f64, B>) -> Result<Array<f64, B>> {
        // A stencil of strided slices, a reversed view, a transposed view and a broadcast row.
        let inner = a.slice(&s![1..-1, 1..-1])?;
        let left = a.slice(&s![1..-1, ..-2])?;
        let up = a.slice(&s![..-2;-1, 2..])?;
        let row = a.slice(&s![0..1, 1..-1])?;
        let t = a.slice(&s![1..-1, 1..-1])?.t().t();
        inner
            .try_add(&left)?
            .try_sub(&up)?
            .try_mul(&row)?
            .try_add(&t)?
            .abs()
    }
    let want = body(&Array::<f64, D>::from_vec(v.clone(), &[60, 70], &cpu).unwrap()).unwrap();
    let got = body(&Array::<f64, _>::from_vec(v, &[60, 70], &fused).unwrap()).unwrap();
    assert_eq!(got.shape(), want.shape());
    assert_eq!(bits(&got.to_vec().unwrap()), bits(&want.to_vec().unwrap()));
}

/// Strided views repeated by broadcasting (nbody's `x.T - x` of a column of an `(n, 3)`
/// array, reversed and 3-d kin): read from a compact copy of their distinct elements, with
/// the wrapped backend's bits, and the array they view written afterwards keeps the
/// expression's values.
fn broadcast_strided_views_are_compacted<D: FusionBackend>(dev: &D) {
    let (cpu, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let v = values(301 * 3, 9);
    fn body<B: ArrayBackend>(p: &mut Array<f64, B>) -> Result<Vec<Array<f64, B>>> {
        let x = p.slice(&s![.., 0..1])?;
        let dx = x.t().try_sub(&x)?; // (301, 301): rows of a stride-3 column
        let r = p.slice(&s![..;-1, 2..3])?.t().try_mul(&x)?; // negative stride, broadcast
        let q = p.reshape(&[7, 43, 3])?;
        let d3 = q
            .slice(&s![.., NEW_AXIS, .., 1])?
            .try_add(&q.slice(&s![.., .., 2..3])?)?;
        let e = dx.square()?.try_add(&r)?;
        p.fill(0.0)?; // written after: the pending values keep what they read
        Ok(vec![dx, e, d3])
    }
    let mut a = Array::<f64, D>::from_vec(v.clone(), &[301, 3], &cpu).unwrap();
    let mut b = Array::<f64, _>::from_vec(v, &[301, 3], &fused).unwrap();
    let (want, got) = (body(&mut a).unwrap(), body(&mut b).unwrap());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.shape(), w.shape());
        assert_eq!(bits(&g.to_vec().unwrap()), bits(&w.to_vec().unwrap()));
    }
}

/// Views whose rows (or runs of trailing axes) are contiguous: a 3-d interior slice, every
/// other plane, rows longer than a block, rows that cut blocks, rows
/// too short to read in place; read inside expressions, written with an expression that
/// does not read the target and with an update that does, and summed. The bits of the
/// wrapped backend.
fn contiguous_runs_of_views_are_read_and_written_in_place<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(a: &mut Array<f64, B>, q: &mut Array<f64, B>) -> Result<Vec<f64>> {
        let inner = a
            .slice(&s![1..-1, 1..-1, 1..-1])?
            .try_add(&a.slice(&s![2.., 1..-1, ..-2])?)?
            .try_mul(&a.slice(&s![..-2, 1..-1, 2..])?)?
            .try_sub(
                &a.slice(&s![1..-1, 1..-1, ..;-1])?
                    .slice(&s![.., .., 1..-1])?,
            )?;
        let planes = a
            .slice(&s![..;2, .., ..])?
            .try_add(&q.slice(&s![..;-2, .., ..])?)?;
        q.slice_mut(&s![1..-1, 1..-1, 1..-1])?.assign(&inner)?;
        a.slice_mut(&s![1..-1, .., 1..])?
            .zip_op_inplace(Sub, &q.slice(&s![..-2, .., ..-1])?.scalar_op(Mul, 0.25)?)?;
        let total = planes.try_mul(&planes)?.sum()?;
        let mut out = Vec::new();
        for v in [
            a.to_vec()?,
            q.to_vec()?,
            inner.to_vec()?,
            planes.to_vec()?,
            total.to_vec()?,
        ] {
            out.extend(v);
        }
        Ok(out)
    }
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    for shape in [[3, 4, 4100], [5, 7, 403], [40, 30, 66], [6, 50, 9]] {
        let n: usize = shape.iter().product();
        let (av, qv) = (values(n, 21), values(n, 22));
        let want = body(
            &mut Array::<f64, D>::from_vec(av.clone(), &shape, &plain).unwrap(),
            &mut Array::<f64, D>::from_vec(qv.clone(), &shape, &plain).unwrap(),
        )
        .unwrap();
        let mut a = Array::from_vec(av, &shape, &fused).unwrap();
        let mut q = Array::from_vec(qv, &shape, &fused).unwrap();
        let got = body(&mut a, &mut q).unwrap();
        assert_eq!(bits(&got), bits(&want), "{shape:?}");
    }
}

fn a_pending_result_read_through_a_view_or_written_in_part_is_evaluated_first<B: FusionBackend>(
    dev: &B,
) {
    let fused = Fused::new(dev.clone()).with_defer_min(0);
    let v = values(1000, 5);
    let x = Array::<f64, _>::from_vec(v.clone(), &[10, 100], &fused).unwrap();
    let mut y = x.scalar_op(Mul, 2.0).unwrap();
    // A slice of the pending `y` and a reshape of it.
    let col: Vec<f64> = y.slice(&s![.., 3]).unwrap().to_vec().unwrap();
    assert_eq!(
        col,
        (0..10).map(|i| v[i * 100 + 3] * 2.0).collect::<Vec<_>>()
    );
    let flat = y.reshape(&[1000]).unwrap().scalar_op(Add, 1.0).unwrap();
    assert_eq!(
        bits(&flat.to_vec().unwrap()),
        bits(&v.iter().map(|a| a * 2.0 + 1.0).collect::<Vec<_>>())
    );
    // A write into a part of the pending `y`.
    let mut part = y.slice_mut(&s![..5, ..]).unwrap();
    part.fill(7.0).unwrap();
    drop(part);
    let got = y.to_vec().unwrap();
    for (i, g) in got.iter().enumerate() {
        let want = if i < 500 { 7.0 } else { v[i] * 2.0 };
        assert_eq!(g.to_bits(), want.to_bits(), "{i}");
    }
}

fn an_expression_keeps_the_values_it_read_when_its_operand_is_written_later<B: FusionBackend>(
    dev: &B,
) {
    let fused = Fused::new(dev.clone()).with_defer_min(0);
    let mut x = Array::<f64, _>::from_vec(vec![1.0, 2.0, 3.0], &[3], &fused).unwrap();
    let y = x.scalar_op(Add, 10.0).unwrap(); // pending, reads x
    x.scalar_op_inplace(Mul, 100.0).unwrap(); // whole-array in-place write
    let mut part = x.slice_mut(&s![..1]).unwrap();
    part.fill(-1.0).unwrap(); // and a partial one
    drop(part);
    assert_eq!(y.to_vec().unwrap(), vec![11.0, 12.0, 13.0]);
    assert_eq!(x.to_vec().unwrap(), vec![-1.0, 200.0, 300.0]);
}

fn errors_come_from_the_same_calls_and_fusion_can_be_turned_off<B: FusionBackend>(dev: &B) {
    let on = Fused::new(dev.clone()).with_defer_min(0);
    let off = Fused::new(dev.clone()).with_defer_min(0).with_fusion(false);
    assert!(on.fusing() && !off.fusing());
    for dev in [&on, &off] {
        let a = Array::<f64, _>::zeros(&[3, 4], dev).unwrap();
        let b = Array::<f64, _>::zeros(&[5], dev).unwrap();
        assert!(matches!(a.try_add(&b), Err(Error::Broadcast { .. })));
    }
    let x = Array::<f64, _>::from_vec(values(100, 6), &[100], &off).unwrap();
    let y = Array::<f64, _>::from_vec(values(100, 7), &[100], &off).unwrap();
    let z = chain(&x, &y).unwrap();
    z.to_vec().unwrap();
    assert_eq!(off.stats().evaluated, 0, "off: every op ran at once");
    // A setting changed on a clone changes that clone alone.
    let (twin, bound) = (on.clone().with_fusion(false), on.clone().with_defer_min(7));
    assert!(on.fusing() && !twin.fusing() && bound.fusing());
    assert_eq!(
        (on.defer_min(), twin.defer_min(), bound.defer_min()),
        (0, 0, 7)
    );
}

fn long_chains_are_cut_and_synchronize_evaluates_what_is_pending<B: FusionBackend>(dev: &B) {
    let fused = Fused::new(dev.clone()).with_defer_min(0);
    let mut x = Array::<f64, _>::from_vec(vec![0.5; 1000], &[1000], &fused).unwrap();
    for _ in 0..200 {
        x = x.scalar_op(Add, 1.0).unwrap();
    }
    assert!(fused.stats().evaluated >= (200 / cuprite::fusion::MAX_OPS) as u64);
    let before = fused.stats().evaluated;
    fused.synchronize().unwrap();
    assert_eq!(fused.stats().evaluated, before + 1, "the pending tail");
    assert!(x.to_vec().unwrap().iter().all(|&v| v == 200.5));
    assert_eq!(fused.stats().evaluated, before + 1, "already evaluated");
}

/// Casts, `where`, comparisons and integer ops inside one expression.
fn casts_comparisons_and_where_fuse<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(x: &Array<f64, B>) -> Result<Array<f32, B>> {
        let mask = x.gt_scalar(0.0)?;
        let clipped = Array::where_(&mask, x, &x.scalar_op(Mul, -0.5)?)?;
        let i = clipped
            .scalar_op(Mul, 100.0)?
            .astype::<i64>()?
            .scalar_op(Add, 3)?;
        i.astype::<f32>()?.scalar_op(Mul, 0.25)
    }
    let (cpu, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let v: Vec<f64> = values(9000, 8)
        .into_iter()
        .map(|x| if x.is_finite() { x } else { 1.0 })
        .collect();
    let want = body(&Array::<f64, D>::from_vec(v.clone(), &[9000], &cpu).unwrap()).unwrap();
    let got = body(&Array::<f64, _>::from_vec(v, &[9000], &fused).unwrap()).unwrap();
    assert_eq!(got.to_vec().unwrap(), want.to_vec().unwrap());
}

/// A generic function is fused by the device it is given: the backend type is all that
/// changes.
fn generic_code_runs_unchanged_on_the_decorator<D: FusionBackend>(dev: &D) {
    fn norm<B: ArrayBackend>(x: &Array<f64, B>) -> Result<f64> {
        x.try_mul(x)?.sum()?.sqrt()?.item()
    }
    fn check<B: FusionBackend>(dev: B) {
        let fused = Fused::new(dev.clone()).with_defer_min(0);
        let v: Vec<f64> = (0..1000).map(|i| i as f64 * 0.001).collect();
        let a = norm(&Array::<f64, B>::from_vec(v.clone(), &[1000], &dev).unwrap()).unwrap();
        let b = norm(&Array::<f64, _>::from_vec(v, &[1000], &fused).unwrap()).unwrap();
        assert_eq!(a.to_bits(), b.to_bits());
    }
    check(dev.clone());
}

/// A full reduction of a pending expression runs in its evaluation (one pass, nothing in
/// memory) and gives the bits of the CPU's reduction of the evaluated array: the same
/// pairwise tree over the same leaves.
fn full_reductions_fuse_with_the_unfused_bits<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(x: &Array<f64, B>, y: &Array<f64, B>) -> Result<Vec<f64>> {
        let d = x.try_sub(y)?;
        let sq = d.try_mul(&d)?;
        Ok(vec![
            sq.sum()?.item()?,
            x.try_mul(y)?.mean()?.item()?,
            d.abs()?.max()?.item()?,
            sq.reshape(&[-1])?.sum()?.item()?,
        ])
    }
    let (cpu, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    for shape in [&[1usize][..], &[4096], &[4097], &[3, 100_003], &[7, 1, 9]] {
        let n: usize = shape.iter().product();
        let xv: Vec<f64> = values(n, 9)
            .into_iter()
            .map(|v| if v.is_finite() { v } else { 0.25 })
            .collect();
        let yv: Vec<f64> = values(n, 10)
            .into_iter()
            .map(|v| if v.is_finite() { v } else { -1.5 })
            .collect();
        let want = body(
            &Array::<f64, D>::from_vec(xv.clone(), shape, &cpu).unwrap(),
            &Array::<f64, D>::from_vec(yv.clone(), shape, &cpu).unwrap(),
        )
        .unwrap();
        let before = fused.stats();
        let got = body(
            &Array::<f64, _>::from_vec(xv, shape, &fused).unwrap(),
            &Array::<f64, _>::from_vec(yv, shape, &fused).unwrap(),
        )
        .unwrap();
        assert_eq!(bits(&got), bits(&want), "{shape:?}");
        // sq is shared by two sums: each reduction is one fused pass.
        let after = fused.stats();
        assert!(
            after.evaluated - before.evaluated <= 4,
            "{shape:?}: {after:?}"
        );
    }
}

/// Pending values written into parts of arrays (gramschmidt's `q[:, k] = a[:, k] / r` and
/// `a[:, j] -= q[:, k] * r`, a stencil's interior, negative steps, one element) give the
/// wrapped backend's bits; a backend that writes expressions into views
/// ([`FusionBackend::WRITES_VIEWS`]) makes each of those writes its one evaluation. A value
/// that reads the array it is written into (`a[i, i] = sqrt(a[i, i])`, `a[1:] = a[:-1] * 2`),
/// or an array that another one shares, is evaluated first, as unfused.
fn pending_values_are_written_into_views<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(a: &mut Array<f64, B>, q: &mut Array<f64, B>) -> Result<Vec<f64>> {
        let r = a.slice(&s![0, 0])?.abs()?.scalar_op(Add, 1.0)?.copy()?;
        q.slice_mut(&s![.., 1])?
            .assign(&a.slice(&s![.., 2])?.try_div(&r)?)?;
        a.slice_mut(&s![.., 3])?
            .zip_op_inplace(Sub, &q.slice(&s![.., 1])?.try_mul(&r)?)?;
        let inner = a
            .slice(&s![1..-1, 1..-1])?
            .try_add(&a.slice(&s![..-2, 1..-1])?)?
            .scalar_op(Mul, 0.5)?;
        q.slice_mut(&s![1..-1, 1..-1])?.assign(&inner)?;
        drop(inner);
        let rev = a.slice(&s![..;-1, 0])?.scalar_op(Mul, 3.0)?;
        let every_other = rev.slice(&s![..;2])?.copy()?;
        q.slice_mut(&s![..;-2, 4])?
            .zip_op_inplace(Add, &every_other.scalar_op(Add, 0.5)?)?;
        q.slice_mut(&s![5, 5])?
            .assign(&a.slice(&s![5, 6])?.scalar_op(Mul, -1.0)?)?;
        // These read the array they are written into.
        let e = a.slice(&s![2, 2])?.abs()?.sqrt()?;
        a.slice_mut(&s![2, 2])?.assign(&e)?;
        let shifted = a.slice(&s![..-1, ..])?.scalar_op(Mul, 2.0)?;
        a.slice_mut(&s![1.., ..])?.assign(&shifted)?;
        let mut out = Vec::new();
        for v in [a.to_vec()?, q.to_vec()?, e.to_vec()?, shifted.to_vec()?] {
            out.extend(v);
        }
        Ok(out)
    }
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    // The last shape's stencil is past the CPU's parallel threshold (its blocks in parallel).
    for (m, n) in [(9, 8), (300, 7), (4099, 9), (411, 401)] {
        let (av, qv) = (values(m * n, 11), values(m * n, 12));
        let want = body(
            &mut Array::<f64, D>::from_vec(av.clone(), &[m, n], &plain).unwrap(),
            &mut Array::<f64, D>::from_vec(qv.clone(), &[m, n], &plain).unwrap(),
        )
        .unwrap();
        let mut a = Array::from_vec(av, &[m, n], &fused).unwrap();
        let mut q = Array::from_vec(qv, &[m, n], &fused).unwrap();
        let before = fused.stats();
        let got = body(&mut a, &mut q).unwrap();
        assert_eq!(bits(&got), bits(&want), "{m}x{n}");
        // Five writes of pending values into views that nothing else reads.
        let into = fused.stats().into_views - before.into_views;
        assert_eq!(into, if D::WRITES_VIEWS { 5 } else { 0 }, "{m}x{n}");
    }
    // A shared array keeps its values; the writer's view takes the new ones.
    let mut a = Array::<f64, _>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4], &fused).unwrap();
    let keep = a.clone();
    let x = Array::<f64, _>::from_vec(vec![10.0, 20.0], &[2], &fused).unwrap();
    a.slice_mut(&s![1..3])
        .unwrap()
        .assign(x.scalar_op(Mul, 2.0).unwrap())
        .unwrap();
    a.slice_mut(&s![..2])
        .unwrap()
        .zip_op_inplace(Add, x.scalar_op(Add, 1.0).unwrap())
        .unwrap();
    assert_eq!(a.to_vec().unwrap(), vec![12.0, 41.0, 40.0, 4.0]);
    assert_eq!(keep.to_vec().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
    // A pending value that reads the destination keeps its own value after the write.
    let mut a = Array::<f64, _>::from_vec(vec![4.0, 9.0, 16.0], &[3], &fused).unwrap();
    let r = a.slice(&s![1]).unwrap().sqrt().unwrap();
    a.slice_mut(&s![1]).unwrap().assign(&r).unwrap();
    a.slice_mut(&s![2])
        .unwrap()
        .zip_op_inplace(Add, &r)
        .unwrap();
    assert_eq!(r.item().unwrap(), 3.0);
    assert_eq!(a.to_vec().unwrap(), vec![4.0, 3.0, 19.0]);
}

/// Full reductions of other element types fuse with the unfused bits: an f32 sum of
/// squares (16-byte words of four), the mean of an f32 expression read as f64, an i32
/// maximum, `any` of a comparison, over sizes on both sides of the kernels' chunking.
fn full_reductions_of_every_kind_fuse_with_the_unfused_bits<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(x: &Array<f32, B>, y: &Array<f32, B>) -> Result<Vec<f64>> {
        let d = x.try_sub(y)?;
        let xi = x.scalar_op(Mul, 100.0)?.astype::<i32>()?;
        Ok(vec![
            d.try_mul(&d)?.sum()?.item()? as f64,
            x.try_add(y)?.astype::<f64>()?.mean()?.item()?,
            xi.scalar_op(Add, 3)?.max()?.item()? as f64,
            x.gt(y)?.any()?.item()? as u8 as f64,
            d.scalar_op(Mul, 0.0)?
                .gt(&d.scalar_op(Mul, 0.0)?)?
                .any()?
                .item()? as u8 as f64,
        ])
    }
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    for n in [17, 1000, 16_385, 1 << 20, (1 << 20) + 3] {
        let xv: Vec<f32> = values(n, 21)
            .iter()
            .map(|&v| if v.is_finite() { v as f32 } else { 0.5 })
            .collect();
        let yv: Vec<f32> = values(n, 22)
            .iter()
            .map(|&v| if v.is_finite() { v as f32 } else { -0.5 })
            .collect();
        let want = body(
            &Array::<f32, D>::from_vec(xv.clone(), &[n], &plain).unwrap(),
            &Array::<f32, D>::from_vec(yv.clone(), &[n], &plain).unwrap(),
        )
        .unwrap();
        let got = body(
            &Array::<f32, _>::from_vec(xv, &[n], &fused).unwrap(),
            &Array::<f32, _>::from_vec(yv, &[n], &fused).unwrap(),
        )
        .unwrap();
        assert_eq!(bits(&got), bits(&want), "{n}");
    }
}

/// Reductions over some of the axes of a pending expression (softmax's
/// `sum(exp(x - m), axis=-1)` with `m` broadcast along rows, a normalisation's
/// `var(axis=0)`, sums over the leading or trailing axes of a 3-d array, f32 rows whose
/// starts are not 16-byte aligned) give the wrapped backend's bits, over sizes on both sides
/// of the kernels' chunking; a backend that fuses them
/// ([`FusionBackend::FUSES_AXIS_REDUCTIONS`]) runs each in one pass.
fn axis_reductions_fuse_with_the_unfused_bits<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(x: &Array<f64, B>, y: &Array<f64, B>) -> Result<Vec<f64>> {
        let last = x.ndim() - 1;
        let m = x.max_axes(last, true)?;
        let e = x.try_sub(&m)?.exp()?;
        let s = e.sum_axes(last, true)?;
        let xy = x.try_mul(y)?;
        let d = x.try_sub(y)?;
        let x32 = x.astype::<f32>()?;
        let sq32 = x32.try_mul(&x32)?;
        let mut v = Vec::new();
        for a in [
            e.try_div(&s)?,
            s,
            xy.mean_axes(0, false)?,
            d.var_axes(0, 1.0, true)?,
            d.abs()?.max_axes(0, false)?,
            xy.sum_axes((0..last).collect::<Vec<_>>(), false)?,
            xy.min_axes((1..=last).collect::<Vec<_>>(), true)?,
            xy.sum_axes(vec![0, last], false)?,
        ] {
            v.extend(a.to_vec()?);
        }
        for a in [sq32.sum_axes(last, false)?, sq32.max_axes(0, false)?] {
            v.extend(a.to_vec()?.into_iter().map(f64::from));
        }
        Ok(v)
    }
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let shapes: &[&[usize]] = &[
        &[5, 1027],
        &[300, 33],
        &[3, 100_003],
        &[100_003, 3],
        &[1, 4099],
        &[2, 3, 1001],
        &[64, 17, 9],
    ];
    for shape in shapes {
        let n: usize = shape.iter().product();
        let (xv, yv) = (values(n, 31), values(n, 32));
        let want = body(
            &Array::<f64, D>::from_vec(xv.clone(), shape, &plain).unwrap(),
            &Array::<f64, D>::from_vec(yv.clone(), shape, &plain).unwrap(),
        )
        .unwrap();
        let (x, y) = (
            Array::<f64, _>::from_vec(xv, shape, &fused).unwrap(),
            Array::<f64, _>::from_vec(yv, shape, &fused).unwrap(),
        );
        let got = body(&x, &y).unwrap();
        assert_eq!(bits(&got), bits(&want), "{shape:?}");
        // One pass: the product and the sum of its rows are one evaluation of two ops
        // (rows of 16 elements or fewer run the plain one-thread kernel).
        if shape[shape.len() - 1] <= 16 {
            continue;
        }
        let before = fused.stats();
        x.try_mul(&y)
            .unwrap()
            .sum_axes(shape.len() - 1, false)
            .unwrap()
            .to_vec()
            .unwrap();
        let ops = fused.stats().since(&before).fused_ops;
        let every_axis = shape[..shape.len() - 1].iter().all(|&d| d == 1);
        let fuses = D::FUSES_AXIS_REDUCTIONS || every_axis;
        assert_eq!(ops, if fuses { 2 } else { 1 }, "{shape:?}");
    }
}

/// The profiler reports what fusion did per timed call: one pass of six ops for the chain.
fn the_profiler_reports_passes_per_call<D: FusionBackend>(dev: &D) {
    use cuprite::profiler::{benchmark, BenchmarkOptions};
    let fused = Fused::new(dev.clone()).with_defer_min(0);
    let x = Array::<f64, _>::from_vec(values(1000, 31), &[1000], &fused).unwrap();
    let y = Array::<f64, _>::from_vec(values(1000, 32), &[1000], &fused).unwrap();
    let opts = BenchmarkOptions {
        n_warmup: 1,
        n_repeat: 4,
        max_duration: None,
    };
    let res = benchmark("chain", &[&fused], || chain(&x, &y), opts).unwrap();
    assert_eq!(res.fusion.len(), 1);
    let (label, s) = &res.fusion[0];
    assert_eq!(label, &fused.timer_label());
    assert_eq!((s.evaluated, s.fused_ops), (4, 24), "{s:?}");
    assert!(res.to_string().contains("1.0 passes (6.0 ops"), "{res}");
    // A device that does not fuse reports nothing.
    let plain = benchmark("chain", &[dev], || Ok(()), opts).unwrap();
    assert!(plain.fusion.is_empty());
}

/// With the backend's default bound, primitives over fewer than `DEFER_MIN` elements run
/// at once (the CPU's small arrays), larger ones are deferred; the bits are the same.
fn small_arrays_run_at_once_below_the_backends_bound<D: FusionBackend>(dev: &D) {
    let fused = Fused::new(dev.clone());
    assert_eq!(fused.defer_min(), D::DEFER_MIN);
    for n in [
        3,
        D::DEFER_MIN.saturating_sub(1),
        D::DEFER_MIN,
        D::DEFER_MIN + 5,
    ] {
        let (xv, yv) = (values(n, 41), values(n, 42));
        let want = chain(
            &Array::<f64, D>::from_vec(xv.clone(), &[n], dev).unwrap(),
            &Array::<f64, D>::from_vec(yv.clone(), &[n], dev).unwrap(),
        )
        .unwrap();
        let before = fused.stats();
        let x = Array::from_vec(xv, &[n], &fused).unwrap();
        let y = Array::from_vec(yv, &[n], &fused).unwrap();
        let z = chain(&x, &y).unwrap();
        assert_eq!(
            bits(&z.to_vec().unwrap()),
            bits(&want.to_vec().unwrap()),
            "{n}"
        );
        // Deferred: one pass when read; at once: none.
        let passes = fused.stats().since(&before).evaluated;
        assert_eq!(passes, (n >= D::DEFER_MIN) as u64, "{n}");
    }
}

/// A pending value read through a reshape keeps its own shape inside a larger expression:
/// with strided views of another shape beside it, and written into a view of another shape.
fn reshaped_pending_values_meet_views_of_other_shapes<D: FusionBackend>(dev: &D) {
    fn body<B: ArrayBackend>(a: &Array<f64, B>, b: &mut Array<f64, B>) -> Result<Vec<f64>> {
        // [12] strided, pending, read as [2, 3] (stride pattern not mergeable) and [3, 2].
        let x = a.slice(&s![..;2])?.scalar_op(Mul, 2.0)?;
        let y = x.reshape(&[2, 3])?.try_add(&b.slice(&s![.., ..;2])?)?;
        let z = x
            .reshape(&[3, 2])?
            .try_mul(&b.slice(&s![..;-1, 1..4])?.reshape(&[3, 2])?)?;
        b.slice_mut(&s![.., 1..4])?
            .assign(&a.slice(&s![1..;2])?.scalar_op(Add, 1.0)?.reshape(&[2, 3])?)?;
        let mut out = y.to_vec()?;
        out.extend(z.to_vec()?);
        out.extend(b.to_vec()?);
        Ok(out)
    }
    let (plain, fused) = (dev.clone(), Fused::new(dev.clone()).with_defer_min(0));
    let (av, bv) = (values(12, 51), values(12, 52));
    let want = body(
        &Array::<f64, D>::from_vec(av.clone(), &[12], &plain).unwrap(),
        &mut Array::<f64, D>::from_vec(bv.clone(), &[2, 6], &plain).unwrap(),
    )
    .unwrap();
    let got = body(
        &Array::from_vec(av, &[12], &fused).unwrap(),
        &mut Array::from_vec(bv, &[2, 6], &fused).unwrap(),
    )
    .unwrap();
    assert_eq!(bits(&got), bits(&want));
}

/// Expands the bodies above for the CPU and (ignored where no GPU is) for CUDA.
macro_rules! on_wrapped_backends {
    ($($name:ident),* $(,)?) => {
        mod cpu {
            $(
                #[test]
                fn $name() {
                    super::$name(&cuprite::Cpu::new());
                }
            )*
        }
        #[cfg(feature = "cuda")]
        mod cuda {
            $(
                #[test]
                #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
                fn $name() {
                    super::$name(&cuprite::Cuda::new(0).expect("CUDA device 0"));
                }
            )*
        }
    };
}

on_wrapped_backends!(
    chains_give_the_wrapped_backends_bits_in_one_pass,
    in_place_chains_on_whole_arrays_fuse,
    views_and_broadcasts_are_read_inside_the_expression,
    in_place_updates_write_the_arrays_own_memory,
    update_chains_rewrite_their_blocks_in_place,
    broadcast_strided_views_are_compacted,
    contiguous_runs_of_views_are_read_and_written_in_place,
    a_pending_result_read_through_a_view_or_written_in_part_is_evaluated_first,
    axis_reductions_fuse_with_the_unfused_bits,
    an_expression_keeps_the_values_it_read_when_its_operand_is_written_later,
    errors_come_from_the_same_calls_and_fusion_can_be_turned_off,
    long_chains_are_cut_and_synchronize_evaluates_what_is_pending,
    casts_comparisons_and_where_fuse,
    generic_code_runs_unchanged_on_the_decorator,
    full_reductions_fuse_with_the_unfused_bits,
    pending_values_are_written_into_views,
    full_reductions_of_every_kind_fuse_with_the_unfused_bits,
    the_profiler_reports_passes_per_call,
    small_arrays_run_at_once_below_the_backends_bound,
    reshaped_pending_values_meet_views_of_other_shapes,
);
