//! [`ReductionKernel`]: a CuPy-style reduction whose map, reduce and post-map steps are CUDA C
//! expressions, over any set of axes, compiled per argument types like `ElementwiseKernel`.

use super::args::{single_output, Arg, ArgKind, DeviceArray, DynArray, ScalarArg};
use super::compile::{self, hash_hex, intern};
use super::elementwise::MAX_PARAMS;
use super::elementwise_src::{ParamInst, Pass};
use super::params::{
    check_all, check_kernel_name, dtype_named, parse_params, Binding, Param, TypeSpec,
};
use super::reduction_src::{self as src, Exprs};
use super::resolve::{bind, broadcast_shape, check_counts, dtype_of, scalar_for};
use crate::device::Cuda;
use crate::ffi::launch::UserArgs;
use crate::launch::{coalesce, Strided};
use crate::modules::Func;
use cuprite_core::{Array, Axes, DType, Element, Error, Layout, Result};
use std::sync::{Arc, Mutex};

/// A reduction written in CUDA C expressions, CuPy's `cupy.ReductionKernel`.
///
/// For each output element, every input element of the reduced axes is mapped by
/// `map_expr` (over the input names) to the reduce type, the mapped values are combined
/// pairwise by `reduce_expr` (over `a` and `b`, which must be associative and commutative)
/// starting from `identity`, and `post_map_expr` assigns the outputs from the result `a`
/// (`_in_ind.size()` and `_out_ind.size()` give the input and output element counts). The
/// reduce type, `type_reduce` in the expressions, is the first input's type unless
/// [`ReductionKernel::reduce_type`] names another (a dtype or a placeholder). Inputs are
/// broadcast together; parameters cannot be `raw`.
///
/// An empty reduction gives `post_map(identity)`; an empty output shape launches nothing.
///
/// ```no_run
/// use cuprite_core::{Array, Axes};
/// use cuprite_cuda::kernel::ReductionKernel;
/// use cuprite_cuda::Cuda;
///
/// let dev = Cuda::new(0)?;
/// let l2norm = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")?;
/// let x = Array::<f32, Cuda>::ones(&[4, 100], &dev)?;
/// let rows = l2norm.call1::<f32>(&[(&x).into()], -1, false)?; // shape [4], each 10
/// let all = l2norm.call1::<f32>(&[(&x).into()], Axes::All, false)?; // 0-d, 20
/// let max = ReductionKernel::new("T x", "T y", "x", "max(a, b)", "y = a", "-INFINITY", "amax")?;
/// let m = max.call1::<f32>(&[(&x).into()], [0], true)?; // shape [1, 100]
/// # Ok::<(), cuprite_core::Error>(())
/// ```
pub struct ReductionKernel {
    name: &'static str,
    ins: Vec<Param>,
    outs: Vec<Param>,
    placeholders: Vec<String>,
    map: String,
    reduce: String,
    post_map: String,
    identity: String,
    reduce_type: Option<TypeSpec>,
    preamble: String,
    options: Vec<String>,
    cache: Mutex<Vec<CacheEntry>>,
}

/// A compiled instance by (device ordinal, placeholder dtypes, scalar-input mask).
type CacheEntry = (usize, u64, u64, Arc<Instance>);

struct Instance {
    funcs: [Func; 4],
    params: Vec<ParamInst>,
    reduce_type: DType,
}

impl std::fmt::Debug for ReductionKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReductionKernel")
            .field("name", &self.name)
            .field("map_expr", &self.map)
            .field("reduce_expr", &self.reduce)
            .field("post_map_expr", &self.post_map)
            .field("identity", &self.identity)
            .finish()
    }
}

/// Threads per block of the block and chunk kernels.
const RED_BLOCK: u32 = 256;

