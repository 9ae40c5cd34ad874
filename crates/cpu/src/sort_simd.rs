//! A vectorised quicksort of f32 and f64 lanes, for CPUs with AVX2.
//!
//! Why it exists: NumPy sorts floats with a vectorised quicksort (x86-simd-sort), and the
//! stable radix sort of `radix.rs` loses to it on machines where scattered writes are slow
//! (on a 2-core AVX2 VM one 11-bit pass over 5M f32 costs ~20 ms, and a sort makes several).
//! A quicksort's partition passes read and write sequentially, so f32 and f64 lanes are
//! sorted here instead when the CPU has AVX2 ([`sort`] answers false otherwise, and for every
//! other element type, and the caller keeps its radix path).
//!
//! What it does, in three steps ([`avx2::sort_floats`]):
//!
//! 1. the lane is copied to the output with its NaNs, in input order, moved to the tail
//!    (one vectorised pass that also notes whether both signs of zero occur);
//! 2. unless they are in order already, or in reverse order (reversed then), the numbers in
//!    front are sorted in place by a quicksort: the pivot is the median of a small sample;
//!    the partition compares 8 f32 or 4 f64 lanes at a time with the pivot and compresses
//!    each vector's lanes to the two sides through a permutation table; both halves of a
//!    large range run over rayon; ranges of at most 256 f32 / 128 f64 are sorted in
//!    registers by a bitonic network; and a range that keeps splitting badly is finished by
//!    the standard library's unstable sort, so the worst case stays O(n log n);
//! 3. if both zero signs occur, the run of zeros is rewritten with the input's zeros in
//!    input order.
//!
//! The result is bit for bit the stable sort by `Element::sort_cmp` (NaNs last, `-0.0`
//! equal to `0.0`): two numbers that compare equal are identical unless they are zeros of
//! opposite signs, and the zeros and the NaNs are placed in input order.

/// Sorts `src` into `out` (of the same length) exactly as the stable sort by
/// `Element::sort_cmp` would, when `T` is f32 or f64 and this CPU has AVX2, FMA and POPCNT.
/// Returns false, leaving `out` untouched, for any other type or CPU.
pub(crate) fn sort<T: Copy + 'static>(src: &[T], out: &mut [T]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if avx2::detected() {
        if let (Some(s), Some(o)) = (same::<T, f32>(src), same_mut::<T, f32>(out)) {
            avx2::sort_floats::<avx2::F32x8>(s, o);
            return true;
        }
        if let (Some(s), Some(o)) = (same::<T, f64>(src), same_mut::<T, f64>(out)) {
            avx2::sort_floats::<avx2::F64x4>(s, o);
            return true;
        }
    }
    let _ = (src, out);
    false
}

/// `s` as a slice of `U`, when `T` is `U`.
#[cfg(target_arch = "x86_64")]
fn same<T: 'static, U: 'static>(s: &[T]) -> Option<&[U]> {
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<U>()).then(|| {
        // SAFETY: `T` and `U` are the same type.
        unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<U>(), s.len()) }
    })
}

