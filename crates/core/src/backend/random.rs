//! Random-number primitives: fill a new buffer from a [`Draw`] of the counter-based Philox
//! generator. Each output element is a pure function of (key, call number, index) — see
//! [`crate::random::philox`] for the layout of the counter space and
//! [`crate::random::sample`] for the samplers every backend reproduces bit for bit.

use super::memory::BackendBase;
use crate::dtype::{Float, Integer};
use crate::error::Result;
use crate::random::{Draw, FloatDist, IntDist};

/// Random fills. Core has checked every parameter; `n` may be 0.
pub trait RandomOps: BackendBase {
    /// `n` values uniform in `[low, high)`: `low + (high - low) * u` in `T`'s arithmetic,
    /// `u` from the block stream of `d` (f32: 24 bits, f64: 53 bits).
    fn random_uniform<T: Float>(
        &self,
        n: usize,
        d: &Draw,
        low: T,
        high: T,
    ) -> Result<Self::Buffer<T>>;

    /// `n` values of a real distribution, element `i` being `dist.sample(d, i)` rounded to `T`.
    fn random_float<T: Float>(
        &self,
        n: usize,
        d: &Draw,
        dist: FloatDist,
    ) -> Result<Self::Buffer<T>>;

    /// `n` values of an integer distribution, element `i` being `dist.sample(d, i)` truncated
    /// to `T` (core only asks for values that fit).
    fn random_int<T: Integer>(&self, n: usize, d: &Draw, dist: IntDist) -> Result<Self::Buffer<T>>;
}
