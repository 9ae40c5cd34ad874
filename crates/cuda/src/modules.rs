//! The per-device memo of loaded modules: a kernel family instantiated for some types is
//! compiled (or read from the disk cache) once per process and device, then found by key.
//!
//! The hot families (element-wise maps, reductions) also find their kernels by a [`FuncId`]
//! made of static parts, so an op's launch formats no key string and searches no list.

use crate::device::Cuda;
pub(crate) use crate::driver::Func;
use crate::driver::{self, Module as ModuleHandle};
use cuprite_core::{DType, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A loaded module and the functions looked up in it so far.
struct Module {
    module: ModuleHandle,
    funcs: Mutex<Vec<(String, Func)>>,
}

/// A kernel named by static parts: its family, the op, the element and result types, a
/// variant of the family and the entry point. Two ids are equal exactly when their
/// string keys are (the family's `key` function is a function of these parts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FuncId {
    pub family: &'static str,
    pub op: &'static str,
    pub t: DType,
    pub out: DType,
    pub variant: u8,
    pub entry: &'static str,
}

/// Loaded modules by key, and the kernels found so far by [`FuncId`].
#[derive(Default)]
pub(crate) struct ModuleCache {
    modules: Mutex<HashMap<String, Arc<Module>>>,
    by_id: Mutex<HashMap<FuncId, Func>>,
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

    /// The kernel `id`: found by id when it was asked for before, else as
    /// [`Cuda::function`] with the module key `key()` and entry `id.entry` (`key` must be a
    /// function of `id`'s parts alone).
    pub(crate) fn function_by_id(
        &self,
        id: FuncId,
        key: impl FnOnce() -> String,
        source: impl FnOnce() -> String,
    ) -> Result<Func> {
        let by_id = &self.inner.modules.by_id;
        if let Some(f) = by_id.lock().unwrap_or_else(|p| p.into_inner()).get(&id) {
            return Ok(*f);
        }
        let f = self.function(&key(), id.entry, source)?;
        by_id
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, f);
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