/// [`same`] for a mutable slice.
#[cfg(target_arch = "x86_64")]
fn same_mut<T: 'static, U: 'static>(s: &mut [T]) -> Option<&mut [U]> {
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<U>()).then(|| {
        // SAFETY: `T` and `U` are the same type.
        unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<U>(), s.len()) }
    })
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use rayon::prelude::*;
    use std::arch::x86_64::*;

    /// Lanes at least this long split the first pass and the recursion over rayon.
    const PAR_MIN: usize = 1 << 16;
    /// Elements per rayon task of the first pass.
    const PREPARE_CHUNK: usize = 1 << 16;
    /// Vectors the partition reads at a time (4 or 16 were slower on the 5M sorts).
    const UNROLL: usize = 8;
    /// Ranges of at most this many f32 are sorted by the network: 32 vectors (128 and 512
    /// were slower on 5M random f32).
    const SMALL_F32: usize = 256;
    /// Ranges of at most this many f64 are sorted by the network: 32 vectors (64 and 256
    /// were slower on 5M f64).
    const SMALL_F64: usize = 128;
    /// Most vectors the network sorts.
    const MAX_VECTORS: usize = 32;

    /// Whether this CPU runs the functions compiled for AVX2, FMA and POPCNT (the count of
    /// a compare mask is a `popcnt`; without the feature it compiles to a multiply chain).
    pub(super) fn detected() -> bool {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("popcnt")
    }

    /// The scalar side of the two float types.
    pub(super) trait SortFloat: Copy + PartialOrd + Send + Sync + 'static {
        /// Positive infinity: the padding of a partial vector, after every number.
        const INFINITY: Self;
        /// Zero (equal to both zeros).
        const ZERO: Self;
        fn is_nan(self) -> bool;
        /// True for `-0.0` only.
        fn is_negative_zero(self) -> bool;
        /// True for `+0.0` only.
        fn is_positive_zero(self) -> bool;
    }

    macro_rules! sort_float {
        ($t:ty, $sign:expr) => {
            impl SortFloat for $t {
                const INFINITY: Self = <$t>::INFINITY;
                const ZERO: Self = 0.0;
                #[inline(always)]
                fn is_nan(self) -> bool {
                    <$t>::is_nan(self)
                }
                #[inline(always)]
                fn is_negative_zero(self) -> bool {
                    self.to_bits() == $sign
                }
                #[inline(always)]
                fn is_positive_zero(self) -> bool {
                    self.to_bits() == 0
                }
            }
        };
    }
    sort_float!(f32, 1 << 31);
    sort_float!(f64, 1 << 63);

    /// One 256-bit vector of floats and the lane operations the sort needs. Every method
    /// may only run where [`detected`] holds.
    pub(super) trait Vector: Copy + Send {
        type Elem: SortFloat;
        /// Elements per vector.
        const LANES: usize;
        /// Ranges of at most this many elements are sorted by the network.
        const SMALL: usize;
        unsafe fn splat(x: Self::Elem) -> Self;
        /// Reads `LANES` elements from `p` (any alignment).
        unsafe fn load(p: *const Self::Elem) -> Self;
        /// Writes `LANES` elements to `p` (any alignment).
        unsafe fn store(p: *mut Self::Elem, v: Self);
        unsafe fn min(a: Self, b: Self) -> Self;
        unsafe fn max(a: Self, b: Self) -> Self;
        /// Bit `i` set where lane `i` of `x` is below `p` (at most `p`, with `EQUAL`).
        unsafe fn mask<const EQUAL: bool>(x: Self, p: Self) -> u32;
        /// The lanes whose bit of `mask` is set first, in order, then the others.
        unsafe fn compress(x: Self, mask: u32) -> Self;
        /// The lanes in reverse order.
        unsafe fn reverse(x: Self) -> Self;
        /// The lanes sorted ascending.
        unsafe fn sort_lanes(x: Self) -> Self;
        /// A bitonic sequence of lanes sorted ascending.
        unsafe fn merge_lanes(x: Self) -> Self;
        /// Transposes each block of `LANES` vectors of `r` (`N` a multiple of `LANES`) and
        /// puts row `i` of block `b` at `i * N / LANES + b`: sorted columns become sorted
        /// runs of `N / LANES` vectors.
        unsafe fn transpose_blocks<const N: usize>(r: &mut [Self; N]);
        /// All bits set in the lanes of `x` that are NaN, `-0.0` and `+0.0` respectively.
        unsafe fn classify(x: Self) -> [__m256i; 3];
    }

    /// `compress` indices for 8 lanes of 32 bits: the set lanes of the mask, then the rest.
    const fn compress_table_8() -> [[u32; 8]; 256] {
        let mut t = [[0u32; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let mut k = 0;
            let mut pass = 0;
            while pass < 2 {
                let mut i = 0;
                while i < 8 {
                    if ((m >> i) & 1) ^ pass == 1 {
                        t[m][k] = i as u32;
                        k += 1;
                    }
                    i += 1;
                }
                pass += 1;
            }
            m += 1;
        }
        t
    }

    /// `compress` indices for 4 lanes of 64 bits, as pairs of 32-bit lanes.
    const fn compress_table_4() -> [[u32; 8]; 16] {
        let narrow = compress_table_8();
        let mut t = [[0u32; 8]; 16];
        let mut m = 0;
        while m < 16 {
            let mut i = 0;
            while i < 4 {
                t[m][2 * i] = 2 * narrow[m][i];
                t[m][2 * i + 1] = 2 * narrow[m][i] + 1;
                i += 1;
            }
            m += 1;
        }
        t
    }

    #[repr(align(32))]
    struct Table<const M: usize>([[u32; 8]; M]);

    static COMPRESS_8: Table<256> = Table(compress_table_8());
    static COMPRESS_4: Table<16> = Table(compress_table_4());

    /// Eight f32 lanes.
    #[derive(Clone, Copy)]
    pub(super) struct F32x8(__m256);

    /// Four f64 lanes.
    #[derive(Clone, Copy)]
    pub(super) struct F64x4(__m256d);

    /// One layer of compare-exchanges: each lane meets lane `partner` of itself and keeps
    /// the minimum, or the maximum in the lanes set in `MAX`.
    #[inline]
    #[target_feature(enable = "avx2,fma,popcnt")]
    fn exchange_f32<const MAX: i32>(x: __m256, partner: __m256) -> __m256 {
        _mm256_blend_ps::<MAX>(_mm256_min_ps(x, partner), _mm256_max_ps(x, partner))
    }

    /// [`exchange_f32`] for f64.
    #[inline]
    #[target_feature(enable = "avx2,fma,popcnt")]
    fn exchange_f64<const MAX: i32>(x: __m256d, partner: __m256d) -> __m256d {
        _mm256_blend_pd::<MAX>(_mm256_min_pd(x, partner), _mm256_max_pd(x, partner))
    }

    /// The lanes of `x` permuted by `idx`.
    #[inline]
    #[target_feature(enable = "avx2,fma,popcnt")]
    fn permute_f32(x: __m256, idx: [i32; 8]) -> __m256 {
        let i = _mm256_setr_epi32(
            idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6], idx[7],
        );
        _mm256_permutevar8x32_ps(x, i)
    }

    impl Vector for F32x8 {
        type Elem = f32;
        const LANES: usize = 8;
        const SMALL: usize = SMALL_F32;

        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn splat(x: f32) -> Self {
            F32x8(_mm256_set1_ps(x))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller passes `LANES` readable elements.
            F32x8(unsafe { _mm256_loadu_ps(p) })
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn store(p: *mut f32, v: Self) {
            // SAFETY: the caller passes `LANES` writable elements.
            unsafe { _mm256_storeu_ps(p, v.0) }
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn min(a: Self, b: Self) -> Self {
            F32x8(_mm256_min_ps(a.0, b.0))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn max(a: Self, b: Self) -> Self {
            F32x8(_mm256_max_ps(a.0, b.0))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn mask<const EQUAL: bool>(x: Self, p: Self) -> u32 {
            let m = if EQUAL {
                _mm256_cmp_ps::<_CMP_LE_OQ>(x.0, p.0)
            } else {
                _mm256_cmp_ps::<_CMP_LT_OQ>(x.0, p.0)
            };
            _mm256_movemask_ps(m) as u32
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn compress(x: Self, mask: u32) -> Self {
            let row = &COMPRESS_8.0[(mask & 0xff) as usize];
            // SAFETY: `row` is 8 u32, 32 bytes.
            let idx = unsafe { _mm256_load_si256(row.as_ptr().cast()) };
            F32x8(_mm256_permutevar8x32_ps(x.0, idx))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn reverse(x: Self) -> Self {
            F32x8(permute_f32(x.0, [7, 6, 5, 4, 3, 2, 1, 0]))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn sort_lanes(x: Self) -> Self {
            // Batcher's odd-even merge sort of 8: 19 compare-exchanges in 6 layers.
            let x = x.0;
            let x = exchange_f32::<0xAA>(x, _mm256_permute_ps::<0xB1>(x));
            let x = exchange_f32::<0xCC>(x, _mm256_permute_ps::<0x4E>(x));
            let x = exchange_f32::<0x44>(x, _mm256_permute_ps::<0xD8>(x));
            let x = exchange_f32::<0xF0>(x, _mm256_permute2f128_ps::<1>(x, x));
            let x = exchange_f32::<0x30>(x, permute_f32(x, [0, 1, 4, 5, 2, 3, 6, 7]));
            let x = exchange_f32::<0x54>(x, permute_f32(x, [0, 2, 1, 4, 3, 6, 5, 7]));
            F32x8(x)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn merge_lanes(x: Self) -> Self {
            // Half-cleaners at distances 4, 2 and 1.
            let x = x.0;
            let x = exchange_f32::<0xF0>(x, _mm256_permute2f128_ps::<1>(x, x));
            let x = exchange_f32::<0xCC>(x, _mm256_permute_ps::<0x4E>(x));
            let x = exchange_f32::<0xAA>(x, _mm256_permute_ps::<0xB1>(x));
            F32x8(x)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn transpose_blocks<const N: usize>(r: &mut [Self; N]) {
            let mut out = *r;
            for b in 0..N / 8 {
                let x = |i: usize| r[8 * b + i].0;
                let t0 = _mm256_unpacklo_ps(x(0), x(1));
                let t1 = _mm256_unpackhi_ps(x(0), x(1));
                let t2 = _mm256_unpacklo_ps(x(2), x(3));
                let t3 = _mm256_unpackhi_ps(x(2), x(3));
                let t4 = _mm256_unpacklo_ps(x(4), x(5));
                let t5 = _mm256_unpackhi_ps(x(4), x(5));
                let t6 = _mm256_unpacklo_ps(x(6), x(7));
                let t7 = _mm256_unpackhi_ps(x(6), x(7));
                let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
                let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
                let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
                let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
                let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
                let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
                let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
                let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
                let rows = [
                    _mm256_permute2f128_ps::<0x20>(u0, u4),
                    _mm256_permute2f128_ps::<0x20>(u1, u5),
                    _mm256_permute2f128_ps::<0x20>(u2, u6),
                    _mm256_permute2f128_ps::<0x20>(u3, u7),
                    _mm256_permute2f128_ps::<0x31>(u0, u4),
                    _mm256_permute2f128_ps::<0x31>(u1, u5),
                    _mm256_permute2f128_ps::<0x31>(u2, u6),
                    _mm256_permute2f128_ps::<0x31>(u3, u7),
                ];
                for (i, row) in rows.into_iter().enumerate() {
                    out[i * (N / 8) + b] = F32x8(row);
                }
            }
            *r = out;
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn classify(x: Self) -> [__m256i; 3] {
            let bits = _mm256_castps_si256(x.0);
            [
                _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(x.0, x.0)),
                _mm256_cmpeq_epi32(bits, _mm256_set1_epi32(i32::MIN)),
                _mm256_cmpeq_epi32(bits, _mm256_setzero_si256()),
            ]
        }
    }

    impl Vector for F64x4 {
        type Elem = f64;
        const LANES: usize = 4;
        const SMALL: usize = SMALL_F64;

        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn splat(x: f64) -> Self {
            F64x4(_mm256_set1_pd(x))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn load(p: *const f64) -> Self {
            // SAFETY: the caller passes `LANES` readable elements.
            F64x4(unsafe { _mm256_loadu_pd(p) })
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn store(p: *mut f64, v: Self) {
            // SAFETY: the caller passes `LANES` writable elements.
            unsafe { _mm256_storeu_pd(p, v.0) }
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn min(a: Self, b: Self) -> Self {
            F64x4(_mm256_min_pd(a.0, b.0))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn max(a: Self, b: Self) -> Self {
            F64x4(_mm256_max_pd(a.0, b.0))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn mask<const EQUAL: bool>(x: Self, p: Self) -> u32 {
            let m = if EQUAL {
                _mm256_cmp_pd::<_CMP_LE_OQ>(x.0, p.0)
            } else {
                _mm256_cmp_pd::<_CMP_LT_OQ>(x.0, p.0)
            };
            _mm256_movemask_pd(m) as u32
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn compress(x: Self, mask: u32) -> Self {
            let row = &COMPRESS_4.0[(mask & 0xf) as usize];
            // SAFETY: `row` is 8 u32, 32 bytes.
            let idx = unsafe { _mm256_load_si256(row.as_ptr().cast()) };
            let moved = _mm256_permutevar8x32_ps(_mm256_castpd_ps(x.0), idx);
            F64x4(_mm256_castps_pd(moved))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn reverse(x: Self) -> Self {
            F64x4(_mm256_permute4x64_pd::<0x1B>(x.0))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn sort_lanes(x: Self) -> Self {
            // The 4-input network: (0,1)(2,3), (0,2)(1,3), (1,2).
            let x = x.0;
            let x = exchange_f64::<0b1010>(x, _mm256_permute_pd::<0b0101>(x));
            let x = exchange_f64::<0b1100>(x, _mm256_permute2f128_pd::<1>(x, x));
            let x = exchange_f64::<0b0100>(x, _mm256_permute4x64_pd::<0xD8>(x));
            F64x4(x)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn merge_lanes(x: Self) -> Self {
            // Half-cleaners at distances 2 and 1.
            let x = x.0;
            let x = exchange_f64::<0b1100>(x, _mm256_permute2f128_pd::<1>(x, x));
            let x = exchange_f64::<0b1010>(x, _mm256_permute_pd::<0b0101>(x));
            F64x4(x)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn transpose_blocks<const N: usize>(r: &mut [Self; N]) {
            let mut out = *r;
            for b in 0..N / 4 {
                let x = |i: usize| r[4 * b + i].0;
                let t0 = _mm256_unpacklo_pd(x(0), x(1));
                let t1 = _mm256_unpackhi_pd(x(0), x(1));
                let t2 = _mm256_unpacklo_pd(x(2), x(3));
                let t3 = _mm256_unpackhi_pd(x(2), x(3));
                let rows = [
                    _mm256_permute2f128_pd::<0x20>(t0, t2),
                    _mm256_permute2f128_pd::<0x20>(t1, t3),
                    _mm256_permute2f128_pd::<0x31>(t0, t2),
                    _mm256_permute2f128_pd::<0x31>(t1, t3),
                ];
                for (i, row) in rows.into_iter().enumerate() {
                    out[i * (N / 4) + b] = F64x4(row);
                }
            }
            *r = out;
        }
        #[inline]
        #[target_feature(enable = "avx2,fma,popcnt")]
        unsafe fn classify(x: Self) -> [__m256i; 3] {
            let bits = _mm256_castpd_si256(x.0);
            [
                _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_UNORD_Q>(x.0, x.0)),
                _mm256_cmpeq_epi64(bits, _mm256_set1_epi64x(i64::MIN)),
                _mm256_cmpeq_epi64(bits, _mm256_setzero_si256()),
            ]
        }
    }

    /// The three steps of the module documentation.
    pub(super) fn sort_floats<V: Vector>(src: &[V::Elem], out: &mut [V::Elem]) {
        assert_eq!(src.len(), out.len(), "sort: lanes of different lengths");
        let scan = prepare::<V>(src, out);
        let numbers = &mut out[..src.len() - scan.nans];
        if numbers.is_sorted_by(|a, b| a <= b) {
            // Already in order (on most other inputs the check stops at once).
        } else if numbers.is_sorted_by(|a, b| a >= b) {
            // Equal numbers are identical but for the signs of zeros, which come next.
            numbers.reverse();
        } else {
            // SAFETY: `sort` only calls this function where `detected()` holds.
            unsafe { quicksort_lane::<V>(numbers) };
        }
        if scan.negative_zero && scan.positive_zero {
            restore_zeros(src, numbers);
        }
    }

    /// What [`prepare`] saw of the lane.
    #[derive(Clone, Copy, Default)]
    struct Scan {
        nans: usize,
        negative_zero: bool,
        positive_zero: bool,
    }

    impl Scan {
        fn join(self, o: Scan) -> Scan {
            Scan {
                nans: self.nans + o.nans,
                negative_zero: self.negative_zero | o.negative_zero,
                positive_zero: self.positive_zero | o.positive_zero,
            }
        }
    }

    /// Copies `src` to `out` with the NaNs, in input order, after the numbers, also in
    /// input order; the copy of long lanes is split over rayon.
    fn prepare<V: Vector>(src: &[V::Elem], out: &mut [V::Elem]) -> Scan {
        // SAFETY (both): `sort` only calls `sort_floats` where `detected()` holds.
        let scan = if src.len() >= PAR_MIN {
            src.par_chunks(PREPARE_CHUNK)
                .zip(out.par_chunks_mut(PREPARE_CHUNK))
                .map(|(s, o)| unsafe { copy_scan::<V>(s, o) })
                .reduce(Scan::default, Scan::join)
        } else {
            unsafe { copy_scan::<V>(src, out) }
        };
        if scan.nans > 0 {
            split_nans(src, out, src.len() - scan.nans);
        }
        scan
    }

    /// Copies `src` to `out` (as long) and counts the NaNs; notes the zeros of each sign.
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn copy_scan<V: Vector>(src: &[V::Elem], out: &mut [V::Elem]) -> Scan {
        let w = V::LANES;
        let n = src.len().min(out.len());
        let mut seen = [_mm256_setzero_si256(); 3];
        let mut i = 0;
        while i + w <= n {
            // SAFETY: `i..i + w` is inside both slices; the features are enabled here.
            unsafe {
                let x = V::load(src.as_ptr().add(i));
                V::store(out.as_mut_ptr().add(i), x);
                for (s, k) in seen.iter_mut().zip(V::classify(x)) {
                    *s = _mm256_or_si256(*s, k);
                }
            }
            i += w;
        }
        let any = |v: __m256i| _mm256_testz_si256(v, v) == 0;
        let (mut nan, mut negative_zero, mut positive_zero) =
            (any(seen[0]), any(seen[1]), any(seen[2]));
        for (o, &x) in out[i..n].iter_mut().zip(&src[i..n]) {
            *o = x;
            nan |= x.is_nan();
            negative_zero |= x.is_negative_zero();
            positive_zero |= x.is_positive_zero();
        }
        // NaNs are rare: counted only when there are some.
        let nans = if nan {
            src.iter().filter(|x| x.is_nan()).count()
        } else {
            0
        };
        Scan {
            nans,
            negative_zero,
            positive_zero,
        }
    }

    /// Writes the numbers of `src` to `out[..numbers]` and its NaNs to `out[numbers..]`,
    /// each in input order.
    fn split_nans<F: SortFloat>(src: &[F], out: &mut [F], numbers: usize) {
        let (mut front, mut tail) = (0, numbers);
        for &x in src {
            let nan = x.is_nan();
            out[if nan { tail } else { front }] = x;
            tail += nan as usize;
            front += !nan as usize;
        }
    }

    /// Rewrites the run of zeros of `sorted` with the zeros of `src` in input order (the
    /// stable order of zeros, which compare equal whatever their signs).
    fn restore_zeros<F: SortFloat>(src: &[F], sorted: &mut [F]) {
        let start = sorted.partition_point(|x| *x < F::ZERO);
        let len = sorted[start..].partition_point(|x| *x <= F::ZERO);
        let mut slots = sorted[start..start + len].iter_mut();
        for &x in src {
            if x == F::ZERO {
                if let Some(slot) = slots.next() {
                    *slot = x;
                }
            }
        }
    }

    /// Sorts `v`, which holds no NaN, in place.
    ///
    /// # Safety
    /// [`detected`] must hold.
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn quicksort_lane<V: Vector>(v: &mut [V::Elem]) {
        // Two badly unbalanced partitions allowed per halving of the lane.
        let budget = 2 * (usize::BITS - v.len().leading_zeros());
        // SAFETY: the features are enabled here.
        unsafe { quicksort::<V>(v, None, budget) }
    }

    /// Sorts `v` (no NaN), every element of which is at least `floor` when it is given.
    /// Each partition that leaves less than a sixteenth on one side spends one of `budget`;
    /// with none left, the standard library's unstable sort (O(n log n)) finishes `v`.
    ///
    /// # Safety
    /// [`detected`] must hold.
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn quicksort<V: Vector>(
        mut v: &mut [V::Elem],
        mut floor: Option<V::Elem>,
        mut budget: u32,
    ) {
        loop {
            let n = v.len();
            if n <= V::SMALL {
                // SAFETY: the features are enabled here.
                unsafe { small_sort::<V>(v) };
                return;
            }
            if budget == 0 {
                v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
                return;
            }
            let pivot = choose_pivot(v);
            if floor.is_some_and(|f| f >= pivot) {
                // The pivot is the least element: moving the elements equal to it to the
                // front puts them in place.
                // SAFETY: the features are enabled here.
                let equal = unsafe { partition::<V, true>(v, pivot) };
                v = &mut v[equal..];
                continue;
            }
            // SAFETY: the features are enabled here.
            let mid = unsafe { partition::<V, false>(v, pivot) };
            if mid.min(n - mid) < n / 16 {
                budget -= 1;
            }
            let (left, right) = v.split_at_mut(mid);
            if n >= PAR_MIN {
                rayon::join(
                    // SAFETY (both): the features were detected before the first call.
                    || unsafe { quicksort::<V>(left, floor, budget) },
                    || unsafe { quicksort::<V>(right, Some(pivot), budget) },
                );
                return;
            }
            // Recursion into the shorter side keeps the stack O(log n) deep.
            if left.len() < right.len() {
                // SAFETY: the features are enabled here.
                unsafe { quicksort::<V>(left, floor, budget) };
                v = right;
                floor = Some(pivot);
            } else {
                // SAFETY: the features are enabled here.
                unsafe { quicksort::<V>(right, Some(pivot), budget) };
                v = left;
            }
        }
    }

    /// The median of a sample of `v` (longer than `SMALL`): one element from each of `k`
    /// equal strata, at a pseudo-random place in it, so that periodic inputs do not fool
    /// the sample. `k` grows with the length (3, 9, 15: larger samples were slower on the
    /// 5M sorts, their misses costing more than their better splits saved).
    fn choose_pivot<F: SortFloat>(v: &[F]) -> F {
        const MAX_SAMPLE: usize = 15;
        let n = v.len();
        let k = match n {
            0..=1024 => 3,
            1025..=16384 => 9,
            _ => MAX_SAMPLE,
        };
        let mut sample = [v[0]; MAX_SAMPLE];
        let stratum = n / k;
        let mut state = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for (i, s) in sample[..k].iter_mut().enumerate() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let offset = (((state >> 32) * stratum as u64) >> 32) as usize;
            *s = v[i * stratum + offset];
        }
        let sample = &mut sample[..k];
        insertion_sort(sample);
        sample[k / 2]
    }

    fn insertion_sort<F: SortFloat>(v: &mut [F]) {
        for i in 1..v.len() {
            let x = v[i];
            let mut j = i;
            while j > 0 && x < v[j - 1] {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = x;
        }
    }

    /// Reorders `v` so that the elements below `pivot` (at most `pivot`, with `EQUAL`) come
    /// first, and returns their count.
    ///
    /// # Safety
    /// [`detected`] must hold.
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn partition<V: Vector, const EQUAL: bool>(v: &mut [V::Elem], pivot: V::Elem) -> usize {
        if v.len() >= 2 * UNROLL * V::LANES {
            // SAFETY: the features are enabled here; `v` is long enough.
            unsafe { partition_blocks::<V, EQUAL>(v, pivot) }
        } else {
            scalar_partition::<V::Elem, EQUAL>(v, pivot)
        }
    }

    /// [`partition`] of at least `2 * UNROLL` vectors.
    ///
    /// `UNROLL` vectors at a time are read from whichever end has the less room written
    /// back, and the lanes of each compressed to the two sides: the vector is stored at both
    /// write ends, each keeping its side's lanes. The first and last `UNROLL` vectors are
    /// set aside before the loop, so the room at the two ends together is always `2 *
    /// UNROLL` vectors, at least `UNROLL` on each end after a read: no store reaches an
    /// unread element. The elements set aside go last, into the gap that is left.
    ///
    /// # Safety
    /// [`detected`] must hold, and `v.len() >= 2 * UNROLL * V::LANES`.
    #[inline]
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn partition_blocks<V: Vector, const EQUAL: bool>(
        v: &mut [V::Elem],
        pivot: V::Elem,
    ) -> usize {
        const ASIDE: usize = 3 * UNROLL * 8;
        let w = V::LANES;
        let block = UNROLL * w;
        let n = v.len();
        debug_assert!(n >= 2 * block && 3 * block <= ASIDE);
        // SAFETY: the features are enabled here.
        let p = unsafe { V::splat(pivot) };
        // The first and last blocks, then the unread rest.
        let mut aside = [pivot; ASIDE];
        aside[..block].copy_from_slice(&v[..block]);
        aside[block..2 * block].copy_from_slice(&v[n - block..]);
        let (mut read, mut end) = (block, n - block);
        let (mut left, mut right) = (0, n);
        let base = v.as_mut_ptr();
        while end - read >= block {
            let from_left = read - left < block;
            let at = if from_left { read } else { end - block };
            let step = block * from_left as usize;
            read += step;
            end -= block - step;
            let mut xs = [p; UNROLL];
            for (i, x) in xs.iter_mut().enumerate() {
                // SAFETY: `at..at + block` was unread, inside `v`; the features are enabled.
                *x = unsafe { V::load(base.add(at + i * w)) };
            }
            for x in xs {
                // SAFETY: by the room argument above, `left..left + w` and `right - w..right`
                // lie inside `v`, between the two sides written so far, outside `read..end`.
                unsafe {
                    let m = V::mask::<EQUAL>(x, p);
                    let c = V::compress(x, m);
                    V::store(base.add(left), c);
                    V::store(base.add(right - w), c);
                    let k = m.count_ones() as usize;
                    left += k;
                    right -= w - k;
                }
            }
        }
        let rest = end - read;
        aside[2 * block..2 * block + rest].copy_from_slice(&v[read..end]);
        // The gap `left..right` (2 * block + rest long) holds no unread element now. The
        // rest one element at a time, then the vectors set aside: stored at both ends while
        // the gap holds two vectors, the last one (filling the gap exactly) once.
        for &x in &aside[2 * block..2 * block + rest] {
            let below = if EQUAL { x <= pivot } else { x < pivot };
            v[left] = x;
            v[right - 1] = x;
            left += below as usize;
            right -= !below as usize;
        }
        for i in 0..2 * UNROLL {
            // SAFETY: vector `i` of `aside` is inside it; the gap is `w` times the count of
            // vectors still aside long, so the stores stay inside it; the features are
            // enabled here.
            unsafe {
                let x = V::load(aside.as_ptr().add(i * w));
                let m = V::mask::<EQUAL>(x, p);
                let c = V::compress(x, m);
                V::store(base.add(left), c);
                if i + 1 < 2 * UNROLL {
                    V::store(base.add(right - w), c);
                }
                let k = m.count_ones() as usize;
                left += k;
                right -= w - k;
            }
        }
        left
    }

    /// [`partition`] one element at a time.
    fn scalar_partition<F: SortFloat, const EQUAL: bool>(v: &mut [F], pivot: F) -> usize {
        let mut left = 0;
        for i in 0..v.len() {
            let x = v[i];
            if (EQUAL && x <= pivot) || (!EQUAL && x < pivot) {
                v.swap(left, i);
                left += 1;
            }
        }
        left
    }

    /// Sorts `v` (at most `MAX_VECTORS` vectors long) in registers.
    ///
    /// # Safety
    /// [`detected`] must hold.
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn small_sort<V: Vector>(v: &mut [V::Elem]) {
        // SAFETY: the features are enabled here; each count holds `v`.
        unsafe {
            match v.len().div_ceil(V::LANES) {
                0 => {}
                1 => sort_block::<V, 1>(v),
                2 => sort_block::<V, 2>(v),
                3..=4 => sort_block::<V, 4>(v),
                5..=8 => sort_block::<V, 8>(v),
                9..=16 => sort_block::<V, 16>(v),
                17..=MAX_VECTORS => sort_block::<V, MAX_VECTORS>(v),
                _ => {
                    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))
                }
            }
        }
    }

    /// Sorts `v` (at most `N * LANES` elements) as `N` vectors padded with infinities.
    ///
    /// # Safety
    /// [`detected`] must hold, and `v.len() <= N * V::LANES`.
    #[inline]
    #[target_feature(enable = "avx2,fma,popcnt")]
    unsafe fn sort_block<V: Vector, const N: usize>(v: &mut [V::Elem]) {
        let w = V::LANES;
        let n = v.len();
        debug_assert!(n <= N * w);
        let full = n / w;
        let tail = n - full * w;
        let mut pad = [V::Elem::INFINITY; 8];
        pad[..tail].copy_from_slice(&v[full * w..]);
        // SAFETY: the features are enabled here.
        let mut r = [unsafe { V::splat(V::Elem::INFINITY) }; N];
        for (i, x) in r.iter_mut().enumerate().take(full + 1) {
            // SAFETY: vector `i < full` lies inside `v`, and `pad` holds 8 >= w elements;
            // the features are enabled here.
            *x = unsafe {
                if i < full {
                    V::load(v.as_ptr().add(i * w))
                } else {
                    V::load(pad.as_ptr())
                }
            };
        }
        // SAFETY: the features are enabled here.
        unsafe { sort_vectors(&mut r) };
        for (i, x) in r.iter().enumerate().take(full) {
            // SAFETY: as for the loads.
            unsafe { V::store(v.as_mut_ptr().add(i * w), *x) };
        }
        if tail > 0 {
            // SAFETY: as for the loads (`full < N` when there is a tail).
            unsafe { V::store(pad.as_mut_ptr(), r[full]) };
            v[full * w..].copy_from_slice(&pad[..tail]);
        }
    }

    /// Sorts the `N * LANES` lanes of `r` (`N` a power of two, at most 32). With at least
    /// `LANES` vectors, the columns (lane `i` of every vector) are sorted first by a bitonic
    /// network of whole-vector minima and maxima, and the transpose of each square block
    /// turns them into sorted runs of `N / LANES` vectors; fewer vectors are sorted one by
    /// one. The runs are then merged pairwise. Every loop has a constant trip count, so the
    /// network unrolls and `r` stays in registers (or nearby, for 32 vectors).
    #[inline(always)]
    unsafe fn sort_vectors<V: Vector, const N: usize>(r: &mut [V; N]) {
        // SAFETY (all blocks): the callers enable the features.
        unsafe {
            if N >= V::LANES {
                merge_level::<V, N, 1, false>(r);
                merge_level::<V, N, 2, false>(r);
                merge_level::<V, N, 4, false>(r);
                merge_level::<V, N, 8, false>(r);
                merge_level::<V, N, 16, false>(r);
                V::transpose_blocks(r);
            } else {
                for x in r.iter_mut() {
                    *x = V::sort_lanes(*x);
                }
            }
            merge_level::<V, N, 1, true>(r);
            merge_level::<V, N, 2, true>(r);
            merge_level::<V, N, 4, true>(r);
            merge_level::<V, N, 8, true>(r);
            merge_level::<V, N, 16, true>(r);
        }
    }

    /// Merges the sorted runs of `RUN` vectors of `r` pairwise (bitonic merges): of the
    /// sequences of all lanes, with `ROWS`, else of each column (lane `i` of the vectors).
    /// With `ROWS`, runs shorter than the ones the column sort leaves are already merged.
    #[inline(always)]
    unsafe fn merge_level<V: Vector, const N: usize, const RUN: usize, const ROWS: bool>(
        r: &mut [V; N],
    ) {
        if RUN >= N || (ROWS && N >= V::LANES && RUN < N / V::LANES) {
            return;
        }
        // Element k of a first run meets element (2 * RUN * LANES - 1 - k) of the pair (of
        // its column): the first run gets the minima, a bitonic sequence, and the second
        // the maxima.
        let flip = |x: V| if ROWS { unsafe { V::reverse(x) } } else { x };
        for pair in 0..N / (2 * RUN) {
            let s = pair * 2 * RUN;
            for j in 0..RUN.div_ceil(2) {
                let (a0, a1) = (r[s + j], r[s + RUN - 1 - j]);
                let (b0, b1) = (flip(r[s + 2 * RUN - 1 - j]), flip(r[s + RUN + j]));
                // SAFETY: the callers enable the features.
                unsafe {
                    r[s + j] = V::min(a0, b0);
                    r[s + RUN + j] = V::max(a0, b0);
                    r[s + RUN - 1 - j] = V::min(a1, b1);
                    r[s + 2 * RUN - 1 - j] = V::max(a1, b1);
                }
            }
        }
        // SAFETY (all blocks): the callers enable the features.
        unsafe {
            half_clean::<V, N, RUN, 8>(r);
            half_clean::<V, N, RUN, 4>(r);
            half_clean::<V, N, RUN, 2>(r);
            half_clean::<V, N, RUN, 1>(r);
        }
        if ROWS {
            for x in r.iter_mut() {
                *x = unsafe { V::merge_lanes(*x) };
            }
        }
    }

    /// The half-cleaners at a distance of `D` vectors of the bitonic runs of `RUN` vectors.
    #[inline(always)]
    unsafe fn half_clean<V: Vector, const N: usize, const RUN: usize, const D: usize>(
        r: &mut [V; N],
    ) {
        if D >= RUN {
            return;
        }
        for block in 0..N / (2 * D) {
            for i in block * 2 * D..block * 2 * D + D {
                let (x, y) = (r[i], r[i + D]);
                // SAFETY: the callers enable the features.
                unsafe {
                    r[i] = V::min(x, y);
                    r[i + D] = V::max(x, y);
                }
            }
        }
    }
    /// [`quicksort`] of `v` (no NaN) with the given budget of bad splits.
    #[cfg(test)]
    pub(super) fn quicksort_with_budget<V: Vector>(v: &mut [V::Elem], budget: u32) {
        assert!(detected());
        // SAFETY: the features were detected.
        unsafe { quicksort::<V>(v, None, budget) }
    }

    /// [`partition`] with the comparison chosen at run time.
    #[cfg(test)]
    pub(super) fn partition_for_tests<V: Vector>(
        v: &mut [V::Elem],
        pivot: V::Elem,
        equal: bool,
    ) -> usize {
        assert!(detected());
        // SAFETY: the features were detected.
        unsafe {
            if equal {
                partition::<V, true>(v, pivot)
            } else {
                partition::<V, false>(v, pivot)
            }
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::avx2::{detected, quicksort_with_budget, F32x8, F64x4};
    use super::sort;
    use cuprite_core::Element;

    /// A deterministic generator (splitmix64).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The two float types as the tests need them.
    trait Float: Element + Copy {
        const BITS: u32;
        fn from_bits64(b: u64) -> Self;
        fn to_bits64(self) -> u64;
        fn from_i64(i: i64) -> Self;
    }

    impl Float for f32 {
        const BITS: u32 = 32;
        fn from_bits64(b: u64) -> Self {
            f32::from_bits(b as u32)
        }
        fn to_bits64(self) -> u64 {
            self.to_bits() as u64
        }
        fn from_i64(i: i64) -> Self {
            i as f32
        }
    }

    impl Float for f64 {
        const BITS: u32 = 64;
        fn from_bits64(b: u64) -> Self {
            f64::from_bits(b)
        }
        fn to_bits64(self) -> u64 {
            self.to_bits()
        }
        fn from_i64(i: i64) -> Self {
            i as f64
        }
    }

    /// A value among the awkward ones: NaNs with payloads and either sign, both zeros, both
    /// infinities, denormals of either sign, small integers (repeats), ordinary numbers.
    fn awkward<F: Float>(r: &mut Rng) -> F {
        let mantissa = if F::BITS == 32 { 23 } else { 52 };
        let sign = 1u64 << (F::BITS - 1);
        let exponent = (sign - 1) & !((1u64 << mantissa) - 1);
        let payload = r.below(1 << mantissa) | 1;
        let s = if r.below(2) == 0 { 0 } else { sign };
        match r.below(10) {
            0 => F::from_bits64(exponent | payload | s),
            1 => F::from_bits64(s),
            2 => F::from_bits64(exponent | s),
            3 => F::from_bits64(payload | s),
            4 => F::from_i64(r.below(7) as i64 - 3),
            _ => F::from_bits64(r.below(exponent) | s),
        }
    }

    /// Inputs of `n` elements of several kinds, with their names.
    fn inputs<F: Float>(n: usize, r: &mut Rng) -> Vec<(&'static str, Vec<F>)> {
        let awkward_values: Vec<F> = (0..n).map(|_| awkward(r)).collect();
        let mut ascending = awkward_values.clone();
        ascending.sort_by(F::sort_cmp);
        let mut descending = ascending.clone();
        descending.reverse();
        let mut numbers: Vec<F> = (0..n).map(|_| F::from_bits64(r.next() >> 2)).collect();
        numbers.sort_by(F::sort_cmp);
        numbers.reverse();
        vec![
            ("awkward", awkward_values),
            (
                "random",
                (0..n).map(|_| F::from_i64(r.next() as i64 >> 12)).collect(),
            ),
            (
                "few distinct",
                (0..n).map(|_| F::from_i64(r.below(4) as i64 - 1)).collect(),
            ),
            (
                "signed zeros",
                (0..n)
                    .map(|_| awkward::<F>(r))
                    .map(|x| {
                        if x.is_nan_value() {
                            x
                        } else {
                            F::from_bits64(x.to_bits64() & (1 << (F::BITS - 1)))
                        }
                    })
                    .collect(),
            ),
            ("equal", vec![F::from_i64(5); n]),
            ("ascending", ascending),
            ("descending", descending),
            ("descending numbers", numbers),
            (
                "organ pipe",
                (0..n).map(|i| F::from_i64(i.min(n - i) as i64)).collect(),
            ),
        ]
    }

    /// `sort` of `x` against the stable sort by `Element::sort_cmp`, bit for bit.
    fn check<F: Float>(x: &[F], what: &str) {
        let mut expected = x.to_vec();
        expected.sort_by(F::sort_cmp);
        let mut got = vec![F::from_i64(0); x.len()];
        assert!(sort(x, &mut got), "the vectorised sort declined {what}");
        let bits = |v: &[F]| v.iter().map(|x| x.to_bits64()).collect::<Vec<_>>();
        assert!(
            bits(&got) == bits(&expected),
            "{what}, {} elements: {:?}",
            x.len(),
            got.iter()
                .zip(&expected)
                .position(|(a, b)| a.to_bits64() != b.to_bits64())
        );
    }

    fn sizes_spanning_the_thresholds() -> Vec<usize> {
        let mut sizes: Vec<usize> = (0..=300).collect();
        sizes.extend([
            383, 384, 385, 511, 512, 513, 1023, 1025, 4095, 4097, 16385, 65535, 65536,
        ]);
        sizes.extend([65537, 200_003]);
        sizes
    }

    fn matches_the_stable_sort<F: Float>() {
        if !detected() {
            return;
        }
        let mut r = Rng(7);
        for n in sizes_spanning_the_thresholds() {
            for (what, x) in inputs::<F>(n, &mut r) {
                check(&x, what);
            }
        }
    }

    #[test]
    fn f32_matches_the_stable_sort_bit_for_bit() {
        matches_the_stable_sort::<f32>();
    }

    #[test]
    fn f64_matches_the_stable_sort_bit_for_bit() {
        matches_the_stable_sort::<f64>();
    }

    #[test]
    fn other_types_and_cpus_are_declined() {
        let mut out = [0i32; 3];
        assert!(!sort(&[3, 1, 2], &mut out));
        assert_eq!(out, [0; 3]);
        let mut out = [0.0f32; 3];
        assert_eq!(sort(&[3.0f32, 1.0, 2.0], &mut out), detected());
    }

    /// With no budget for bad splits, and with a budget of one, the fallback sorts.
    #[test]
    fn the_fallback_of_bad_splits_sorts() {
        if !detected() {
            return;
        }
        let mut r = Rng(11);
        for budget in [0, 1] {
            for n in [1000, 5000] {
                let x: Vec<f32> = (0..n).map(|_| r.below(1000) as f32 - 500.0).collect();
                let mut expected = x.clone();
                expected.sort_by(f32::total_cmp);
                let mut got = x.clone();
                quicksort_with_budget::<F32x8>(&mut got, budget);
                assert_eq!(got, expected);
                let x: Vec<f64> = x.iter().map(|&v| v as f64 * 1.5).collect();
                let mut expected = x.clone();
                expected.sort_by(f64::total_cmp);
                let mut got = x.clone();
                quicksort_with_budget::<F64x4>(&mut got, budget);
                assert_eq!(got, expected);
            }
        }
    }

    /// The compress tables put the lanes of the mask first, in order, then the others.
    #[test]
    fn partition_splits_at_the_pivot() {
        if !detected() {
            return;
        }
        let mut r = Rng(3);
        for n in [0, 5, 64, 255, 256, 257, 1000, 4099] {
            for pivot in [-2.0, 0.0, 0.5, 3.0] {
                let x: Vec<f32> = (0..n).map(|_| r.below(9) as f32 - 4.0).collect();
                for equal in [false, true] {
                    let mut v = x.clone();
                    let k = super::avx2::partition_for_tests::<F32x8>(&mut v, pivot, equal);
                    let below = |y: f32| if equal { y <= pivot } else { y < pivot };
                    assert!(v[..k].iter().all(|&y| below(y)) && v[k..].iter().all(|&y| !below(y)));
                    let (mut a, mut b) = (v.clone(), x.clone());
                    a.sort_by(f32::total_cmp);
                    b.sort_by(f32::total_cmp);
                    assert_eq!(a, b, "the partition lost or made up elements");
                }
            }
        }
    }
}
