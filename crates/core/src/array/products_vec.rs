//! Vector and tensor products beyond `products.rs`: the NumPy 2 gufuncs [`Array::vecdot`],
//! [`Array::matvec`] and [`Array::vecmat`] (each one batched GEMM through `matmul`,
//! broadcasting over the leading axes), `numpy.linalg`'s [`Array::tensorinv`] and
//! [`Array::tensorsolve`] (a reshape around `inv`/`solve`), and NumPy's greedy contraction
//! order for `einsum` with its printable report ([`EinsumPath`], returned by
//! [`Array::einsum_path`] of `einsum.rs`, which contracts along the same path).

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Inexact, Numeric};
use crate::error::{Error, Result};
use crate::layout::{broadcast_shapes, normalize_axis};
use std::collections::BTreeSet;
use std::fmt;

/// An einsum label: a letter's character code, or `ELLIPSIS + d` for ellipsis dimension `d`.
pub(crate) type Label = u32;
/// The first label of the ellipsis dimensions.
pub(crate) const ELLIPSIS: Label = 1 << 16;
/// A set of einsum labels.
pub(crate) type LabelSet = BTreeSet<Label>;

/// The product of the lengths of `labels` (saturating: only compared, never allocated).
fn size_of<'a>(labels: impl IntoIterator<Item = &'a Label>, size: &dyn Fn(Label) -> usize) -> u128 {
    labels
        .into_iter()
        .fold(1u128, |acc, &l| acc.saturating_mul(size(l) as u128))
}

/// NumPy's `_flop_count`.
fn flop_count(
    contract: &LabelSet,
    inner: bool,
    terms: usize,
    size: &dyn Fn(Label) -> usize,
) -> u128 {
    let factor = terms.saturating_sub(1).max(1) as u128 + u128::from(inner);
    size_of(contract, size).saturating_mul(factor)
}

/// NumPy's `_find_contraction`: (result labels, the sets left with the result last, the
/// labels summed away, all labels of the contracted terms).
fn find_contraction(
    positions: &[usize],
    sets: &[LabelSet],
    output: &LabelSet,
) -> (LabelSet, Vec<LabelSet>, LabelSet, LabelSet) {
    let mut contract = LabelSet::new();
    let mut remain = output.clone();
    let mut remaining = Vec::with_capacity(sets.len());
    for (i, s) in sets.iter().enumerate() {
        if positions.contains(&i) {
            contract.extend(s);
        } else {
            remaining.push(s.clone());
            remain.extend(s);
        }
    }
    let result: LabelSet = remain.intersection(&contract).copied().collect();
    let removed: LabelSet = contract.difference(&result).copied().collect();
    remaining.push(result.clone());
    (result, remaining, removed, contract)
}

/// A candidate pair of the greedy search: (-removed size, cost), positions, sets after it.
#[derive(Clone)]
struct Candidate {
    sort: (i128, u128),
    pos: (usize, usize),
    sets: Vec<LabelSet>,
}

/// An einsum contraction order: each step names the positions, in the current list of
/// terms, of the terms contracted together; the result goes to the end of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Path {
    pub(crate) steps: Vec<Vec<usize>>,
}

