//! [`KernelOps`] for [`Cpu`]: a kernel written in Rust runs its CPU translation (a plain
//! function the compiler inlines here) over the broadcast operands. When every operand is
//! one contiguous run, the output is split into chunks processed in parallel by rayon above
//! [`par::PAR_MIN`] elements; otherwise ndarray's `Zip` walks the strided views (zero
//! strides for broadcast axes, negative ones for reversed axes), in parallel above the same
//! size.

use crate::buffer::CpuBuffer;
use crate::par;
use crate::view::{check_views, contiguous, view, view_mut};
use crate::Cpu;
use cuprite_core::backend::KernelOps;
use cuprite_core::kernel::{KernelElement, KernelSpec};
use cuprite_core::{Error, Layout, Result};
use ndarray::Zip;
use rayon::prelude::*;

macro_rules! cpu_map_kernel {
    ($($method:ident($($a:ident: $t:ident, $l:ident, $c:ident),+);)*) => {
        impl KernelOps for Cpu {
            $(
                fn $method<$($t: KernelElement,)+ R: KernelElement, F>(
                    &self,
                    spec: &KernelSpec,
                    f: &F,
                    $($a: &CpuBuffer<$t>, $l: &Layout,)+
                ) -> Result<CpuBuffer<R>>
                where
                    F: Fn($($t),+) -> R + Send + Sync,
                {
                    check_views(spec.name(), &[$(($a.len(), $l)),+])?;
                    let first = cpu_map_kernel!(@first $($l),+);
                    $(
                        if $l.shape() != first.shape() {
                            return Err(Error::ShapeMismatch {
                                op: spec.name(),
                                lhs: first.shape().to_vec(),
                                rhs: $l.shape().to_vec(),
                            });
                        }
                    )+
                    let n = first.size();
                    let mut out = crate::alloc::zeroed_vec::<R>(n)?;
                    if let ($(Some($c),)+) = ($(contiguous($a.as_slice(), $l),)+) {
                        let body = |start: usize, o: &mut [R]| {
                            $(let $c = &$c[start..start + o.len()];)+
                            for (i, o) in o.iter_mut().enumerate() {
                                *o = f($($c[i]),+);
                            }
                        };
                        if par::serial(n) {
                            body(0, &mut out);
                        } else {
                            out.par_chunks_mut(par::CHUNK)
                                .enumerate()
                                .for_each(|(k, o)| body(k * par::CHUNK, o));
                        }
                    } else {
                        let mut ov = view_mut(&mut out, &Layout::contiguous(first.shape()));
                        let z = Zip::from(&mut ov)$(.and(view($a.as_slice(), $l)))+;
                        if !par::serial(n) {
                            z.par_for_each(|o, $(&$a),+| *o = f($($a),+));
                        } else {
                            z.for_each(|o, $(&$a),+| *o = f($($a),+));
                        }
                    }
                    Ok(CpuBuffer::new(out))
                }
            )*
        }
    };
    (@first $l:ident $(, $rest:ident)*) => { $l };
}

cpu_map_kernel! {
    map_kernel1(a0: A0, l0, c0);
    map_kernel2(a0: A0, l0, c0, a1: A1, l1, c1);
    map_kernel3(a0: A0, l0, c0, a1: A1, l1, c1, a2: A2, l2, c2);
    map_kernel4(a0: A0, l0, c0, a1: A1, l1, c1, a2: A2, l2, c2, a3: A3, l3, c3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_and_contiguous_paths_agree_with_a_loop() {
        let spec = KernelSpec::new("t", "");
        let a: Vec<i32> = (0..12).collect();
        let b: Vec<i32> = (0..4).map(|x| x * 10).collect();
        let la = Layout::contiguous(&[4, 3]).transposed();
        // b[i] along the rows, broadcast along the columns.
        let lb = Layout::new(vec![3, 4], vec![1, 0], 0);
        let f = |x: i32, y: i32| x * 100 + y;
        let out = Cpu
            .map_kernel2(
                &spec,
                &f,
                &CpuBuffer::new(a.clone()),
                &la,
                &CpuBuffer::new(b.clone()),
                &lb,
            )
            .unwrap();
        let mut want = Vec::new();
        for i in 0..3 {
            for j in 0..4 {
                want.push(a[j * 3 + i] * 100 + b[i]);
            }
        }
        assert_eq!(out.as_slice(), &want[..]);
        let c = Layout::contiguous(&[12]);
        let out = Cpu
            .map_kernel1(
                &spec,
                &|x: i32| x as f64 / 2.0,
                &CpuBuffer::new(a.clone()),
                &c,
            )
            .unwrap();
        let want: Vec<f64> = a.iter().map(|&x| x as f64 / 2.0).collect();
        assert_eq!(out.as_slice(), &want[..]);
    }
}
