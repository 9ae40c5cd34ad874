//! NumPy's shape helpers on every backend and dtype family: fliplr, flipud, rot90 (every k,
//! both plane orders), matrix_transpose, column_stack, append, hsplit/vsplit/dsplit and
//! unstack, against NumPy fixtures (`scripts/fixtures/rearrange.py`), on contiguous and
//! reversed views, with their error paths.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::assert_array_equal;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "rearrange", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

fn fixtures_for<T: Element, B: ArrayBackend>(dev: &B) {
    let a = fx::<T, B>(dev, "a");
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    eq(a.fliplr(), "fliplr");
    eq(a.flipud(), "flipud");
    for k in [1isize, 2, 3, -1, 5] {
        eq(a.rot90(k, [0, 1]), &format!("rot90_{k}"));
        eq(a.rot90(k, [1, 2]), &format!("rot90_{k}_12"));
        eq(a.rot90(k, [-2, -1]), &format!("rot90_{k}_12"));
    }
    eq(a.rot90(1, [2, 0]), "rot90_1_20");
    assert_array_equal(&a.rot90(4, [0, 2]).unwrap(), &a);
    eq(a.matrix_transpose(), "mT");
    let v = fx::<T, B>(dev, "v");
    let m = a.slice(&s![0]).unwrap();
    let v_rev = v.slice(&s![..;-1]).unwrap();
    eq(Array::column_stack(&[&v, &m, &v_rev]), "colstack");
    eq(a.append(&m, None), "append_none");
    eq(
        a.append(&a.slice(&s![.., ..1]).unwrap(), Some(1)),
        "append_1",
    );
    let check = |parts: Vec<Array<T, B>>, stem: &str, n: usize| {
        assert_eq!(parts.len(), n, "{stem}");
        for (i, p) in parts.iter().enumerate() {
            assert_array_equal(p, &fx::<T, B>(dev, &format!("{stem}_{i}")));
        }
    };
    check(a.hsplit(vec![1, 2]).unwrap(), "hsplit", 3);
    check(a.vsplit(2).unwrap(), "vsplit", 2);
    check(a.dsplit(vec![3]).unwrap(), "dsplit", 2);
    check(a.unstack(2).unwrap(), "unstack2", 4);
    check(a.unstack(-1).unwrap(), "unstack2", 4);
}

fn fixtures_every_dtype<B: ArrayBackend>(dev: &B) {
    fixtures_for::<f64, B>(dev);
    fixtures_for::<f32, B>(dev);
    fixtures_for::<f16, B>(dev);
    fixtures_for::<i64, B>(dev);
    fixtures_for::<i8, B>(dev);
    fixtures_for::<u16, B>(dev);
    fixtures_for::<bool, B>(dev);
    fixtures_for::<c128, B>(dev);
}

fn errors_and_edges<B: ArrayBackend>(dev: &B) {
    let v = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev).unwrap();
    let s = Array::<i32, B>::from_vec(vec![4], &[], dev).unwrap();
    assert!(err_msg(v.fliplr()).starts_with("fliplr: the input must have at least 2"));
    assert!(err_msg(s.flipud()).starts_with("flipud: "));
    assert!(err_msg(v.rot90(1, [0, 1])).starts_with("rot90: "));
    let m = Array::<i32, B>::zeros(&[2, 3], dev).unwrap();
    assert!(err_msg(m.rot90(1, [1, 1])).starts_with("rot90: the axes must differ"));
    assert!(err_msg(m.rot90(1, [0, 2])).contains("rot90"));
    assert!(err_msg(v.matrix_transpose()).starts_with("matrix_transpose: "));
    assert!(err_msg(v.vsplit(3)).starts_with("vsplit: "));
    assert!(err_msg(m.dsplit(1)).starts_with("dsplit: "));
    assert!(err_msg(s.hsplit(1)).starts_with("hsplit: "));
    assert!(err_msg(s.unstack(0)).starts_with("unstack: "));
    assert!(err_msg(Array::<i32, B>::column_stack(&[])).starts_with("column_stack: "));
    // 1-d hsplit splits axis 0; a 0-d column_stack operand is one cell.
    assert_eq!(v.hsplit(3).unwrap().len(), 3);
    let one = Array::<i32, B>::from_vec(vec![9], &[1], dev).unwrap();
    let cs = Array::column_stack(&[&one, &s]).unwrap();
    assert_eq!(
        (cs.shape(), cs.to_vec().unwrap()),
        (&[1usize, 2][..], vec![9, 4])
    );
    // Rows of different lengths do not stack; an empty axis unstacks to nothing.
    assert!(Array::column_stack(&[&v, &one]).is_err());
    let e = Array::<i32, B>::zeros(&[0, 2], dev).unwrap();
    assert!(e.unstack(0).unwrap().is_empty());
    // A rotation by a quarter turn is a view: a 2x3 becomes 3x2 with the same elements.
    let r = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[2, 3], dev).unwrap();
    let q = r.rot90(1, [0, 1]).unwrap();
    assert_eq!(
        (q.shape(), q.to_vec().unwrap()),
        (&[3usize, 2][..], vec![3, 6, 2, 5, 1, 4])
    );
}

cuprite::test_backends!(fixtures_every_dtype, errors_and_edges);