impl Path {
    /// NumPy's `einsum_path(..., optimize='greedy')`: one step with every operand when
    /// there are at most two or nothing is summed, else `_greedy_path` with the memory limit
    /// of the largest input or output. `raw` holds each operand's labels as written
    /// (repeats included), `sets` its distinct labels.
    pub(crate) fn greedy(
        raw: &[Vec<Label>],
        sets: &[LabelSet],
        output: &LabelSet,
        size: &dyn Fn(Label) -> usize,
    ) -> Path {
        let n = sets.len();
        let indices: LabelSet = sets.iter().flatten().copied().collect();
        if n <= 2 || indices == *output {
            return Path {
                steps: vec![(0..n).collect()],
            };
        }
        let memory = raw
            .iter()
            .map(|t| size_of(t, size))
            .chain([size_of(output, size)])
            .max()
            .unwrap_or(0);
        let (_, _, removed, contract) = find_contraction(&(0..n).collect::<Vec<_>>(), sets, output);
        let naive = flop_count(&contract, !removed.is_empty(), n, size);
        let possible = |pos: (usize, usize), sets: &[LabelSet], path_cost: u128| {
            let (result, new_sets, removed, contract) =
                find_contraction(&[pos.0, pos.1], sets, output);
            let new_size = size_of(&result, size);
            if new_size > memory {
                return None;
            }
            let old = size_of(&sets[pos.0], size).saturating_add(size_of(&sets[pos.1], size));
            let removed_size = old as i128 - new_size as i128;
            let cost = flop_count(&contract, !removed.is_empty(), 2, size);
            if path_cost.saturating_add(cost) > naive {
                return None;
            }
            Some(Candidate {
                sort: (-removed_size, cost),
                pos,
                sets: new_sets,
            })
        };
        let all_pairs = |m: usize| -> Vec<(usize, usize)> {
            (0..m)
                .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
                .collect()
        };
        let mut input_sets = sets.to_vec();
        let mut pairs = all_pairs(n);
        let mut known: Vec<Candidate> = Vec::new();
        let (mut steps, mut path_cost) = (Vec::new(), 0u128);
        for _ in 0..n - 1 {
            for &p in &pairs {
                if input_sets[p.0].is_disjoint(&input_sets[p.1]) {
                    continue;
                }
                known.extend(possible(p, &input_sets, path_cost));
            }
            if known.is_empty() {
                for p in all_pairs(input_sets.len()) {
                    known.extend(possible(p, &input_sets, path_cost));
                }
                if known.is_empty() {
                    steps.push((0..input_sets.len()).collect());
                    break;
                }
            }
            // The first of the smallest keys, as Python's `min`.
            let mut bi = 0;
            for (i, c) in known.iter().enumerate() {
                if c.sort < known[bi].sort {
                    bi = i;
                }
            }
            let best = known[bi].clone();
            let (bx, by) = best.pos;
            let newest = best.sets.last().cloned().unwrap_or_default();
            known = known
                .into_iter()
                .filter(|c| ![c.pos.0, c.pos.1].iter().any(|p| *p == bx || *p == by))
                .map(|mut c| {
                    let (x, y) = c.pos;
                    let shift =
                        |v: usize, a: usize, b: usize| v - usize::from(v > a) - usize::from(v > b);
                    c.sets.remove(shift(by, x, y));
                    c.sets.remove(shift(bx, x, y));
                    let at = c.sets.len().saturating_sub(1);
                    c.sets.insert(at, newest.clone());
                    c.pos = (shift(x, bx, by), shift(y, bx, by));
                    c
                })
                .collect();
            input_sets = best.sets;
            let last = input_sets.len() - 1;
            pairs = (0..last).map(|i| (i, last)).collect();
            steps.push(vec![bx, by]);
            path_cost = path_cost.saturating_add(best.sort.1);
        }
        Path { steps }
    }