impl ReductionKernel {
    /// Parses the parameter lists; nothing is compiled until the first call.
    pub fn new(
        in_params: &str,
        out_params: &str,
        map_expr: &str,
        reduce_expr: &str,
        post_map_expr: &str,
        identity: &str,
        name: &str,
    ) -> Result<Self> {
        check_kernel_name("ReductionKernel", name)?;
        let op = intern(name);
        let ins = parse_params(op, "input", in_params)?;
        let outs = parse_params(op, "output", out_params)?;
        if ins.is_empty() || outs.is_empty() {
            return Err(Error::invalid(
                op,
                "a reduction needs at least one input and one output",
            ));
        }
        if ins.len() + outs.len() > MAX_PARAMS {
            return Err(Error::invalid(
                op,
                format!("at most {MAX_PARAMS} parameters"),
            ));
        }
        if let Some(p) = ins.iter().chain(&outs).find(|p| p.raw) {
            return Err(Error::invalid(
                op,
                format!(
                    "`{}`: raw parameters are not supported by a reduction",
                    p.name
                ),
            ));
        }
        if let Some(p) = ins
            .iter()
            .chain(&outs)
            .find(|p| ["a", "b", "type_reduce"].contains(&p.name.as_str()))
        {
            return Err(Error::invalid(
                op,
                format!(
                    "the name `{}` is reserved in a reduction (a, b, type_reduce)",
                    p.name
                ),
            ));
        }
        if identity.trim().is_empty() {
            return Err(Error::invalid(
                op,
                "the identity must be a CUDA C expression (\"0\", \"-INFINITY\")",
            ));
        }
        let placeholders = check_all(op, &ins, &outs)?;
        Ok(ReductionKernel {
            name: op,
            ins,
            outs,
            placeholders,
            map: map_expr.into(),
            reduce: reduce_expr.into(),
            post_map: post_map_expr.into(),
            identity: identity.into(),
            reduce_type: None,
            preamble: String::new(),
            options: Vec::new(),
            cache: Mutex::new(Vec::new()),
        })
    }

    /// The type the reduction accumulates in: a dtype name (`"float64"`) or one of the
    /// kernel's placeholders. An unknown name is an error.
    pub fn reduce_type(mut self, ty: &str) -> Result<Self> {
        let ty = ty.trim();
        self.reduce_type = Some(if let Some(d) = dtype_named(ty) {
            TypeSpec::Concrete(d)
        } else if self.placeholders.iter().any(|p| p == ty) {
            TypeSpec::Placeholder(ty.to_string())
        } else {
            return Err(Error::invalid(
                self.name,
                format!("reduce type `{ty}` is neither a dtype nor a placeholder of the kernel"),
            ));
        });
        Ok(self)
    }

    /// CUDA C placed before the kernel (after the placeholder `typedef`s).
    pub fn preamble(mut self, code: &str) -> Self {
        self.preamble = code.to_string();
        self
    }

