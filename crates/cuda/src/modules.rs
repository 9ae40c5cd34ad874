//! The per-device memo of loaded modules: a kernel family instantiated for some types is
//! compiled (or read from the disk cache) once per process and device, then found by key.

use crate::device::Cuda;
pub(crate) use crate::driver::Func;
use crate::driver::{self, Module as ModuleHandle};
use cuprite_core::Result;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A loaded module and the functions looked up in it so far.
struct Module {
    module: ModuleHandle,
    funcs: Mutex<Vec<(String, Func)>>,
}

/// Loaded modules by key.
#[derive(Default)]
pub(crate) struct ModuleCache {
    modules: Mutex<HashMap<String, Arc<Module>>>,
}

impl Cuda {
    /// The kernel `name` of the module known as `key`; on the first request for `key` the
    /// module's source is made by `source()`, compiled through the disk cache and loaded.
    /// `key` must identify the source completely (family plus every type and option).
    pub(crate) fn function(
        &self,
        key: &str,
        name: &str,
        source: impl FnOnce() -> String,
    ) -> Result<Func> {
        self.function_with(key, name, &[], source)
    }

    /// [`Cuda::function`] for a module compiled with `extra` NVRTC options after the
    /// defaults (`key` must then name them too).
    pub(crate) fn function_with(
        &self,
        key: &str,
        name: &str,
        extra: &[&str],
        source: impl FnOnce() -> String,
    ) -> Result<Func> {
        let module = {
            let cached = self
                .inner
                .modules
                .modules
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(key)
                .cloned();
            match cached {
                Some(m) => m,
                None => {
                    // Compile outside the lock; two threads racing on a key both compile and
                    // the first insert wins.
                    let file = format!("{}.cu", key.split('|').next().unwrap_or("kernel"));
                    let cubin =
                        crate::nvrtc::compile_cached_with(&file, &source(), &self.arch(), extra)?;
                    self.bind()?;
                    let m = Arc::new(Module {
                        module: ModuleHandle(driver::load_module(&cubin)?),
                        funcs: Mutex::new(Vec::new()),
                    });
                    self.inner
                        .modules
                        .modules
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .entry(key.to_string())
                        .or_insert(m)
                        .clone()
                }
            }
        };
        let mut funcs = module.funcs.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, f)) = funcs.iter().find(|(n, _)| n == name) {
            return Ok(*f);
        }
        self.bind()?;
        let f = Func(driver::get_function(module.module.0, name)?);
        funcs.push((name.to_string(), f));
        Ok(f)
    }

    /// Number of modules loaded on this device (compiled or read from disk this process).
    pub fn loaded_modules(&self) -> usize {
        self.inner
            .modules
            .modules
            .lock()
            .map(|m| m.len())
            .unwrap_or(0)
    }
}