    /// NumPy's printable report of the path (`einsum_path`'s second result).
    pub(crate) fn report(
        &self,
        raw: &[Vec<Label>],
        sets: &[LabelSet],
        output: &[Label],
        size: &dyn Fn(Label) -> usize,
    ) -> String {
        // Letters stand for themselves; ellipsis dimensions take the last unused symbols.
        const SYMBOLS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let used: LabelSet = raw
            .iter()
            .flatten()
            .copied()
            .filter(|&l| l < ELLIPSIS)
            .collect();
        let unused: Vec<char> = SYMBOLS
            .chars()
            .filter(|&c| !used.contains(&(c as Label)))
            .collect();
        let ell = raw
            .iter()
            .flatten()
            .filter(|&&l| l >= ELLIPSIS)
            .map(|&l| l - ELLIPSIS + 1)
            .max()
            .unwrap_or(0) as usize;
        let name = |l: Label| -> char {
            if l < ELLIPSIS {
                char::from_u32(l).unwrap_or('?')
            } else {
                let d = (l - ELLIPSIS) as usize;
                (unused.len() + d)
                    .checked_sub(ell)
                    .and_then(|i| unused.get(i).copied())
                    .unwrap_or('?')
            }
        };
        let word = |ls: &mut dyn Iterator<Item = Label>| -> String { ls.map(name).collect() };
        let mut input_list: Vec<String> =
            raw.iter().map(|t| word(&mut t.iter().copied())).collect();
        let output_str = word(&mut output.iter().copied());
        let output_set: LabelSet = output.iter().copied().collect();
        let overall = format!("{}->{}", input_list.join(","), output_str);
        let mut input_sets = sets.to_vec();
        let (mut costs, mut scales, mut sizes, mut lines) = (vec![], vec![], vec![], vec![]);
        for (cnum, step) in self.steps.iter().enumerate() {
            let mut inds = step.clone();
            inds.sort_unstable_by(|a, b| b.cmp(a));
            let (out, new_sets, removed, contract) =
                find_contraction(&inds, &input_sets, &output_set);
            input_sets = new_sets;
            costs.push(flop_count(&contract, !removed.is_empty(), inds.len(), size));
            scales.push(contract.len());
            sizes.push(size_of(&out, size));
            let mut tmp: Vec<String> = Vec::with_capacity(inds.len());
            for &x in &inds {
                if x < input_list.len() {
                    tmp.push(input_list.remove(x));
                }
            }
            let result = if cnum + 1 == self.steps.len() {
                output_str.clone()
            } else {
                let mut o: Vec<(usize, char)> = out.iter().map(|&l| (size(l), name(l))).collect();
                o.sort_unstable();
                o.into_iter().map(|(_, c)| c).collect()
            };
            input_list.push(result.clone());
            lines.push((
                format!("{}->{}", tmp.join(","), result),
                input_list.join(","),
            ));
        }
        let indices: LabelSet = sets.iter().flatten().copied().collect();
        let total: usize = sets.iter().map(|s| s.len()).sum();
        let naive = flop_count(&indices, total > indices.len(), sets.len(), size);
        let opt = costs.iter().fold(1u128, |a, &c| a.saturating_add(c));
        let sci = |v: f64| -> String {
            let s = format!("{v:.3e}");
            match s.split_once('e') {
                Some((m, e)) => {
                    let e: i32 = e.parse().unwrap_or(0);
                    format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
                }
                None => s,
            }
        };
        let mut out = format!("  Complete contraction:  {overall}\n");
        out += &format!("         Naive scaling:  {}\n", indices.len());
        out += &format!(
            "     Optimized scaling:  {}\n",
            scales.iter().max().unwrap_or(&0)
        );
        out += &format!("      Naive FLOP count:  {}\n", sci(naive as f64));
        out += &format!("  Optimized FLOP count:  {}\n", sci(opt as f64));
        out += &format!(
            "   Theoretical speedup:  {:.3}\n",
            naive as f64 / opt as f64
        );
        out += &format!(
            "  Largest intermediate:  {} elements\n",
            sci(*sizes.iter().max().unwrap_or(&0) as f64)
        );
        out += &"-".repeat(74);
        out += &format!("\n{:>6} {:>24} {:>40}\n", "scaling", "current", "remaining");
        out += &"-".repeat(74);
        for (scale, (current, remaining)) in scales.iter().zip(&lines) {
            let remaining = format!("{remaining}->{output_str}");
            out += &format!("\n{scale:>4}    {current:>24} {remaining:>40}");
        }
        out
    }
}

/// What [`Array::einsum_path`] returns: the contraction order and NumPy's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EinsumPath {
    /// Each step: the positions, in the current list of terms, of the terms contracted
    /// together (the result is appended to the list). NumPy's list without its leading
    /// `'einsum_path'`.
    pub path: Vec<Vec<usize>>,
    /// The printable report: scalings, naive and optimized FLOP counts, the largest
    /// intermediate and each step's contraction.
    pub report: String,
}

