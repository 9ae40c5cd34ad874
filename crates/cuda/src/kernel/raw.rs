//! [`RawModule`] and [`RawKernel`]: whole CUDA C programs of `__global__` functions, CuPy's
//! `cupy.RawModule` and `cupy.RawKernel`, launched with an explicit grid, block and dynamic
//! shared memory, their arguments checked against the parameter lists read from the source.

use super::args::{Arg, ArgKind};
use super::compile::{self, hash_hex, intern, SourceWriter};
use super::launch::MAX_ARGS;
use super::limits::{check_launch, Dim3};
use super::signature::{globals, parse_decl, signature, Global, RawParam};
use crate::device::Cuda;
use crate::driver;
use crate::ffi::launch::UserArgs;
use crate::modules::Func;
use cuprite_core::{Error, Result};
use std::sync::{Arc, Mutex};

/// The program's file name for NVRTC.
const FILE: &str = "user-raw.cu";

/// A CUDA C program compiled as written (no header is added), from which kernels are taken
/// by name: `extern "C"` functions by their name, template instantiations by the name
/// expressions given at construction (`"my_sum<float>"`).
///
/// The program is compiled for a device on the first launch there (or by
/// [`RawModule::compile`]), through the module cache in memory and on disk.
///
/// ```no_run
/// use cuprite_core::Array;
/// use cuprite_cuda::kernel::RawModule;
/// use cuprite_cuda::Cuda;
///
/// let src = r#"
/// template <typename T> __global__ void scale(T* x, T a, int n) {
///     int i = blockIdx.x * blockDim.x + threadIdx.x;
///     if (i < n) x[i] *= a;
/// }"#;
/// let module = RawModule::with_name_expressions(src, &["scale<float>", "scale<double>"])?;
/// let scale_f32 = module.function("scale<float>")?;
/// let dev = Cuda::new(0)?;
/// let mut x = Array::<f32, Cuda>::ones(&[1000], &dev)?;
/// // SAFETY: the kernel touches x[0..1000) only, guarded by `n`.
/// unsafe { scale_f32.launch(&dev, 4, 256, 0, &mut [(&mut x).into(), 3.0f32.into(), 1000i32.into()])? };
/// # Ok::<(), cuprite_core::Error>(())
/// ```
#[derive(Clone)]
pub struct RawModule {
    inner: Arc<ModuleInner>,
}

struct ModuleInner {
    source: String,
    options: Vec<String>,
    name_expressions: Vec<String>,
    globals: Vec<Global>,
    /// Per device: the module key, and with name expressions the module and lowered names.
    loaded: Mutex<Vec<(usize, Loaded)>>,
}

#[derive(Clone)]
enum Loaded {
    /// In the device's module cache under this key.
    Cached(String),
    /// Loaded here (name expressions): the module and the lowered name of each expression.
    Named(Arc<NamedModule>),
}

struct NamedModule {
    module: driver::Module,
    lowered: Vec<String>,
}

impl std::fmt::Debug for RawModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.inner.globals.iter().map(|g| g.name.as_str()).collect();
        f.debug_struct("RawModule")
            .field("functions", &names)
            .field("name_expressions", &self.inner.name_expressions)
            .finish()
    }
}

impl RawModule {
    /// A module of `source`. Nothing is compiled until the first launch on a device.
    pub fn new(source: &str) -> Result<Self> {
        Self::build(source, &[], &[])
    }

    /// A module whose template kernels are instantiated by `name_expressions`
    /// (`"my_sum<float>"`), each then available through [`RawModule::function`].
    pub fn with_name_expressions(source: &str, name_expressions: &[&str]) -> Result<Self> {
        Self::build(source, name_expressions, &[])
    }

    /// The same module compiled with extra NVRTC options after cuprite's own.
    pub fn options(self, options: &[&str]) -> Result<Self> {
        let exprs: Vec<&str> = self
            .inner
            .name_expressions
            .iter()
            .map(|s| s.as_str())
            .collect();
        Self::build(&self.inner.source, &exprs, options)
    }

    fn build(source: &str, exprs: &[&str], options: &[&str]) -> Result<Self> {
        if source.contains('\0') {
            return Err(Error::invalid(
                "RawModule",
                "the source contains a NUL character",
            ));
        }
        Ok(RawModule {
            inner: Arc::new(ModuleInner {
                source: source.to_string(),
                options: options.iter().map(|s| s.to_string()).collect(),
                name_expressions: exprs.iter().map(|s| s.to_string()).collect(),
                globals: globals(source),
                loaded: Mutex::new(Vec::new()),
            }),
        })
    }

