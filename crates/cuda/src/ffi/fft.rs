//! cuFFT: batched one-dimensional plans in cuFFT's advanced data layout, made with
//! `cufftMakePlanMany64` (64-bit sizes and strides), bound to the device's stream and cached
//! per device by (type, length, batch, strides). cuFFT allocates each plan's work area; when
//! that fails the memory pool's cache is released and the plan made once more. A device keeps
//! at most [`MAX_PLANS`] plans: making one more first waits for the stream and destroys the
//! device's others. Every raw cuFFT call of the crate is in this file.

use crate::device::Cuda;
use cudarc::cufft::sys;
use cuprite_core::{Error, Result};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Plans kept per device before the cache is emptied.
const MAX_PLANS: usize = 64;

/// `CUFFT_FORWARD` and `CUFFT_INVERSE` of cufft.h.
const FORWARD: i32 = -1;
const INVERSE: i32 = 1;

/// The kind of a transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Complex to complex.
    C2C,
    /// Real to complex (half spectrum).
    R2C,
    /// Complex (half spectrum) to real.
    C2R,
}

/// A batched one-dimensional layout: element `k` of batch item `b` is at
/// `b * idist + k * istride` of the input (in input elements) and `b * odist + k * ostride`
/// of the output (in output elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Batched {
    pub n: i64,
    pub batch: i64,
    pub istride: i64,
    pub idist: i64,
    pub ostride: i64,
    pub odist: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    ordinal: usize,
    kind: Kind,
    double: bool,
    layout: Batched,
}

type Plans = HashMap<Key, sys::cufftHandle>;

fn plans() -> MutexGuard<'static, Plans> {
    static PLANS: OnceLock<Mutex<Plans>> = OnceLock::new();
    PLANS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

fn cufft_type(kind: Kind, double: bool) -> sys::cufftType {
    use sys::cufftType::*;
    match (kind, double) {
        (Kind::C2C, false) => CUFFT_C2C,
        (Kind::C2C, true) => CUFFT_Z2Z,
        (Kind::R2C, false) => CUFFT_R2C,
        (Kind::R2C, true) => CUFFT_D2Z,
        (Kind::C2R, false) => CUFFT_C2R,
        (Kind::C2R, true) => CUFFT_Z2D,
    }
}

/// Runs a raw cuFFT call, turning a failed symbol lookup (cudarc panics when the loaded
/// library lacks a function) and a non-success status into errors naming the op and layout.
fn call(
    op: &'static str,
    what: &str,
    key: &Key,
    f: impl FnOnce() -> sys::cufftResult,
) -> std::result::Result<(), (sys::cufftResult, Error)> {
    let describe = |detail: String| Error::Backend {
        op,
        msg: format!(
            "{what} failed for a {:?} transform of length {} ({}) over {} lanes \
             (input stride {} distance {}, output stride {} distance {}): {detail}",
            key.kind,
            key.layout.n,
            if key.double { "double" } else { "single" },
            key.layout.batch,
            key.layout.istride,
            key.layout.idist,
            key.layout.ostride,
            key.layout.odist,
        ),
    };
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(sys::cufftResult::CUFFT_SUCCESS) => Ok(()),
        Ok(status) => Err((status, describe(format!("{status:?}")))),
        Err(_) => Err((
            sys::cufftResult::CUFFT_NOT_SUPPORTED,
            describe("the function is missing from the loaded cuFFT library".into()),
        )),
    }
}

/// Makes a plan for `key` on the current context (the device's, bound by the caller).
fn make(
    dev: &Cuda,
    op: &'static str,
    key: &Key,
) -> std::result::Result<i32, (sys::cufftResult, Error)> {
    let mut h: sys::cufftHandle = 0;
    // SAFETY: writes one handle.
    call(op, "cufftCreate", key, || unsafe {
        sys::cufftCreate(&mut h)
    })?;
    let l = key.layout;
    let (in_len, out_len) = match key.kind {
        Kind::C2C => (l.n, l.n),
        Kind::R2C => (l.n, l.n / 2 + 1),
        Kind::C2R => (l.n / 2 + 1, l.n),
    };
    let (mut n, mut inembed, mut onembed) = ([l.n], [in_len], [out_len]);
    let mut work = 0usize;
    let made = call(op, "cufftMakePlanMany64", key, || {
        // SAFETY: `h` is a fresh handle; the three arrays have `rank` (1) elements and
        // outlive the call; `work` receives one size.
        unsafe {
            sys::cufftMakePlanMany64(
                h,
                1,
                n.as_mut_ptr(),
                inembed.as_mut_ptr(),
                l.istride,
                l.idist,
                onembed.as_mut_ptr(),
                l.ostride,
                l.odist,
                cufft_type(key.kind, key.double),
                l.batch,
                &mut work,
            )
        }
    })
    .and_then(|()| {
        // SAFETY: `h` is a planned handle; the stream is the device's live stream (the
        // driver's CUstream and the runtime's cudaStream_t are the same object).
        call(op, "cufftSetStream", key, || unsafe {
            sys::cufftSetStream(h, dev.stream() as sys::cudaStream_t)
        })
    });
    if let Err(e) = made {
        // SAFETY: `h` is live, stored nowhere, destroyed once.
        let _ = unsafe { sys::cufftDestroy(h) };
        return Err(e);
    }
    Ok(h)
}

