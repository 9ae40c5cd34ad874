//! The raw NVRTC calls of the crate: probing the library, and [`Program`], an NVRTC program
//! owned from creation to destruction, whose methods are the calls made on it. The compile
//! cache and the error reports built on them live in [`crate::nvrtc`].

use cudarc::nvrtc::result::{self, NvrtcError};
use cudarc::nvrtc::sys;
use std::ffi::{CStr, CString};

/// NVRTC's version `(major, minor)`, or why the library cannot be used.
pub(crate) fn version() -> std::result::Result<(i32, i32), String> {
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err(
            "NVRTC not found: libnvrtc.so could not be loaded (install the CUDA toolkit's \
             NVRTC, or add its directory to LD_LIBRARY_PATH)"
                .into(),
        );
    }
    std::panic::catch_unwind(|| {
        let (mut a, mut b) = (0, 0);
        // SAFETY: writes two ints.
        let r = unsafe { sys::nvrtcVersion(&mut a, &mut b) };
        (r, a, b)
    })
    .map_err(|_| "loading NVRTC failed".to_string())
    .and_then(|(r, a, b)| {
        if r == sys::nvrtcResult::NVRTC_SUCCESS {
            Ok((a, b))
        } else {
            Err(format!("nvrtcVersion failed: {r:?}"))
        }
    })
}

/// An NVRTC program, destroyed on drop. Create it only after [`version`] succeeded.
pub(crate) struct Program(sys::nvrtcProgram);

impl Program {
    /// A program of `source`, named `name` in NVRTC's messages.
    pub(crate) fn new(source: &CStr, name: &CStr) -> std::result::Result<Program, NvrtcError> {
        result::create_program(source, Some(name)).map(Program)
    }

    /// Registers a name expression, whose lowered name [`lowered_name`](Self::lowered_name)
    /// reads after compiling.
    pub(crate) fn add_name_expression(&self, expr: &CStr) -> std::result::Result<(), NvrtcError> {
        // SAFETY: the program is live (owned); NVRTC copies the NUL-terminated string.
        unsafe { sys::nvrtcAddNameExpression(self.0, expr.as_ptr()) }.result()
    }

    /// Compiles with `opts`.
    pub(crate) fn compile(&self, opts: &[String]) -> std::result::Result<(), NvrtcError> {
        // SAFETY: the program is live (owned).
        unsafe { result::compile_program(self.0, opts) }
    }

    /// The compile log (empty when it cannot be read).
    pub(crate) fn log(&self) -> String {
        // SAFETY: the program is live (owned).
        unsafe { result::get_program_log(self.0) }
            .map(|l| {
                let bytes: Vec<u8> = l.iter().map(|&c| c as u8).take_while(|&c| c != 0).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            })
            .unwrap_or_default()
    }

    /// The cubin of the compiled program.
    pub(crate) fn cubin(&self) -> std::result::Result<Vec<u8>, NvrtcError> {
        let mut size = 0usize;
        // SAFETY: the program is live (owned); the buffer has the size NVRTC reported.
        unsafe {
            sys::nvrtcGetCUBINSize(self.0, &mut size).result()?;
            let mut buf = vec![0u8; size];
            sys::nvrtcGetCUBIN(self.0, buf.as_mut_ptr() as *mut std::ffi::c_char).result()?;
            Ok(buf)
        }
    }

    /// The lowered name of a name expression registered before compiling (`None` when NVRTC
    /// gives none).
    pub(crate) fn lowered_name(
        &self,
        expr: &CString,
    ) -> std::result::Result<Option<String>, NvrtcError> {
        let mut p: *const std::ffi::c_char = std::ptr::null();
        // SAFETY: the program is live (owned); NVRTC writes a pointer to a NUL-terminated
        // string it owns until the program is destroyed.
        unsafe { sys::nvrtcGetLoweredName(self.0, expr.as_ptr(), &mut p) }.result()?;
        if p.is_null() {
            return Ok(None);
        }
        // SAFETY: non-null, NUL-terminated, alive until the program is destroyed (after
        // this copy).
        Ok(Some(
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned(),
        ))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the program is owned by this value alone and destroyed once, here.
        let _ = unsafe { result::destroy_program(self.0) };
    }
}
