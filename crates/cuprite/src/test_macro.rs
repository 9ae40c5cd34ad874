//! [`test_backends!`](crate::test_backends): one generic test body, one `#[test]` per
//! compiled backend. Tests on device backends are `#[ignore]`d so a machine without the
//! device reports them as ignored; run them with `--ignored` where the device exists.

/// Expands generic test functions `fn name<B: ArrayBackend>(dev: &B)` into one `#[test]` per
/// compiled backend, in modules `cpu`, `fused_cpu` (the CPU behind
/// [`Fused`](crate::fusion::Fused), deferring every size so that small test arrays go
/// through the fused evaluation too), `cuda` and `fused_cuda` (with the facade's
/// `device-tests-only` feature, the last two alone: a smaller binary for a GPU host).
///
/// ```text
/// fn adds<B: ArrayBackend>(dev: &B) { /* ... */ }
/// cuprite::test_backends!(adds);
/// ```
#[macro_export]
macro_rules! test_backends {
    ($($name:ident),* $(,)?) => {
        #[cfg(all(feature = "cpu", not(feature = "device-tests-only")))]
        mod cpu {
            $(
                #[test]
                fn $name() {
                    super::$name(&$crate::Cpu::new());
                }
            )*
        }
        // The same bodies on the CPU behind the fusing decorator: deferred element-wise
        // chains must give what the CPU gives, at the same calls.
        #[cfg(all(feature = "cpu", not(feature = "device-tests-only")))]
        mod fused_cpu {
            $(
                #[test]
                fn $name() {
                    super::$name(&$crate::fusion::Fused::new($crate::Cpu::new()).with_defer_min(0));
                }
            )*
        }
        #[cfg(feature = "cuda")]
        mod cuda {
            $(
                #[test]
                #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
                fn $name() {
                    let dev = $crate::Cuda::new(0).expect("CUDA device 0");
                    super::$name(&dev);
                }
            )*
        }
        #[cfg(feature = "cuda")]
        mod fused_cuda {
            $(
                #[test]
                #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
                fn $name() {
                    let dev = $crate::Cuda::new(0).expect("CUDA device 0");
                    super::$name(&$crate::fusion::Fused::new(dev).with_defer_min(0));
                }
            )*
        }
    };
}