impl fmt::Display for EinsumPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.report)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// The dot product of vectors along `axis` of both operands, the first conjugated
    /// (NumPy 2's `np.vecdot(x1, x2, axis=axis)`, the gufunc `(n),(n)->()`): the other axes
    /// broadcast; the result has their broadcast shape. One batched GEMM through
    /// [`Array::matmul`].
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d operand, an axis out of range or vector lengths
    /// that differ; [`Error::Broadcast`] when the other axes do not broadcast;
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let v = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], dev)?;
    /// let n = Array::<f64, B>::from_vec(vec![0.0, 0.0, 1.0], &[3], dev)?;
    /// assert_eq!(v.vecdot(&n, -1)?.to_vec()?, vec![3.0, 6.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn vecdot(&self, other: &Self, axis: isize) -> Result<Self> {
        const OP: &str = "vecdot";
        self.check_device(other, OP)?;
        let x1 = vector_last(self, axis, OP, "x1")?;
        let x2 = vector_last(other, axis, OP, "x2")?;
        core_lengths(
            OP,
            self,
            other,
            x1.shape()[x1.ndim() - 1],
            x2.shape()[x2.ndim() - 1],
        )?;
        batch_shapes(OP, &x1, &x2, 1, 1)?;
        let x1 = conj_of(&x1)?;
        x1.expand_dims(-2)?
            .matmul(&x2.expand_dims(-1)?)?
            .squeeze([-2isize, -1])
    }

    /// The matrix-vector product over the last axes (NumPy 2's `np.matvec(x1, x2)`, the
    /// gufunc `(m,n),(n)->(m)`), no conjugation, the leading axes broadcast.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a matrix of fewer than two axes, a 0-d vector or
    /// lengths that differ; [`Error::Broadcast`]; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// let v = Array::<i64, B>::from_vec(vec![1, 1, 2, 0], &[2, 2], dev)?;
    /// assert_eq!(a.matvec(&v)?.to_vec()?, vec![3, 7, 2, 6]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn matvec(&self, other: &Self) -> Result<Self> {
        const OP: &str = "matvec";
        self.check_device(other, OP)?;
        if self.ndim() < 2 || other.ndim() < 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "x1 needs at least 2 dimensions and x2 at least 1 (signature \
                     (m,n),(n)->(m)), got shapes {:?} and {:?}",
                    self.shape(),
                    other.shape()
                ),
            ));
        }
        core_lengths(
            OP,
            self,
            other,
            self.shape()[self.ndim() - 1],
            other.shape()[other.ndim() - 1],
        )?;
        batch_shapes(OP, self, other, 2, 1)?;
        self.matmul(&other.expand_dims(-1)?)?.squeeze(-1)
    }

    /// The vector-matrix product over the last axes, the vector conjugated (NumPy 2's
    /// `np.vecmat(x1, x2)`, the gufunc `(n),(n,m)->(m)`), the leading axes broadcast.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d vector, a matrix of fewer than two axes or
    /// lengths that differ; [`Error::Broadcast`]; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let v = Array::<f64, B>::from_vec(vec![1.0, 1.0], &[2], dev)?;
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// assert_eq!(v.vecmat(&a)?.to_vec()?, vec![4.0, 6.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn vecmat(&self, other: &Self) -> Result<Self> {
        const OP: &str = "vecmat";
        self.check_device(other, OP)?;
        if self.ndim() < 1 || other.ndim() < 2 {
            return Err(Error::invalid(
                OP,
                format!(
                    "x1 needs at least 1 dimension and x2 at least 2 (signature \
                     (n),(n,m)->(m)), got shapes {:?} and {:?}",
                    self.shape(),
                    other.shape()
                ),
            ));
        }
        core_lengths(
            OP,
            self,
            other,
            self.shape()[self.ndim() - 1],
            other.shape()[other.ndim() - 2],
        )?;
        batch_shapes(OP, self, other, 1, 2)?;
        conj_of(self)?.expand_dims(-2)?.matmul(other)?.squeeze(-2)
    }
}

/// `x` with its `axis` moved last (the core dimension of a vector gufunc).
fn vector_last<T: Numeric, B: ArrayBackend>(
    x: &Array<T, B>,
    axis: isize,
    op: &'static str,
    what: &str,
) -> Result<Array<T, B>> {
    if x.ndim() == 0 {
        return Err(Error::invalid(
            op,
            format!("{what} must have at least one dimension, got a 0-d array"),
        ));
    }
    let ax = normalize_axis(op, axis, x.ndim())?;
    x.moveaxis(&[ax as isize], &[-1])
}

fn core_lengths<T: Numeric, B: ArrayBackend>(
    op: &'static str,
    x1: &Array<T, B>,
    x2: &Array<T, B>,
    n1: usize,
    n2: usize,
) -> Result<()> {
    if n1 != n2 {
        return Err(Error::invalid(
            op,
            format!(
                "the core dimensions differ ({n1} != {n2}) for shapes {:?} and {:?}",
                x1.shape(),
                x2.shape()
            ),
        ));
    }
    Ok(())
}

/// Checks that the leading (loop) axes of the operands broadcast, the last `c1` and `c2`
/// axes being the core dimensions, so the error names the op.
fn batch_shapes<T: Numeric, B: ArrayBackend>(
    op: &'static str,
    x1: &Array<T, B>,
    x2: &Array<T, B>,
    c1: usize,
    c2: usize,
) -> Result<Vec<usize>> {
    let (s1, s2) = (x1.shape(), x2.shape());
    broadcast_shapes(op, &s1[..s1.len() - c1], &s2[..s2.len() - c2])
}

/// A linear-algebra error of an inner step, named after the outer op.
pub(crate) fn renamed(e: Error, op: &'static str) -> Error {
    match e {
        Error::LinAlg { msg, batch, .. } => Error::LinAlg { op, msg, batch },
        e => e,
    }
}