    /// The kernel `name`: an `extern "C"` function, or one of the module's name expressions.
    /// Its parameters are read from the source; a kernel whose parameters cannot all be read
    /// must declare them with [`RawKernel::with_params`] before a launch.
    pub fn function(&self, name: &str) -> Result<RawKernel> {
        let op = intern(name.split('<').next().unwrap_or(name).trim());
        let is_expr = self.inner.name_expressions.iter().any(|e| e == name);
        if !is_expr {
            if let Some(g) = self.inner.globals.iter().find(|g| g.name == name) {
                if !g.extern_c {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "`{name}` is not extern \"C\": its symbol is mangled; declare it \
                             extern \"C\", or take it through a name expression \
                             (RawModule::with_name_expressions)"
                        ),
                    ));
                }
            } else if name.contains('<') {
                return Err(Error::invalid(
                    op,
                    format!(
                        "`{name}` is not one of the module's name expressions {:?}",
                        self.inner.name_expressions
                    ),
                ));
            }
        }
        Ok(RawKernel {
            op,
            name: name.to_string(),
            module: self.clone(),
            params: signature(&self.inner.globals, name),
            funcs: Mutex::new(Vec::new()),
        })
    }

    /// Compiles (or loads from the caches) the module for `dev` now; compile errors carry
    /// NVRTC's log with the offending lines of the source.
    pub fn compile(&self, dev: &Cuda) -> Result<()> {
        self.loaded(dev, "RawModule").map(|_| ())
    }

    fn user_code(&self) -> [(&str, &str); 1] {
        [("source", self.inner.source.as_str())]
    }

    fn full_source(&self) -> String {
        let mut w = SourceWriter::raw(FILE);
        w.user("source", &self.inner.source);
        w.finish()
    }

    /// The module on `dev`, compiled or loaded on first use.
    fn loaded(&self, dev: &Cuda, op: &'static str) -> Result<Loaded> {
        let ordinal = dev.ordinal();
        if let Some((_, l)) = self
            .inner
            .loaded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .find(|(o, _)| *o == ordinal)
        {
            return Ok(l.clone());
        }
        let source = self.full_source();
        let opts: Vec<&str> = self.inner.options.iter().map(|s| s.as_str()).collect();
        let l = if self.inner.name_expressions.is_empty() {
            let key = format!(
                "user-raw|{}",
                hash_hex(&[&source, &self.inner.options.join("\u{1}")])
            );
            // Compile now (through the disk cache, where the module cache then finds it), so
            // that a compile error surfaces here whatever function is asked for.
            crate::nvrtc::compile_cached_with(FILE, &source, &dev.arch(), &opts)
                .map_err(|e| compile::user_error(op, e, &self.user_code()))?;
            Loaded::Cached(key)
        } else {
            let exprs: Vec<&str> = self
                .inner
                .name_expressions
                .iter()
                .map(|s| s.as_str())
                .collect();
            let (cubin, lowered) =
                crate::nvrtc::compile_cached_named(FILE, &source, &dev.arch(), &opts, &exprs)
                    .map_err(|e| compile::user_error(op, e, &self.user_code()))?;
            dev.bind()?;
            let module = driver::Module(driver::load_module(&cubin)?);
            Loaded::Named(Arc::new(NamedModule { module, lowered }))
        };
        self.inner
            .loaded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((ordinal, l.clone()));
        Ok(l)
    }
}

/// One `__global__` function of a [`RawModule`], launched with an explicit configuration.
///
/// ```no_run
/// use cuprite_core::Array;
/// use cuprite_cuda::kernel::RawKernel;
/// use cuprite_cuda::Cuda;
///
/// let add = RawKernel::new(r#"
/// extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
///     int i = blockIdx.x * blockDim.x + threadIdx.x;
///     if (i < n) c[i] = a[i] + b[i];
/// }"#, "vadd")?;
/// let dev = Cuda::new(0)?;
/// let a = Array::<f32, Cuda>::ones(&[1000], &dev)?;
/// let b = Array::<f32, Cuda>::ones(&[1000], &dev)?;
/// let mut c = Array::<f32, Cuda>::zeros(&[1000], &dev)?;
/// // SAFETY: with n = 1000 the kernel reads a[0..1000), b[0..1000) and writes c[0..1000).
/// unsafe { add.launch(&dev, 4, 256, 0, &mut [(&a).into(), (&b).into(), (&mut c).into(), 1000i32.into()])? };
/// # Ok::<(), cuprite_core::Error>(())
/// ```
pub struct RawKernel {
    op: &'static str,
    name: String,
    module: RawModule,
    params: Option<Vec<RawParam>>,
    funcs: Mutex<Vec<(usize, Func)>>,
}

