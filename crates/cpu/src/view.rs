//! ndarray views of a buffer through a core [`Layout`] (negative and zero strides included),
//! for the general strided paths. The `unsafe` view constructors are guarded by bounds and
//! overlap checks on the layout (the crate's other `unsafe` blocks are the huge-page advice
//! in `alloc.rs` and `radix.rs`).

use cuprite_core::{Error, Layout, Result};
use ndarray::{ArrayViewD, ArrayViewMutD, Axis, IxDyn, ShapeBuilder};

/// Start offset (lowest address) and absolute strides of a layout, plus the axes to invert.
fn positive_form(layout: &Layout) -> (usize, Vec<usize>, Vec<usize>) {
    let mut start = layout.offset() as isize;
    let mut strides = Vec::with_capacity(layout.ndim());
    let mut inverted = Vec::new();
    for (ax, (&d, &s)) in layout.shape().iter().zip(layout.strides()).enumerate() {
        if s < 0 && d > 0 {
            start += (d as isize - 1) * s;
            inverted.push(ax);
        }
        strides.push(s.unsigned_abs());
    }
    (start.max(0) as usize, strides, inverted)
}

fn check_bounds(len: usize, layout: &Layout) {
    if let Some((_, hi)) = layout.offset_range() {
        assert!(
            hi <= len,
            "layout {:?} (strides {:?}, offset {}) exceeds a buffer of {len}",
            layout.shape(),
            layout.strides(),
            layout.offset()
        );
    }
}

/// A read-only ndarray view of `data` through `layout`.
pub fn view<'a, T>(data: &'a [T], layout: &Layout) -> ArrayViewD<'a, T> {
    check_bounds(data.len(), layout);
    let (start, strides, inverted) = positive_form(layout);
    let shape = IxDyn(layout.shape()).strides(IxDyn(&strides));
    let ptr = if layout.size() == 0 {
        data.as_ptr()
    } else {
        data[start..].as_ptr()
    };
    // SAFETY: every element the layout reaches lies in `data` (checked above), strides are
    // non-negative after the rewrite, and the view borrows `data` immutably for 'a.
    let mut v = unsafe { ArrayViewD::from_shape_ptr(shape, ptr) };
    for ax in inverted {
        v.invert_axis(Axis(ax));
    }
    v
}

/// A mutable ndarray view of `data` through `layout`, which must not reach one element twice.
pub fn view_mut<'a, T>(data: &'a mut [T], layout: &Layout) -> ArrayViewMutD<'a, T> {
    check_bounds(data.len(), layout);
    assert!(
        layout.is_writeable_without_overlap(),
        "a mutable view with overlapping elements (shape {:?}, strides {:?})",
        layout.shape(),
        layout.strides()
    );
    let (start, strides, inverted) = positive_form(layout);
    let shape = IxDyn(layout.shape()).strides(IxDyn(&strides));
    let ptr = if layout.size() == 0 {
        data.as_mut_ptr()
    } else {
        data[start..].as_mut_ptr()
    };
    // SAFETY: in bounds (checked), no two indices alias (checked), and the view borrows
    // `data` mutably for 'a.
    let mut v = unsafe { ArrayViewMutD::from_shape_ptr(shape, ptr) };
    for ax in inverted {
        v.invert_axis(Axis(ax));
    }
    v
}

/// The contiguous run of a C-contiguous layout, if it is one.
pub fn contiguous<'a, T>(data: &'a [T], layout: &Layout) -> Option<&'a [T]> {
    if layout.size() == 0 {
        return Some(&[]);
    }
    let off = layout.contiguous_offset()?;
    Some(&data[off..off + layout.size()])
}

/// The mutable contiguous run of a C-contiguous layout, if it is one.
pub fn contiguous_mut<'a, T>(data: &'a mut [T], layout: &Layout) -> Option<&'a mut [T]> {
    if layout.size() == 0 {
        return Some(&mut []);
    }
    let off = layout.contiguous_offset()?;
    let n = layout.size();
    Some(&mut data[off..off + n])
}

/// Checks `(buffer length, view)` pairs: every element each view reaches lies inside its
/// buffer. The backend's entry points run it first, so a bad layout passed by a direct
/// caller of a backend trait is an `Err` naming `op`, never a panic or a stray read.
pub(crate) fn check_views(op: &'static str, views: &[(usize, &Layout)]) -> Result<()> {
    views
        .iter()
        .try_for_each(|(len, l)| l.check_bounds(op, *len))
}

/// Checks that `axis` is an axis of `l`.
pub(crate) fn check_axis(op: &'static str, l: &Layout, axis: usize) -> Result<()> {
    if axis < l.ndim() {
        Ok(())
    } else {
        Err(Error::AxisOutOfRange {
            op,
            axis: axis as isize,
            ndim: l.ndim(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_strides_read_in_logical_order() {
        let data: Vec<i32> = (0..12).collect();
        let l = Layout::contiguous(&[3, 4])
            .slice_axis(1, 3, 4, -1)
            .slice_axis(0, 2, 2, -2);
        let v = view(&data, &l);
        assert_eq!(
            v.iter().copied().collect::<Vec<_>>(),
            vec![11, 10, 9, 8, 3, 2, 1, 0]
        );
    }
}
