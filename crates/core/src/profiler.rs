//! Timing of user code on any backend: [`benchmark`] is cuprite's `cupyx.profiler.benchmark`.
//! It calls a closure `n_warmup` times untimed (each call's deferred work evaluated, as in
//! the timed calls), then up to `n_repeat` times, measuring each
//! call's host time (the wall clock around the call) and, for every device named, its device
//! time (timing events recorded in the device's queue around the call, see
//! [`DeviceTimer`]). The [`BenchmarkResult`] keeps every sample and prints one line in
//! CuPy's format.

use crate::backend::DeviceTimer;
use crate::error::{Error, Result};
use crate::fusion::FusionStats;
use std::fmt;
use std::time::{Duration, Instant};

/// Settings of [`benchmark`]; `BenchmarkOptions::default()` is CuPy's: 10 warm-up calls,
/// 10 000 timed calls, no time limit.
///
/// ```
/// use cuprite_core::profiler::BenchmarkOptions;
/// use std::time::Duration;
/// let opts = BenchmarkOptions {
///     n_repeat: 100,
///     max_duration: Some(Duration::from_secs(2)),
///     ..Default::default()
/// };
/// assert_eq!(opts.n_warmup, 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchmarkOptions {
    /// Untimed calls before the timed ones (compilation, caches, memory pools warm up here).
    pub n_warmup: usize,
    /// The number of timed calls (at least 1).
    pub n_repeat: usize,
    /// Stop timing once this much wall time has passed since the first timed call (checked
    /// after each call, so at least one call is always timed); `None`: no limit.
    pub max_duration: Option<Duration>,
}

impl Default for BenchmarkOptions {
    fn default() -> Self {
        BenchmarkOptions {
            n_warmup: 10,
            n_repeat: 10_000,
            max_duration: None,
        }
    }
}

/// Summary statistics of a series of times, in seconds (NumPy's `mean`, `std` with
/// `ddof = 0`, `min`, `max` and `median`). Every field is NaN for an empty series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Arithmetic mean.
    pub mean: f64,
    /// Population standard deviation (`ddof = 0`, as NumPy's and CuPy's).
    pub std: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Middle sample (the mean of the two middle ones for an even count).
    pub median: f64,
}

impl Stats {
    /// The statistics of `samples`.
    ///
    /// ```
    /// use cuprite_core::profiler::Stats;
    /// let s = Stats::of(&[3.0, 1.0, 2.0, 6.0]);
    /// assert_eq!((s.mean, s.min, s.max, s.median), (3.0, 1.0, 6.0, 2.5));
    /// assert!((s.std - 3.5f64.sqrt()).abs() < 1e-15);
    /// ```
    pub fn of(samples: &[f64]) -> Stats {
        if samples.is_empty() {
            return Stats {
                mean: f64::NAN,
                std: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
                median: f64::NAN,
            };
        }
        let n = samples.len() as f64;
        let mean = samples.iter().sum::<f64>() / n;
        let var = samples
            .iter()
            .map(|&t| (t - mean) * (t - mean))
            .sum::<f64>()
            / n;
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Stats {
            mean,
            std: var.sqrt(),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            median,
        }
    }
}

/// Every sample of a [`benchmark`] run, in seconds: one host time per timed call and, per
/// device timed, one device time per call.
///
/// `Display` prints one line in CuPy's format (times in microseconds; the `+/-` part only
/// with more than one sample):
///
/// ```text
/// add                 :    CPU:   12.300 us   +/- 0.400 (min:   11.900 / max:   14.000) us     GPU-0:   10.100 us ...
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BenchmarkResult {
    /// The name given to [`benchmark`].
    pub name: String,
    /// Host (wall-clock) time of each timed call, in seconds.
    pub cpu_times: Vec<f64>,
    /// For each device timed, in the order given: its [`DeviceTimer::timer_label`] and the
    /// device time of each timed call, in seconds.
    pub gpu_times: Vec<(String, Vec<f64>)>,
    /// For each device timed that fuses ([`DeviceTimer::fusion_stats`]): its label and what
    /// its fusion did over all the timed calls (passes evaluated, the ops they held, those
    /// written into views).
    pub fusion: Vec<(String, FusionStats)>,
}

impl BenchmarkResult {
    /// Number of timed calls (fewer than `n_repeat` when `max_duration` stopped the run).
    pub fn n_repeat(&self) -> usize {
        self.cpu_times.len()
    }

    /// Statistics of the host times.
    pub fn cpu_stats(&self) -> Stats {
        Stats::of(&self.cpu_times)
    }