impl std::fmt::Debug for RawKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawKernel")
            .field("name", &self.name)
            .field("params", &self.params)
            .finish()
    }
}

impl RawKernel {
    /// The `extern "C"` kernel `name` of `source` (a module of its own).
    pub fn new(source: &str, name: &str) -> Result<Self> {
        RawModule::new(source)?.function(name)
    }

    /// Declares the parameters explicitly, in C (`"const float* x, float* y, int n"`), for a
    /// kernel whose parameter list cannot be read from the source (macros, typedefs).
    /// A declaration with a type cuprite cannot check is an error.
    pub fn with_params(mut self, decl: &str) -> Result<Self> {
        let params = parse_decl(decl);
        if let Some(RawParam::Unknown { decl, .. }) = params
            .iter()
            .find(|p| matches!(p, RawParam::Unknown { .. }))
        {
            return Err(Error::invalid(
                self.op,
                format!("cannot read the parameter declaration `{decl}` (pointers to and values of bool, integers, float, double, complex<float>/complex<double>)"),
            ));
        }
        self.params = Some(params);
        Ok(self)
    }

    /// The parameters, as read from the source or declared.
    pub fn params(&self) -> Option<&[RawParam]> {
        self.params.as_deref()
    }

    /// The kernel's name (or name expression).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The loaded function on `dev`.
    fn func(&self, dev: &Cuda) -> Result<Func> {
        let ordinal = dev.ordinal();
        if let Some((_, f)) = self
            .funcs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .find(|(o, _)| *o == ordinal)
        {
            return Ok(*f);
        }
        let f = match self.module.loaded(dev, self.op)? {
            Loaded::Cached(key) => {
                let source = || self.module.full_source();
                let opts: Vec<&str> = self
                    .module
                    .inner
                    .options
                    .iter()
                    .map(|s| s.as_str())
                    .collect();
                compile::compile(
                    dev,
                    self.op,
                    &key,
                    &self.name,
                    &opts,
                    &self.module.user_code(),
                    source,
                )?
            }
            Loaded::Named(m) => {
                let k = self
                    .module
                    .inner
                    .name_expressions
                    .iter()
                    .position(|e| *e == self.name);
                let sym = match k {
                    Some(k) => m.lowered[k].as_str(),
                    None => self.name.as_str(),
                };
                dev.bind()?;
                Func(driver::get_function(m.module.0, sym)?)
            }
        };
        self.funcs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((ordinal, f));
        Ok(f)
    }

