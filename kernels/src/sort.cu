// sort.cu: the sort kernel family. Every ordering is the host's `Element::sort_cmp`, carried
// by an unsigned key per element whose unsigned order is that order (Keys<T> below): floats
// flip their bits so negatives order correctly, -0.0 keys as 0.0 and every NaN as one key
// above +inf; complex keys are (re, im) lexicographic, any NaN part the largest key.
//
// Sections (each program enables one with a #define, and sets T, the element type):
// - SORT_RADIX: the stable LSD radix sort with 8-bit digits: `sort_hist` (all digit
//   histograms of the keys in one read, plus the number of elements whose key does not
//   decode to the same bits), `sort_offsets` (each possible pass's bucket starts: scans of
//   the histograms, and of the lane numbers' digits), `sort_onesweep_keys` /
//   `sort_onesweep_pairs` (one pass: rank the digits of a tile, decoupled look-back across
//   tiles for the counts of earlier tiles, stable scatter through shared memory),
//   `sort_key_iota` (keys and identity permutation when no pass is needed) and `sort_block`
//   (short lanes: a bitonic network over (key, index) pairs in shared memory, one or many
//   lanes per block).
// - SORT_SEARCH: `sort_searchsorted`, one binary search per value, and `sort_merge_cuts` /
//   `sort_merge_pair` (the stable merge of two sorted runs: tiles cut along the merge path,
//   merged in shared memory).
// - SORT_UNIQUE: run heads of sorted keys, counted per tile (`sort_uq_count`) and written
//   compacted (`sort_uq_write`).
// - SORT_UTIL: type-free helpers and gathers: `sort_select` (order statistics out of sorted
//   lanes), `sort_iota_mod`, `sort_uq_scan` (exclusive scan of tile counts) and
//   `sort_uq_counts` (run lengths from run starts).

#define RADIX 256
#define SORT_THREADS 256
#define SORT_WARPS (SORT_THREADS / 32)

// Bits of the write mask of a radix pass (mirrors the constants in kernels/src/sort.rs).
#define W_KEYS 1
#define W_VALS 2
#define W_DECODE 4
#define W_GATHER 8
#define W_IDX 16

// ---------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------

// A 128-bit key: `hi` is the more significant half.
struct __align__(16) u128k {
    u64 lo;
    u64 hi;
};
__device__ __forceinline__ bool operator==(u128k a, u128k b) { return a.lo == b.lo && a.hi == b.hi; }
__device__ __forceinline__ bool operator!=(u128k a, u128k b) { return !(a == b); }