    /// Statistics of each device's times, with the device's label, in the order given.
    pub fn gpu_stats(&self) -> Vec<(&str, Stats)> {
        self.gpu_times
            .iter()
            .map(|(label, t)| (label.as_str(), Stats::of(t)))
            .collect()
    }

    /// The report line of CuPy's `to_str(show_gpu)`: the host times, then each device's
    /// times if `show_devices` (`Display` shows them).
    pub fn to_str(&self, show_devices: bool) -> String {
        let mut items = vec![format_item("CPU", &self.cpu_times)];
        if show_devices {
            items.extend(self.gpu_times.iter().map(|(l, t)| format_item(l, t)));
            let calls = self.n_repeat().max(1) as f64;
            items.extend(self.fusion.iter().map(|(l, s)| {
                format!(
                    "    {l}: {:.1} passes ({:.1} ops, {:.1} into views) per call",
                    s.evaluated as f64 / calls,
                    s.fused_ops as f64 / calls,
                    s.into_views as f64 / calls
                )
            }));
        }
        format!("{:<20}:{}", self.name, items.join(" "))
    }
}

/// One column of the report: `    LABEL: mean us   +/- std (min: min / max: max) us`.
fn format_item(label: &str, times: &[f64]) -> String {
    let us = |t: f64| t * 1e6;
    let s = Stats::of(times);
    let mut out = format!("    {label}:{:9.3} us", us(s.mean));
    if times.len() > 1 {
        out += &format!(
            "   +/-{:6.3} (min:{:9.3} / max:{:9.3}) us",
            us(s.std),
            us(s.min),
            us(s.max)
        );
    }
    out
}

impl fmt::Display for BenchmarkResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str(true))
    }
}

