//! [`Array::einsum`]: Einstein summation with NumPy's subscript language (explicit and implicit
//! output, repeated subscripts for diagonals and traces, `...` broadcasting, size-1
//! broadcasting). Operands become views (diagonals are stride sums, no copy); they are then
//! contracted pairwise along NumPy's greedy path (`products_vec.rs`), each pair as one
//! batched GEMM: labels shared and still needed are batch
//! axes, labels shared and no longer needed are the summed `k` axis, the others are `m`/`n`.
//! A label only one operand carries and nobody needs is summed first by a product with a
//! vector of ones, so every sum goes through the same GEMM primitive.

use crate::array::Array;
use crate::array::products_vec::{ELLIPSIS, EinsumPath, Label, LabelSet, Path};
use crate::backend::ArrayBackend;
use crate::dtype::Numeric;
use crate::error::{Error, Result};
use crate::layout::{Layout, shape_size};

const OP: &str = "einsum";

fn label_name(l: Label) -> String {
    if l >= ELLIPSIS {
        format!("'...' dimension {}", l - ELLIPSIS)
    } else {
        format!("subscript '{}'", char::from_u32(l).unwrap_or('?'))
    }
}

/// Parses one term: its letter labels and the position of its ellipsis, if any.
fn parse_term(term: &str, what: &str) -> Result<(Vec<Label>, Option<usize>)> {
    let chars: Vec<char> = term.chars().collect();
    let (mut labels, mut ell) = (Vec::new(), None);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() {
            labels.push(c as Label);
            i += 1;
        } else if c == '.' {
            if chars.get(i + 1) != Some(&'.') || chars.get(i + 2) != Some(&'.') {
                return Err(Error::invalid(
                    OP,
                    format!("'.' that is not part of an ellipsis '...' in {what} {term:?}"),
                ));
            }
            if ell.is_some() {
                return Err(Error::invalid(
                    OP,
                    format!("more than one ellipsis '...' in {what} {term:?}"),
                ));
            }
            ell = Some(labels.len());
            i += 3;
        } else {
            return Err(Error::invalid(
                OP,
                format!(
                    "invalid subscript character {c:?} in {what} {term:?} (only letters a-z, \
                     A-Z and '...' are allowed)"
                ),
            ));
        }
    }
    Ok((labels, ell))
}

/// A parsed specification: the labels of every operand (ellipses expanded) and of the output.
struct Spec {
    inputs: Vec<Vec<Label>>,
    output: Vec<Label>,
}

