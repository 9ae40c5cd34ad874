//! Memory primitives of the CPU backend: allocation, copies (contiguous memcpy or a parallel
//! strided gather), fills, casts and ramps.

use crate::buffer::CpuBuffer;
use crate::par;
use crate::transpose;
use crate::view::{check_views, contiguous, contiguous_mut, view, view_mut};
use crate::Cpu;
use cuprite_core::{BackendBase, Element, Layout, Numeric, Result, Scalar};
use ndarray::Zip;
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Writes the C-order elements of each view into its run of `out`, one after the other
/// (every slot of `out` when the views' sizes sum to its length). Contiguous views are
/// copied in parallel chunks; strided ones walked in C order.
fn fill_runs<T: Element>(out: &mut [MaybeUninit<T>], views: &[(&[T], &Layout)]) {
    let mut rest = out;
    for (data, l) in views {
        let (run, tail) = std::mem::take(&mut rest).split_at_mut(l.size());
        rest = tail;
        match contiguous(data, l) {
            Some(src) => par::map1_uninit(run, src, |&x| x),
            None => {
                for (o, &x) in run.iter_mut().zip(view(data, l).iter()) {
                    o.write(x);
                }
            }
        }
    }
}

/// Applies `f` to every element of a view, writing a new C-order vector.
pub(crate) fn gather_map<T: Element, O: Element>(
    data: &[T],
    layout: &Layout,
    f: impl Fn(T) -> O + Sync + Send + Clone,
) -> Result<Vec<O>> {
    let n = layout.size();
    if let Some(src) = contiguous(data, layout) {
        // SAFETY: map1_uninit writes every one of the n slots (src has n elements: checked).
        return unsafe {
            crate::alloc::written_vec(n, |o| par::map1_uninit(o, src, move |&x| f(x)))
        };
    }
    let (shape, strides) = transpose::coalesce(layout);
    if let ([len], [stride]) = (&shape[..], &strides[..]) {
        // One strided run (`x[::2]`, a reversed view, a column): a flat parallel map.
        let (off, stride) = (layout.offset() as isize, *stride);
        debug_assert_eq!(*len, n);
        if stride > 0 && n > 0 {
            // The run's elements, bounds-checked once: a stepped read with no check per
            // element (`x[::2] * 2` of 1M f64 at one thread: 0.28 ms checked).
            let (off, stride) = (off as usize, stride as usize);
            // Up to the buffer's end: a step of 2 reads pairs, the last one cut short there
            // (the view's last element, at `off + (n - 1) * stride`, is inside the buffer).
            let run = &data[off..(off + n * stride).min(data.len())];
            let g = move |&x: &T| f(x);
            // SAFETY: map_stepped_uninit writes every one of the n slots.
            return unsafe {
                crate::alloc::written_vec(n, |o| par::map_stepped_uninit(o, run, stride, g))
            };
        }
        let at = move |i: usize| f(data[(off + i as isize * stride) as usize]);
        // SAFETY: generate_uninit writes every one of the n slots.
        return unsafe { crate::alloc::written_vec(n, |o| par::generate_uninit(o, at)) };
    }
    if let Some(t) = transpose::as_transposed(layout) {
        let mut out = crate::alloc::zeroed_vec::<O>(n)?;
        transpose::map_transposed(data, layout.offset(), &t, &mut out, f);
        return Ok(out);
    }
    // Any other view: row by row, every slot written once.
    // SAFETY: strided::map1 writes every one of the n slots.
    unsafe { crate::alloc::written_vec(n, |o| crate::strided::map1(o, data, layout, f)) }
}

impl BackendBase for Cpu {
    type Buffer<T: Element> = CpuBuffer<T>;
    const HOST_MEMORY: bool = true;