__device__ __forceinline__ bool key_lt(u32 a, u32 b) { return a < b; }
__device__ __forceinline__ bool key_lt(u64 a, u64 b) { return a < b; }
__device__ __forceinline__ bool key_lt(u128k a, u128k b) {
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

// The 8-bit digit of a key at bit `s`.
__device__ __forceinline__ u32 digit_of(u32 k, int s) { return (k >> s) & 255u; }
__device__ __forceinline__ u32 digit_of(u64 k, int s) { return (u32)(k >> s) & 255u; }
__device__ __forceinline__ u32 digit_of(u128k k, int s) {
    return s < 64 ? (u32)(k.lo >> s) & 255u : (u32)(k.hi >> (s - 64)) & 255u;
}

template <class KT> struct KeyMax;
template <> struct KeyMax<u32> { __device__ static u32 get() { return 0xffffffffu; } };
template <> struct KeyMax<u64> { __device__ static u64 get() { return ~0ull; } };
template <> struct KeyMax<u128k> {
    __device__ static u128k get() {
        u128k k;
        k.lo = ~0ull;
        k.hi = ~0ull;
        return k;
    }
};

#define F32_SIGN 0x80000000u
#define F32_QNAN 0x7fc00000u
#define F64_SIGN 0x8000000000000000ull
#define F64_QNAN 0x7ff8000000000000ull

// Float bits made canonical: every NaN as the quiet NaN, -0.0 as 0.0.
__device__ __forceinline__ u32 f32_canon(float x) {
    u32 b = __float_as_uint(x);
    if ((b & 0x7fffffffu) > 0x7f800000u) return F32_QNAN;
    return b == F32_SIGN ? 0u : b;
}
__device__ __forceinline__ u64 f64_canon(double x) {
    u64 b = (u64)__double_as_longlong(x);
    if ((b & ~F64_SIGN) > 0x7ff0000000000000ull) return F64_QNAN;
    return b == F64_SIGN ? 0ull : b;
}
__device__ __forceinline__ u32 f32_bits_key(u32 b) { return (b & F32_SIGN) ? ~b : (b | F32_SIGN); }
__device__ __forceinline__ u64 f64_bits_key(u64 b) { return (b & F64_SIGN) ? ~b : (b | F64_SIGN); }
__device__ __forceinline__ float f32_unkey(u32 k) {
    return __uint_as_float((k & F32_SIGN) ? (k & ~F32_SIGN) : ~k);
}
__device__ __forceinline__ double f64_unkey(u64 k) {
    return __longlong_as_double((long long)((k & F64_SIGN) ? (k & ~F64_SIGN) : ~k));
}

// Keys<T>: K (the key type), key(x), decode(k) (the canonical value of a key) and exact(x)
// (whether decode(key(x)) has the bits of x: false only for -0.0 and non-canonical NaNs).
template <class E> struct Keys;
template <> struct Keys<bool> {
    typedef u32 K;
    __device__ static K key(bool x) { return x ? 1u : 0u; }
    __device__ static bool decode(K k) { return k != 0u; }
    __device__ static bool exact(bool) { return true; }
};
// Integers: the value's bits, the sign bit flipped for the signed ones, in a u32 (8 to 32
// bits) or u64 key; decode narrows back.
template <class E, class KT> struct IntKeys {
    typedef KT K;
    static const KT FLIP = is_sint<E>::value ? ((KT)1 << (8 * sizeof(E) - 1)) : (KT)0;
    __device__ static K key(E x) {
        return (K)(typename conditional<sizeof(E) == 8, u64,
                   typename conditional<sizeof(E) == 4, u32,
                   typename conditional<sizeof(E) == 2, u16, u8>::type>::type>::type)x ^ FLIP;
    }
    __device__ static E decode(K k) { return (E)(k ^ FLIP); }
    __device__ static bool exact(E) { return true; }
};
template <> struct Keys<i8> : IntKeys<i8, u32> {};
template <> struct Keys<u8> : IntKeys<u8, u32> {};
template <> struct Keys<i16> : IntKeys<i16, u32> {};
template <> struct Keys<u16> : IntKeys<u16, u32> {};
template <> struct Keys<i32> : IntKeys<i32, u32> {};
template <> struct Keys<u32> : IntKeys<u32, u32> {};
template <> struct Keys<i64> : IntKeys<i64, u64> {};
template <> struct Keys<u64> : IntKeys<u64, u64> {};
template <> struct Keys<float> {
    typedef u32 K;
    __device__ static K key(float x) { return f32_bits_key(f32_canon(x)); }
    __device__ static float decode(K k) { return f32_unkey(k); }
    __device__ static bool exact(float x) { return f32_canon(x) == __float_as_uint(x); }
};
template <> struct Keys<double> {
    typedef u64 K;
    __device__ static K key(double x) { return f64_bits_key(f64_canon(x)); }
    __device__ static double decode(K k) { return f64_unkey(k); }
    __device__ static bool exact(double x) {
        return f64_canon(x) == (u64)__double_as_longlong(x);
    }
};
// 16-bit floats: the float key of their bits (NaN as the type's quiet NaN, -0.0 as 0.0) in
// the low 16 bits of a u32; INF is the exponent mask, QNAN the host's `NAN` constant.
template <class H, u32 INF, u32 QNAN> struct HalfKeys {
    typedef u32 K;
    __device__ static u32 canon(H x) {
        const u32 b = x.bits;
        if ((b & 0x7fffu) > INF) return QNAN;
        return b == 0x8000u ? 0u : b;
    }
    __device__ static K key(H x) {
        const u32 b = canon(x);
        return (b & 0x8000u) ? (~b & 0xffffu) : (b | 0x8000u);
    }
    __device__ static H decode(K k) {
        return H::from_bits((u16)((k & 0x8000u) ? (k & 0x7fffu) : (~k & 0xffffu)));
    }
    __device__ static bool exact(H x) { return canon(x) == (u32)x.bits; }
};
template <> struct Keys<f16> : HalfKeys<f16, 0x7c00u, 0x7e00u> {};
template <> struct Keys<bf16> : HalfKeys<bf16, 0x7f80u, 0x7fc0u> {};
template <> struct Keys<c64> {
    typedef u64 K;
    __device__ static K key(c64 x) {
        u32 re = f32_canon(x.re), im = f32_canon(x.im);
        if (re == F32_QNAN || im == F32_QNAN) re = im = F32_QNAN;
        return ((u64)f32_bits_key(re) << 32) | (u64)f32_bits_key(im);
    }
    __device__ static c64 decode(K k) { return mk(f32_unkey((u32)(k >> 32)), f32_unkey((u32)k)); }
    __device__ static bool exact(c64 x) {
        c64 y = decode(key(x));
        return __float_as_uint(y.re) == __float_as_uint(x.re) &&
               __float_as_uint(y.im) == __float_as_uint(x.im);
    }
};
template <> struct Keys<c128> {
    typedef u128k K;
    __device__ static K key(c128 x) {
        u64 re = f64_canon(x.re), im = f64_canon(x.im);
        if (re == F64_QNAN || im == F64_QNAN) re = im = F64_QNAN;
        u128k k;
        k.hi = f64_bits_key(re);
        k.lo = f64_bits_key(im);
        return k;
    }
    __device__ static c128 decode(K k) { return mk(f64_unkey(k.hi), f64_unkey(k.lo)); }
    __device__ static bool exact(c128 x) {
        c128 y = decode(key(x));
        return __double_as_longlong(y.re) == __double_as_longlong(x.re) &&
               __double_as_longlong(y.im) == __double_as_longlong(x.im);
    }
};

typedef typename Keys<T>::K K;

// Items per thread of a radix pass: a tile is SORT_THREADS * SORT_ITEMS(pairs) keys
// (mirrors `items` in crates/cuda/src/sort/plan.rs).
#define SORT_ITEMS(pairs) (sizeof(K) == 4 ? 16 : (sizeof(K) == 8 ? ((pairs) ? 12 : 14) : 8))

// Block-wide sum of one value per thread (blockDim.x == SORT_THREADS); every thread gets it.
__device__ __forceinline__ u32 block_sum(u32 v, u32* s_warp) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x >> 5] = v;
    __syncthreads();
    u32 t = 0;
    for (int w = 0; w < SORT_WARPS; ++w) t += s_warp[w];
    return t;
}

