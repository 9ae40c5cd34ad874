// mask.cu: stream compaction by boolean masks and truthiness (MaskOps of the CUDA backend).
// Instantiated per element type with `#define T <type>`.
//
// A view of n elements (coalesced on the host, C order) is cut into tiles of MK_TILE
// elements, one tile per block of MK_BLOCK threads. Element e of a tile is read by thread
// e % MK_BLOCK in round e / MK_BLOCK, so every round's loads are coalesced, and a warp ballot
// per round holds the flags of 32 consecutive elements. Three passes:
//   1. `count_truthy` / `count_mask`: the number of flagged elements of each tile;
//   2. `scan_tiles` (one block): the exclusive scan of those counts plus the total;
//   3. a scatter (`select_scatter`, `nonzero_scatter`, `assign_scatter`): each tile ranks
//      its flagged elements (ballot popcounts, then a scan over the tile's warp segments)
//      and writes them at the tile's offset plus their rank, so the output is in C order.
// The host reads the total between passes 2 and 3 (it sizes the output).

#define MK_BLOCK 256
#define MK_ITEMS 16
#define MK_TILE (MK_BLOCK * MK_ITEMS)
#define MK_WARPS (MK_BLOCK / 32)
#define MK_SEGS (MK_ITEMS * MK_WARPS)
#define MK_SCAN_BLOCK 1024
#define MK_SCAN_ITEMS 4

// Buffer offset of C-order element `i` of a coalesced view.
template <class I> __device__ __forceinline__ long long mk_off(const Strided& s, I i) {
    if (s.ndim == 0) return s.offset;
    if (s.ndim == 1) return s.offset + (long long)i * s.strides[0];
    if constexpr (sizeof(I) == 4) {
        return strided_offset32(s, (unsigned)i);
    } else {
        return strided_offset(s, (long long)i);
    }
}

// NumPy truthiness, as the host's `Element::is_truthy` (NaN is truthy; complex: either part).
template <class X> __device__ __forceinline__ bool mk_truthy(X v) {
    if constexpr (is_cplx<X>::value) {
        return v.re != 0 || v.im != 0;
    } else if constexpr (is_same<X, bool>::value) {
        return v;
    } else {
        return v != (X)0;
    }
}

// The flags of this block's tile: bit `lane` of b[k] is the flag of tile element
// k * MK_BLOCK + warp * 32 + lane.
template <class F, class I>
__device__ __forceinline__ void mk_ballots(const F* __restrict__ x, const Strided& s, I n,
                                           I base, unsigned (&b)[MK_ITEMS]) {
    bool f[MK_ITEMS];
#pragma unroll
    for (int k = 0; k < MK_ITEMS; ++k) {
        I e = base + (I)(k * MK_BLOCK + threadIdx.x);
        f[k] = e < n && mk_truthy(x[mk_off<I>(s, e)]);
    }
#pragma unroll
    for (int k = 0; k < MK_ITEMS; ++k) {
        b[k] = __ballot_sync(0xffffffffu, f[k]);
    }
}

// Pass 1: counts[tile] = flagged elements of the tile.
template <class F, class I>
__device__ __forceinline__ void mk_count(const F* __restrict__ x, const Strided& s, I n,
                                         unsigned* __restrict__ counts) {
    __shared__ unsigned wsum[MK_WARPS];
    unsigned b[MK_ITEMS];
    mk_ballots<F, I>(x, s, n, (I)blockIdx.x * (I)MK_TILE, b);
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < MK_ITEMS; ++k) c += __popc(b[k]);
    if ((threadIdx.x & 31) == 0) wsum[threadIdx.x >> 5] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned t = 0;
#pragma unroll
        for (int w = 0; w < MK_WARPS; ++w) t += wsum[w];
        counts[blockIdx.x] = t;
    }
}

// Parameters of `count_truthy` and `count_mask` (mirrored field for field by `CountArgs` in
// crates/cuda/src/mask/params.rs): flags is const T* (count_truthy) or const bool*
// (count_mask), counts is unsigned*.
struct CountArgs {
    u64 flags;
    Strided s;
    long long n;
    u64 counts;
};

