//! Device timing on a GPU: [`DeviceTimer`] for [`Cuda`] with CUDA events created with timing
//! enabled (`CU_EVENT_DEFAULT`; `cuEventCreate` with `CU_EVENT_DISABLE_TIMING` would make
//! `cuEventElapsedTime` fail), recorded on the device's stream. The raw event calls live in
//! [`crate::driver::Event`].

use crate::driver::Event;
use crate::Cuda;
use cuprite_core::backend::{BackendBase, DeviceTimer};
use cuprite_core::{Error, Result};

/// A CUDA event with timing enabled, owned (destroyed on drop) and tied to its device.
pub struct CudaEvent {
    event: Event,
    dev: Cuda,
    recorded: bool,
}

impl std::fmt::Debug for CudaEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CudaEvent({:?} on {:?})", self.event, self.dev)
    }
}

impl Drop for CudaEvent {
    fn drop(&mut self) {
        // Destroying needs no current context, but bind anyway so the driver never sees a
        // context-less thread; a failure here cannot be reported and leaks at most one event.
        // The event itself is destroyed when the field drops, after this.
        let _ = self.dev.bind();
    }
}

impl CudaEvent {
    /// Checks that the event belongs to `dev` and has been recorded.
    fn check(&self, dev: &Cuda, op: &'static str) -> Result<()> {
        if self.dev != *dev {
            return Err(Error::DeviceMismatch {
                op,
                lhs: dev.label(),
                rhs: self.dev.label(),
            });
        }
        if !self.recorded {
            return Err(Error::invalid(op, "the event has not been recorded"));
        }
        Ok(())
    }
}

impl CudaEvent {
    /// Waits until the work queued before the event's last record has finished.
    pub fn synchronize(&self) -> Result<()> {
        self.check(&self.dev, "CudaEvent::synchronize")?;
        self.dev.bind()?;
        self.event.synchronize("CudaEvent::synchronize")
    }

    /// Whether the work queued before the event's last record has finished (never waits).
    pub fn is_complete(&self) -> Result<bool> {
        self.check(&self.dev, "CudaEvent::is_complete")?;
        self.dev.bind()?;
        self.event.is_complete("CudaEvent::is_complete")
    }

    /// Seconds of device time between `start`'s record and this event's (waits for this
    /// one). Both must be recorded on the same device.
    pub fn elapsed_since(&self, start: &CudaEvent) -> Result<f64> {
        self.dev.elapsed_secs(start, self)
    }

    /// Makes work queued on `dev`'s stream from now on wait for this event (the host does
    /// not wait).
    pub(crate) fn wait_on(&self, dev: &Cuda) -> Result<()> {
        self.check(dev, "wait_event")?;
        dev.bind()?;
        // The event is recorded in `dev`'s context (checked above).
        self.event.wait_on(dev.stream())
    }
}

impl Cuda {
    /// A new event recorded now on this handle's stream: it completes when the work queued
    /// so far on that stream has finished. Wait for it from another stream with
    /// [`Cuda::wait_event`], on the host with [`CudaEvent::synchronize`], or time the work
    /// between two events with [`CudaEvent::elapsed_since`].
    pub fn record(&self) -> Result<CudaEvent> {
        let mut ev = self.create_event()?;
        self.record_event(&mut ev)?;
        Ok(ev)
    }
}

impl DeviceTimer for Cuda {
    type Event = CudaEvent;

    fn create_event(&self) -> Result<CudaEvent> {
        self.bind()?;
        Ok(CudaEvent {
            event: Event::timing("create_event")?,
            dev: self.clone(),
            recorded: false,
        })
    }

    fn record_event(&self, ev: &mut CudaEvent) -> Result<()> {
        if ev.dev != *self {
            return Err(Error::DeviceMismatch {
                op: "record_event",
                lhs: self.label(),
                rhs: ev.dev.label(),
            });
        }
        self.bind()?;
        // The event belongs to this device's context (checked above).
        ev.event.record(self.stream(), "record_event")?;
        ev.recorded = true;
        Ok(())
    }

    fn elapsed_secs(&self, start: &CudaEvent, end: &CudaEvent) -> Result<f64> {
        start.check(self, "elapsed_secs")?;
        end.check(self, "elapsed_secs")?;
        self.bind()?;
        end.event.synchronize("elapsed_secs")?;
        let ms = Event::elapsed_ms(&start.event, &end.event, "elapsed_secs")?;
        Ok(f64::from(ms) * 1e-3)
    }

    /// `GPU-<ordinal>`, as CuPy's benchmark reports.
    fn timer_label(&self) -> String {
        format!("GPU-{}", self.ordinal())
    }
}

#[cfg(test)]
mod tests {
    //! These run on a GPU and return early (passing) on a machine without one.
    use super::*;
    use cuprite_core::profiler::{benchmark, BenchmarkOptions};
    use std::time::Duration;

    fn gpu() -> Option<Cuda> {
        Cuda::new(0).ok()
    }

    #[test]
    fn events_measure_the_stream_time_between_records() {
        let Some(dev) = gpu() else { return };
        let mut start = dev.create_event().unwrap();
        let mut end = dev.create_event().unwrap();
        let e = dev.elapsed_secs(&start, &end).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument { .. }), "{e}");
        // The stream is idle, so each event completes as soon as it is recorded.
        dev.record_event(&mut start).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        dev.record_event(&mut end).unwrap();
        let t = dev.elapsed_secs(&start, &end).unwrap();
        assert!((0.015..1.0).contains(&t), "{t}");
        // Events are reusable.
        dev.record_event(&mut start).unwrap();
        dev.record_event(&mut end).unwrap();
        let t = dev.elapsed_secs(&start, &end).unwrap();
        assert!((0.0..0.01).contains(&t), "{t}");
        assert_eq!(dev.timer_label(), format!("GPU-{}", dev.ordinal()));
    }

    #[test]
    fn benchmark_times_queued_device_work() {
        let Some(dev) = gpu() else { return };
        let bytes = 1usize << 28;
        let buf = dev.alloc::<u8>(bytes).unwrap();
        let mut v = 0u8;
        let res = benchmark(
            "memset",
            &[&dev],
            || {
                v = v.wrapping_add(1);
                dev.bind()?;
                crate::driver::memset_u8(buf.device_ptr(), v, bytes, dev.stream())
            },
            BenchmarkOptions {
                n_warmup: 3,
                n_repeat: 20,
                max_duration: None,
            },
        )
        .unwrap();
        println!("{res}");
        assert_eq!(res.n_repeat(), 20);
        let (label, stats) = res.gpu_stats()[0];
        assert_eq!(label, "GPU-0");
        // 256 MiB at under 5 TB/s takes over 50 us on the device.
        assert!(stats.min > 50e-6, "{res}");
        assert!(res.to_string().contains("     GPU-0:"), "{res}");
    }
}