// Block-wide exclusive scan of one value per thread (blockDim.x == SORT_THREADS).
__device__ __forceinline__ u32 block_excl_scan(u32 v, u32* s_warp) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    u32 inc = v;
    for (int o = 1; o < 32; o <<= 1) {
        u32 t = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= o) inc += t;
    }
    __syncthreads();
    if (lane == 31) s_warp[warp] = inc;
    __syncthreads();
    u32 pre = 0;
    for (int w = 0; w < warp; ++w) pre += s_warp[w];
    return pre + inc - v;
}

#ifdef SORT_RADIX

// Dynamic shared memory of the tile kernels.
extern __shared__ __align__(16) unsigned char sort_smem[];

// Histogram copies per bin, so lanes hitting one bin mostly hit different banks.
#define HIST_PARTS (sizeof(K) == 4 ? 8 : (sizeof(K) == 8 ? 4 : 2))

// Key bytes that can differ between elements (bool keys are below 256, an integer's key
// has the integer's width).
#define SIG_BYTES (is_same<T, bool>::value ? 1 : ((is_int<T>::value || is_half<T>::value) ? (int)sizeof(T) : (int)sizeof(K)))

// Counts the digits of one element into the block's histograms.
__device__ __forceinline__ void hist_count(u32* h, int part, T x, u32& special) {
    const K k = Keys<T>::key(x);
    if constexpr (is_float<T>::value || is_cplx<T>::value) special += !Keys<T>::exact(x);
#pragma unroll
    for (int p = 0; p < SIG_BYTES; ++p)
        atomicAdd(&h[(p * RADIX + digit_of(k, 8 * p)) * HIST_PARTS + part], 1u);
}

// hist[p * 256 + d]: keys whose byte p is d (for p < SIG_BYTES; the bytes above are
// constant); hist[sizeof(K) * 256]: elements whose key does not decode to their own bits.
// `hist` is zeroed by the caller. The elements are read 16 bytes at a time.
// Parameters of `sort_hist` (mirrored field for field by `SortHistArgs` in
// crates/cuda/src/sort/params.rs).
struct SortHistArgs {
    u64 src;
    long long n;
    u64 hist;
};

__device__ __forceinline__ void k_sort_hist(const T* __restrict__ src, long long n,
                                            u32* __restrict__ hist) {
    constexpr int P = SIG_BYTES;
    constexpr int EPV = sizeof(T) >= 16 ? 1 : 16 / (int)sizeof(T);
    union Vec {
        uint4 v;
        T e[EPV];
    };
    __shared__ u32 h[P * RADIX * HIST_PARTS];
    __shared__ u32 s_warp[SORT_WARPS];
    for (int i = threadIdx.x; i < P * RADIX * HIST_PARTS; i += SORT_THREADS) h[i] = 0;
    __syncthreads();
    const int part = threadIdx.x % HIST_PARTS;
    const long long first = (long long)blockIdx.x * SORT_THREADS + threadIdx.x;
    const long long stride = (long long)gridDim.x * SORT_THREADS;
    // Elements before the first 16-byte boundary, then whole vectors, then the tail.
    long long head = (long long)(((16 - ((u64)src & 15)) & 15) / sizeof(T));
    if (head > n) head = n;
    const long long nvec = (n - head) / EPV;
    const uint4* vsrc = (const uint4*)(src + head);
    u32 special = 0;
    for (long long v = first; v < nvec; v += 2 * stride) {
        Vec a, b;
        a.v = vsrc[v];
        const bool two = v + stride < nvec;
        if (two) b.v = vsrc[v + stride];
#pragma unroll
        for (int e = 0; e < EPV; ++e) hist_count(h, part, a.e[e], special);
        if (two) {
#pragma unroll
            for (int e = 0; e < EPV; ++e) hist_count(h, part, b.e[e], special);
        }
    }
    for (long long i = first; i < head; i += stride) hist_count(h, part, src[i], special);
    for (long long i = head + nvec * EPV + first; i < n; i += stride)
        hist_count(h, part, src[i], special);
    special = block_sum(special, s_warp);
    if (threadIdx.x == 0 && special) atomicAdd(&hist[sizeof(K) * RADIX], special);
    __syncthreads();
    for (int b = threadIdx.x; b < P * RADIX; b += SORT_THREADS) {
        u32 s = 0;
#pragma unroll
        for (int q = 0; q < HIST_PARTS; ++q) s += h[b * HIST_PARTS + q];
        if (s) atomicAdd(&hist[b], s);
    }
}

extern "C" __global__ void __launch_bounds__(SORT_THREADS) sort_hist(SortHistArgs a) {
    k_sort_hist((const T*)a.src, a.n, (u32*)a.hist);
}

// One radix pass (mirrors `PassArgs` in crates/cuda/src/sort/radix.rs field for field).
// Fields:
//   keys_in    const K*: keys of the previous pass (unless in_raw)
//   raw_in     const T*: the elements being sorted, lane-major (keys of the first pass, sources
//              of W_GATHER)
//   vals_in    const u32*: values of the previous pass (val_in == 2)
//   keys_out   K* (W_KEYS)
//   vals_out   u32* (W_VALS)
//   raw_out    T* (W_DECODE, W_GATHER)
//   idx_out    long long* (W_IDX): value modulo len
//   lookback   u32 or u64 per (tile, digit), zeroed
//   lb_next    the next pass's look-back entries, cleared here (0: none)
//   counter    u32 tile counter, zeroed
//   offsets    const u32[256]: global start of each digit's bucket (sort_offsets)
//   len        lane length: lane of a value v is v / len
//   shift      bit of the digit (of the key, or of the lane)
//   in_raw     keys from raw_in
//   val_in     0 none, 1 the element's index, 2 vals_in
//   lane_digit digit of the lane of the value instead of the key
//   write      W_* mask
//   lb64       64-bit look-back entries (n >= 2^30)
struct PassArgs {
    u64 keys_in;
    u64 raw_in;
    u64 vals_in;
    u64 keys_out;
    u64 vals_out;
    u64 raw_out;
    u64 idx_out;
    u64 lookback;
    u64 lb_next;
    u64 counter;
    u64 offsets;
    long long n;
    u32 len;
    int shift;
    int in_raw;
    int val_in;
    int lane_digit;
    int write;
    int lb64;
    int pad;
};