fn parse<T: Numeric, B: ArrayBackend>(subscripts: &str, operands: &[&Array<T, B>]) -> Result<Spec> {
    let s: String = subscripts.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match s.find("->") {
        Some(p) => (&s[..p], Some(&s[p + 2..])),
        None => (&s[..], None),
    };
    if lhs.contains(['-', '>']) || rhs.is_some_and(|r| r.contains(['-', '>'])) {
        return Err(Error::invalid(
            OP,
            format!("malformed output arrow in subscripts {subscripts:?} (use one '->')"),
        ));
    }
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != operands.len() {
        return Err(Error::invalid(
            OP,
            format!(
                "subscripts {subscripts:?} name {} operand(s) but {} were given",
                terms.len(),
                operands.len()
            ),
        ));
    }
    let mut parsed = Vec::with_capacity(terms.len());
    let mut ell_max = 0;
    for (i, (term, x)) in terms.iter().zip(operands).enumerate() {
        let (labels, ell) = parse_term(term, &format!("operand {i}"))?;
        let nd = x.ndim();
        let fits = match ell {
            None => labels.len() == nd,
            Some(_) => labels.len() <= nd,
        };
        if !fits {
            return Err(Error::invalid(
                OP,
                format!(
                    "subscripts {term:?} of operand {i} name {} axes but the operand has shape \
                     {:?}",
                    labels.len(),
                    x.shape()
                ),
            ));
        }
        let e = nd - labels.len();
        ell_max = ell_max.max(e);
        parsed.push((labels, ell, e));
    }
    let expand = |labels: &[Label], ell: Option<usize>, e: usize| -> Vec<Label> {
        match ell {
            None => labels.to_vec(),
            Some(p) => {
                let mut v = labels[..p].to_vec();
                v.extend((ell_max - e..ell_max).map(|d| ELLIPSIS + d as Label));
                v.extend_from_slice(&labels[p..]);
                v
            }
        }
    };
    let inputs: Vec<Vec<Label>> = parsed.iter().map(|(l, p, e)| expand(l, *p, *e)).collect();
    let output = match rhs {
        Some(r) => {
            let (labels, ell) = parse_term(r, "the output")?;
            for (i, &l) in labels.iter().enumerate() {
                if !inputs.iter().any(|t| t.contains(&l)) {
                    return Err(Error::invalid(
                        OP,
                        format!("output {} does not appear in any input", label_name(l)),
                    ));
                }
                if labels[..i].contains(&l) {
                    return Err(Error::invalid(
                        OP,
                        format!("output {} appears more than once", label_name(l)),
                    ));
                }
            }
            if ell.is_none() && ell_max > 0 {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "the operands have {ell_max} '...' dimension(s) but the output {r:?} \
                         has no '...' to hold them"
                    ),
                ));
            }
            expand(&labels, ell, ell_max)
        }
        None => {
            let mut out: Vec<Label> = (0..ell_max).map(|d| ELLIPSIS + d as Label).collect();
            let mut once: Vec<Label> = Vec::new();
            for &l in inputs.iter().flatten() {
                if l < ELLIPSIS && inputs.iter().flatten().filter(|&&x| x == l).count() == 1 {
                    once.push(l);
                }
            }
            once.sort_unstable();
            out.extend(once);
            out
        }
    };
    Ok(Spec { inputs, output })
}

/// An operand during the contraction: a view and the label of each of its axes (distinct).
struct Term<T: Numeric, B: ArrayBackend> {
    x: Array<T, B>,
    labels: Vec<Label>,
}

impl<T: Numeric, B: ArrayBackend> Term<T, B> {
    fn dim(&self, l: Label) -> Option<usize> {
        self.labels
            .iter()
            .position(|&x| x == l)
            .map(|p| self.x.shape()[p])
    }

    /// Reorders the axes to the labels `order` (a permutation of the term's labels).
    fn permuted(&self, order: &[Label]) -> Result<Array<T, B>> {
        let perm: Vec<isize> = order
            .iter()
            .map(|l| self.labels.iter().position(|x| x == l).unwrap_or(0) as isize)
            .collect();
        Ok(self.x.with_layout(self.x.layout.permute(OP, &perm)?))
    }

    /// Sums away every label for which `keep` is false (a GEMM with a vector of ones).
    fn sum_out(self, keep: impl Fn(Label) -> bool) -> Result<Self> {
        let kept: Vec<Label> = self.labels.iter().copied().filter(|&l| keep(l)).collect();
        if kept.len() == self.labels.len() {
            return Ok(self);
        }
        let gone: Vec<Label> = self.labels.iter().copied().filter(|&l| !keep(l)).collect();
        let dims =
            |ls: &[Label]| -> Vec<usize> { ls.iter().filter_map(|&l| self.dim(l)).collect() };
        let (kd, s) = (dims(&kept), shape_size(&dims(&gone)));
        let order: Vec<Label> = kept.iter().chain(&gone).copied().collect();
        let x = self.permuted(&order)?.reshaped_to(&[shape_size(&kd), s])?;
        let ones = Array::<T, B>::ones(&[s, 1], &x.device)?;
        let out = x.gemm_views(&x.layout, &ones, &ones.layout)?;
        Ok(Term {
            x: out.with_layout(Layout::contiguous(&kd)),
            labels: kept,
        })
    }
}

