//! Numerical gradients and phase unwrapping on every backend: `gradient`/`gradient_axes`
//! (uniform steps, coordinates, one axis, several and all axes, `edge_order` 1 and 2, the
//! shortest axes, integer, complex, f32 and f16 inputs, transposed, reversed and strided
//! views, NaN and infinities) and `unwrap` (discont, axis, period, half-period steps), against
//! NumPy fixtures (`scripts/fixtures/gradient.py`), with their error paths.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::assert_allclose;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "gradient", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// Every float fixture for one float type, compared at `tol`.
fn gradients_for<T: Float, B: ArrayBackend>(dev: &B, tol: f64) {
    let f = fx::<T, B>(dev, "f");
    let close = |got: &Array<T, B>, name: &str| {
        assert_allclose(got, &fx::<T, B>(dev, name), tol, tol);
    };
    let one = |r: Result<Array<T, B>>, name: &str| close(&r.unwrap(), name);
    for eo in [1usize, 2] {
        one(
            f.gradient(1, Spacing::Uniform(1.0), eo),
            &format!("g_ax1_e{eo}"),
        );
        one(
            f.gradient(-2, Spacing::Uniform(0.5), eo),
            &format!("g_ax0_dx_e{eo}"),
        );
        let g = f.gradient_axes(Axes::All, &[], eo).unwrap();
        assert_eq!(g.len(), 2);
        close(&g[0], &format!("g_all0_e{eo}"));
        close(&g[1], &format!("g_all1_e{eo}"));
        let g = f
            .gradient_axes([0, 1], &[Spacing::Uniform(0.25), Spacing::Uniform(2.0)], eo)
            .unwrap();
        close(&g[0], &format!("g_two_dx0_e{eo}"));
        close(&g[1], &format!("g_two_dx1_e{eo}"));
        // The axes in another order give the gradients in that order.
        let g = f
            .gradient_axes([1, 0], &[Spacing::Uniform(2.0), Spacing::Uniform(0.25)], eo)
            .unwrap();
        close(&g[1], &format!("g_two_dx0_e{eo}"));
        close(&g[0], &format!("g_two_dx1_e{eo}"));
        let x1 = fx::<T, B>(dev, "x1");
        one(
            f.gradient(1, Spacing::Coords(&x1), eo),
            &format!("g_x1_e{eo}"),
        );
        let x0 = fx::<T, B>(dev, "x0");
        let g = f
            .gradient_axes(
                Axes::All,
                &[Spacing::Coords(&x0), Spacing::Uniform(3.0)],
                eo,
            )
            .unwrap();
        close(&g[0], &format!("g_mix0_e{eo}"));
        close(&g[1], &format!("g_mix1_e{eo}"));
    }
    one(f.t().gradient(0, Spacing::Uniform(1.0), 2), "g_T_e2");
    let rev = f.slice(&s![..;-1, ..;-2]).unwrap();
    one(rev.gradient(1, Spacing::Uniform(1.0), 1), "g_rev_e1");
    let two = f.slice(&s![.., ..2]).unwrap();
    one(two.gradient(1, Spacing::Uniform(1.0), 1), "g_n2_e1");
    let three = f.slice(&s![.., ..3]).unwrap();
    one(three.gradient(1, Spacing::Uniform(1.0), 2), "g_n3_e2");
    let fs = fx::<T, B>(dev, "fs");
    one(fs.gradient(0, Spacing::Uniform(1.0), 1), "g_special");
}

fn gradients_every_dtype<B: ArrayBackend>(dev: &B) {
    gradients_for::<f64, B>(dev, 1e-12);
    // f32 and f16: the fixtures computed in the type itself, compared at its precision.
    let f32s = fx::<f32, B>(dev, "f");
    assert_allclose(
        &f32s.gradient(1, Spacing::Uniform(1.0), 2).unwrap(),
        &fx::<f32, B>(dev, "g_f32_e2"),
        1e-5,
        1e-5,
    );
    gradients_for::<f32, B>(dev, 1e-4);
    let f16s = fx::<f16, B>(dev, "f");
    assert_allclose(
        &f16s.gradient(0, Spacing::Uniform(1.0), 1).unwrap(),
        &fx::<f16, B>(dev, "g_f16_e1"),
        2e-3,
        2e-3,
    );
    // Integers give f64.
    let fi = fx::<i32, B>(dev, "fi");
    let g: Array<f64, B> = fi.gradient(1, Spacing::Uniform(1.0), 1).unwrap();
    assert_allclose(&g, &fx::<f64, B>(dev, "g_int_e1"), 1e-12, 1e-12);
    let xi = fx::<f64, B>(dev, "xi");
    let g = fx::<i64, B>(dev, "fi")
        .gradient(1, Spacing::Coords(&xi), 2)
        .unwrap();
    assert_allclose(&g, &fx::<f64, B>(dev, "g_int_x_e2"), 1e-12, 1e-12);
    let gu = fx::<u8, B>(dev, "xi")
        .gradient(0, Spacing::Uniform(1.0), 1)
        .unwrap();
    assert_eq!(gu.to_vec().unwrap(), vec![1.0, 1.5, 1.5, 2.0, 3.0]);
    // Complex.
    let fc = fx::<c128, B>(dev, "fc");
    assert_allclose(
        &fc.gradient(1, Spacing::Uniform(0.5), 2).unwrap(),
        &fx::<c128, B>(dev, "g_c_e2"),
        1e-12,
        1e-12,
    );
    // An empty other axis: an empty gradient of the same shape.
    let e = Array::<f64, B>::zeros(&[0, 5], dev).unwrap();
    assert_eq!(
        e.gradient(1, Spacing::Uniform(1.0), 2).unwrap().shape(),
        &[0, 5]
    );
}

