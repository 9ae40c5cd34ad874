//! Device timing: events recorded in a device's queue of work, and the time elapsed between
//! two of them. [`crate::profiler::benchmark`] uses them to measure the device time of a call
//! (CUDA events on a GPU, the wall clock on the host).

use super::BackendBase;
use crate::error::Result;

/// Timing events of a device: marks recorded in the device's queue that complete when all
/// work queued before them has run, like CUDA events with timing enabled.
///
/// An event is created once ([`DeviceTimer::create_event`]) and recorded as often as needed;
/// the time between two recorded events is the device time of the work queued between them.
pub trait DeviceTimer: BackendBase {
    /// A reusable timing event of this device.
    type Event;

    /// A new timing event of this device (not yet recorded).
    fn create_event(&self) -> Result<Self::Event>;

    /// Records `event` at the current end of the device's queue: it completes when everything
    /// queued before it has finished. Recording again moves the mark.
    fn record_event(&self, event: &mut Self::Event) -> Result<()>;

    /// Seconds of device time between the recorded events `start` and `end` (both of this
    /// device, `start` recorded first). Waits for `end` to complete.
    fn elapsed_secs(&self, start: &Self::Event, end: &Self::Event) -> Result<f64>;

    /// The device's name in timing reports (CuPy's `GPU-0` for a CUDA device); the device's
    /// [`label`](BackendBase::label) unless the backend says otherwise.
    fn timer_label(&self) -> String {
        self.label()
    }

    /// Runs the work the device has deferred (a fusing device's pending expressions), without
    /// waiting for it; nothing (the default) on a device that defers none.
    ///
    /// # Errors
    /// The first evaluation that fails.
    fn evaluate_pending(&self) -> Result<()> {
        Ok(())
    }

    /// What the device's fusion has done so far ([`Fused::stats`](crate::fusion::Fused::stats)),
    /// for the profiler's report; `None` (the default) for a device that does not fuse.
    fn fusion_stats(&self) -> Option<crate::fusion::FusionStats> {
        None
    }
}