    fn label(&self) -> String {
        "cpu".to_string()
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn buffer_len<T: Element>(&self, buf: &CpuBuffer<T>) -> usize {
        buf.len()
    }

    fn buffer_address<T: Element>(&self, buf: &CpuBuffer<T>) -> Option<usize> {
        Some(buf.as_slice().as_ptr() as usize)
    }

    fn host_slice<'a, T: Element>(&self, buf: &'a CpuBuffer<T>) -> Option<&'a [T]> {
        Some(buf.as_slice())
    }

    fn full<T: Element>(&self, len: usize, value: T) -> Result<CpuBuffer<T>> {
        // Zero pages first (free until touched), then a parallel fill when not zero.
        let mut v = crate::alloc::zeroed_vec::<T>(len)?;
        if !crate::alloc::is_zero_bits(&value) {
            par::update(&mut v, |x| *x = value);
        }
        Ok(CpuBuffer::new(v))
    }

    fn zeroed_host_vec<T: Element>(&self, len: usize) -> Result<Vec<T>> {
        crate::alloc::zeroed_vec(len)
    }

    fn from_vec<T: Element>(&self, data: Vec<T>) -> Result<CpuBuffer<T>> {
        Ok(CpuBuffer::new(data))
    }

    fn to_vec<T: Element>(&self, buf: &CpuBuffer<T>, layout: &Layout) -> Result<Vec<T>> {
        check_views("to_vec", &[(buf.len(), layout)])?;
        gather_map(buf.as_slice(), layout, |x| x)
    }

    fn copy<T: Element>(&self, buf: &CpuBuffer<T>, layout: &Layout) -> Result<CpuBuffer<T>> {
        check_views("copy", &[(buf.len(), layout)])?;
        Ok(CpuBuffer::new(gather_map(buf.as_slice(), layout, |x| x)?))
    }

    fn assign<T: Element>(
        &self,
        dst: &mut CpuBuffer<T>,
        dst_layout: &Layout,
        src: &CpuBuffer<T>,
        src_layout: &Layout,
    ) -> Result<()> {
        check_views(
            "assign",
            &[(dst.len(), dst_layout), (src.len(), src_layout)],
        )?;
        let n = dst_layout.size();
        let s = src.as_slice();
        let d = dst.make_mut()?;
        if let (Some(dc), Some(sc)) = (contiguous_mut(d, dst_layout), contiguous(s, src_layout)) {
            par::update2(dc, sc, |o, &x| *o = x);
            return Ok(());
        }
        let mut dv = view_mut(d, dst_layout);
        let sv = view(s, src_layout);
        let z = Zip::from(&mut dv).and(&sv);
        if !par::serial(n) {
            z.par_for_each(|o, &x| *o = x);
        } else {
            z.for_each(|o, &x| *o = x);
        }
        Ok(())
    }

    fn concat_flat<T: Element>(&self, parts: &[(&CpuBuffer<T>, &Layout)]) -> Result<CpuBuffer<T>> {
        let views: Vec<(&[T], &Layout)> = parts.iter().map(|(b, l)| (b.as_slice(), *l)).collect();
        let checks: Vec<(usize, &Layout)> = views.iter().map(|(d, l)| (d.len(), *l)).collect();
        check_views("concatenate", &checks)?;
        let len = crate::alloc::checked_sum(views.iter().map(|(_, l)| l.size()))?;
        // SAFETY: `fill_runs` writes every slot: the runs are the parts' sizes, which sum
        // to `len`, and each run is written whole (contiguous copy or C-order walk).
        let out = unsafe { crate::alloc::written_vec(len, |o| fill_runs(o, &views)) }?;
        Ok(CpuBuffer::new(out))
    }

    fn fill<T: Element>(&self, dst: &mut CpuBuffer<T>, layout: &Layout, value: T) -> Result<()> {
        check_views("fill", &[(dst.len(), layout)])?;
        let n = layout.size();
        let d = dst.make_mut()?;
        if let Some(dc) = contiguous_mut(d, layout) {
            par::update(dc, |o| *o = value);
            return Ok(());
        }
        let mut dv = view_mut(d, layout);
        if !par::serial(n) {
            dv.par_map_inplace(|o| *o = value);
        } else {
            dv.map_inplace(|o| *o = value);
        }
        Ok(())
    }

    fn make_unique<T: Element>(&self, buf: &mut CpuBuffer<T>) -> Result<()> {
        buf.try_make_unique()
    }

    fn needs_copy_to_write<T: Element>(&self, buf: &CpuBuffer<T>) -> bool {
        buf.needs_copy_to_write()
    }

    fn cast<T: Element, U: Element>(
        &self,
        buf: &CpuBuffer<T>,
        layout: &Layout,
    ) -> Result<CpuBuffer<U>> {
        check_views("cast", &[(buf.len(), layout)])?;
        Ok(CpuBuffer::new(gather_map(buf.as_slice(), layout, |x| {
            x.cast::<U>()
        })?))
    }

    fn arange<T: Numeric>(&self, n: usize, start: T, step: T) -> Result<CpuBuffer<T>> {
        let mut out = crate::alloc::zeroed_vec::<T>(n)?;
        if T::DTYPE.is_half() {
            // NumPy's float16 fill: `start + i * step` in f32, rounded once.
            let (a, s): (f32, f32) = (start.cast(), step.cast());
            out.par_chunks_mut(par::CHUNK)
                .enumerate()
                .for_each(|(c, chunk)| {
                    for (j, o) in chunk.iter_mut().enumerate() {
                        let i = ((c * par::CHUNK + j) as f64) as f32;
                        *o = T::from_scalar(Scalar::F32(a + i * s));
                    }
                });
            return Ok(CpuBuffer::new(out));
        }
        out.par_chunks_mut(par::CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                for (j, o) in chunk.iter_mut().enumerate() {
                    *o = start.add(T::from_usize(c * par::CHUNK + j).mul(step));
                }
            });
        Ok(CpuBuffer::new(out))
    }
}

#[cfg(test)]
mod tests {
    use super::gather_map;
    use cuprite_core::Layout;

    /// One strided run read forward (a stepped slice), backward and from an offset, at
    /// lengths around the parallel threshold: the definition's elements.
    #[test]
    fn a_strided_run_is_gathered_as_defined() {
        let data: Vec<f64> = (0..700_001).map(|i| i as f64 * 0.5).collect();
        for (n, stride, off) in [
            (1usize, 3isize, 5usize),
            (7, 2, 0),
            (350_000, 2, 1),
            // Pairs up to the buffer's last element, whose pair is cut short.
            (350_001, 2, 0),
            (7, 2, 700_001 - 13),
            (233_333, 3, 0),
            (350_000, -2, 700_000),
        ] {
            let l = Layout::new(vec![n], vec![stride], off);
            let got = gather_map(&data, &l, |x| x * 2.0).unwrap();
            let want: Vec<f64> = (0..n)
                .map(|i| data[(off as isize + i as isize * stride) as usize] * 2.0)
                .collect();
            assert_eq!(got, want, "n {n}, stride {stride}, offset {off}");
        }
    }
}