/// Times `f` on the host and on each of `devices` (CuPy's `cupyx.profiler.benchmark`).
///
/// 1. Calls `f` `n_warmup` times, untimed (compilation, caches and allocation pools warm up).
/// 2. Waits for every device, so no work queued before (warm-up included) is timed.
/// 3. Up to `n_repeat` times: records a start event on every device, reads the host clock,
///    calls `f`, has every device run what it deferred ([`DeviceTimer::evaluate_pending`]: a
///    fusing device's pending expressions, the result's included), drops the result
///    (freeing it is part of the work, as in CuPy), reads the host clock, records an end
///    event on every device, waits for every device, and stores the host time and each
///    device's elapsed event time. Every call thus starts on idle devices. After each call,
///    the run stops early once `max_duration` has passed since the first timed call. The
///    passes a fusing device made are counted in [`BenchmarkResult::fusion`].
///
/// Pass every device the work runs on: work on a device not named is neither timed nor
/// waited for. With no device, only host times are taken (name the type:
/// `benchmark::<Cpu, _, _>(..)`). On the CPU backend the device time is the wall time
/// between the two events, which bracket the call.
///
/// # Errors
/// [`Error::InvalidArgument`] if `n_repeat` is 0; the first error of `f` (warm-up or timed
/// call) or of a device (creating, recording or reading events, synchronising).
///
/// ```
/// # use cuprite_core::*;
/// use cuprite_core::profiler::{benchmark, BenchmarkOptions};
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let a = Array::<f64, B>::linspace(0.0, 1.0, 1 << 16, true, dev)?;
/// let opts = BenchmarkOptions { n_warmup: 3, n_repeat: 50, ..Default::default() };
/// let res = benchmark("sum", &[dev], || a.sum(), opts)?;
/// assert_eq!(res.cpu_times.len(), 50);
/// assert_eq!(res.gpu_times.len(), 1);
/// assert_eq!(res.gpu_times[0].0, dev.timer_label());
/// assert!(res.cpu_stats().min > 0.0);
/// println!("{res}"); // sum                 :    CPU:   20.152 us   +/- 3.204 (min: ...
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn benchmark<B, R, F>(
    name: impl Into<String>,
    devices: &[&B],
    mut f: F,
    options: BenchmarkOptions,
) -> Result<BenchmarkResult>
where
    B: DeviceTimer,
    F: FnMut() -> Result<R>,
{
    if options.n_repeat == 0 {
        return Err(Error::invalid(
            "benchmark",
            "n_repeat must be at least 1 (the number of timed calls)",
        ));
    }
    let events = || -> Result<Vec<B::Event>> { devices.iter().map(|d| d.create_event()).collect() };
    let mut starts = events()?;
    let mut ends = events()?;

    for _ in 0..options.n_warmup {
        // A warm-up does what a timed call does: a fusing device evaluates what the call
        // deferred (compiling its programs here, not in the first timed call).
        let r = std::hint::black_box(f()?);
        for d in devices {
            d.evaluate_pending()?;
        }
        drop(r);
    }
    for d in devices {
        d.synchronize()?;
    }

    let cap = options.n_repeat.min(1 << 16);
    let mut cpu_times = Vec::with_capacity(cap);
    let mut gpu_times: Vec<Vec<f64>> = devices.iter().map(|_| Vec::with_capacity(cap)).collect();
    let fused_before: Vec<Option<FusionStats>> = devices.iter().map(|d| d.fusion_stats()).collect();
    let began = Instant::now();
    for _ in 0..options.n_repeat {
        for (d, e) in devices.iter().zip(&mut starts) {
            d.record_event(e)?;
        }
        let t1 = Instant::now();
        let r = std::hint::black_box(f()?);
        // While the result lives: a fusing device evaluates what it deferred (the result
        // included), which a dropped result would never be.
        for d in devices {
            d.evaluate_pending()?;
        }
        drop(r);
        let t2 = Instant::now();
        for (d, e) in devices.iter().zip(&mut ends) {
            d.record_event(e)?;
        }
        for d in devices {
            d.synchronize()?;
        }
        cpu_times.push((t2 - t1).as_secs_f64());
        for (i, d) in devices.iter().enumerate() {
            gpu_times[i].push(d.elapsed_secs(&starts[i], &ends[i])?);
        }
        if options
            .max_duration
            .is_some_and(|max| began.elapsed() > max)
        {
            break;
        }
    }
    Ok(BenchmarkResult {
        name: name.into(),
        cpu_times,
        gpu_times: devices
            .iter()
            .map(|d| d.timer_label())
            .zip(gpu_times)
            .collect(),
        fusion: devices
            .iter()
            .zip(fused_before)
            .filter_map(|(d, before)| Some((d.timer_label(), d.fusion_stats()?.since(&before?))))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendBase;
    use crate::dtype::{Element, Numeric};
    use crate::layout::Layout;
    use std::sync::{Arc, Mutex};

    /// A fake device with a simulated queue: work adds to `pending` device seconds, an event
    /// records the device time at which the queue will reach it, a sync runs the queue.
    #[derive(Default, Debug)]
    struct State {
        now: f64,
        pending: f64,
        log: Vec<&'static str>,
    }

    #[derive(Clone, Debug)]
    struct Fake {
        id: usize,
        state: Arc<Mutex<State>>,
    }

    impl PartialEq for Fake {
        fn eq(&self, other: &Self) -> bool {
            self.id == other.id
        }
    }

    impl Fake {
        fn new(id: usize) -> Fake {
            Fake {
                id,
                state: Default::default(),
            }
        }
        fn st(&self) -> std::sync::MutexGuard<'_, State> {
            self.state.lock().unwrap()
        }
        /// Queues `secs` of device work.
        fn work(&self, secs: f64) {
            let mut st = self.st();
            st.pending += secs;
            st.log.push("work");
        }
        fn log(&self) -> Vec<&'static str> {
            self.st().log.clone()
        }
    }

    fn no<T>() -> Result<T> {
        Err(Error::invalid("fake", "not a real backend"))
    }

    impl BackendBase for Fake {
        type Buffer<T: Element> = Vec<T>;
        fn label(&self) -> String {
            format!("fake:{}", self.id)
        }
        fn synchronize(&self) -> Result<()> {
            let mut st = self.st();
            st.now += st.pending;
            st.pending = 0.0;
            st.log.push("sync");
            Ok(())
        }
        fn buffer_len<T: Element>(&self, buf: &Vec<T>) -> usize {
            buf.len()
        }
        fn full<T: Element>(&self, _: usize, _: T) -> Result<Vec<T>> {
            no()
        }
        fn from_vec<T: Element>(&self, _: Vec<T>) -> Result<Vec<T>> {
            no()
        }
        fn to_vec<T: Element>(&self, _: &Vec<T>, _: &Layout) -> Result<Vec<T>> {
            no()
        }
        fn copy<T: Element>(&self, _: &Vec<T>, _: &Layout) -> Result<Vec<T>> {
            no()
        }
        fn assign<T: Element>(
            &self,
            _: &mut Vec<T>,
            _: &Layout,
            _: &Vec<T>,
            _: &Layout,
        ) -> Result<()> {
            no()
        }
        fn fill<T: Element>(&self, _: &mut Vec<T>, _: &Layout, _: T) -> Result<()> {
            no()
        }
        fn needs_copy_to_write<T: Element>(&self, _: &Vec<T>) -> bool {
            false
        }
        fn make_unique<T: Element>(&self, _: &mut Vec<T>) -> Result<()> {
            no()
        }
        fn cast<T: Element, U: Element>(&self, _: &Vec<T>, _: &Layout) -> Result<Vec<U>> {
            no()
        }
        fn arange<T: Numeric>(&self, _: usize, _: T, _: T) -> Result<Vec<T>> {
            no()
        }
    }

    impl DeviceTimer for Fake {
        type Event = Option<f64>;
        fn create_event(&self) -> Result<Option<f64>> {
            Ok(None)
        }
        fn record_event(&self, event: &mut Option<f64>) -> Result<()> {
            let mut st = self.st();
            *event = Some(st.now + st.pending);
            st.log.push("record");
            Ok(())
        }
        fn evaluate_pending(&self) -> Result<()> {
            self.st().log.push("evaluate");
            Ok(())
        }
        fn elapsed_secs(&self, start: &Option<f64>, end: &Option<f64>) -> Result<f64> {
            match (start, end) {
                (Some(s), Some(e)) => Ok(e - s),
                _ => Err(Error::invalid("fake", "event not recorded")),
            }
        }
    }

    fn opts(n_warmup: usize, n_repeat: usize) -> BenchmarkOptions {
        BenchmarkOptions {
            n_warmup,
            n_repeat,
            max_duration: None,
        }
    }

    #[test]
    fn defaults_are_cupys() {
        let o = BenchmarkOptions::default();
        assert_eq!((o.n_warmup, o.n_repeat, o.max_duration), (10, 10_000, None));
    }

    #[test]
    fn statistics_match_numpy() {
        // numpy: mean 2.5, std 1.118033988749895, median 2.5
        let s = Stats::of(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!((s.mean, s.min, s.max, s.median), (2.5, 1.0, 4.0, 2.5));
        assert!((s.std - 1.118033988749895).abs() < 1e-15);
        let s = Stats::of(&[5.0, -1.0, 7.0]);
        assert_eq!(
            (s.mean, s.min, s.max, s.median),
            (11.0 / 3.0, -1.0, 7.0, 5.0)
        );
        assert!((s.std - 3.3993463423951895).abs() < 1e-14);
        let s = Stats::of(&[2.0]);
        assert_eq!(
            (s.mean, s.std, s.min, s.max, s.median),
            (2.0, 0.0, 2.0, 2.0, 2.0)
        );
        let s = Stats::of(&[]);
        assert!(s.mean.is_nan() && s.std.is_nan() && s.min.is_nan() && s.median.is_nan());
    }

    #[test]
    fn display_is_cupys_format() {
        let r = BenchmarkResult {
            name: "add".into(),
            cpu_times: vec![10e-6, 12e-6, 14e-6],
            gpu_times: vec![
                ("GPU-0".into(), vec![9e-6, 9e-6, 9e-6]),
                ("GPU-1".into(), vec![5e-6]),
            ],
            fusion: vec![],
        };
        // Produced by CuPy's _PerfCaseResult.__str__ formatting on the same samples.
        assert_eq!(
            r.to_string(),
            "add                 :    CPU:   12.000 us   +/- 1.633 (min:   10.000 / max:   \
             14.000) us     GPU-0:    9.000 us   +/- 0.000 (min:    9.000 / max:    9.000) \
             us     GPU-1:    5.000 us"
        );
        assert_eq!(
            r.to_str(false),
            "add                 :    CPU:   12.000 us   +/- 1.633 (min:   10.000 / max:   \
             14.000) us"
        );
        let r = BenchmarkResult {
            name: "a_rather_long_benchmark_name".into(),
            cpu_times: vec![1.5e-3, 2.5e-3],
            gpu_times: vec![],
            fusion: vec![(
                "fused cpu".into(),
                FusionStats {
                    evaluated: 6,
                    fused_ops: 20,
                    into_views: 2,
                    released: 0,
                },
            )],
        };
        assert_eq!(
            r.to_string(),
            "a_rather_long_benchmark_name:    CPU: 2000.000 us   +/-500.000 (min: 1500.000 / \
             max: 2500.000) us     fused cpu: 3.0 passes (10.0 ops, 1.0 into views) per call"
        );
        let (label, s) = r
            .gpu_stats()
            .first()
            .copied()
            .unwrap_or(("none", r.cpu_stats()));
        assert_eq!((label, s.mean), ("none", 2e-3));
    }

    #[test]
    fn warmup_and_pending_work_are_not_timed() {
        let dev = Fake::new(0);
        let mut calls = 0;
        let res = benchmark(
            "work",
            &[&dev],
            || {
                calls += 1;
                // Warm-up calls queue a long "compilation"; timed ones 2 ms of work.
                dev.work(if calls <= 7 { 1.0 } else { 2e-3 });
                Ok(calls)
            },
            opts(7, 5),
        )
        .unwrap();
        assert_eq!(calls, 12);
        assert_eq!(res.n_repeat(), 5);
        assert_eq!(res.name, "work");
        assert_eq!(res.cpu_times.len(), 5);
        assert_eq!(res.gpu_times.len(), 1);
        assert_eq!(res.gpu_times[0].0, "fake:0");
        for &t in &res.gpu_times[0].1 {
            assert!((t - 2e-3).abs() < 1e-12, "{t}");
        }
        // Warm-up calls and their deferred work, one sync, then per repeat: start event,
        // call, deferred work, end event, sync.
        let mut want = Vec::new();
        for _ in 0..7 {
            want.extend(["work", "evaluate"]);
        }
        want.push("sync");
        for _ in 0..5 {
            want.extend(["record", "work", "evaluate", "record", "sync"]);
        }
        assert_eq!(dev.log(), want);
        assert_eq!(dev.st().pending, 0.0);
    }

    #[test]
    fn every_device_is_timed_in_order() {
        let (a, b) = (Fake::new(3), Fake::new(1));
        let res = benchmark(
            "two",
            &[&a, &b],
            || {
                a.work(1e-3);
                b.work(4e-3);
                Ok(())
            },
            opts(0, 3),
        )
        .unwrap();
        let labels: Vec<_> = res.gpu_stats().iter().map(|(l, _)| l.to_string()).collect();
        assert_eq!(labels, ["fake:3", "fake:1"]);
        assert!((res.gpu_stats()[0].1.mean - 1e-3).abs() < 1e-12);
        assert!((res.gpu_stats()[1].1.max - 4e-3).abs() < 1e-12);
        assert_eq!(res.gpu_times[1].1.len(), 3);
    }

    #[test]
    fn host_time_is_the_wall_time_of_the_call() {
        let res = benchmark::<Fake, _, _>(
            "sleep",
            &[],
            || {
                std::thread::sleep(Duration::from_millis(2));
                Ok(())
            },
            opts(1, 3),
        )
        .unwrap();
        assert!(res.gpu_times.is_empty());
        assert!(res.cpu_stats().min >= 2e-3, "{res}");
        assert!(res.to_string().starts_with("sleep               :    CPU:"));
    }

    #[test]
    fn max_duration_stops_early() {
        let mut calls = 0;
        let res = benchmark::<Fake, _, _>(
            "slow",
            &[],
            || {
                calls += 1;
                std::thread::sleep(Duration::from_millis(3));
                Ok(())
            },
            BenchmarkOptions {
                n_warmup: 2,
                n_repeat: 10_000,
                max_duration: Some(Duration::from_millis(12)),
            },
        )
        .unwrap();
        // Each call takes >= 3 ms, so the limit is passed after at most 5 timed calls.
        assert!((1..=5).contains(&res.n_repeat()), "{}", res.n_repeat());
        assert_eq!(calls, 2 + res.n_repeat());
        let res = benchmark::<Fake, _, _>(
            "once",
            &[],
            || Ok(()),
            BenchmarkOptions {
                max_duration: Some(Duration::ZERO),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(res.n_repeat(), 1);
    }

    #[test]
    fn errors_propagate() {
        let dev = Fake::new(0);
        let e = benchmark("none", &[&dev], || Ok(()), opts(0, 0)).unwrap_err();
        assert!(
            matches!(
                e,
                Error::InvalidArgument {
                    op: "benchmark",
                    ..
                }
            ),
            "{e}"
        );
        let mut calls = 0;
        let e = benchmark(
            "fails",
            &[&dev],
            || {
                calls += 1;
                if calls == 4 { no::<()>() } else { Ok(()) }
            },
            opts(2, 10),
        )
        .unwrap_err();
        assert_eq!(calls, 4);
        assert_eq!(e, Error::invalid("fake", "not a real backend"));
    }
}