    /// Extra NVRTC options, after cuprite's own.
    pub fn options(mut self, options: &[&str]) -> Self {
        self.options = options.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// Reduces over `axes` (`Axes::All`, an axis, or a list; negative axes count from the
    /// end) of the
    /// broadcast inputs; returns one new array per output, of the kept axes (with length-1
    /// axes in place of the reduced ones when `keepdims`).
    ///
    /// # Errors
    /// As `ElementwiseKernel::call`, plus the errors of [`Axes::resolve`] for axes out of
    /// range or repeated.
    pub fn call(
        &self,
        args: &[Arg],
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Vec<DynArray>> {
        self.run(args, axes.into(), keepdims, None)
    }

    /// [`ReductionKernel::call`] for a kernel with one output, as a typed array.
    pub fn call1<T: Element>(
        &self,
        args: &[Arg],
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T, Cuda>> {
        single_output(self.name, self.outs.len(), || {
            self.run(args, axes.into(), keepdims, None)
        })
    }

    /// [`ReductionKernel::call`] writing into given outputs (`&mut` arrays of exactly the
    /// result's shape; shared buffers are copied first).
    pub fn call_into(
        &self,
        args: &[Arg],
        axes: impl Into<Axes>,
        keepdims: bool,
        outs: &mut [Arg],
    ) -> Result<()> {
        self.run(args, axes.into(), keepdims, Some(outs))
            .map(|_| ())
    }

    fn run(
        &self,
        args: &[Arg],
        axes: Axes,
        keepdims: bool,
        mut given: Option<&mut [Arg]>,
    ) -> Result<Vec<DynArray>> {
        let op = self.name;
        check_counts(op, &self.ins, &self.outs, args, given.as_deref())?;
        let (b, mask, dev) = bind(
            op,
            &self.ins,
            &self.outs,
            &self.placeholders,
            args,
            given.as_deref(),
        )?;
        let shape = broadcast_shape(op, &self.ins, args)?
            .ok_or_else(|| Error::invalid(op, "a reduction needs at least one array input"))?;
        let dev =
            dev.ok_or_else(|| Error::invalid(op, "a reduction needs at least one array input"))?;
        let nd = shape.len();
        let axes: Vec<usize> = match axes {
            Axes::All => (0..nd).collect(),
            some => some.resolve(op, nd)?,
        };
        let kept: Vec<usize> = (0..nd).filter(|d| !axes.contains(d)).collect();
        let kept_shape: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
        let out_shape: Vec<usize> = if keepdims {
            (0..nd)
                .map(|d| if axes.contains(&d) { 1 } else { shape[d] })
                .collect()
        } else {
            kept_shape.clone()
        };
        let inst = self.instance(&dev, b, mask)?;
        let mut fresh = Vec::new();
        if let Some(g) = given.as_deref_mut() {
            for (p, a) in self.outs.iter().zip(g.iter_mut()) {
                let ArgKind::ArrayMut(arr) = &mut a.0 else {
                    return Err(Error::invalid(op, "outputs must be mutable arrays"));
                };
                if arr.layout().shape() != out_shape.as_slice() {
                    return Err(Error::ShapeMismatch {
                        op,
                        lhs: out_shape.clone(),
                        rhs: arr.layout().shape().to_vec(),
                    });
                }
                if !arr.layout().is_writeable_without_overlap() {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "output `{}` has elements that overlap (a broadcast view)",
                            p.name
                        ),
                    ));
                }
                arr.make_unique()?;
            }
        } else {
            for (k, _) in self.outs.iter().enumerate() {
                fresh.push(DynArray::alloc(
                    &dev,
                    inst.params[self.ins.len() + k].dtype,
                    &out_shape,
                )?);
            }
        }
        let n_out: usize = kept_shape.iter().product();
        if n_out == 0 {
            return Ok(fresh);
        }
        let rsize: usize = axes.iter().map(|&d| shape[d]).product();
        let n_in: usize = shape.iter().product();
        // Kept views of the array inputs and the outputs (coalesced together), reduced views
        // of the array inputs (coalesced together, offset 0).
        let mut kept_l: Vec<Layout> = Vec::new();
        let mut red_l: Vec<Layout> = Vec::new();
        let mut arrays: Vec<&dyn DeviceArray> = Vec::new();
        for (p, a) in inst.params.iter().zip(args) {
            if p.pass != Pass::InArray {
                continue;
            }
            let arr = a
                .array()
                .ok_or_else(|| Error::invalid(op, "array expected"))?;
            let l = if arr.layout().shape() == shape.as_slice() {
                arr.layout().clone()
            } else {
                arr.layout().broadcast_to(op, &shape)?
            };
            let pick = |ds: &[usize], off: usize| {
                Layout::new(
                    ds.iter().map(|&d| l.shape()[d]).collect(),
                    ds.iter().map(|&d| l.strides()[d]).collect(),
                    off,
                )
            };
            kept_l.push(pick(&kept, l.offset()));
            red_l.push(pick(&axes, 0));
            arrays.push(arr);
        }
        let n_in_arrays = kept_l.len();
        for k in 0..self.outs.len() {
            let arr = match given.as_deref() {
                Some(g) => g[k]
                    .array()
                    .ok_or_else(|| Error::invalid(op, "array expected"))?,
                None => fresh[k].as_device_array(),
            };
            let l = arr.layout();
            let (shape_k, strides_k): (Vec<usize>, Vec<isize>) = if keepdims {
                kept.iter().map(|&d| (l.shape()[d], l.strides()[d])).unzip()
            } else {
                (l.shape().to_vec(), l.strides().to_vec())
            };
            kept_l.push(Layout::new(shape_k, strides_k, l.offset()));
            arrays.push(arr);
        }
        let kept_s = coalesce(op, &kept_l.iter().collect::<Vec<_>>())?;
        let red_s = coalesce(op, &red_l.iter().collect::<Vec<_>>())?;
        let plan = plan(
            &kept_s[0],
            &red_s[0],
            n_out,
            rsize,
            dev.multiprocessor_count() as usize,
        );
        let rt = inst.reduce_type;
        let mut list = UserArgs::new(op, &dev);
        let (mut ai, mut oi) = (0usize, 0usize);
        for (k, p) in inst.params.iter().enumerate() {
            match p.pass {
                Pass::InArray => {
                    list.split(arrays[ai], &kept_s[ai], &red_s[ai])?;
                    ai += 1;
                }
                Pass::InScalar => {
                    let s = args[k]
                        .scalar()
                        .ok_or_else(|| Error::invalid(op, "scalar expected"))?;
                    list.scalar(scalar_for(op, &self.ins[k], p.dtype, s)?);
                }
                _ => {
                    let o = n_in_arrays + oi;
                    list.strided(arrays[o], &kept_s[o])?;
                    oi += 1;
                }
            }
        }
        for v in [n_out, rsize, n_in] {
            list.scalar(ScalarArg::I64(v as i64));
        }
        // The arguments follow the kernels' generated parameter list; the partial results of
        // a split reduction live until both launches are queued (freed stream-ordered).
        match plan {
            Plan::Thread => {
                let grid = dev.grid_for(n_out, 1);
                launch(&mut list, inst.funcs[0], grid, 256)?;
            }
            Plan::Block { threads } => {
                let grid = n_out.min(dev.multiprocessor_count() as usize * 32) as u32;
                launch(&mut list, inst.funcs[1], grid, threads)?;
            }
            Plan::Split {
                chunks,
                chunk,
                final_threads,
            } => {
                let part = dev.alloc::<u8>(n_out * chunks * rt.size_of())?;
                let mut list2 = list.clone();
                for l in [&mut list, &mut list2] {
                    l.buffer(&part)?;
                    l.scalar(ScalarArg::I64(chunks as i64));
                    l.scalar(ScalarArg::I64(chunk as i64));
                }
                let g1 = (n_out * chunks).min(u32::MAX as usize) as u32;
                launch(&mut list, inst.funcs[2], g1, RED_BLOCK)?;
                let g2 = n_out.min(dev.multiprocessor_count() as usize * 32) as u32;
                launch(&mut list2, inst.funcs[3], g2, final_threads)?;
                drop(part);
            }
        }
        Ok(fresh)
    }

