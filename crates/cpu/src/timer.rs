//! Device timing on the host: the CPU runs work when it is called, so a timing event is the
//! wall-clock instant at which it is recorded and device time is wall time.

use crate::Cpu;
use cuprite_core::backend::DeviceTimer;
use cuprite_core::Result;
use std::time::Instant;

impl DeviceTimer for Cpu {
    type Event = Instant;

    fn create_event(&self) -> Result<Instant> {
        Ok(Instant::now())
    }

    fn record_event(&self, event: &mut Instant) -> Result<()> {
        *event = Instant::now();
        Ok(())
    }

    fn elapsed_secs(&self, start: &Instant, end: &Instant) -> Result<f64> {
        Ok(end.saturating_duration_since(*start).as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::profiler::{benchmark, BenchmarkOptions};
    use std::time::Duration;

    #[test]
    fn events_measure_wall_time() {
        let dev = Cpu::new();
        let mut start = dev.create_event().unwrap();
        let mut end = dev.create_event().unwrap();
        dev.record_event(&mut start).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        dev.record_event(&mut end).unwrap();
        let t = dev.elapsed_secs(&start, &end).unwrap();
        assert!((5e-3..1.0).contains(&t), "{t}");
        // Events recorded in the wrong order give zero, not a negative time.
        assert_eq!(dev.elapsed_secs(&end, &start).unwrap(), 0.0);
        assert_eq!(dev.timer_label(), "cpu");
    }

    #[test]
    fn device_time_brackets_host_time() {
        let dev = Cpu::new();
        let opts = BenchmarkOptions {
            n_warmup: 1,
            n_repeat: 4,
            max_duration: None,
        };
        let res = benchmark(
            "sleep",
            &[&dev],
            || {
                std::thread::sleep(Duration::from_millis(1));
                Ok(())
            },
            opts,
        )
        .unwrap();
        let (label, dev_times) = &res.gpu_times[0];
        assert_eq!(label, "cpu");
        for (&host, &device) in res.cpu_times.iter().zip(dev_times) {
            assert!(host >= 1e-3 && device >= host, "{host} {device}");
        }
        assert!(res.to_string().contains("     cpu:"), "{res}");
    }
}
