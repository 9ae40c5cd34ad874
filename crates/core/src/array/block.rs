//! NumPy's `np.block`: [`Array::block`] assembles an array from a nested list of blocks,
//! described by [`Block`]. The innermost lists are joined along the last axis, the lists
//! of those along the second-to-last, and so on, with NumPy's depth rules and messages;
//! the joins are concatenations, so it runs on every backend.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::check_wide_shape;

/// A nested list of arrays for [`Array::block`] (NumPy's nested Python lists).
#[derive(Clone)]
pub enum Block<'a, T: Element, B: ArrayBackend> {
    /// A leaf: one array (any rank, 0-d included).
    Array(&'a Array<T, B>),
    /// A list of blocks, all at the same depth.
    List(Vec<Block<'a, T, B>>),
}

impl<'a, T: Element, B: ArrayBackend> From<&'a Array<T, B>> for Block<'a, T, B> {
    fn from(a: &'a Array<T, B>) -> Self {
        Block::Array(a)
    }
}

impl<'a, T: Element, B: ArrayBackend> From<Vec<Block<'a, T, B>>> for Block<'a, T, B> {
    fn from(v: Vec<Block<'a, T, B>>) -> Self {
        Block::List(v)
    }
}

/// NumPy's `_block_format_index`: `arrays[i][j]...`.
fn format_index(index: &[usize]) -> String {
    let mut s = String::from("arrays");
    for i in index {
        s.push_str(&format!("[{i}]"));
    }
    s
}

/// NumPy's `_block_check_depths_match`: the index path of the first leaf (with `true` when
/// it ends in an empty list) and the largest rank among the arrays.
fn check_depths<T: Element, B: ArrayBackend>(
    block: &Block<'_, T, B>,
    parent: &mut Vec<usize>,
) -> Result<(Vec<usize>, bool, usize)> {
    match block {
        Block::Array(a) => Ok((parent.clone(), false, a.ndim())),
        Block::List(items) if items.is_empty() => Ok((parent.clone(), true, 0)),
        Block::List(items) => {
            let mut first: Option<(Vec<usize>, bool)> = None;
            let mut max_ndim = 0;
            for (i, item) in items.iter().enumerate() {
                parent.push(i);
                let (index, empty, ndim) = check_depths(item, parent)?;
                parent.pop();
                max_ndim = max_ndim.max(ndim);
                // An empty list sits one level below its own index.
                let depth = index.len() + usize::from(empty);
                match &first {
                    None => first = Some((index, empty)),
                    Some((fi, fe)) => {
                        let first_depth = fi.len() + usize::from(*fe);
                        if depth != first_depth {
                            return Err(Error::invalid(
                                "block",
                                format!(
                                    "List depths are mismatched. First element was at depth \
                                     {first_depth}, but there is an element at depth {depth} \
                                     ({})",
                                    format_index(&index)
                                ),
                            ));
                        }
                        if empty {
                            first = Some((index, empty));
                        }
                    }
                }
            }
            let (index, empty) = first.expect("a non-empty list");
            Ok((index, empty, max_ndim))
        }
    }
}

/// `a` with leading length-1 axes up to `ndim` axes.
fn at_least<T: Element, B: ArrayBackend>(a: &Array<T, B>, ndim: usize) -> Array<T, B> {
    let mut l = a.layout().clone();
    while l.ndim() < ndim {
        l = l.insert_axis(0);
    }
    a.with_layout(l)
}

/// NumPy's `_block`: the blocks of a list joined along axis `-(max_depth - depth)`.
fn assemble<T: Element, B: ArrayBackend>(
    block: &Block<'_, T, B>,
    max_depth: usize,
    ndim: usize,
    depth: usize,
    first: &Array<T, B>,
) -> Result<Array<T, B>> {
    match block {
        Block::Array(a) => {
            first.check_device(a, "block")?;
            Ok(at_least(a, ndim))
        }
        Block::List(items) => {
            let parts = items
                .iter()
                .map(|b| assemble(b, max_depth, ndim, depth + 1, first))
                .collect::<Result<Vec<_>>>()?;
            let axis = ndim - (max_depth - depth);
            let p0 = &parts[0];
            let mut len: u128 = 0;
            for (i, p) in parts.iter().enumerate() {
                for d in 0..ndim {
                    if d != axis && p.shape()[d] != p0.shape()[d] {
                        return Err(Error::invalid(
                            "block",
                            format!(
                                "all the input array dimensions except for the concatenation \
                                 axis must match exactly, but along dimension {d}, the array \
                                 at index 0 has size {} and the array at index {i} has size {} \
                                 (shapes {:?} and {:?})",
                                p0.shape()[d],
                                p.shape()[d],
                                p0.shape(),
                                p.shape()
                            ),
                        ));
                    }
                }
                len += p.shape()[axis] as u128;
            }
            let mut wide: Vec<u128> = p0.shape().iter().map(|&d| d as u128).collect();
            wide[axis] = len;
            check_wide_shape("block", &wide, p0.itemsize())?;
            let refs: Vec<&Array<T, B>> = parts.iter().collect();
            Array::concatenate(&refs, axis as isize)
        }
    }
}

/// The first array of a nested list (depth-first).
fn first_array<'b, T: Element, B: ArrayBackend>(
    block: &'b Block<'_, T, B>,
) -> Option<&'b Array<T, B>> {
    match block {
        Block::Array(a) => Some(*a),
        Block::List(items) => items.iter().find_map(first_array),
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// An array assembled from nested lists of blocks (NumPy's `np.block(arrays)`): with
    /// lists nested `d` deep and arrays of at most `r` dimensions, every array gets
    /// leading length-1 axes up to `max(d, r)` dimensions, the innermost lists are joined
    /// along the last axis, the lists of those along the one before, and so on. All lists
    /// must have the same depth; a single array gives a copy of it.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] with NumPy's messages for mismatched list depths ("List
    /// depths are mismatched. First element was at depth 2, but there is an element at
    /// depth 1 (arrays\[1\])"), an empty list ("List at arrays\[1\] cannot be empty") and
    /// blocks whose sizes do not match off the joining axis; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::full(&[2, 2], 1, dev)?;
    /// let b = Array::<i32, B>::full(&[2, 1], 2, dev)?;
    /// let c = Array::<i32, B>::full(&[1, 3], 3, dev)?;
    /// let m = Array::block(&Block::List(vec![
    ///     Block::List(vec![(&a).into(), (&b).into()]),
    ///     Block::List(vec![(&c).into()]),
    /// ]))?;
    /// assert_eq!(m.shape(), &[3, 3]);
    /// assert_eq!(m.to_vec()?, vec![1, 1, 2, 1, 1, 2, 3, 3, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn block(arrays: &Block<'_, T, B>) -> Result<Self> {
        let (index, empty, arr_ndim) = check_depths(arrays, &mut Vec::new())?;
        if empty {
            return Err(Error::invalid(
                "block",
                format!("List at {} cannot be empty", format_index(&index)),
            ));
        }
        let list_ndim = index.len();
        let ndim = arr_ndim.max(list_ndim);
        let first = first_array(arrays).expect("a list without an empty list holds an array");
        let out = assemble(arrays, list_ndim, ndim, 0, first)?;
        if list_ndim == 0 {
            return out.copy();
        }
        Ok(out)
    }
}
