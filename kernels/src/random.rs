//! The random kernel family: Philox4x32-10, cuprite's portable `log`/`exp`, and the samplers
//! of `cuprite_core::random`, mirrored operation for operation so each output is
//! bit-identical to the CPU backend's. It must be compiled with [`OPTIONS`] (no fused
//! multiply-add). Kernels: `random_uniform` (block stream, 16-byte stores), `random_float`
//! and `random_int` (one element stream per output).
//!
//! ```
//! let src = cuprite_kernels::random::program("double");
//! assert!(src.contains("#define T double") && src.contains("random_uniform"));
//! assert_eq!(cuprite_kernels::random::OPTIONS, ["--fmad=false"]);
//! ```

/// The CUDA C source.
pub const SOURCE: &str = include_str!("random.cu");

/// NVRTC options this family needs on top of the defaults: no contraction of `a * b + c`
/// into a fused multiply-add, which would round differently from the CPU.
pub const OPTIONS: [&str; 1] = ["--fmad=false"];

/// Output types the kernels are instantiated for: the floats (`random_uniform`,
/// `random_float`) and the integers (`random_int`).
pub const FLOAT_TYPES: [&str; 2] = ["float", "double"];
/// See [`FLOAT_TYPES`].
pub const INT_TYPES: [&str; 8] = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"];

/// The program for output type `t` (CUDA C name).
pub fn program(t: &str) -> String {
    crate::program(&[SOURCE], &[("T", t)])
}

#[cfg(test)]
mod tests {
    /// The `dist` codes of the source, which `FloatDist::code` and `IntDist::code` in
    /// cuprite-core produce (the CUDA backend's tests check those against these).
    #[test]
    fn dist_codes_are_defined_once() {
        for (name, v) in [
            ("RD_NORMAL", 0),
            ("RD_LOGNORMAL", 1),
            ("RD_EXPONENTIAL", 2),
            ("RD_GAMMA", 3),
            ("RD_BETA", 4),
            ("RD_STANDARD_CAUCHY", 5),
            ("RD_STANDARD_T", 6),
            ("RD_CHISQUARE", 7),
            ("RD_NONCENTRAL_CHISQUARE", 8),
            ("RD_F", 9),
            ("RD_NONCENTRAL_F", 10),
            ("RD_LAPLACE", 11),
            ("RD_LOGISTIC", 12),
            ("RD_GUMBEL", 13),
            ("RD_WEIBULL", 14),
            ("RD_PARETO", 15),
            ("RD_RAYLEIGH", 16),
            ("RD_WALD", 17),
            ("RD_TRIANGULAR", 18),
            ("RD_POWER", 19),
            ("RD_VONMISES", 20),
            ("RI_INTEGERS", 0),
            ("RI_POISSON", 1),
            ("RI_BINOMIAL", 2),
            ("RI_BITS", 3),
            ("RI_GEOMETRIC", 4),
            ("RI_NEGATIVE_BINOMIAL", 5),
            ("RI_ZIPF", 6),
            ("RI_LOGSERIES", 7),
            ("RI_HYPERGEOMETRIC", 8),
        ] {
            assert!(
                super::SOURCE.contains(&format!("#define {name} {v}\n")),
                "{name}"
            );
        }
    }

    /// Every sampler the kernels' `switch` calls (`v = sname(...)`) has a definition in the
    /// source: a missing one fails NVRTC at run time only, for every distribution at once.
    #[test]
    fn every_dispatched_sampler_is_defined() {
        let mut called = 0;
        for line in super::SOURCE.lines() {
            let arm = line.trim_start();
            if !(arm.starts_with("case ") || arm.starts_with("default:")) {
                continue;
            }
            let Some((_, rest)) = arm.split_once("v = s") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let defined = super::SOURCE
                .lines()
                .any(|l| l.starts_with("__device__") && l.contains(&format!(" s{name}(Stream& s")));
            assert!(defined, "random.cu calls s{name} without defining it");
            called += 1;
        }
        assert!(called >= 20, "found only {called} dispatched samplers");
    }
}