__device__ __forceinline__ void k_count_truthy(const T* __restrict__ x, const Strided& sx, i64 n,
                                               unsigned* __restrict__ counts) {
    if (n < 2147483648LL) {
        mk_count<T, unsigned>(x, sx, (unsigned)n, counts);
    } else {
        mk_count<T, long long>(x, sx, n, counts);
    }
}

extern "C" __global__ void __launch_bounds__(MK_BLOCK) count_truthy(CountArgs a) {
    k_count_truthy((const T*)a.flags, a.s, a.n, (unsigned*)a.counts);
}

__device__ __forceinline__ void k_count_mask(const bool* __restrict__ m, const Strided& sm, i64 n,
                                             unsigned* __restrict__ counts) {
    if (n < 2147483648LL) {
        mk_count<bool, unsigned>(m, sm, (unsigned)n, counts);
    } else {
        mk_count<bool, long long>(m, sm, n, counts);
    }
}

extern "C" __global__ void __launch_bounds__(MK_BLOCK) count_mask(CountArgs a) {
    k_count_mask((const bool*)a.flags, a.s, a.n, (unsigned*)a.counts);
}

// Inclusive scan of v across the warp.
__device__ __forceinline__ u64 mk_warp_scan(u64 v) {
    unsigned lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        u64 o = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= (unsigned)d) v += o;
    }
    return v;
}

// Pass 2, one block of MK_SCAN_BLOCK threads: offsets[i] = counts[0] + ... + counts[i-1]
// for i < ntiles, offsets[ntiles] = the total.
// Parameters of `scan_tiles` (mirrored field for field by `ScanTilesArgs` in
// crates/cuda/src/mask/params.rs).
struct ScanTilesArgs {
    u64 counts;
    long long ntiles;
    u64 offsets;
};

__device__ __forceinline__ void k_scan_tiles(const unsigned* __restrict__ counts, i64 ntiles,
                                             u64* __restrict__ offsets) {
    __shared__ u64 wsum[MK_SCAN_BLOCK / 32];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned nwarps = MK_SCAN_BLOCK / 32;
    u64 carry = 0;
    for (long long start = 0; start < ntiles; start += MK_SCAN_BLOCK * MK_SCAN_ITEMS) {
        long long first = start + (long long)threadIdx.x * MK_SCAN_ITEMS;
        u64 v[MK_SCAN_ITEMS];
        u64 sum = 0;
#pragma unroll
        for (int j = 0; j < MK_SCAN_ITEMS; ++j) {
            v[j] = first + j < ntiles ? (u64)counts[first + j] : 0;
            sum += v[j];
        }
        u64 incl = mk_warp_scan(sum);
        if (lane == 31) wsum[warp] = incl;
        __syncthreads();
        if (warp == 0) {
            u64 w = lane < nwarps ? wsum[lane] : 0;
            w = mk_warp_scan(w);
            if (lane < nwarps) wsum[lane] = w;
        }
        __syncthreads();
        u64 run = carry + (warp > 0 ? wsum[warp - 1] : 0) + incl - sum;
#pragma unroll
        for (int j = 0; j < MK_SCAN_ITEMS; ++j) {
            if (first + j < ntiles) offsets[first + j] = run;
            run += v[j];
        }
        carry += wsum[nwarps - 1];
        __syncthreads();
    }
    if (threadIdx.x == 0) offsets[ntiles] = carry;
}

extern "C" __global__ void __launch_bounds__(MK_SCAN_BLOCK) scan_tiles(ScanTilesArgs a) {
    k_scan_tiles((const unsigned*)a.counts, a.ntiles, (u64*)a.offsets);
}

