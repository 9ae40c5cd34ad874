//! [`ElementwiseKernel`]: a CuPy-style element-wise kernel whose body is CUDA C, compiled
//! with NVRTC for the argument types of each call (cached per dtypes in the kernel, per
//! program in the device's module cache and on disk).

use super::args::{single_output, Arg, DynArray, ScalarArg};
use super::compile::{self, hash_hex, intern};
use super::elementwise_src::{self as src, ParamInst, Pass};
use super::launch::RawView;
use super::params::{check_all, check_kernel_name, parse_params, Param};
use super::resolve::{bind, broadcast_shape, check_counts, dtype_of, scalar_for};
use crate::device::Cuda;
use crate::ffi::launch::UserArgs;
use crate::launch::{coalesce, BLOCK};
use crate::modules::Func;
use cuprite_core::{Array, Element, Error, Layout, Result};
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

/// Most parameters (inputs and outputs) of one kernel.
pub(crate) const MAX_PARAMS: usize = 32;

/// An element-wise kernel written in CUDA C, CuPy's `cupy.ElementwiseKernel`.
///
/// `in_params` and `out_params` are comma-separated `type name` lists: a dtype name
/// (`float32`, `int64`, `complex128`, ... or `float`, `double`, `int`, `long long`), or a type
/// placeholder (`T`) bound at call time to the dtype of the arguments passed for it, or
/// `raw type name` for an array the body indexes itself (`x[j]`, a flat C-order index over
/// that argument's own shape). The body is CUDA C run once per element `i` of the
/// broadcast shape of the non-raw array inputs; it reads inputs by name, assigns outputs by
/// name, and may use `i`, `_ind.size()` (the number of elements), the placeholders as types,
/// and the types and functions of the preamble.
///
/// An input argument may be an array or a scalar (bound by value; it converts to the
/// parameter's dtype if it keeps its kind: `2.0f64` to a float32 parameter, not `2.5` to an
/// int32 one). Placeholders are bound by arrays first, then by scalars for those no array
/// binds; two dtypes for one placeholder is an error.
///
/// ```no_run
/// use cuprite_core::Array;
/// use cuprite_cuda::kernel::ElementwiseKernel;
/// use cuprite_cuda::Cuda;
///
/// let dev = Cuda::new(0)?;
/// let my_kernel = ElementwiseKernel::new(
///     "float32 x, float32 y",
///     "float32 z",
///     "if (x - 2 > y) { z = x * y; } else { z = x + y; }",
///     "my_kernel",
/// )?;
/// let x = Array::<f32, Cuda>::ramp(1000, 0.0, 1.0, &dev)?;
/// let y = Array::<f32, Cuda>::ones(&[1000], &dev)?;
/// let z = my_kernel.call1::<f32>(&[(&x).into(), (&y).into()])?;
///
/// // Placeholders and scalars: `T` is bound by `x` (f64); the scalar converts to it.
/// let axpy = ElementwiseKernel::new("T x, T y, T a", "T z", "z = a * x + y", "axpy")?;
/// let xd = x.astype::<f64>()?;
/// let yd = y.astype::<f64>()?;
/// let zd = axpy.call1::<f64>(&[(&xd).into(), (&yd).into(), 2.0.into()])?;
/// # Ok::<(), cuprite_core::Error>(())
/// ```
pub struct ElementwiseKernel {
    name: &'static str,
    ins: Vec<Param>,
    outs: Vec<Param>,
    placeholders: Vec<String>,
    body: String,
    preamble: String,
    options: Vec<String>,
    cache: Mutex<Vec<Entry>>,
}

/// One compiled instantiation: the device, the key of the argument types, the functions.
struct Entry {
    ordinal: usize,
    types: u64,
    scalars: u64,
    inst: Arc<Instance>,
}

struct Instance {
    funcs: [Func; 4],
    params: Vec<ParamInst>,
}

impl std::fmt::Debug for ElementwiseKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElementwiseKernel")
            .field("name", &self.name)
            .field("in_params", &self.ins)
            .field("out_params", &self.outs)
            .field("body", &self.body)
            .finish()
    }
}

