//! User streams and events on the CUDA backend: work on a chosen stream, arrays moving
//! between streams without explicit synchronisation, events that order streams and time
//! them. Each test first queues long work on one stream, so a missing ordering shows as a
//! wrong value read on the other.

use cuprite::cuda::{Stream, StreamExt};
use cuprite::prelude::*;

fn gpu() -> Cuda {
    Cuda::new(0).expect("CUDA device 0")
}

/// `n x n` matrix whose every element is `n`, made by a chain of products queued on `dev`
/// (about 10 ms of device work at n = 4096 on a recent GPU). Exact in f64.
fn slow_matrix(dev: &Cuda, n: usize) -> Array<f64, Cuda> {
    let ones = Array::<f64, Cuda>::ones(&[n, n], dev).unwrap();
    let mut m = ones.matmul(&ones).unwrap();
    for _ in 0..4 {
        m = &m.matmul(&ones).unwrap() * (1.0 / n as f64);
    }
    m
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn an_array_made_on_one_stream_is_complete_when_read_on_another() {
    let dev = gpu();
    let n = 4096;
    let s1 = dev.new_stream().unwrap();
    let s2 = dev.new_stream().unwrap();
    for _ in 0..3 {
        let m = slow_matrix(&dev.with_stream(&s1).unwrap(), n);
        assert_eq!(m.device().current_stream(), Some(s1.clone()));
        // Read at once on s2 (no host synchronisation in between).
        let on_s2 = m.on_stream(&s2).unwrap();
        let total = on_s2.sum().unwrap();
        assert_eq!(total.device().current_stream(), Some(s2.clone()));
        let want = (n * n * n) as f64;
        assert_eq!(total.item().unwrap(), want);
        // And on the device's own stream.
        let m2 = slow_matrix(&dev.with_stream(&s1).unwrap(), n);
        let row = Array::<f64, Cuda>::ones(&[n], &dev).unwrap();
        let dot = (&row * &m2).sum().unwrap();
        assert_eq!(dot.item().unwrap(), want);
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn library_calls_follow_the_stream_of_their_operands() {
    let dev = gpu();
    let s = dev.new_stream().unwrap();
    let on_s = dev.with_stream(&s).unwrap();
    let a = Array::<f64, Cuda>::linspace(-1.0, 1.0, 256 * 256, true, &on_s)
        .unwrap()
        .reshape(&[256, 256])
        .unwrap();
    // cuBLAS, cuFFT and cuSOLVER on the user stream, checked against the default stream.
    let p_s = a.matmul(&a).unwrap();
    let a0 = a.on_stream_default();
    let p0 = a0.matmul(&a0).unwrap();
    assert_eq!(p_s.to_vec().unwrap(), p0.to_vec().unwrap());
    let f_s = cuprite::fft::rfft(&a, None, -1, Default::default()).unwrap();
    let f0 = cuprite::fft::rfft(&a0, None, -1, Default::default()).unwrap();
    assert_eq!(f_s.to_vec().unwrap(), f0.to_vec().unwrap());
    let eye = Array::<f64, Cuda>::eye(256, None, 0, &on_s).unwrap();
    let spd = &p_s + &(&eye * 256.0);
    let inv_s = spd.inv().unwrap();
    let back = inv_s.matmul(&spd.on_stream_default()).unwrap();
    let err = (&back - &Array::<f64, Cuda>::eye(256, None, 0, &dev).unwrap())
        .abs()
        .unwrap()
        .max()
        .unwrap()
        .item()
        .unwrap();
    assert!(err < 1e-10, "{err}");
}

/// The same array on the device's own stream.
trait OnDefault {
    fn on_stream_default(&self) -> Self;
}
impl OnDefault for Array<f64, Cuda> {
    fn on_stream_default(&self) -> Self {
        Array::from_raw_parts(
            self.buffer().clone(),
            self.layout().clone(),
            self.device().with_default_stream(),
        )
        .unwrap()
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn events_order_streams_and_time_them() {
    let dev = gpu();
    let s1 = dev.new_stream().unwrap();
    let s2 = dev.new_stream().unwrap();
    let d1 = dev.with_stream(&s1).unwrap();
    let d2 = dev.with_stream(&s2).unwrap();
    let start = d1.record().unwrap();
    let m = slow_matrix(&d1, 4096);
    let done = d1.record().unwrap();
    // s2 waits on the event; the host does not.
    d2.wait_event(&done).unwrap();
    let after = d2.record().unwrap();
    after.synchronize().unwrap();
    // s2's event completed, so the work before `done` on s1 has too.
    assert!(done.is_complete().unwrap());
    let t = done.elapsed_since(&start).unwrap();
    assert!(t > 1e-4 && t < 10.0, "{t}");
    assert_eq!(m.sum().unwrap().item().unwrap(), 4096f64.powi(3));
    // An event that was never recorded is an error, not a hang.
    let fresh = dev.create_event().unwrap();
    assert!(fresh.synchronize().is_err());
    assert!(dev.wait_event(&fresh).is_err());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn streams_synchronise_clone_and_release() {
    let dev = gpu();
    let s = dev.new_stream().unwrap();
    let t = s.clone();
    assert_eq!(s, t);
    assert_ne!(s, dev.new_stream().unwrap());
    assert!(format!("{s:?}").starts_with("Stream("));
    let on_s = s.device();
    assert_eq!(on_s, dev, "a stream's handle is the same device");
    assert!(format!("{on_s:?}").contains("stream"));
    let a = Array::<f32, Cuda>::ones(&[1 << 20], &on_s).unwrap();
    let b = &a * 3.0;
    drop(a);
    // The stream outlives every handle that named it while an array still uses it.
    drop(on_s);
    drop(t);
    drop(s);
    assert_eq!(b.sum().unwrap().item().unwrap(), 3.0 * (1 << 20) as f32);
    let r = dev
        .using_stream(&dev.new_stream().unwrap(), |d| {
            Array::<i64, Cuda>::arange(0, 1000, 1, d)?.sum()?.item()
        })
        .unwrap();
    assert_eq!(r, 999 * 1000 / 2);
    dev.synchronize_device().unwrap();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn many_streams_interleave_correctly() {
    let dev = gpu();
    let streams: Vec<Stream> = (0..4).map(|_| dev.new_stream().unwrap()).collect();
    let n = 1 << 22;
    let base = Array::<f32, Cuda>::arange(0.0, n as f32, 1.0, &dev).unwrap();
    let mut parts = Vec::new();
    for (k, s) in streams.iter().enumerate() {
        let x = base.on_stream(s).unwrap();
        parts.push(&(&x * 0.0) + (k as f32 + 1.0));
    }
    // Combined on the default stream: each part was written on its own stream.
    let mut acc = Array::<f32, Cuda>::zeros(&[n], &dev).unwrap();
    for p in &parts {
        acc = &acc + p;
    }
    let v = acc.to_vec().unwrap();
    assert!(v.iter().all(|&x| x == 10.0), "{:?}", &v[..4]);
}