// Decoupled look-back, entries (flag << 30 | count) in 32 bits or (flag << 62 | count) in
// 64: flag 1 = this tile's own count, 2 = the count of this tile and all before it.
template <class L> struct LookBack {
    static const int SHIFT = sizeof(L) * 8 - 2;
    // Publishes the tile's count of digit d (as inclusive for tile 0).
    __device__ static void publish(u64 base, long long tile, int d, u32 count) {
        volatile L* lb = (volatile L*)base;
        lb[tile * RADIX + d] = ((L)(tile == 0 ? 2 : 1) << SHIFT) | (L)count;
    }
    // Sums the counts of digit d over the tiles before `tile` (waiting for them) and
    // publishes the inclusive count.
    __device__ static u64 prefix(u64 base, long long tile, int d, u32 count) {
        if (tile == 0) return 0;
        volatile L* lb = (volatile L*)base;
        const L mask = ((L)1 << SHIFT) - 1;
        L acc = 0;
        long long k = tile - 1;
        while (true) {
            const L v = lb[k * RADIX + d];
            const L f = v >> SHIFT;
            if (f == 0) continue;
            acc += v & mask;
            if (f == 2) break;
            --k;
        }
        lb[tile * RADIX + d] = ((L)2 << SHIFT) | (acc + (L)count);
        return (u64)acc;
    }
};

// Elements of the lanes whose lane number has byte (shift / 8) equal to d.
__device__ __forceinline__ u32 lane_count(long long lanes, u32 len, int shift, int d) {
    const u64 block = 1ull << shift, period = block << 8;
    const u64 l = (u64)lanes, full = l / period, rem = l % period, st = (u64)d * block;
    const u64 part = rem > st ? (rem - st < block ? rem - st : block) : 0;
    return (u32)((full * block + part) * len);
}

// offsets[r * 256 + d]: where the bucket of digit d starts in the output of a pass over
// key byte r (r < sizeof(K), from `hist`) or lane-number byte r - sizeof(K); one block per
// row.
// Parameters of `sort_offsets` (mirrored field for field by `SortOffsetsArgs` in
// crates/cuda/src/sort/params.rs).
struct SortOffsetsArgs {
    u64 hist;
    u64 offsets;
    long long lanes;
    u32 len;
};

__device__ __forceinline__ void k_sort_offsets(const u32* __restrict__ hist,
                                               u32* __restrict__ offsets, long long lanes, u32 len) {
    __shared__ u32 s_warp[SORT_WARPS];
    const int r = blockIdx.x, d = threadIdx.x;
    const u32 c = r < (int)sizeof(K) ? hist[r * RADIX + d]
                                     : lane_count(lanes, len, 8 * (r - (int)sizeof(K)), d);
    offsets[r * RADIX + d] = block_excl_scan(c, s_warp);
}

extern "C" __global__ void __launch_bounds__(SORT_THREADS) sort_offsets(SortOffsetsArgs a) {
    k_sort_offsets((const u32*)a.hist, (u32*)a.offsets, a.lanes, a.len);
}

// Peers of this lane: the lanes of the warp with the same 8-bit digit.
__device__ __forceinline__ u32 match_digit(u32 d) {
    u32 peers = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < 8; ++b) {
        const u32 bit = (d >> b) & 1u;
        const u32 bal = __ballot_sync(0xffffffffu, bit);
        peers &= bit ? bal : ~bal;
    }
    return peers;
}