    fn instance(&self, dev: &Cuda, b: Binding, mask: u64) -> Result<Arc<Instance>> {
        let (ordinal, key) = (dev.ordinal(), b.key());
        {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = cache
                .iter()
                .find(|e| e.0 == ordinal && e.1 == key && e.2 == mask)
            {
                return Ok(e.3.clone());
            }
        }
        let op = self.name;
        let mut params = Vec::new();
        for (k, p) in self.ins.iter().enumerate() {
            params.push(ParamInst {
                name: p.name.clone(),
                dtype: dtype_of(op, p, &self.placeholders, &b)?,
                pass: if mask & (1 << k) != 0 {
                    Pass::InScalar
                } else {
                    Pass::InArray
                },
            });
        }
        for p in &self.outs {
            params.push(ParamInst {
                name: p.name.clone(),
                dtype: dtype_of(op, p, &self.placeholders, &b)?,
                pass: Pass::Out,
            });
        }
        let reduce_type = match &self.reduce_type {
            Some(t) => dtype_of(
                op,
                &Param {
                    name: "type_reduce".into(),
                    ty: t.clone(),
                    raw: false,
                },
                &self.placeholders,
                &b,
            )?,
            None => params[0].dtype,
        };
        let typedefs: Vec<(String, DType)> = self
            .placeholders
            .iter()
            .zip(b.types)
            .filter_map(|(t, d)| Some((t.clone(), d?)))
            .collect();
        let e = Exprs {
            map: &self.map,
            reduce: &self.reduce,
            post_map: &self.post_map,
            identity: &self.identity,
            preamble: &self.preamble,
        };
        let source = src::source(op, &params, &typedefs, reduce_type, &e);
        let module_key = format!(
            "user-reduction|{op}|{}",
            hash_hex(&[&source, &self.options.join("\u{1}")])
        );
        let opts: Vec<&str> = self.options.iter().map(|s| s.as_str()).collect();
        let user = [
            ("preamble", e.preamble),
            ("map_expr", e.map),
            ("reduce_expr", e.reduce),
            ("post_map_expr", e.post_map),
            ("identity", e.identity),
        ];
        let mut source = Some(source);
        let mut funcs = Vec::with_capacity(4);
        for n in &src::kernel_names(op) {
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
            reduce_type,
        });
        self.cache.lock().unwrap_or_else(|p| p.into_inner()).push((
            ordinal,
            key,
            mask,
            inst.clone(),
        ));
        Ok(inst)
    }
}