/// Contracts two terms; `needed` holds the labels that later terms or the output use.
fn contract_pair<T: Numeric, B: ArrayBackend>(
    mut x: Term<T, B>,
    mut y: Term<T, B>,
    needed: &[Label],
) -> Result<Term<T, B>> {
    // A shared label of length 1 on one side only broadcasts: drop it from that side.
    for l in x.labels.clone() {
        if let (Some(dx), Some(dy)) = (x.dim(l), y.dim(l))
            && dx != dy
        {
            let t = if dx == 1 { &mut x } else { &mut y };
            let p = t.labels.iter().position(|&v| v == l).unwrap_or(0);
            t.x = t.x.with_layout(t.x.layout.index_axis(p, 0));
            t.labels.remove(p);
        }
    }
    let (lx, ly) = (x.labels.clone(), y.labels.clone());
    let x = x.sum_out(|l| ly.contains(&l) || needed.contains(&l))?;
    let y = y.sum_out(|l| lx.contains(&l) || needed.contains(&l))?;
    let shared = |l: &Label| y.labels.contains(l);
    let batch: Vec<Label> = x
        .labels
        .iter()
        .copied()
        .filter(|l| shared(l) && needed.contains(l))
        .collect();
    let kk: Vec<Label> = x
        .labels
        .iter()
        .copied()
        .filter(|l| shared(l) && !needed.contains(l))
        .collect();
    let mm: Vec<Label> = x.labels.iter().copied().filter(|l| !shared(l)).collect();
    let nn: Vec<Label> = y
        .labels
        .iter()
        .copied()
        .filter(|l| !x.labels.contains(l))
        .collect();
    let dims = |t: &Term<T, B>, ls: &[Label]| -> Vec<usize> {
        ls.iter().filter_map(|&l| t.dim(l)).collect()
    };
    let bd = dims(&x, &batch);
    let (md, kd, nd) = (dims(&x, &mm), dims(&x, &kk), dims(&y, &nn));
    let (m, k, n) = (shape_size(&md), shape_size(&kd), shape_size(&nd));
    let cat = |a: &[Label], b: &[Label], c: &[Label]| -> Vec<Label> {
        a.iter().chain(b).chain(c).copied().collect()
    };
    let with = |d: &[usize], p: usize, q: usize| -> Vec<usize> {
        let mut v = d.to_vec();
        v.extend([p, q]);
        v
    };
    let a = x
        .permuted(&cat(&batch, &mm, &kk))?
        .reshaped_to(&with(&bd, m, k))?;
    let b = y
        .permuted(&cat(&batch, &kk, &nn))?
        .reshaped_to(&with(&bd, k, n))?;
    let out = a.gemm_views(&a.layout, &b, &b.layout)?;
    let shape: Vec<usize> = bd.iter().chain(&md).chain(&nd).copied().collect();
    Ok(Term {
        x: out.with_layout(Layout::contiguous(&shape)),
        labels: cat(&batch, &mm, &nn),
    })
}

/// The operands of an einsum after parsing: the specification, each operand as a term of
/// distinct labels (diagonals taken), and the length of every label (the largest across
/// operands: length 1 broadcasts).
pub(super) struct Prepared<T: Numeric, B: ArrayBackend> {
    spec: Spec,
    terms: Vec<Term<T, B>>,
    sizes: Vec<(Label, usize, usize)>,
}

impl<T: Numeric, B: ArrayBackend> Prepared<T, B> {
    fn size(&self, l: Label) -> usize {
        self.sizes.iter().find(|e| e.0 == l).map_or(1, |e| e.1)
    }

    /// The contraction path NumPy's `einsum_path(..., optimize='greedy')` finds.
    pub(super) fn path(&self) -> Path {
        let sets: Vec<LabelSet> = self
            .terms
            .iter()
            .map(|t| t.labels.iter().copied().collect())
            .collect();
        let output: LabelSet = self.spec.output.iter().copied().collect();
        Path::greedy(&self.spec.inputs, &sets, &output, &|l| self.size(l))
    }

