//! Graph capture and replay, and the block cache, on a GPU: replays give the bits of the
//! same work run eagerly, inputs written between replays are read, outputs are written
//! again, memory the graph uses outlives the arrays, and everything a capture cannot record
//! is an error that leaves the device usable. Each test captures on a stream of its own, so
//! the other tests of the binary keep the device's own stream. Ignored by default (they need
//! a CUDA device and NVRTC); without a device they print why and pass.

// `s![1..-1]` is NumPy's slice (negative ends count from the end), not an empty range.
#![allow(clippy::reversed_empty_ranges)]

use crate::test_support;
use crate::{Cuda, StreamExt};
use cuprite_core::{s, Array, BackendBase, Result};

type A = Array<f32, Cuda>;

/// One step of a small time loop: element-wise ops, an in-place update through a broadcast
/// row, a stencil written into a view, a reduction to 0-d and a matrix product.
/// Every array stays in its buffer, so the loop's state carries from replay to replay.
fn step(u: &mut A, w: &A) -> Result<()> {
    let v = (&*u * 0.5f32).sin()?;
    *u += &v;
    let inner = (&u.slice(&s![.., ..-2])? + &u.slice(&s![.., 2..])?) * 0.5f32;
    u.slice_mut(&s![.., 1..-1])?.assign(&inner)?;
    let m = u.mean()?;
    *u -= &m;
    let p = u.matmul(w)?;
    u.assign(&p)
}

/// The first GPU through a handle on a new stream of its own, or `None`.
fn gpu() -> Option<Cuda> {
    let dev = test_support::gpu()?;
    let s = dev.new_stream().expect("a new stream");
    Some(dev.with_stream(&s).expect("a handle on it"))
}

fn input(dev: &Cuda, rows: usize, cols: usize, seed: usize) -> Result<A> {
    let v: Vec<f32> = (0..rows * cols)
        .map(|i| (((i + seed) * 37 % 101) as f32) / 50.0 - 1.0)
        .collect();
    Array::from_vec(v, &[rows, cols], dev)
}

fn bits(a: &A) -> Result<Vec<u32>> {
    Ok(a.to_vec()?.iter().map(|x| x.to_bits()).collect())
}