impl ElementwiseKernel {
    /// Parses the parameter lists (errors name the parameter and what is wrong). Nothing is
    /// compiled until the first call for a given set of argument types.
    pub fn new(in_params: &str, out_params: &str, body: &str, name: &str) -> Result<Self> {
        check_kernel_name("ElementwiseKernel", name)?;
        let op = intern(name);
        let ins = parse_params(op, "input", in_params)?;
        let outs = parse_params(op, "output", out_params)?;
        if outs.is_empty() {
            return Err(Error::invalid(
                op,
                "an element-wise kernel needs at least one output",
            ));
        }
        if ins.len() + outs.len() > MAX_PARAMS {
            return Err(Error::invalid(
                op,
                format!("at most {MAX_PARAMS} parameters"),
            ));
        }
        let placeholders = check_all(op, &ins, &outs)?;
        Ok(ElementwiseKernel {
            name: op,
            ins,
            outs,
            placeholders,
            body: body.to_string(),
            preamble: String::new(),
            options: Vec::new(),
            cache: Mutex::new(Vec::new()),
        })
    }

    /// CUDA C placed before the kernel (helper functions, macros, constants).
    pub fn preamble(mut self, code: &str) -> Self {
        self.preamble = code.to_string();
        self
    }

    /// Extra NVRTC options (`-use_fast_math`, `-DN=4`, ...), after cuprite's own.
    pub fn options(mut self, options: &[&str]) -> Self {
        self.options = options.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// Runs the kernel on `args` (one per input parameter) and returns one new C-contiguous
    /// array per output parameter, of the broadcast shape of the non-raw array inputs.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a wrong number of arguments, a scalar for a raw
    /// parameter, a dtype other than the declared one, a placeholder bound to two dtypes, an
    /// unbound output placeholder, no array to take the shape from, or a compile error
    /// (with NVRTC's log and the user's line); [`Error::Broadcast`] for inputs that do not
    /// broadcast; [`Error::DeviceMismatch`] for arrays of two devices.
    pub fn call(&self, args: &[Arg]) -> Result<Vec<DynArray>> {
        self.run(args, None)
    }

    /// [`ElementwiseKernel::call`] for a kernel with one output, as a typed array (its dtype
    /// must be `T`).
    pub fn call1<T: Element>(&self, args: &[Arg]) -> Result<Array<T, Cuda>> {
        single_output(self.name, self.outs.len(), || self.run(args, None))
    }

    /// Runs the kernel writing into given outputs (`&mut` arrays, one per output parameter,
    /// each of exactly the broadcast shape of the non-raw inputs, or any shape for a raw
    /// output). A given output whose buffer is shared with other arrays gets its own copy
    /// first (copy-on-write), so the write reaches it alone.
    ///
    /// # Errors
    /// As [`ElementwiseKernel::call`], plus [`Error::ShapeMismatch`] for an output of
    /// another shape and [`Error::InvalidArgument`] for an output passed without `&mut` or
    /// whose elements overlap (a broadcast view).
    pub fn call_into(&self, args: &[Arg], outs: &mut [Arg]) -> Result<()> {
        self.run(args, Some(outs)).map(|_| ())
    }

    fn run(&self, args: &[Arg], mut given: Option<&mut [Arg]>) -> Result<Vec<DynArray>> {
        let op = self.name;
        check_counts(op, &self.ins, &self.outs, args, given.as_deref())?;
        let (binding, mask, dev) = bind(
            op,
            &self.ins,
            &self.outs,
            &self.placeholders,
            args,
            given.as_deref(),
        )?;
        let dev = dev.ok_or_else(|| {
            Error::invalid(
                op,
                "needs at least one array argument (the device and the shape come from the arrays)",
            )
        })?;
        // The index space: the broadcast shape of the non-raw inputs, else the outputs'.
        let shape = match broadcast_shape(op, &self.ins, args)? {
            Some(s) => s,
            None => match given.as_deref().and_then(|g| {
                self.outs
                    .iter()
                    .zip(g)
                    .find(|(p, _)| !p.raw)
                    .and_then(|(_, a)| a.array())
            }) {
                Some(a) => a.layout().shape().to_vec(),
                None => {
                    return Err(Error::invalid(
                        op,
                        "cannot tell the number of elements: no non-raw array input, and no \
                         non-raw output given (call_into)",
                    ))
                }
            },
        };
        let inst = self.instance(&dev, binding, mask)?;
        // Outputs: checked and made unique, or allocated.
        let mut fresh: Vec<DynArray> = Vec::new();
        if let Some(g) = given.as_deref_mut() {
            for (p, a) in self.outs.iter().zip(g.iter_mut()) {
                let arr = match &mut a.0 {
                    super::args::ArgKind::ArrayMut(arr) => arr,
                    _ => return Err(Error::invalid(op, "outputs must be mutable arrays")),
                };
                let l = arr.layout();
                if !p.raw && l.shape() != shape.as_slice() {
                    return Err(Error::ShapeMismatch {
                        op,
                        lhs: shape.clone(),
                        rhs: l.shape().to_vec(),
                    });
                }
                if !l.is_writeable_without_overlap() {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "output `{}` of shape {:?} and strides {:?} has elements that overlap \
                             (a broadcast view); pass a copy",
                            p.name,
                            l.shape(),
                            l.strides()
                        ),
                    ));
                }
                arr.make_unique()?;
            }
        } else {
            for (k, p) in self.outs.iter().enumerate() {
                if p.raw {
                    return Err(Error::invalid(
                        op,
                        format!("raw output `{}` must be given (call_into)", p.name),
                    ));
                }
                fresh.push(DynArray::alloc(
                    &dev,
                    inst.params[self.ins.len() + k].dtype,
                    &shape,
                )?);
            }
        }
        let n: usize = shape.iter().product();
        if n == 0 {
            return Ok(fresh);
        }
        // Every operand's layout over the index space.
        let mut layouts: Vec<Cow<Layout>> = Vec::with_capacity(inst.params.len());
        let outs_iter = self
            .outs
            .iter()
            .enumerate()
            .map(|(k, _)| match given.as_deref() {
                Some(g) => g[k].array(),
                None => Some(fresh[k].as_device_array()),
            });
        let arrays: Vec<Option<&dyn super::args::DeviceArray>> =
            args.iter().map(|a| a.array()).chain(outs_iter).collect();
        for (p, a) in inst.params.iter().zip(&arrays) {
            layouts.push(match (p.pass, a) {
                (Pass::InArray, Some(a)) if a.layout().shape() != shape.as_slice() => {
                    Cow::Owned(a.layout().broadcast_to(op, &shape)?)
                }
                (_, Some(a)) => Cow::Borrowed(a.layout()),
                (_, None) => Cow::Owned(Layout::contiguous(&[])),
            });
        }
        let contiguous = inst
            .params
            .iter()
            .zip(&layouts)
            .all(|(p, l)| !matches!(p.pass, Pass::InArray | Pass::Out) || l.is_c_contiguous());
        let strided = if contiguous {
            Vec::new()
        } else {
            let ls: Vec<&Layout> = inst
                .params
                .iter()
                .zip(&layouts)
                .filter(|(p, _)| matches!(p.pass, Pass::InArray | Pass::Out))
                .map(|(_, l)| &**l)
                .collect();
            coalesce(op, &ls)?
        };
        let mut raw_views: Vec<RawView> = Vec::new();
        for (p, (a, l)) in inst.params.iter().zip(arrays.iter().zip(&layouts)) {
            if let (Pass::InRaw | Pass::OutRaw, Some(a)) = (p.pass, a) {
                raw_views.push(RawView::new(op, a.base_ptr()?, l)?);
            }
        }
        let mut list = UserArgs::new(op, &dev);
        let (mut si, mut ri) = (0, 0);
        for (k, (p, a)) in inst.params.iter().zip(&arrays).enumerate() {
            match (p.pass, a) {
                // Contiguous: the address of the array's first element (its operand layout
                // is C-contiguous, hence so is its own view, with the same offset and size).
                (Pass::InArray | Pass::Out, Some(a)) if contiguous => list.array(*a)?,
                (Pass::InArray | Pass::Out, Some(a)) => {
                    list.strided(*a, &strided[si])?;
                    si += 1;
                }
                (Pass::InScalar, _) => {
                    let s = args[k]
                        .scalar()
                        .ok_or_else(|| Error::invalid(op, "scalar expected"))?;
                    list.scalar(scalar_for(op, &self.ins[k], p.dtype, s)?);
                }
                (Pass::InRaw | Pass::OutRaw, Some(a)) => {
                    list.raw(*a, &raw_views[ri])?;
                    ri += 1;
                }
                _ => {
                    return Err(Error::invalid(
                        op,
                        format!("argument `{}` is missing", p.name),
                    ))
                }
            }
        }
        list.scalar(ScalarArg::U64(n as u64));
        let wide = n >= (1usize << 31);
        let v = match (contiguous, wide) {
            (true, false) => 0,
            (true, true) => 1,
            (false, false) => 2,
            (false, true) => 3,
        };
        let grid = dev.grid_for(n, 1);
        // The arguments follow the kernel's parameter list as generated from `inst.params`
        // (pointers, `Strided` views, `RawArray` views, scalars of the resolved C types, then
        // the element count); the arrays and outputs outlive the launch's queueing.
        list.launch(inst.funcs[v], (grid, 1, 1), (BLOCK, 1, 1), 0)?;
        Ok(fresh)
    }

    /// The compiled instance for these argument types on `dev` (compiled on first use).
    fn instance(&self, dev: &Cuda, b: super::params::Binding, mask: u64) -> Result<Arc<Instance>> {
        let ordinal = dev.ordinal();
        let key = b.key();
        {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = cache
                .iter()
                .find(|e| e.ordinal == ordinal && e.types == key && e.scalars == mask)
            {
                return Ok(e.inst.clone());
            }
        }
        let op = self.name;
        let mut params = Vec::with_capacity(self.ins.len() + self.outs.len());
        for (k, p) in self.ins.iter().enumerate() {
            let pass = if p.raw {
                Pass::InRaw
            } else if mask & (1 << k) != 0 {
                Pass::InScalar
            } else {
                Pass::InArray
            };
            params.push(ParamInst {
                name: p.name.clone(),
                dtype: dtype_of(op, p, &self.placeholders, &b)?,
                pass,
            });
        }
        for p in &self.outs {
            params.push(ParamInst {
                name: p.name.clone(),
                dtype: dtype_of(op, p, &self.placeholders, &b)?,
                pass: if p.raw { Pass::OutRaw } else { Pass::Out },
            });
        }
        let typedefs: Vec<(String, cuprite_core::DType)> = self
            .placeholders
            .iter()
            .zip(b.types)
            .filter_map(|(t, d)| Some((t.clone(), d?)))
            .collect();
        let source = src::source(op, &params, &typedefs, &self.preamble, &self.body);
        let opts: Vec<&str> = self.options.iter().map(|s| s.as_str()).collect();
        let module_key = format!(
            "user-elementwise|{op}|{}",
            hash_hex(&[&source, &self.options.join("\u{1}")])
        );
        let user = [
            ("preamble", self.preamble.as_str()),
            ("body", self.body.as_str()),
        ];
        let names = src::kernel_names(op);
        let mut source = Some(source);
        let mut funcs = Vec::with_capacity(4);
        for n in &names {
            funcs.push(compile::compile(
                dev,
                op,
                &module_key,
                n,
                &opts,
                &user,
                || source.take().unwrap_or_default(),
            )?);
        }
        let inst = Arc::new(Instance {
            funcs: [funcs[0], funcs[1], funcs[2], funcs[3]],
            params,
        });
        self.cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Entry {
                ordinal,
                types: key,
                scalars: mask,
                inst: inst.clone(),
            });
        Ok(inst)
    }
}
