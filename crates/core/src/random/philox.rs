//! Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) and
//! the layout of cuprite's counter space: which Philox blocks each output element reads. This
//! file is the reference that `kernels/src/random.cu` mirrors line for line, so the same seed
//! gives the same bits on every backend.
//!
//! A key is the 64-bit seed as two 32-bit words. Every draw of `n` elements from a
//! [`Generator`](super::Generator) reserves the call numbers `s .. s + 1 + ceil(n / 2^32)`
//! ([`Draw`]):
//! - block stream (uniform floats): block `b` is the counter `(b_lo, b_hi, s_lo, s_hi)`;
//!   element `i` of an f32 draw reads word `i % 4` of block `i / 4`, of an f64 draw words
//!   `2 (i % 2)` (low half) and `2 (i % 2) + 1` (high half) of block `i / 2`;
//! - element streams (every other distribution): element `i` owns the counters
//!   `(j, i mod 2^32, t_lo, t_hi)` with `t = s + 1 + floor(i / 2^32)` for `j = 0, 1, ...`,
//!   read four words at a time, so a rejection sampler's output is a pure function of
//!   (key, s, i) however many words it consumes.

/// Philox4x32 round multipliers and Weyl key increments (Random123's constants).
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// One Philox4x32-10 block: the four 32-bit words for counter `c` under key `k`.
///
/// ```
/// use cuprite_core::random::philox4x32_10;
/// assert_eq!(
///     philox4x32_10([0; 4], [0; 2]),
///     [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
/// );
/// ```
#[inline]
pub fn philox4x32_10(c: [u32; 4], k: [u32; 2]) -> [u32; 4] {
    let (mut c, mut k) = (c, k);
    for r in 0..10 {
        if r > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        let p0 = M0 as u64 * c[0] as u64;
        let p1 = M1 as u64 * c[2] as u64;
        let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
        let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

/// `L` consecutive blocks of the block stream at once, word by word: `out[w][l]` is word `w`
/// of block `b + l` of `d`, the same bits as [`Draw::block`]. The rounds run lane by lane
/// over arrays, so a compiler turns them into vector multiplies (`L` = 8 fills two AVX2
/// registers of 32 x 32 -> 64-bit products per round).
///
/// ```
/// use cuprite_core::random::{philox::blocks, Draw};
/// let d = Draw::new([7, 9], 3);
/// let w = blocks::<4>(&d, 10);
/// for l in 0..4 {
///     assert_eq!(w.map(|word| word[l]), d.block(10 + l as u64));
/// }
/// ```
#[inline(always)]
pub fn blocks<const L: usize>(d: &Draw, b: u64) -> [[u32; L]; 4] {
    let ctr: [u64; L] = std::array::from_fn(|l| b.wrapping_add(l as u64));
    let mut c = [
        ctr.map(|x| x as u32),
        ctr.map(|x| (x >> 32) as u32),
        [d.base as u32; L],
        [(d.base >> 32) as u32; L],
    ];
    let mut k = d.key;
    for r in 0..10 {
        if r > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        let mut n = [[0u32; L]; 4];
        for l in 0..L {
            let p0 = M0 as u64 * c[0][l] as u64;
            let p1 = M1 as u64 * c[2][l] as u64;
            n[0][l] = (p1 >> 32) as u32 ^ c[1][l] ^ k[0];
            n[1][l] = p1 as u32;
            n[2][l] = (p0 >> 32) as u32 ^ c[3][l] ^ k[1];
            n[3][l] = p0 as u32;
        }
        c = n;
    }
    c
}

/// What one draw of a generator may read: the key, the first reserved call number, and
/// where in the draw a fill starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Draw {
    /// The Philox key (the seed, low word first).
    pub key: [u32; 2],
    /// The first call number reserved for this draw (its block stream).
    pub base: u64,
    /// The index in the draw of a fill's element 0: a fill of `n` elements writes elements
    /// `first .. first + n` of the draw. 0 for a whole draw; a part of a draw (one GPU's
    /// shard of an array split over several) starts further on, and its elements are the
    /// same bits the whole draw has there.
    pub first: u64,
}

impl Draw {
    /// A whole draw: `first` is 0.
    pub fn new(key: [u32; 2], base: u64) -> Draw {
        Draw {
            key,
            base,
            first: 0,
        }
    }

    /// The same draw, its fills starting at element `first`.
    pub fn starting_at(self, first: u64) -> Draw {
        Draw { first, ..self }
    }

    /// Call numbers a draw of `n` elements reserves: one block stream and one element-stream
    /// group per 2^32 elements.
    pub fn calls(n: usize) -> u64 {
        1 + (n as u64).div_ceil(1 << 32)
    }

    /// Block `b` of the block stream.
    #[inline]
    pub fn block(&self, b: u64) -> [u32; 4] {
        philox4x32_10(
            [
                b as u32,
                (b >> 32) as u32,
                self.base as u32,
                (self.base >> 32) as u32,
            ],
            self.key,
        )
    }

    /// The element stream of element `i`.
    #[inline]
    pub fn element(&self, i: u64) -> Stream {
        let t = self.base.wrapping_add(1).wrapping_add(i >> 32);
        Stream {
            key: self.key,
            ctr: [0, i as u32, t as u32, (t >> 32) as u32],
            buf: [0; 4],
            used: 4,
        }
    }
}

/// 2^-53 and 2^-24: the steps of the uniform grids of f64 and f32.
pub const F64_STEP: f64 = 1.0 / 9_007_199_254_740_992.0;
pub const F32_STEP: f32 = 1.0 / 16_777_216.0;

/// A uniform f64 in `[0, 1)` from 64 random bits (the top 53), as NumPy's `next_double`.
#[inline]
pub fn f64_from_bits(x: u64) -> f64 {
    (x >> 11) as f64 * F64_STEP
}

/// A uniform f32 in `[0, 1)` from 32 random bits (the top 24), as NumPy's `next_float`.
#[inline]
pub fn f32_from_bits(x: u32) -> f32 {
    (x >> 8) as f32 * F32_STEP
}

/// A uniform value in `[0, 1)` from the top `bits` of 32 random bits: `k * 2^-bits`, exact in
/// a 16-bit float whose significand holds `bits` bits (11 for f16, 8 for bf16).
#[inline]
pub fn half_from_bits(x: u32, bits: u32) -> f64 {
    (x >> (32 - bits)) as f64 / (1u64 << bits) as f64
}

/// The words of one element's stream, read in order, four per Philox block.
#[derive(Clone, Debug)]
pub struct Stream {
    key: [u32; 2],
    ctr: [u32; 4],
    buf: [u32; 4],
    used: usize,
}

impl Stream {
    /// The next 32 random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.used == 4 {
            self.buf = philox4x32_10(self.ctr, self.key);
            self.ctr[0] = self.ctr[0].wrapping_add(1);
            self.used = 0;
        }
        let v = self.buf[self.used];
        self.used += 1;
        v
    }

    /// The next 64 random bits (low word first).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let lo = self.next_u32() as u64;
        let hi = self.next_u32() as u64;
        (hi << 32) | lo
    }

    /// A uniform f64 in `[0, 1)`.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        f64_from_bits(self.next_u64())
    }

    /// A uniform f64 in `(0, 1]`.
    #[inline]
    pub fn next_f64_open(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 * F64_STEP
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random123's kat_vectors for philox4x32_10 (counter, key, output).
    #[test]
    fn random123_known_answers() {
        let kat: [([u32; 4], [u32; 2], [u32; 4]); 3] = [
            (
                [0; 4],
                [0; 2],
                [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
            ),
            (
                [0xffffffff; 4],
                [0xffffffff; 2],
                [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
            ),
            (
                [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
                [0xa4093822, 0x299f31d0],
                [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
            ),
        ];
        for (c, k, want) in kat {
            assert_eq!(philox4x32_10(c, k), want, "counter {c:x?} key {k:x?}");
        }
    }

    #[test]
    fn lanes_are_the_blocks_one_by_one() {
        // Lanes that cross a carry into the counter's high word, and the last blocks.
        for (key, base, b) in [([1, 2], 5u64, (1u64 << 32) - 3), ([!0, 0], !0, !0 - 7)] {
            let d = Draw::new(key, base);
            let w = blocks::<8>(&d, b);
            let lanes: Vec<[u32; 4]> = (0..8).map(|l| w.map(|word| word[l])).collect();
            let one: Vec<[u32; 4]> = (0..8).map(|l| d.block(b.wrapping_add(l))).collect();
            assert_eq!(lanes, one);
        }
    }

    #[test]
    fn element_streams_are_disjoint_from_the_block_stream() {
        let d = Draw::new([1, 2], 10);
        let mut s = d.element(3);
        let first = [s.next_u32(), s.next_u32(), s.next_u32(), s.next_u32()];
        assert_eq!(first, philox4x32_10([0, 3, 11, 0], [1, 2]));
        assert_eq!(s.next_u32(), philox4x32_10([1, 3, 11, 0], [1, 2])[0]);
        let mut far = d.element((1 << 32) + 3);
        assert_eq!(far.next_u32(), philox4x32_10([0, 3, 12, 0], [1, 2])[0]);
        assert_eq!(d.block(5), philox4x32_10([5, 0, 10, 0], [1, 2]));
        assert_eq!(Draw::calls(0), 1);
        assert_eq!(Draw::calls(1), 2);
        assert_eq!(Draw::calls((1 << 32) + 1), 3);
    }

    #[test]
    fn unit_conversions_hit_both_ends() {
        assert_eq!(f64_from_bits(0), 0.0);
        assert_eq!(f64_from_bits(u64::MAX), 1.0 - F64_STEP);
        assert_eq!(f32_from_bits(u32::MAX), 1.0 - F32_STEP);
        assert_eq!(f32_from_bits(0x100), F32_STEP);
    }
}