/// How a reduction is spread over the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// A thread per output.
    Thread,
    /// A block of `threads` per output.
    Block { threads: u32 },
    /// `chunks` blocks per output of `chunk` reduced elements each, then a combining block of
    /// `final_threads` per output.
    Split {
        chunks: usize,
        chunk: usize,
        final_threads: u32,
    },
}

/// The smallest power of two >= `n`, between 32 and 256.
fn block_threads(n: usize) -> u32 {
    n.next_power_of_two().clamp(32, RED_BLOCK as usize) as u32
}

/// Picks the plan from the first input's coalesced kept and reduced views.
pub(crate) fn plan(kept: &Strided, red: &Strided, n_out: usize, rsize: usize, sms: usize) -> Plan {
    let inner = |s: &Strided| {
        if s.ndim == 0 {
            0
        } else {
            s.strides[s.ndim as usize - 1].unsigned_abs()
        }
    };
    let red_contig = red.ndim == 0 || (red.ndim == 1 && red.strides[0] == 1);
    if rsize == 0 {
        return Plan::Thread;
    }
    if n_out >= 1024 && (rsize <= 16 || (!red_contig && inner(kept) == 1)) {
        return Plan::Thread;
    }
    if n_out >= 2 * sms {
        return Plan::Block {
            threads: block_threads(rsize),
        };
    }
    let chunks = (8 * sms).div_ceil(n_out).min(rsize.div_ceil(4096)).max(1);
    if chunks == 1 {
        return Plan::Block {
            threads: block_threads(rsize),
        };
    }
    let chunk = rsize.div_ceil(chunks);
    let chunks = rsize.div_ceil(chunk);
    Plan::Split {
        chunks,
        chunk,
        final_threads: block_threads(chunks),
    }
}

/// Launches one reduction kernel on `grid` blocks (at least one) of `threads`.
fn launch(args: &mut UserArgs, f: Func, grid: u32, threads: u32) -> Result<()> {
    args.launch(f, (grid.max(1), 1, 1), (threads, 1, 1), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(shape: &[i64], strides: &[i64]) -> Strided {
        let mut s = Strided {
            ndim: shape.len() as i32,
            ..Default::default()
        };
        s.shape[..shape.len()].copy_from_slice(shape);
        s.strides[..strides.len()].copy_from_slice(strides);
        s
    }

    #[test]
    fn plans_fit_the_shape_of_the_reduction() {
        let none = view(&[], &[]);
        // A full reduction of 10M elements: split into chunks across the device.
        match plan(&none, &view(&[10_000_000], &[1]), 1, 10_000_000, 132) {
            Plan::Split {
                chunks,
                chunk,
                final_threads,
            } => {
                assert_eq!(chunks, 1056);
                assert!(chunks * chunk >= 10_000_000 && (chunks - 1) * chunk < 10_000_000);
                assert_eq!(final_threads, 256);
            }
            p => panic!("{p:?}"),
        }
        // Rows of a matrix: a block per row.
        assert_eq!(
            plan(
                &view(&[1000], &[1000]),
                &view(&[1000], &[1]),
                1000,
                1000,
                132
            ),
            Plan::Block { threads: 256 }
        );
        // Columns (sum over axis 0): a thread per output, reads coalesced across threads.
        assert_eq!(
            plan(
                &view(&[4096], &[1]),
                &view(&[1000], &[4096]),
                4096,
                1000,
                132
            ),
            Plan::Thread
        );
        // Short rows: a thread per output.
        assert_eq!(
            plan(&view(&[100000], &[4]), &view(&[4], &[1]), 100000, 4, 132),
            Plan::Thread
        );
        // An empty reduction: the identity per output.
        assert_eq!(
            plan(&view(&[5], &[1]), &view(&[0], &[1]), 5, 0, 132),
            Plan::Thread
        );
        // Few outputs of small reductions: one block each.
        assert_eq!(
            plan(&view(&[2], &[10]), &view(&[10], &[1]), 2, 10, 132),
            Plan::Block { threads: 32 }
        );
    }
}