template <bool PAIRS>
__device__ __forceinline__ void onesweep(const PassArgs& a) {
    constexpr int ITEMS = SORT_ITEMS(PAIRS);
    constexpr int TILE = SORT_THREADS * ITEMS;
    __shared__ u32 s_hist[SORT_WARPS * RADIX];
    __shared__ u32 s_delta[RADIX];
    __shared__ u32 s_total[RADIX];
    __shared__ u32 s_warp[SORT_WARPS];
    __shared__ long long s_tile;
    K* s_keys = (K*)sort_smem;
    u32* s_vals = (u32*)sort_smem;
    unsigned char* s_dig = sort_smem + TILE * sizeof(K);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int i = tid; i < SORT_WARPS * RADIX; i += SORT_THREADS) s_hist[i] = 0;
    if (tid == 0) s_tile = (long long)atomicAdd((u32*)a.counter, 1u);
    __syncthreads();
    const long long tile = s_tile;
    const long long n = a.n;
    const long long base = tile * TILE;
    const long long wbase = base + (long long)warp * ITEMS * 32 + lane;
    const long long valid = n - base < TILE ? n - base : TILE;
    const bool full = valid == TILE;

    // Load: warp w holds the contiguous run [base + w * ITEMS * 32, ... + ITEMS * 32).
    K keys[ITEMS];
    u32 vals[PAIRS ? ITEMS : 1];
    u32 pk[PAIRS ? ITEMS : 1];  // digits, then staged positions (pairs only)
    const T* raw = (const T*)a.raw_in;
    if (a.in_raw) {
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const long long idx = wbase + j * 32;
            keys[j] = (full || idx < n) ? Keys<T>::key(raw[idx]) : KeyMax<K>::get();
        }
    } else {
        const K* kin = (const K*)a.keys_in;
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const long long idx = wbase + j * 32;
            keys[j] = (full || idx < n) ? kin[idx] : KeyMax<K>::get();
        }
    }
    if constexpr (PAIRS) {
        const u32* vin = (const u32*)a.vals_in;
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const long long idx = wbase + j * 32;
            vals[j] = a.val_in == 1 ? (u32)idx : ((full || idx < n) ? vin[idx] : 0u);
        }
    }

    // Where digit tid's bucket starts in this pass's output (from sort_offsets), read while
    // the keys load.
    s_total[tid] = ((const u32*)a.offsets)[tid];
    // Clear this tile's look-back entries of the next pass (the previous pass used them).
    if (a.lb_next) {
        if (a.lb64) ((u64*)a.lb_next)[tile * RADIX + tid] = 0;
        else ((u32*)a.lb_next)[tile * RADIX + tid] = 0;
    }
    // Digits, counted per warp at once. Keys past the end are all ones (digit 255, after
    // every real key) and are taken off the tile's count below; so are values past the end.
    u32* wh = s_hist + warp * RADIX;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        u32 d;
        if constexpr (PAIRS) {
            d = a.lane_digit ? ((vals[j] / a.len) >> a.shift) & 255u : digit_of(keys[j], a.shift);
            if (!full && wbase + j * 32 >= n) d = 255u;
            pk[j] = d;
        } else {
            d = digit_of(keys[j], a.shift);
        }
        atomicAdd(&wh[d], 1u);
    }
    __syncthreads();

    // Per digit (thread tid owns digit tid): warp offsets, the tile's count (published at
    // once for the tiles after this one), the tile's bucket start (added to the warp offsets
    // so they become positions in the staged tile) and the global bucket start `goff`.
    u32 count, start, goff;
    {
        u32 sum = 0;
#pragma unroll
        for (int w = 0; w < SORT_WARPS; ++w) {
            const u32 c = s_hist[w * RADIX + tid];
            s_hist[w * RADIX + tid] = sum;
            sum += c;
        }
        count = tid == 255 ? sum - (u32)(TILE - valid) : sum;
        if (a.lb64) LookBack<u64>::publish(a.lookback, tile, tid, count);
        else LookBack<u32>::publish(a.lookback, tile, tid, count);
        start = block_excl_scan(sum, s_warp);
        goff = s_total[tid];
#pragma unroll
        for (int w = 0; w < SORT_WARPS; ++w) s_hist[w * RADIX + tid] += start;
    }
    __syncthreads();

    // Rank and stage: the highest of the peers with one digit takes their positions from
    // the warp's counter (shared-memory atomics of one warp are performed in order, so
    // items keep their order); keys go to their staged positions.
    const u32 le_mask = 0xffffffffu >> (31 - lane);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        u32 d;
        if constexpr (PAIRS) d = pk[j];
        else d = digit_of(keys[j], a.shift);
        const u32 peers = match_digit(d);
        const int leader = 31 - __clz(peers);
        const u32 below = __popc(peers & le_mask);
        u32 off = 0;
        if (lane == leader) off = atomicAdd(&wh[d], below);
        off = __shfl_sync(0xffffffffu, off, leader);
        const u32 loc = off + below - 1;
        if (full || wbase + j * 32 < n) {
            s_keys[loc] = keys[j];
            s_dig[loc] = (unsigned char)d;
        }
        if constexpr (PAIRS) pk[j] = loc;
    }
    // The counts of earlier tiles (by now mostly published), hence each digit's destination
    // offset: dest = goff[d] + before[d] + (i - start[d]) for staged position i.
    {
        const u64 before = a.lb64 ? LookBack<u64>::prefix(a.lookback, tile, tid, count)
                                  : LookBack<u32>::prefix(a.lookback, tile, tid, count);
        s_delta[tid] = goff + (u32)before - start;
    }
    __syncthreads();

    // Write the keys (and remember where each staged position went).
    u32 dst[PAIRS ? ITEMS : 1];
    {
        const bool wk = a.write & W_KEYS, wd = a.write & W_DECODE;
        K* ko = (K*)a.keys_out;
        T* ro = (T*)a.raw_out;
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const int i = j * SORT_THREADS + tid;
            if (full || i < valid) {
                const u32 dest = s_delta[s_dig[i]] + (u32)i;
                if constexpr (PAIRS) dst[j] = dest;
                const K k = s_keys[i];
                if (wk) ko[dest] = k;
                if (wd) ro[dest] = Keys<T>::decode(k);
            }
        }
    }
    if constexpr (PAIRS) {
        __syncthreads();
#pragma unroll
        for (int j = 0; j < ITEMS; ++j)
            if (full || wbase + j * 32 < n) s_vals[pk[j]] = vals[j];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const int i = j * SORT_THREADS + tid;
            if (full || i < valid) {
                const u32 v = s_vals[i];
                const u32 dest = dst[j];
                if (a.write & W_VALS) ((u32*)a.vals_out)[dest] = v;
                if (a.write & W_GATHER) ((T*)a.raw_out)[dest] = raw[v];
                if (a.write & W_IDX) ((long long*)a.idx_out)[dest] = (long long)(v % a.len);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(SORT_THREADS, 4) sort_onesweep_keys(PassArgs a) {
    onesweep<false>(a);
}
extern "C" __global__ void __launch_bounds__(SORT_THREADS, 3) sort_onesweep_pairs(PassArgs a) {
    onesweep<true>(a);
}

// Keys and the identity permutation (when every digit is constant no pass runs).
// Parameters of `sort_key_iota` (mirrored field for field by `SortKeyIotaArgs` in
// crates/cuda/src/sort/params.rs).
struct SortKeyIotaArgs {
    u64 src;
    long long n;
    u64 keys;
    u64 perm;
};

__device__ __forceinline__ void k_sort_key_iota(const T* __restrict__ src, long long n, K* keys,
                                                u32* perm) {
    GRID_STRIDE(i, n) {
        keys[i] = Keys<T>::key(src[i]);
        if (perm) perm[i] = (u32)i;
    }
}

extern "C" __global__ void sort_key_iota(SortKeyIotaArgs a) {
    k_sort_key_iota((const T*)a.src, a.n, (K*)a.keys, (u32*)a.perm);
}

// Short lanes (mirrors `BlockArgs` in crates/cuda/src/sort/lanes.rs): lanes of `len`
// elements, lane-major in `src`, `lpb` lanes per block, each padded to `p2` (a power of
// two) slots, sorted by (key, index) with a bitonic network in shared memory.
// Fields:
//   src     const T*
//   out_raw T* (mode 0: the elements)
//   out_idx long long* (mode 1: indices along the lane)
struct BlockArgs {
    u64 src;
    u64 out_raw;
    u64 out_idx;
    long long lanes;
    int len;
    int p2;
    int lpb;
    int mode;
};

extern "C" __global__ void __launch_bounds__(SORT_THREADS) sort_block(BlockArgs a) {
    const int p2 = a.p2;
    const int slots = p2 * a.lpb;
    K* sk = (K*)sort_smem;
    unsigned short* si = (unsigned short*)(sort_smem + (size_t)slots * sizeof(K));
    const long long lane0 = (long long)blockIdx.x * a.lpb;
    const T* src = (const T*)a.src;
    for (int s = threadIdx.x; s < slots; s += blockDim.x) {
        const long long lane = lane0 + s / p2;
        const int i = s & (p2 - 1);
        K k = KeyMax<K>::get();
        unsigned short id = 0xffff;
        if (lane < a.lanes && i < a.len) {
            k = Keys<T>::key(src[lane * a.len + i]);
            id = (unsigned short)i;
        }
        sk[s] = k;
        si[s] = id;
    }
    __syncthreads();
    for (int k = 2; k <= p2; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int t = threadIdx.x; t < slots / 2; t += blockDim.x) {
                const int i = ((t & ~(j - 1)) << 1) | (t & (j - 1));
                const int l = i | j;
                const K ki = sk[i], kl = sk[l];
                const unsigned short ii = si[i], il = si[l];
                const bool gt = key_lt(kl, ki) || (kl == ki && il < ii);
                const bool up = (i & k & (p2 - 1)) == 0;
                if (gt == up) {
                    sk[i] = kl;
                    sk[l] = ki;
                    si[i] = il;
                    si[l] = ii;
                }
            }
            __syncthreads();
        }
    }
    for (int s = threadIdx.x; s < slots; s += blockDim.x) {
        const long long lane = lane0 + s / p2;
        const int i = s & (p2 - 1);
        if (lane < a.lanes && i < a.len) {
            const long long o = lane * a.len + i;
            if (a.mode == 0) ((T*)a.out_raw)[o] = src[lane * a.len + si[s]];
            else ((long long*)a.out_idx)[o] = (long long)si[s];
        }
    }
}