// Pass 3 core: ranks the flagged elements of this block's tile and calls emit(e, rank) for
// each, where e is the element's C-order position and rank its position among all flagged
// elements (C order).
template <class F, class I, class Emit>
__device__ __forceinline__ void mk_scatter(const F* __restrict__ flags, const Strided& s, I n,
                                           const u64* __restrict__ offsets, Emit emit) {
    __shared__ u64 seg[MK_SEGS];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const I base = (I)blockIdx.x * (I)MK_TILE;
    unsigned b[MK_ITEMS];
    mk_ballots<F, I>(flags, s, n, base, b);
    if (lane == 0) {
#pragma unroll
        for (int k = 0; k < MK_ITEMS; ++k) seg[k * MK_WARPS + warp] = __popc(b[k]);
    }
    __syncthreads();
    // Exclusive scan of the MK_SEGS segment counts (ordered as the elements) by warp 0.
    if (warp == 0) {
        const int per = MK_SEGS / 32;
        u64 v[per];
        u64 sum = 0;
#pragma unroll
        for (int j = 0; j < per; ++j) {
            v[j] = seg[lane * per + j];
            sum += v[j];
        }
        u64 run = mk_warp_scan(sum) - sum;
#pragma unroll
        for (int j = 0; j < per; ++j) {
            seg[lane * per + j] = run;
            run += v[j];
        }
    }
    __syncthreads();
    const u64 tile = offsets[blockIdx.x];
    const unsigned lt = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < MK_ITEMS; ++k) {
        if ((b[k] >> lane) & 1u) {
            u64 rank = tile + seg[k * MK_WARPS + warp] + __popc(b[k] & lt);
            emit(base + (I)(k * MK_BLOCK + threadIdx.x), rank);
        }
    }
}

// mask_select: out[rank] = x[e] where m[e] (x and m coalesced jointly).
template <class I>
__device__ __forceinline__ void select_body(T* __restrict__ out, const T* __restrict__ x,
                                            const bool* __restrict__ m, const Strided& sx,
                                            const Strided& sm, I n,
                                            const u64* __restrict__ offsets) {
    mk_scatter<bool, I>(m, sm, n, offsets, [&](I e, u64 rank) { out[rank] = x[mk_off<I>(sx, e)]; });
}

// Parameters of `select_scatter` (mirrored field for field by `SelectScatterArgs` in
// crates/cuda/src/mask/params.rs).
struct SelectScatterArgs {
    u64 out;
    u64 x;
    u64 m;
    Strided sx;
    Strided sm;
    long long n;
    u64 offsets;
};

__device__ __forceinline__ void k_select_scatter(T* __restrict__ out, const T* __restrict__ x,
                                                 const bool* __restrict__ m, const Strided& sx,
                                                 const Strided& sm, i64 n,
                                                 const u64* __restrict__ offsets) {
    if (n < 2147483648LL) {
        select_body<unsigned>(out, x, m, sx, sm, (unsigned)n, offsets);
    } else {
        select_body<long long>(out, x, m, sx, sm, n, offsets);
    }
}

extern "C" __global__ void __launch_bounds__(MK_BLOCK) select_scatter(SelectScatterArgs a) {
    k_select_scatter((T*)a.out, (const T*)a.x, (const bool*)a.m, a.sx, a.sm, a.n,
                     (const u64*)a.offsets);
}

// nonzero: row `rank` of out ([count, ndim], row-major) = the multi-index of C-order
// position e in the logical shape `shape` (ndim entries, at least 1).
template <class I>
__device__ __forceinline__ void nonzero_body(i64* __restrict__ out, const T* __restrict__ x,
                                             const Strided& sx, I n,
                                             const u64* __restrict__ offsets,
                                             const i64* __restrict__ shape, int ndim) {
    mk_scatter<T, I>(x, sx, n, offsets, [&](I e, u64 rank) {
        i64* row = out + rank * (u64)ndim;
        I rem = e;
        for (int d = ndim - 1; d > 0; --d) {
            I len = (I)shape[d];
            I q = rem / len;
            row[d] = (i64)(rem - q * len);
            rem = q;
        }
        row[0] = (i64)rem;
    });
}

// Parameters of `nonzero_scatter` (mirrored field for field by `NonzeroScatterArgs` in
// crates/cuda/src/mask/params.rs).
struct NonzeroScatterArgs {
    u64 out;
    u64 x;
    Strided sx;
    long long n;
    u64 offsets;
    u64 shape;
    int ndim;
};