    /// Builds the report of [`Array::einsum_path`] for `path`.
    pub(super) fn report(&self, path: &Path) -> String {
        let sets: Vec<LabelSet> = self
            .terms
            .iter()
            .map(|t| t.labels.iter().copied().collect())
            .collect();
        path.report(&self.spec.inputs, &sets, &self.spec.output, &|l| {
            self.size(l)
        })
    }
}

/// Parses `subscripts` against `operands`: diagonals of repeated labels become stride sums and
/// label lengths are checked.
pub(super) fn prepare<T: Numeric, B: ArrayBackend>(
    subscripts: &str,
    operands: &[&Array<T, B>],
) -> Result<Prepared<T, B>> {
    let Some(first) = operands.first() else {
        return Err(Error::invalid(OP, "at least one operand is required"));
    };
    for x in &operands[1..] {
        first.check_device(x, OP)?;
    }
    let spec = parse(subscripts, operands)?;
    // Diagonals of repeated labels (a stride sum), distinct labels per term.
    let mut terms: Vec<Term<T, B>> = Vec::with_capacity(operands.len());
    for (i, (x, labels)) in operands.iter().zip(&spec.inputs).enumerate() {
        let (mut shape, mut strides, mut uniq) = (Vec::new(), Vec::new(), Vec::new());
        for (ax, &l) in labels.iter().enumerate() {
            let (d, st) = (x.shape()[ax], x.strides()[ax]);
            if let Some(p) = uniq.iter().position(|&u| u == l) {
                if shape[p] != d {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "operand {i} of shape {:?} repeats {} over axes of different \
                             lengths ({} != {d})",
                            x.shape(),
                            label_name(l),
                            shape[p]
                        ),
                    ));
                }
                strides[p] += st;
            } else {
                uniq.push(l);
                shape.push(d);
                strides.push(st);
            }
        }
        let layout = Layout::new(shape, strides, x.layout.offset());
        terms.push(Term {
            x: x.with_layout(layout),
            labels: uniq,
        });
    }
    // Label lengths must agree across operands, up to broadcasting of length 1.
    let mut sizes: Vec<(Label, usize, usize)> = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        for (&l, &d) in t.labels.iter().zip(t.x.shape()) {
            match sizes.iter_mut().find(|e| e.0 == l) {
                None => sizes.push((l, d, i)),
                Some(e) if e.1 == d || d == 1 => {}
                Some(e) if e.1 == 1 => *e = (l, d, i),
                Some(e) => {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "{} has length {} in operand {} (shape {:?}) but {d} in \
                             operand {i} (shape {:?})",
                            label_name(l),
                            e.1,
                            e.2,
                            operands[e.2].shape(),
                            operands[i].shape()
                        ),
                    ));
                }
            }
        }
    }
    Ok(Prepared { spec, terms, sizes })
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// Einstein summation, NumPy's `einsum` with `optimize='greedy'` for three or more
    /// operands.
    ///
    /// `subscripts` names each operand's axes with letters, terms separated by commas, and
    /// optionally the output after `->`. Without `->` the output holds the broadcast `...`
    /// dimensions followed by the labels that appear exactly once, in alphabetical (ASCII)
    /// order. A label repeated within one operand takes its diagonal; a label missing from
    /// the output is summed over; `...` stands for the leading or middle axes not named,
    /// broadcast across operands; axes of length 1 broadcast against the same label.
    /// Supported forms include `"ij,jk->ik"`, `"ij,jk"`, `"ii->i"`, `"ii"`, `"ij->ji"`,
    /// `"bij,bjk->bik"`, `"i,i"`, `"i,j->ij"`, `"...ij,...jk->...ik"` and any number of
    /// operands, contracted pairwise (each pair as one batched matrix product) in the order
    /// of NumPy's greedy path ([`Array::einsum_path`]): the pair that removes the most
    /// elements first, then the cheapest. A result that needs no arithmetic (a transpose, a
    /// diagonal) is a view of the operand.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for malformed subscripts (bad characters, a stray `.`, two
    /// ellipses, a bad arrow, too many or too few terms or labels for an operand, output
    /// labels absent from the inputs or repeated) and for label lengths that differ between
    /// operands or within one; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![1.0, 0.0, 0.0, 1.0], &[2, 2], dev)?;
    /// assert_eq!(Array::einsum("ij,jk->ik", &[&a, &b])?.to_vec()?, a.to_vec()?);
    /// assert_eq!(Array::einsum("ii", &[&a])?.item()?, 5.0);
    /// assert_eq!(Array::einsum("ij->ji", &[&a])?.to_vec()?, vec![1.0, 3.0, 2.0, 4.0]);
    /// assert_eq!(Array::einsum("ij,jk,kl->il", &[&a, &b, &b])?.to_vec()?, a.to_vec()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn einsum(subscripts: &str, operands: &[&Array<T, B>]) -> Result<Self> {
        let prep = prepare(subscripts, operands)?;
        let path = prep.path();
        let Prepared { spec, terms, .. } = prep;
        let mut terms = terms;
        for step in &path.steps {
            let mut inds = step.clone();
            inds.sort_unstable_by(|a, b| b.cmp(a));
            let mut group: Vec<Term<T, B>> = Vec::with_capacity(inds.len());
            for &x in &inds {
                if x >= terms.len() {
                    return Err(Error::invalid(OP, "contraction path out of range"));
                }
                group.push(terms.remove(x));
            }
            group.reverse();
            let mut group = group.into_iter();
            let Some(mut acc) = group.next() else {
                continue;
            };
            let rest: Vec<Term<T, B>> = group.collect();
            let later: Vec<Vec<Label>> = rest.iter().map(|t| t.labels.clone()).collect();
            for (k, t) in rest.into_iter().enumerate() {
                let mut needed = spec.output.clone();
                for o in &terms {
                    needed.extend(&o.labels);
                }
                for l in &later[k + 1..] {
                    needed.extend(l);
                }
                acc = contract_pair(acc, t, &needed)?;
            }
            terms.push(acc);
        }
        let Some(last) = terms.pop() else {
            return Err(Error::invalid(OP, "no operand left to contract"));
        };
        if !terms.is_empty() {
            return Err(Error::invalid(OP, "the contraction path left operands"));
        }
        let last = last.sum_out(|l| spec.output.contains(&l))?;
        last.permuted(&spec.output)
    }

    /// The contraction order [`Array::einsum`] follows for `subscripts` and `operands`, with
    /// a printable report (NumPy's `np.einsum_path(subscripts, *operands,
    /// optimize='greedy')`). At each step the greedy search contracts the pair of terms that
    /// removes the most elements (then the cheapest), outer products only when nothing else
    /// is left, and no intermediate larger than the largest input or output. With `...`, the
    /// report names the broadcast dimensions by the last letters the subscripts leave unused
    /// (NumPy picks them in no fixed order). Nothing is computed and nothing leaves the
    /// device.
    ///
    /// # Errors
    /// The errors of [`Array::einsum`] for bad subscripts or shapes.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::zeros(&[2, 30], dev)?;
    /// let b = Array::<f64, B>::zeros(&[30, 40], dev)?;
    /// let c = Array::<f64, B>::zeros(&[40, 3], dev)?;
    /// let p = Array::einsum_path("ij,jk,kl->il", &[&a, &b, &c])?;
    /// // Contracting b with c first removes the most elements; the report writes that step
    /// // as NumPy's does.
    /// assert_eq!(p.path, vec![vec![1, 2], vec![0, 1]]);
    /// assert!(p.report.contains("kl,jk->lj"));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn einsum_path(subscripts: &str, operands: &[&Array<T, B>]) -> Result<EinsumPath> {
        let prep = prepare(subscripts, operands)?;
        let path = prep.path();
        let report = prep.report(&path);
        Ok(EinsumPath {
            path: path.steps,
            report,
        })
    }
}