#endif // SORT_RADIX

#ifdef SORT_SEARCH

// out[i] = the insertion point of value i (C order of the view `vs`) into the sorted run
// `sorted[0], sorted[stride], ...` of `len` elements: leftmost, or rightmost if `right`.
// Parameters of `sort_searchsorted` (mirrored field for field by `SortSearchsortedArgs` in
// crates/cuda/src/sort/params.rs).
struct SortSearchsortedArgs {
    u64 out;
    u64 sorted;
    long long len;
    long long stride;
    u64 vals;
    Strided vs;
    long long nv;
    int right;
};

__device__ __forceinline__ void k_sort_searchsorted(long long* __restrict__ out,
                                                    const T* __restrict__ sorted, long long len,
                                                    long long stride, const T* __restrict__ vals,
                                                    const Strided& vs, long long nv, int right) {
    GRID_STRIDE(i, nv) {
        const K kv = Keys<T>::key(vals[strided_offset(vs, i)]);
        long long lo = 0, hi = len;
        while (lo < hi) {
            const long long mid = lo + ((hi - lo) >> 1);
            const K km = Keys<T>::key(sorted[mid * stride]);
            const bool after = right ? !key_lt(kv, km) : key_lt(km, kv);
            if (after) lo = mid + 1;
            else hi = mid;
        }
        out[i] = lo;
    }
}

extern "C" __global__ void sort_searchsorted(SortSearchsortedArgs a) {
    k_sort_searchsorted((long long*)a.out, (const T*)a.sorted, a.len, a.stride, (const T*)a.vals,
                        a.vs, a.nv, a.right);
}

// Parameters of `sort_merge_pair` (mirrored field for field by `SortMergePairArgs` in
// crates/cuda/src/sort/params.rs).
struct SortMergePairArgs {
    u64 out;
    u64 a;
    long long na;
    u64 b;
    long long nb;
    u64 cuts;
};

#define MERGE_THREADS 128
#define MERGE_ITEMS 8
#define MERGE_TILE (MERGE_THREADS * MERGE_ITEMS)

// Whether `x` of the first run goes before `y` of the second in their stable merge: ties go
// to the first run.
__device__ __forceinline__ bool merge_first(const T& x, const T& y) {
    return !key_lt(Keys<T>::key(y), Keys<T>::key(x));
}