fn gradient_errors<B: ArrayBackend>(dev: &B) {
    let f = fx::<f64, B>(dev, "f");
    let s = Array::<f64, B>::scalar(1.0, dev).unwrap();
    assert!(err_msg(s.gradient(0, Spacing::Uniform(1.0), 1)).starts_with("gradient: "));
    assert!(err_msg(f.gradient(2, Spacing::Uniform(1.0), 1)).contains("gradient"));
    let m = err_msg(f.gradient(1, Spacing::Uniform(1.0), 3));
    assert!(
        m.starts_with("gradient: ") && m.contains("edge_order"),
        "{m}"
    );
    let m = err_msg(f.gradient(1, Spacing::Uniform(1.0), 0));
    assert!(m.contains("edge_order must be 1 or 2, got 0"), "{m}");
    // Too few points along the axis: NumPy's "at least (edge_order + 1)".
    let two = f.slice(&s![.., ..2]).unwrap();
    let m = err_msg(two.gradient(1, Spacing::Uniform(1.0), 2));
    assert!(
        m.starts_with("gradient: ") && m.contains("= 3 elements"),
        "{m}"
    );
    let e = Array::<f64, B>::zeros(&[0, 5], dev).unwrap();
    assert!(err_msg(e.gradient(0, Spacing::Uniform(1.0), 1)).contains("[0, 5]"));
    // Coordinates of the wrong length or rank.
    let x0 = fx::<f64, B>(dev, "x0");
    let m = err_msg(f.gradient(1, Spacing::Coords(&x0), 1));
    assert!(
        m.starts_with("gradient: ") && m.contains("[4]") && m.contains("6"),
        "{m}"
    );
    let m = err_msg(f.gradient(1, Spacing::Coords(&f), 1));
    assert!(m.contains("[4, 6]"), "{m}");
    // Spacing lists of the wrong length, repeated axes.
    let h = Spacing::Uniform(1.0);
    let m = err_msg(f.gradient_axes(Axes::All, &[h, h, h], 1));
    assert!(
        m.starts_with("gradient: ") && m.contains("3 for 2 axes"),
        "{m}"
    );
    let m = err_msg(f.gradient_axes(Axes::All, &[Spacing::Coords(&x0)], 1));
    assert!(m.contains("1 for 2 axes"), "{m}");
    let m = err_msg(f.gradient_axes([1, -1], &[], 1));
    assert!(m.starts_with("gradient: repeated axis"), "{m}");
}

fn unwraps_for<T: Float, B: ArrayBackend>(dev: &B, tol: f64) {
    let p = fx::<T, B>(dev, "p");
    let close = |r: Result<Array<T, B>>, name: &str| {
        assert_allclose(&r.unwrap(), &fx::<T, B>(dev, name), tol, tol);
    };
    let tau = std::f64::consts::TAU;
    close(p.unwrap(None, -1, tau), "unwrap");
    close(p.unwrap(None, 0, tau), "unwrap_ax0");
    close(p.unwrap(Some(4.0), 1, tau), "unwrap_disc4");
    // A discont below half a period acts as half a period.
    close(p.unwrap(Some(1.0), 1, tau), "unwrap_disc1");
    close(p.t().unwrap(None, 0, tau), "unwrap_T");
    close(
        p.slice(&s![.., ..;-1]).unwrap().unwrap(None, -1, tau),
        "unwrap_rev",
    );
    close(fx::<T, B>(dev, "saw").unwrap(None, 0, 6.0), "unwrap_p6");
    close(fx::<T, B>(dev, "half").unwrap(None, 0, 6.0), "unwrap_half");
    close(fx::<T, B>(dev, "ps").unwrap(None, 0, tau), "unwrap_special");
}

fn unwraps_every_dtype<B: ArrayBackend>(dev: &B) {
    unwraps_for::<f64, B>(dev, 1e-12);
    let p = fx::<f32, B>(dev, "p");
    assert_allclose(
        &p.unwrap(None, -1, std::f64::consts::TAU).unwrap(),
        &fx::<f32, B>(dev, "unwrap_f32"),
        1e-5,
        1e-5,
    );
    unwraps_for::<f32, B>(dev, 1e-4);
    // Empty and one-element axes come back unchanged.
    let e = Array::<f64, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(e.unwrap(None, 1, 6.0).unwrap().shape(), &[2, 0]);
    let one = Array::<f64, B>::from_vec(vec![7.0], &[1], dev).unwrap();
    assert_eq!(
        one.unwrap(None, 0, 6.0).unwrap().to_vec().unwrap(),
        vec![7.0]
    );
    let s = Array::<f64, B>::scalar(1.0, dev).unwrap();
    assert!(err_msg(s.unwrap(None, 0, 6.0)).starts_with("unwrap: "));
    assert!(err_msg(one.unwrap(None, 1, 6.0)).contains("unwrap"));
}

cuprite::test_backends!(gradients_every_dtype, gradient_errors, unwraps_every_dtype);