#[test]
#[ignore = "needs a CUDA device"]
fn replays_give_the_bits_of_the_eager_loop() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    // 37 x 33: no size divides the block size.
    let w = input(&dev, 33, 33, 5)? * 0.1f32;
    let mut eager = input(&dev, 37, 33, 0)?;
    let mut u = eager.copy()?;
    // Once eagerly on both (kernels compiled outside the capture).
    step(&mut eager, &w)?;
    step(&mut u, &w)?;
    let addr = u.buffer().device_ptr();
    let (graph, ()) = dev.capture(|| {
        for _ in 0..4 {
            step(&mut u, &w)?;
        }
        Ok(())
    })?;
    assert!(graph.node_count() >= 4 * 8, "{graph:?}");
    // The capture ran nothing.
    assert_eq!(bits(&u)?, bits(&eager)?);
    for _ in 0..3 {
        graph.replay()?;
        for _ in 0..4 {
            step(&mut eager, &w)?;
        }
    }
    assert_eq!(bits(&u)?, bits(&eager)?);
    assert_eq!(u.buffer().device_ptr(), addr);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn inputs_written_between_replays_are_read_and_outputs_rewritten() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut x = input(&dev, 3, 1000, 1)?;
    let addr = x.buffer().device_ptr();
    let f = |x: &A| -> Result<(A, A)> { Ok((&(x * 2.0f32) + 1.0f32, x.sum_axes(1, false)?)) };
    f(&x)?;
    let (graph, (y, s)) = dev.capture(|| f(&x))?;
    for k in 0..3 {
        let fresh = input(&dev, 3, 1000, 7 * k + 2)?;
        x.assign(&fresh)?;
        // The graph holds x's buffer, yet x is written in place (no copy-on-write).
        assert_eq!(x.buffer().device_ptr(), addr);
        graph.replay()?;
        let (wy, ws) = f(&fresh)?;
        assert_eq!(bits(&y)?, bits(&wy)?);
        assert_eq!(bits(&s)?, bits(&ws)?);
    }
    // In-place ops between replays write the held memory too.
    x *= 3.0f32;
    graph.replay()?;
    assert_eq!(bits(&y)?, bits(&f(&x)?.0)?);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn the_graph_keeps_its_memory_alive() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let x = input(&dev, 64, 64, 3)?;
    let want = bits(&(&x.exp()? * &x))?;
    let scratch = input(&dev, 8, 8, 4)?;
    let (graph, y) = dev.capture(|| {
        // Dropped inside the capture: freed after it, not recorded.
        drop(scratch);
        let t = x.exp()?;
        Ok(&t * &x)
    })?;
    // The graph holds x's memory; arrays allocated after the capture do not take it.
    drop(x);
    let others: Vec<A> = (0..4)
        .map(|k| input(&dev, 64, 64, 100 + k))
        .collect::<Result<_>>()?;
    graph.replay()?;
    graph.replay()?;
    assert_eq!(bits(&y)?, want);
    // The output may go before the graph, and the graph before its replays finish.
    drop(y);
    graph.replay()?;
    drop(graph);
    drop(others);
    dev.synchronize()?;
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn what_a_capture_cannot_record_is_an_error_naming_the_op() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let x = input(&dev, 4, 250, 0)?;
    let mask = x.gt_scalar(0.0)?;
    x.select(&mask)?;
    let expect = |r: Result<()>, op: &str| {
        let e = r.expect_err(op).to_string();
        assert!(e.contains(op) && e.contains("graph capture"), "{op}: {e}");
    };
    expect(dev.capture(|| x.to_vec().map(drop)).map(drop), "to_vec");
    expect(
        dev.capture(|| x.sum()?.item().map(drop)).map(drop),
        "to_vec",
    );
    expect(
        dev.capture(|| A::from_vec(vec![1.0; 4], &[4], &dev).map(drop))
            .map(drop),
        "from_vec",
    );
    expect(
        dev.capture(|| x.select(&mask).map(drop)).map(drop),
        "boolean mask",
    );
    expect(dev.capture(|| dev.synchronize()).map(drop), "synchronize");
    expect(
        dev.capture(|| dev.capture(|| Ok(())).map(drop)).map(drop),
        "capture",
    );
    let (g, _) = dev.capture(|| Ok(&x + 1.0f32))?;
    expect(dev.capture(|| g.replay()).map(drop), "Graph::replay");
    let other = input(&dev.with_default_stream(), 4, 250, 9)?;
    expect(
        dev.capture(|| x.try_add(&other).map(drop)).map(drop),
        "capture",
    );
    // A panic inside the capture ends it too.
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = dev.capture(|| -> Result<()> { panic!("inside") });
    }));
    assert!(caught.is_err());
    // The device works normally afterwards, and the error did not corrupt x.
    let y = &x * 2.0f32;
    let want: Vec<f32> = x.to_vec()?.iter().map(|v| v * 2.0).collect();
    assert_eq!(y.to_vec()?, want);
    g.replay()?;
    dev.synchronize()?;
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn freed_blocks_are_reused_and_given_back_on_request() -> Result<()> {
    let Some(on_s) = gpu() else { return Ok(()) };
    let dev = on_s.with_default_stream();
    // A size no other test uses, so no other thread takes the block in between.
    let n = 12_347;
    let x = Array::<f32, Cuda>::arange(0.0, n as f32, 1.0, &dev)?;
    let a = (&x + 1.0f32).buffer().device_ptr();
    // The temporary's block went to the cache; the next array of its size takes it.
    let b = &x + 2.0f32;
    assert_eq!(b.buffer().device_ptr(), a);
    drop(b);
    assert!(dev.memory_cached()? >= 4 * n);
    // Arrays of a user stream do not take blocks of the device's own stream.
    let c = &x.on_stream(on_s.current_stream().as_ref().expect("a stream"))? + 3.0f32;
    assert_ne!(c.buffer().device_ptr(), a);
    assert_eq!(c.to_vec()?, (&x + 3.0f32).to_vec()?);
    dev.free_cached()?;
    let d = &x + 4.0f32;
    assert_eq!(d.to_vec()?[n - 1], (n - 1) as f32 + 4.0);
    Ok(())
}