/// The complex conjugate (the array itself for real types).
fn conj_of<T: Numeric, B: ArrayBackend>(x: &Array<T, B>) -> Result<Array<T, B>> {
    if T::DTYPE.is_complex() {
        x.map_op(crate::ops::Conj)
    } else {
        Ok(x.clone())
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The inverse of an n-d array for [`tensordot`](Array::tensordot) over `ind` axes
    /// (NumPy's `linalg.tensorinv(a, ind)`): `self` reshaped to a matrix of
    /// `prod(shape[..ind])` rows, inverted, reshaped to `shape[ind..] + shape[..ind]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for `ind = 0` or `ind` beyond the dimensions, or a shape
    /// that does not make a square matrix; [`Error::LinAlg`] for a singular one.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::eye(6, None, 0, dev)?.reshape(&[6, 2, 3])?;
    /// let ia = a.tensorinv(1)?;
    /// assert_eq!(ia.shape(), &[2, 3, 6]);
    /// assert_eq!(ia.reshape(&[6, 6])?.to_vec()?, Array::<f64, B>::eye(6, None, 0, dev)?.to_vec()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tensorinv(&self, ind: usize) -> Result<Self> {
        const OP: &str = "tensorinv";
        let sh = self.shape();
        if ind == 0 || ind > sh.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "ind must be in 1..={} for shape {sh:?}, got {ind}",
                    sh.len()
                ),
            ));
        }
        let rows: usize = sh[..ind].iter().product();
        let cols: usize = sh[ind..].iter().product();
        if rows != cols {
            return Err(Error::invalid(
                OP,
                format!(
                    "the first {ind} axes of shape {sh:?} hold {rows} elements but the others \
                     {cols}: not a square matrix"
                ),
            ));
        }
        let inv = self
            .reshape(&[rows as isize, cols as isize])?
            .inv()
            .map_err(|e| renamed(e, OP))?;
        let shape: Vec<isize> = sh[ind..]
            .iter()
            .chain(&sh[..ind])
            .map(|&d| d as isize)
            .collect();
        inv.reshape(&shape)
    }

    /// Solves the tensor equation `tensordot(self, x, x.ndim) = b` for `x` (NumPy's
    /// `linalg.tensorsolve(a, b, axes)`): the axes listed in `axes` (if any) move to the end
    /// of `self`; `x` then has the shape of the last `self.ndim - b.ndim` axes and the
    /// system is one square [`solve`](Array::solve).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a bad axis or when `prod(self.shape[b.ndim..])` squared
    /// is not `self.size()`; [`Error::LinAlg`] for a singular system;
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::eye(6, None, 0, dev)?.reshape(&[6, 2, 3])?;
    /// let b = Array::<f64, B>::arange(0.0, 6.0, 1.0, dev)?;
    /// let x = a.tensorsolve(&b, None)?;
    /// assert_eq!(x.shape(), &[2, 3]);
    /// assert_eq!(x.to_vec()?, b.to_vec()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tensorsolve(&self, b: &Self, axes: Option<&[isize]>) -> Result<Self> {
        const OP: &str = "tensorsolve";
        self.check_device(b, OP)?;
        let an = self.ndim();
        let mut a = self.clone();
        if let Some(axes) = axes {
            let mut all: Vec<usize> = (0..an).collect();
            let mut moved: Vec<usize> = Vec::with_capacity(axes.len());
            for &k in axes {
                let k = normalize_axis(OP, k, an)?;
                if moved.contains(&k) {
                    return Err(Error::invalid(
                        OP,
                        format!("axis {k} is listed twice in {axes:?}"),
                    ));
                }
                moved.push(k);
                all.retain(|&v| v != k);
                all.push(k);
            }
            let perm: Vec<isize> = all.iter().map(|&v| v as isize).collect();
            a = a.permute_dims(&perm)?;
        }
        if b.ndim() > an {
            return Err(Error::invalid(
                OP,
                format!(
                    "b has more dimensions than a: shapes {:?} and {:?}",
                    self.shape(),
                    b.shape()
                ),
            ));
        }
        let tail = an - b.ndim();
        let old: Vec<usize> = if tail == 0 {
            a.shape().to_vec()
        } else {
            a.shape()[an - tail..].to_vec()
        };
        let prod: usize = old.iter().product();
        if prod.checked_mul(prod) != Some(a.size()) {
            return Err(Error::invalid(
                OP,
                format!(
                    "the arrays must satisfy prod(a.shape[b.ndim:]) ** 2 == a.size, got shapes \
                     {:?} and {:?}",
                    self.shape(),
                    b.shape()
                ),
            ));
        }
        if b.size() != prod {
            return Err(Error::invalid(
                OP,
                format!(
                    "b holds {} elements but the solution {prod} (shapes {:?} and {:?})",
                    b.size(),
                    self.shape(),
                    b.shape()
                ),
            ));
        }
        let m = a.reshape(&[prod as isize, prod as isize])?;
        let x = m.solve(&b.ravel()?).map_err(|e| renamed(e, OP))?;
        let shape: Vec<isize> = old.iter().map(|&d| d as isize).collect();
        x.reshape(&shape)
    }
}
