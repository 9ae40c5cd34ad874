//! Matching the arguments of one call of an `ElementwiseKernel` or `ReductionKernel` against
//! its parameters: counts, array or scalar, dtypes, placeholder binding (arrays first, then
//! scalars for placeholders no array binds), the device, and the broadcast shape.

use super::args::{Arg, ArgKind, ScalarArg};
use super::params::{resolve, Binding, Param, TypeSpec};
use crate::device::Cuda;
use cuprite_core::{broadcast_shapes, DType, Error, Result};

/// The names of `params`, for messages: `(x, y)`.
fn names(params: &[Param]) -> String {
    let v: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    format!("({})", v.join(", "))
}

/// Checks the number of inputs (and of given outputs).
pub(crate) fn check_counts(
    op: &'static str,
    ins: &[Param],
    outs: &[Param],
    args: &[Arg],
    given: Option<&[Arg]>,
) -> Result<()> {
    if args.len() != ins.len() {
        return Err(Error::invalid(
            op,
            format!(
                "expects {} input arguments {}, got {}",
                ins.len(),
                names(ins),
                args.len()
            ),
        ));
    }
    if let Some(g) = given {
        if g.len() != outs.len() {
            return Err(Error::invalid(
                op,
                format!(
                    "expects {} output arrays {}, got {}",
                    outs.len(),
                    names(outs),
                    g.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Binds the placeholders and checks each argument's kind and concrete dtype. Returns the
/// binding, the mask of inputs passed as scalars (bit k for input k) and the device of the
/// arrays (`None` when no argument is an array).
pub(crate) fn bind(
    op: &'static str,
    ins: &[Param],
    outs: &[Param],
    placeholders: &[String],
    args: &[Arg],
    given: Option<&[Arg]>,
) -> Result<(Binding, u64, Option<Cuda>)> {
    let mut st = State {
        op,
        placeholders,
        b: Binding::default(),
        mask: 0,
        dev: None,
    };
    for (k, (p, a)) in ins.iter().zip(args).enumerate() {
        st.check(k, p, a, "input")?;
    }
    for (k, (p, a)) in outs.iter().zip(given.unwrap_or(&[])).enumerate() {
        st.check(k, p, a, "output")?;
    }
    // Scalars bind only the placeholders no array bound.
    let snapshot = st.b;
    for (p, a) in ins.iter().zip(args) {
        if let (Some(s), TypeSpec::Placeholder(t)) = (a.scalar(), &p.ty) {
            let i = placeholders.iter().position(|x| x == t).unwrap_or(0);
            if snapshot.types[i].is_none() {
                let d = s.ctype().dtype().ok_or_else(|| {
                    Error::invalid(
                        op,
                        format!(
                            "input `{}` binds placeholder {t} to {}, which is not a cuprite dtype",
                            p.name,
                            s.ctype()
                        ),
                    )
                })?;
                st.b.bind(op, i, t, &p.name, d)?;
            }
        }
    }
    Ok((st.b, st.mask, st.dev))
}

struct State<'p> {
    op: &'static str,
    placeholders: &'p [String],
    b: Binding,
    mask: u64,
    dev: Option<Cuda>,
}

impl State<'_> {
    /// Checks argument `a` for parameter `p` (number `k` of its list) and binds by arrays.
    fn check(&mut self, k: usize, p: &Param, a: &Arg, what: &str) -> Result<()> {
        let op = self.op;
        let Some(arr) = a.array() else {
            if what == "output" {
                return Err(Error::invalid(
                    op,
                    format!("output `{}` must be an array, got {}", p.name, a.describe()),
                ));
            }
            if p.raw {
                return Err(Error::invalid(
                    op,
                    format!(
                        "raw parameter `{}` takes an array, got {}",
                        p.name,
                        a.describe()
                    ),
                ));
            }
            self.mask |= 1 << k;
            return Ok(());
        };
        if what == "output" && !matches!(a.0, ArgKind::ArrayMut(_)) {
            return Err(Error::invalid(
                op,
                format!(
                    "output `{}` must be passed as a mutable array (`&mut a`)",
                    p.name
                ),
            ));
        }
        match &self.dev {
            None => self.dev = Some(arr.cuda().clone()),
            Some(d) if d == arr.cuda() => {}
            Some(d) => {
                return Err(Error::DeviceMismatch {
                    op,
                    lhs: format!("cuda:{}", d.ordinal()),
                    rhs: format!("cuda:{}", arr.cuda().ordinal()),
                })
            }
        }
        let got = arr.dtype();
        match &p.ty {
            TypeSpec::Concrete(d) if *d != got => Err(Error::invalid(
                op,
                format!("{what} `{}` expects {d}, got {}", p.name, a.describe()),
            )),
            TypeSpec::Concrete(_) => Ok(()),
            TypeSpec::Placeholder(t) => {
                let i = self.placeholders.iter().position(|x| x == t).unwrap_or(0);
                self.b.bind(op, i, t, &p.name, got)
            }
        }
    }
}

/// The dtype of parameter `p` under `b`; an unbound placeholder is an error.
pub(crate) fn dtype_of(
    op: &'static str,
    p: &Param,
    placeholders: &[String],
    b: &Binding,
) -> Result<DType> {
    resolve(&p.ty, placeholders, b).ok_or_else(|| {
        let t = match &p.ty {
            TypeSpec::Placeholder(t) => t.as_str(),
            TypeSpec::Concrete(_) => "",
        };
        Error::invalid(
            op,
            format!(
                "type placeholder {t} of `{}` is not bound by any input; pass the output \
                 arrays (call_into) to fix it",
                p.name
            ),
        )
    })
}

/// The scalar `s` for parameter `p` of dtype `d` (see [`ScalarArg::convert_to`]).
pub(crate) fn scalar_for(op: &'static str, p: &Param, d: DType, s: ScalarArg) -> Result<ScalarArg> {
    s.convert_to(d).ok_or_else(|| {
        Error::invalid(
            op,
            format!(
                "input `{}` expects {d}, got a scalar of type {} that does not convert to it \
                 without loss of kind or range",
                p.name,
                s.ctype()
            ),
        )
    })
}

/// The broadcast shape of the non-raw array inputs (`None` when there is none).
pub(crate) fn broadcast_shape(
    op: &'static str,
    ins: &[Param],
    args: &[Arg],
) -> Result<Option<Vec<usize>>> {
    let mut shape: Option<Vec<usize>> = None;
    for (p, a) in ins.iter().zip(args) {
        if p.raw {
            continue;
        }
        if let Some(arr) = a.array() {
            let s = arr.layout().shape();
            shape = Some(match shape {
                None => s.to_vec(),
                Some(prev) if prev == s => prev,
                Some(prev) => broadcast_shapes(op, &prev, s)?,
            });
        }
    }
    Ok(shape)
}