    /// Launches the kernel on `dev`'s stream with `grid` blocks of `block` threads (a
    /// number, or a tuple of two or three) and `shared_mem` bytes of dynamic shared memory.
    ///
    /// Each argument is checked against its parameter: a pointer takes an array of exactly
    /// its element type, C-contiguous (the kernel receives the address of its first
    /// element); a value takes a scalar of exactly its C type (`int`: `i32`,
    /// `unsigned long long`/`size_t`: `u64` or `usize`). An array passed as `&mut` gets an
    /// unshared buffer first (copy-on-write), so the kernel's writes reach it alone.
    ///
    /// # Safety
    /// cuprite cannot know which elements the kernel reads or writes: the caller must make
    /// sure that every access through every pointer stays inside the array passed for it
    /// (indices below the array's size, for the grid and arguments given), that the kernel
    /// writes only through pointers to arrays passed as `&mut` (a write through an array
    /// passed as `&` also changes every array sharing its buffer: its clones and views),
    /// that the kernel does not write an element another thread reads or writes without
    /// synchronisation, and that it terminates. An out-of-bounds access or a fault in the
    /// kernel is undefined behaviour (the CUDA context may be lost).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a wrong number of arguments, an array for a value or a
    /// scalar for a pointer, a dtype or C type other than the declared one, a strided view,
    /// a parameter whose type cannot be checked, a launch configuration beyond the device's
    /// limits (threads per block, grid size, shared memory), or a compile error;
    /// [`Error::DeviceMismatch`] for an array of another device.
    pub unsafe fn launch(
        &self,
        dev: &Cuda,
        grid: impl Into<Dim3>,
        block: impl Into<Dim3>,
        shared_mem: u32,
        args: &mut [Arg],
    ) -> Result<()> {
        let op = self.op;
        let params = self.params.as_deref().ok_or_else(|| {
            Error::invalid(
                op,
                format!(
                    "the parameter list of `{}` was not found in the source; declare it with \
                     with_params(\"...\")",
                    self.name
                ),
            )
        })?;
        if args.len() != params.len() {
            let names: Vec<&str> = params.iter().map(|p| p.name()).collect();
            return Err(Error::invalid(
                op,
                format!(
                    "expects {} arguments ({}), got {}",
                    params.len(),
                    names.join(", "),
                    args.len()
                ),
            ));
        }
        if args.len() > MAX_ARGS {
            return Err(Error::invalid(op, format!("at most {MAX_ARGS} arguments")));
        }
        let (grid, block) = (grid.into(), block.into());
        for (p, a) in params.iter().zip(args.iter()) {
            check_arg(op, dev, p, a)?;
        }
        let f = self.func(dev)?;
        check_launch(op, dev, f, grid, block, shared_mem)?;
        // Only now, with everything checked, make the outputs' buffers unshared.
        for a in args.iter_mut() {
            if let ArgKind::ArrayMut(arr) = &mut a.0 {
                arr.make_unique()?;
            }
        }
        let mut list = UserArgs::new(op, dev);
        for a in args.iter() {
            match (&a.0, a.array()) {
                (_, Some(arr)) => list.array(arr)?,
                (ArgKind::Scalar(s), None) => list.scalar(*s),
                _ => return Err(Error::invalid(op, "unexpected argument")),
            }
        }
        // The arguments match the parameter list in number, order and C type (checked
        // above: pointers are the addresses of the arrays' first elements, values are
        // passed as the exact C type); the configuration is within the device's limits;
        // what the kernel does with the pointers is the caller's contract.
        list.launch(f, grid.tuple(), block.tuple(), shared_mem)
    }
}

/// Checks one argument against its parameter.
fn check_arg(op: &'static str, dev: &Cuda, p: &RawParam, a: &Arg) -> Result<()> {
    match (p, a.array(), a.scalar()) {
        (RawParam::Unknown { name, decl }, _, _) => Err(Error::invalid(
            op,
            format!(
                "cannot check parameter `{name}` (declared `{decl}`); declare the parameters \
                 with with_params(\"...\")"
            ),
        )),
        (RawParam::Pointer { name, elem, .. }, Some(arr), _) => {
            let want = elem.dtype().ok_or_else(|| {
                Error::invalid(
                    op,
                    format!(
                        "parameter `{name}` is a pointer to {elem}, which is not a cuprite dtype"
                    ),
                )
            })?;
            if arr.dtype() != want {
                return Err(Error::invalid(
                    op,
                    format!(
                        "parameter `{name}` ({elem}*) expects a {want} array, got {}",
                        a.describe()
                    ),
                ));
            }
            if arr.cuda() != dev {
                return Err(Error::DeviceMismatch {
                    op,
                    lhs: format!("cuda:{}", dev.ordinal()),
                    rhs: format!("cuda:{}", arr.cuda().ordinal()),
                });
            }
            if !arr.layout().is_c_contiguous() {
                return Err(Error::invalid(
                    op,
                    format!(
                        "parameter `{name}` takes a C-contiguous array, got a view of shape {:?} \
                         and strides {:?}; call to_contiguous() first",
                        arr.layout().shape(),
                        arr.layout().strides()
                    ),
                ));
            }
            Ok(())
        }
        (RawParam::Pointer { name, elem, .. }, None, _) => Err(Error::invalid(
            op,
            format!(
                "parameter `{name}` ({elem}*) takes an array, got {}",
                a.describe()
            ),
        )),
        (RawParam::Value { ty, .. }, _, Some(s)) if s.ctype() == *ty => Ok(()),
        (RawParam::Value { name, ty }, _, _) => Err(Error::invalid(
            op,
            format!(
                "parameter `{name}` ({ty}) takes a scalar of exactly that type, got {}",
                a.describe()
            ),
        )),
    }
}
