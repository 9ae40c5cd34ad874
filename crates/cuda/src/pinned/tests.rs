//! Pinned buffers and asynchronous transfers on a GPU: round trips of every element type
//! and of sizes that are multiples of nothing, views gathered before a download (checked
//! against the CPU backend), copies overlapping a kernel of another stream, and the
//! waits that make host access and drops safe while a copy is in flight. Ignored by
//! default (they need a CUDA device); without one they print why and pass.

use super::{PinnedBuffer, PinnedExt};
use crate::test_support::{assert_same, gpu, vals};
use crate::Cuda;
use cuprite_core::{c128, c64, Array, Element, Error, Result};
use cuprite_cpu::Cpu;

fn round_trip<T: Element>(dev: &Cuda) -> Result<()> {
    let copies = dev.with_stream(&dev.new_stream()?)?;
    for n in [0, 1, 7, 4099, 1_000_003] {
        let want = vals::<T>(n, n);
        let mut host = PinnedBuffer::from_slice(&want, dev)?;
        assert_eq!(host.len(), n);
        for on in [dev, &copies] {
            let a = Array::<T, Cuda>::from_pinned_async(&mut host, &[n], on)?;
            assert_same(&a.to_vec()?, &want, "from_pinned_async");
            let mut back = PinnedBuffer::<T>::new(n, dev)?;
            a.to_pinned_async(&mut back)?;
            assert_same(back.as_slice()?, &want, "to_pinned_async");
        }
    }
    // A view: gathered on the device, downloaded in C order (the CPU backend's order).
    let (r, c) = (37, 53);
    let data = vals::<T>(r * c, 5);
    let cpu = Array::<T, Cpu>::from_vec(data.clone(), &[r, c], &Cpu)?;
    let mut host = PinnedBuffer::from_slice(&data, dev)?;
    let a = Array::<T, Cuda>::from_pinned_async(&mut host, &[r, c], &copies)?;
    let mut out = PinnedBuffer::<T>::new(r * c, dev)?;
    a.t().to_pinned_async(&mut out)?;
    assert_same(
        out.as_slice()?,
        &cpu.t().to_vec()?,
        "to_pinned_async of a transpose",
    );
    Ok(())
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn round_trips_every_type_and_size() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    round_trip::<bool>(&dev)?;
    round_trip::<u8>(&dev)?;
    round_trip::<i32>(&dev)?;
    round_trip::<i64>(&dev)?;
    round_trip::<f32>(&dev)?;
    round_trip::<f64>(&dev)?;
    round_trip::<c64>(&dev)?;
    round_trip::<c128>(&dev)
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn sizes_must_match() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut host = PinnedBuffer::<f32>::new(12, &dev)?;
    let e = Array::<f32, Cuda>::from_pinned_async(&mut host, &[5, 2], &dev).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument { .. }), "{e:?}");
    let a = Array::<f32, Cuda>::from_pinned_async(&mut host, &[3, 4], &dev)?;
    let mut small = PinnedBuffer::<f32>::new(11, &dev)?;
    assert!(a.to_pinned_async(&mut small).is_err());
    let empty = PinnedBuffer::<f64>::new(0, &dev)?;
    assert!(empty.is_empty() && empty.as_slice()?.is_empty());
    Ok(())
}

/// Uploads and downloads on one stream while a long kernel chain runs on the device's own
/// stream: every result is right, and the copies finish before the chain does (they ran
/// beside it, not after it).
#[test]
#[ignore = "needs a CUDA GPU"]
fn copies_overlap_a_kernel_of_another_stream() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let copies = dev.with_stream(&dev.new_stream()?)?;
    let n = 1 << 24;
    let mut x = Array::<f32, Cuda>::ones(&[n], &dev)?;
    dev.synchronize_device()?;
    let want: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let mut host = PinnedBuffer::from_slice(&want, &dev)?;
    let mut out = PinnedBuffer::<f32>::new(n, &dev)?;

    let start = std::time::Instant::now();
    for _ in 0..200 {
        x = &x * 1.0001f32; // the compute chain on the device's stream
    }
    let b = Array::<f32, Cuda>::from_pinned_async(&mut host, &[n], &copies)?;
    let doubled = &b * 2.0f32; // on `copies`, ordered after the upload
    doubled.to_pinned_async(&mut out)?;
    let copied = out.as_slice()?.to_vec(); // waits for the download only
    let copy_done = start.elapsed();
    let sum = (&x + &b).sum()?.item()?; // mixes the streams: ordered for us
    let all_done = start.elapsed();
    println!("copies done after {copy_done:?}, the compute chain after {all_done:?}");

    let twice: Vec<f32> = want.iter().map(|v| v * 2.0).collect();
    assert_same(&copied, &twice, "download beside the chain");
    let xs = x.to_vec()?;
    let expect: f64 = xs.iter().zip(&want).map(|(a, b)| (a + b) as f64).sum();
    assert!(
        ((sum as f64) - expect).abs() <= expect * 1e-4,
        "{sum} vs {expect}"
    );
    Ok(())
}

/// Host access and drops wait for the copies in flight.
#[test]
#[ignore = "needs a CUDA GPU"]
fn host_access_and_drop_wait_for_copies() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let copies = dev.with_stream(&dev.new_stream()?)?;
    let n = 1 << 26; // 256 MiB of f32: a copy takes several milliseconds
    let first = vals::<f32>(n, 1);

    // Writing the buffer right after queuing an upload waits for the upload: the array
    // holds the old values.
    let mut host = PinnedBuffer::from_slice(&first, &dev)?;
    let a = Array::<f32, Cuda>::from_pinned_async(&mut host, &[n], &copies)?;
    host.as_mut_slice()?.fill(-1.0);
    assert_same(&a.to_vec()?, &first, "upload, then a host write");

    // Dropping the buffer right after queuing an upload waits before freeing it.
    let mut host = PinnedBuffer::from_slice(&first, &dev)?;
    let b = Array::<f32, Cuda>::from_pinned_async(&mut host, &[n], &copies)?;
    drop(host);
    assert_same(&b.to_vec()?, &first, "upload, then a drop");

    // Reading right after queuing a download waits for it; so does a drop.
    let c = &a * 3.0f32;
    let mut out = PinnedBuffer::<f32>::new(n, &dev)?;
    c.to_pinned_async(&mut out)?;
    let want: Vec<f32> = first.iter().map(|v| v * 3.0).collect();
    assert_same(out.as_slice()?, &want, "download, then a read");
    c.to_pinned_async(&mut out)?;
    drop(out);
    let mut out = PinnedBuffer::<f32>::new(n, &dev)?;
    c.to_pinned_async(&mut out)?;
    out.synchronize()?;
    assert!(out.is_idle()?);
    Ok(())
}