/// Destroys every cached plan of the device (after its queued work has finished).
fn evict(dev: &Cuda, plans: &mut Plans) -> Result<()> {
    dev.synchronize_device()?;
    let ordinal = dev.ordinal();
    plans.retain(|k, h| {
        if k.ordinal == ordinal {
            // SAFETY: the plan is live (it is in the cache) and no queued work uses it.
            let _ = unsafe { sys::cufftDestroy(*h) };
            false
        } else {
            true
        }
    });
    Ok(())
}

fn plan(dev: &Cuda, op: &'static str, plans: &mut Plans, key: Key) -> Result<sys::cufftHandle> {
    if let Some(&h) = plans.get(&key) {
        return Ok(h);
    }
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err(Error::Backend {
            op,
            msg: "cuFFT not found: libcufft.so could not be loaded (install the CUDA \
                  toolkit's cuFFT, or add its directory to LD_LIBRARY_PATH)"
                .into(),
        });
    }
    let ordinal = dev.ordinal();
    if plans.keys().filter(|k| k.ordinal == ordinal).count() >= MAX_PLANS {
        evict(dev, plans)?;
    }
    let h = match make(dev, op, &key) {
        Ok(h) => h,
        Err((sys::cufftResult::CUFFT_ALLOC_FAILED, _)) => {
            evict(dev, plans)?;
            dev.free_cached()?;
            dev.bind()?;
            make(dev, op, &key).map_err(|(_, e)| e)?
        }
        Err((_, e)) => return Err(e),
    };
    plans.insert(key, h);
    Ok(h)
}

/// Queues one batched transform of `layout` on the device's stream: `double` picks
/// double precision, `inverse` the `+` sign (complex-to-complex only).
///
/// # Caller's check
/// As for kernel launches, device addresses are checked by the caller, once, before the call:
/// `input` and `output` must be device addresses of this device holding every element the
/// layout reaches, of the transform's input and output types (complex for `C2C`, real in
/// and complex out for `R2C`, the reverse for `C2R`), aligned to their element size, and
/// must not overlap. A `C2R` transform overwrites its input.
#[allow(clippy::too_many_arguments)]
pub(crate) fn exec(
    dev: &Cuda,
    op: &'static str,
    kind: Kind,
    double: bool,
    layout: Batched,
    input: u64,
    output: u64,
    inverse: bool,
) -> Result<()> {
    dev.bind()?;
    let key = Key {
        ordinal: dev.ordinal(),
        kind,
        double,
        layout,
    };
    // The lock is held through the launch: cuFFT plans must not be executed from two
    // threads at once.
    let mut plans = plans();
    let h = plan(dev, op, &mut plans, key)?;
    dev.order_library(h as usize, |s| {
        // SAFETY: `h` is a live plan of this device; `s` is a live stream of its context
        // (the driver's CUstream and the runtime's cudaStream_t are the same object).
        call(op, "cufftSetStream", &key, || unsafe {
            sys::cufftSetStream(h, s as sys::cudaStream_t)
        })
        .map_err(|(_, e)| e)
    })?;
    let dir = if inverse { INVERSE } else { FORWARD };
    let (i, o) = (
        input as *mut std::ffi::c_void,
        output as *mut std::ffi::c_void,
    );
    // One safety argument covers the six calls: the caller guarantees both buffers for the
    // plan's layout and types; the plan is live and belongs to this device's context.
    let run = || unsafe {
        match (kind, double) {
            (Kind::C2C, false) => sys::cufftExecC2C(h, i.cast(), o.cast(), dir),
            (Kind::C2C, true) => sys::cufftExecZ2Z(h, i.cast(), o.cast(), dir),
            (Kind::R2C, false) => sys::cufftExecR2C(h, i.cast(), o.cast()),
            (Kind::R2C, true) => sys::cufftExecD2Z(h, i.cast(), o.cast()),
            (Kind::C2R, false) => sys::cufftExecC2R(h, i.cast(), o.cast()),
            (Kind::C2R, true) => sys::cufftExecZ2D(h, i.cast(), o.cast()),
        }
    };
    call(op, "cufftExec", &key, run).map_err(|(_, e)| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_types_match_cufft_layout() {
        use std::mem::{align_of, size_of};
        assert_eq!(
            size_of::<sys::cufftComplex>(),
            size_of::<cuprite_core::c64>()
        );
        assert_eq!(
            size_of::<sys::cufftDoubleComplex>(),
            size_of::<cuprite_core::c128>()
        );
        assert!(align_of::<cuprite_core::c128>() <= align_of::<sys::cufftDoubleComplex>());
    }

    #[test]
    fn errors_name_the_op_and_layout() {
        let key = Key {
            ordinal: 0,
            kind: Kind::R2C,
            double: true,
            layout: Batched {
                n: 6,
                batch: 4,
                istride: 3,
                idist: 1,
                ostride: 3,
                odist: 1,
            },
        };
        let (_, e) = call("rfft", "cufftExecD2Z", &key, || {
            sys::cufftResult::CUFFT_INVALID_VALUE
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "rfft: backend failure: cufftExecD2Z failed for a R2C transform of length 6 \
             (double) over 4 lanes (input stride 3 distance 1, output stride 3 distance 1): \
             CUFFT_INVALID_VALUE"
        );
    }
}