__device__ __forceinline__ void k_nonzero_scatter(i64* __restrict__ out, const T* __restrict__ x,
                                                  const Strided& sx, i64 n,
                                                  const u64* __restrict__ offsets,
                                                  const i64* __restrict__ shape, int ndim) {
    if (n < 2147483648LL) {
        nonzero_body<unsigned>(out, x, sx, (unsigned)n, offsets, shape, ndim);
    } else {
        nonzero_body<long long>(out, x, sx, n, offsets, shape, ndim);
    }
}

extern "C" __global__ void __launch_bounds__(MK_BLOCK) nonzero_scatter(NonzeroScatterArgs a) {
    k_nonzero_scatter((i64*)a.out, (const T*)a.x, a.sx, a.n, (const u64*)a.offsets,
                      (const i64*)a.shape, a.ndim);
}

// mask_assign with one value per true element: dst[e] = v[rank] where m[e] (dst and m
// coalesced jointly; v coalesced on its own, read in C order).
template <class I>
__device__ __forceinline__ void assign_body(T* __restrict__ dst, const bool* __restrict__ m,
                                            const T* __restrict__ v, const Strided& sd,
                                            const Strided& sm, const Strided& sv, I n,
                                            const u64* __restrict__ offsets) {
    mk_scatter<bool, I>(m, sm, n, offsets, [&](I e, u64 rank) {
        dst[mk_off<I>(sd, e)] = v[mk_off<long long>(sv, (long long)rank)];
    });
}

// Parameters of `assign_scatter` (mirrored field for field by `AssignScatterArgs` in
// crates/cuda/src/mask/params.rs).
struct AssignScatterArgs {
    u64 dst;
    u64 m;
    u64 v;
    Strided sd;
    Strided sm;
    Strided sv;
    long long n;
    u64 offsets;
};

__device__ __forceinline__ void k_assign_scatter(T* __restrict__ dst, const bool* __restrict__ m,
                                                 const T* __restrict__ v, const Strided& sd,
                                                 const Strided& sm, const Strided& sv, i64 n,
                                                 const u64* __restrict__ offsets) {
    if (n < 2147483648LL) {
        assign_body<unsigned>(dst, m, v, sd, sm, sv, (unsigned)n, offsets);
    } else {
        assign_body<long long>(dst, m, v, sd, sm, sv, n, offsets);
    }
}

extern "C" __global__ void __launch_bounds__(MK_BLOCK) assign_scatter(AssignScatterArgs a) {
    k_assign_scatter((T*)a.dst, (const bool*)a.m, (const T*)a.v, a.sd, a.sm, a.sv, a.n,
                     (const u64*)a.offsets);
}

// mask_assign with a single value (v[voff]) written wherever m is true: no ranks needed.
template <class I>
__device__ __forceinline__ void fill_body(T* __restrict__ dst, const bool* __restrict__ m,
                                          const T* __restrict__ v, i64 voff, const Strided& sd,
                                          const Strided& sm, I n) {
    const T val = v[voff];
    for (I e = (I)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (I)gridDim.x * blockDim.x) {
        if (m[mk_off<I>(sm, e)]) dst[mk_off<I>(sd, e)] = val;
    }
}

// Parameters of `assign_fill` (mirrored field for field by `AssignFillArgs` in
// crates/cuda/src/mask/params.rs).
struct AssignFillArgs {
    u64 dst;
    u64 m;
    u64 v;
    long long voff;
    Strided sd;
    Strided sm;
    long long n;
};

__device__ __forceinline__ void k_assign_fill(T* __restrict__ dst, const bool* __restrict__ m,
                                              const T* __restrict__ v, i64 voff, const Strided& sd,
                                              const Strided& sm, i64 n) {
    if (n < 2147483648LL) {
        fill_body<unsigned>(dst, m, v, voff, sd, sm, (unsigned)n);
    } else {
        fill_body<long long>(dst, m, v, voff, sd, sm, n);
    }
}

extern "C" __global__ void assign_fill(AssignFillArgs a) {
    k_assign_fill((T*)a.dst, (const bool*)a.m, (const T*)a.v, a.voff, a.sd, a.sm, a.n);
}