// The merge path: how many of the first `diag` elements of the stable merge of the sorted
// runs `a` (`na` elements) and `b` (`nb`) come from `a` (on ties `a` goes first).
__device__ __forceinline__ long long merge_path(const T* a, long long na, const T* b, long long nb,
                                                long long diag) {
    long long lo = diag > nb ? diag - nb : 0;
    long long hi = diag < na ? diag : na;
    while (lo < hi) {
        const long long mid = lo + ((hi - lo) >> 1);
        if (merge_first(a[mid], b[diag - 1 - mid])) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// cuts[t] = the merge path at output t * MERGE_TILE (or at the end), for t in 0..=tiles:
// where each tile of `sort_merge_pair` starts in `a`, all searched at once.
extern "C" __global__ void sort_merge_cuts(SortMergePairArgs a) {
    const long long n = a.na + a.nb;
    const long long tiles = (n + MERGE_TILE - 1) / MERGE_TILE;
    GRID_STRIDE(t, tiles + 1) {
        const long long d = t * MERGE_TILE < n ? t * MERGE_TILE : n;
        ((long long*)a.cuts)[t] = merge_path((const T*)a.a, a.na, (const T*)a.b, a.nb, d);
    }
}

// out[0 .. na + nb) = the stable merge of the sorted runs `a` and `b` (every key of `a`
// before an equal key of `b`), one tile of MERGE_TILE outputs per block: the tile's parts of
// `a` and `b` (from `cuts`, made by `sort_merge_cuts`) are staged in shared memory, each
// thread merges MERGE_ITEMS outputs from its own point on the path, and the tile is stored
// back in order.
extern "C" __global__ void __launch_bounds__(MERGE_THREADS) sort_merge_pair(SortMergePairArgs a) {
    __shared__ __align__(16) unsigned char smem[MERGE_TILE * sizeof(T)];
    T* s = (T*)smem;
    const T* ra = (const T*)a.a;
    const T* rb = (const T*)a.b;
    const long long* cuts = (const long long*)a.cuts;
    const long long n = a.na + a.nb;
    const long long d0 = (long long)blockIdx.x * MERGE_TILE;
    const long long d1 = d0 + MERGE_TILE < n ? d0 + MERGE_TILE : n;
    const long long a0 = cuts[blockIdx.x], b0 = d0 - a0;
    const int la = (int)(cuts[blockIdx.x + 1] - a0);
    const int m = (int)(d1 - d0);
    const int lb = m - la;
    for (int i = threadIdx.x; i < m; i += MERGE_THREADS) s[i] = i < la ? ra[a0 + i] : rb[b0 + i - la];
    __syncthreads();
    const int t0 = threadIdx.x * MERGE_ITEMS < m ? threadIdx.x * MERGE_ITEMS : m;
    int ai = (int)merge_path(s, la, s + la, lb, t0);
    int bi = t0 - ai;
    T v[MERGE_ITEMS];
#pragma unroll
    for (int k = 0; k < MERGE_ITEMS; ++k) {
        if (t0 + k < m) {
            const bool take_a = bi >= lb || (ai < la && merge_first(s[ai], s[la + bi]));
            v[k] = take_a ? s[ai++] : s[la + bi++];
        }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < MERGE_ITEMS; ++k)
        if (t0 + k < m) s[t0 + k] = v[k];
    __syncthreads();
    T* out = (T*)a.out;
    for (int i = threadIdx.x; i < m; i += MERGE_THREADS) out[d0 + i] = s[i];
}

#endif // SORT_SEARCH

#ifdef SORT_UNIQUE

#define UQ_ITEMS 16
#define UQ_TILE (SORT_THREADS * UQ_ITEMS)

// counts[b]: run heads (first keys of runs of equal keys) in tile b of the sorted keys.
// Parameters of `sort_uq_count` (mirrored field for field by `SortUqCountArgs` in
// crates/cuda/src/sort/params.rs).
struct SortUqCountArgs {
    u64 keys;
    long long n;
    u64 counts;
};

__device__ __forceinline__ void k_sort_uq_count(const K* __restrict__ keys, long long n,
                                                u32* __restrict__ counts) {
    __shared__ u32 s_warp[SORT_WARPS];
    const long long b0 = (long long)blockIdx.x * UQ_TILE;
    u32 c = 0;
#pragma unroll
    for (int j = 0; j < UQ_ITEMS; ++j) {
        const long long i = b0 + j * SORT_THREADS + threadIdx.x;
        if (i < n) c += (i == 0 || keys[i] != keys[i - 1]) ? 1u : 0u;
    }
    c = block_sum(c, s_warp);
    if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

extern "C" __global__ void __launch_bounds__(SORT_THREADS) sort_uq_count(SortUqCountArgs a) {
    k_sort_uq_count((const K*)a.keys, a.n, (u32*)a.counts);
}

// Mirrors `UniqueArgs` in crates/cuda/src/sort/unique.rs.
// Fields:
//   keys    const K*: sorted keys
//   perm    const u32*: the stable sorting permutation (or 0 when !exact and no index output is
//           asked for)
//   raw     const T*: the elements (exact values)
//   offsets const u32*: heads before each tile (exclusive scan of sort_uq_count)
//   values  T*: one value per run
//   first   long long* or 0: index of each run's first element
//   inverse long long* or 0: run of each element, at its index
//   starts  u32* or 0: position of each run's first element
//   exact   values are raw[perm[head]] (else the decoded keys)
struct UniqueArgs {
    u64 keys;
    u64 perm;
    u64 raw;
    u64 offsets;
    u64 values;
    u64 first;
    u64 inverse;
    u64 starts;
    long long n;
    int exact;
    int pad;
};

extern "C" __global__ void __launch_bounds__(SORT_THREADS) sort_uq_write(UniqueArgs a) {
    __shared__ u32 s_warp[SORT_WARPS];
    const K* keys = (const K*)a.keys;
    const u32* perm = (const u32*)a.perm;
    const long long b0 = (long long)blockIdx.x * UQ_TILE + (long long)threadIdx.x * UQ_ITEMS;
    u32 heads = 0;
#pragma unroll
    for (int j = 0; j < UQ_ITEMS; ++j) {
        const long long i = b0 + j;
        if (i < a.n && (i == 0 || keys[i] != keys[i - 1])) heads |= 1u << j;
    }
    u32 run = ((const u32*)a.offsets)[blockIdx.x] + block_excl_scan(__popc(heads), s_warp);
#pragma unroll
    for (int j = 0; j < UQ_ITEMS; ++j) {
        const long long i = b0 + j;
        if (i >= a.n) break;
        if (heads & (1u << j)) {
            const u32 p = perm ? perm[i] : (u32)i;
            ((T*)a.values)[run] = a.exact ? ((const T*)a.raw)[p] : Keys<T>::decode(keys[i]);
            if (a.first) ((long long*)a.first)[run] = (long long)p;
            if (a.starts) ((u32*)a.starts)[run] = (u32)i;
            ++run;
        }
        if (a.inverse) ((long long*)a.inverse)[perm[i]] = (long long)(run - 1);
    }
}

#endif // SORT_UNIQUE

#ifdef SORT_UTIL

// out[j * lanes + l] = sorted[l * len + kth[j]] for j < m, l < lanes.
// Parameters of `sort_select` (mirrored field for field by `SortSelectArgs` in
// crates/cuda/src/sort/params.rs).
struct SortSelectArgs {
    u64 out;
    u64 sorted;
    long long lanes;
    long long len;
    u64 kth;
    long long m;
};

__device__ __forceinline__ void k_sort_select(T* __restrict__ out, const T* __restrict__ sorted,
                                              long long lanes, long long len,
                                              const long long* __restrict__ kth, long long m) {
    GRID_STRIDE(i, m * lanes) {
        const long long j = i / lanes, l = i - j * lanes;
        out[i] = sorted[l * len + kth[j]];
    }
}

extern "C" __global__ void sort_select(SortSelectArgs a) {
    k_sort_select((T*)a.out, (const T*)a.sorted, a.lanes, a.len, (const long long*)a.kth, a.m);
}

// out[i] = i % len.
// Parameters of `sort_iota_mod` (mirrored field for field by `SortIotaModArgs` in
// crates/cuda/src/sort/params.rs).
struct SortIotaModArgs {
    u64 out;
    long long n;
    long long len;
};

__device__ __forceinline__ void k_sort_iota_mod(long long* __restrict__ out, long long n,
                                                long long len) {
    GRID_STRIDE(i, n) out[i] = i % len;
}

extern "C" __global__ void sort_iota_mod(SortIotaModArgs a) {
    k_sort_iota_mod((long long*)a.out, a.n, a.len);
}

// In-place exclusive scan of `counts[0..nb)` by one block; total[0] = the sum.
// Parameters of `sort_uq_scan` (mirrored field for field by `SortUqScanArgs` in
// crates/cuda/src/sort/params.rs).
struct SortUqScanArgs {
    u64 counts;
    long long nb;
    u64 total;
};

__device__ __forceinline__ void k_sort_uq_scan(u32* __restrict__ counts, long long nb,
                                               u32* __restrict__ total) {
    __shared__ u32 s_warp[SORT_WARPS];
    __shared__ u32 s_carry;
    if (threadIdx.x == 0) s_carry = 0;
    __syncthreads();
    for (long long b = 0; b < nb; b += SORT_THREADS) {
        const long long i = b + threadIdx.x;
        const u32 v = i < nb ? counts[i] : 0u;
        const u32 carry = s_carry;
        const u32 e = block_excl_scan(v, s_warp);
        if (i < nb) counts[i] = carry + e;
        __syncthreads();
        if (threadIdx.x == SORT_THREADS - 1) s_carry = carry + e + v;
        __syncthreads();
    }
    if (threadIdx.x == 0) total[0] = s_carry;
}

extern "C" __global__ void __launch_bounds__(SORT_THREADS) sort_uq_scan(SortUqScanArgs a) {
    k_sort_uq_scan((u32*)a.counts, a.nb, (u32*)a.total);
}

// counts[j] = starts[j + 1] - starts[j] (the last run ends at n).
// Parameters of `sort_uq_counts` (mirrored field for field by `SortUqCountsArgs` in
// crates/cuda/src/sort/params.rs).
struct SortUqCountsArgs {
    u64 counts;
    u64 starts;
    long long k;
    long long n;
};

__device__ __forceinline__ void k_sort_uq_counts(long long* __restrict__ counts,
                                                 const u32* __restrict__ starts, long long k,
                                                 long long n) {
    GRID_STRIDE(j, k) {
        const long long end = j + 1 < k ? (long long)starts[j + 1] : n;
        counts[j] = end - (long long)starts[j];
    }
}

extern "C" __global__ void sort_uq_counts(SortUqCountsArgs a) {
    k_sort_uq_counts((long long*)a.counts, (const u32*)a.starts, a.k, a.n);
}

#endif // SORT_UTIL
