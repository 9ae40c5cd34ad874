// index.cu: gathers and scatters by integer indices (IndexOps of the CUDA backend).
// Instantiated per element type with `#define T <type>`. Every view arrives coalesced on the
// host as a `Strided`; `ix_off<I>` maps a C-order linear index to a buffer offset with index
// arithmetic of type I (unsigned for views of fewer than 2^31 elements, long long otherwise).
// Indices are i64. The gathers (`take`, `take_along`) check each index as they read it: an
// index outside -n..n leaves its output element unwritten and records its C-order position
// in *first with `atomicMin` (the host then reports it and drops the output). The scatters
// run after `index_check` has checked every index, and may assume each lies in -n..n
// (negative ones count from the end).

// Buffer offset of C-order element `i` of a coalesced view.
template <class I> __device__ __forceinline__ long long ix_off(const Strided& s, I i) {
    if (s.ndim == 0) return s.offset;
    if (s.ndim == 1) return s.offset + (long long)i * s.strides[0];
    if constexpr (sizeof(I) == 4) {
        return strided_offset32(s, (unsigned)i);
    } else {
        return strided_offset(s, (long long)i);
    }
}

// A checked index resolved against an axis of length n.
__device__ __forceinline__ long long ix_wrap(long long t, long long n) { return t < 0 ? t + n : t; }

// Lowers *first to position `o` of an index found out of range (*first starts at ~0ull).
__device__ __forceinline__ void record_bad(u64* first, u64 o) {
    if (o < *(volatile u64*)first) atomicMin((unsigned long long*)first, (unsigned long long)o);
}

// Records in *first the smallest C-order position of an index outside -n..n (*first starts
// at ~0ull; left so when every index is in range).
template <class I>
__device__ __forceinline__ void check_body(const i64* __restrict__ idx, const Strided& si,
                                           I total, i64 n, u64* first) {
    for (I o = (I)blockIdx.x * blockDim.x + threadIdx.x; o < total; o += (I)gridDim.x * blockDim.x) {
        long long t = idx[ix_off<I>(si, o)];
        if (t < -n || t >= n) record_bad(first, (u64)o);
    }
}

// Parameters of `index_check` (mirrored field for field by `IndexCheckArgs` in
// crates/cuda/src/index/params.rs).
struct IndexCheckArgs {
    u64 idx;
    Strided si;
    long long total;
    long long n;
    u64 first;
};

__device__ __forceinline__ void k_index_check(const i64* __restrict__ idx, const Strided& si,
                                              i64 total, i64 n, u64* first) {
    if (total < 2147483648LL) {
        check_body<unsigned>(idx, si, (unsigned)total, n, first);
    } else {
        check_body<long long>(idx, si, total, n, first);
    }
}

extern "C" __global__ void index_check(IndexCheckArgs a) {
    k_index_check((const i64*)a.idx, a.si, a.total, a.n, (u64*)a.first);
}

// take: out (C-contiguous, shape pre + idx + post) = x[pre, idx[j], post]. `pre` is the view
// of x's leading axes (with x's offset), `post` that of its trailing axes (offset 0), `sax`
// the stride of the taken axis, m the number of indices and q the size of `post`.
template <class I>
__device__ __forceinline__ void take_body(T* __restrict__ out, const T* __restrict__ x,
                                          const i64* __restrict__ idx, const Strided& pre,
                                          const Strided& post, const Strided& si, i64 sax, i64 n,
                                          I m, I q, I total, u64* first) {
    for (I o = (I)blockIdx.x * blockDim.x + threadIdx.x; o < total; o += (I)gridDim.x * blockDim.x) {
        I r = o / q;
        I c = o - r * q;
        I p = r / m;
        I j = r - p * m;
        long long t = idx[ix_off<I>(si, j)];
        if (t < -n || t >= n) {
            record_bad(first, (u64)j);
            continue;
        }
        out[o] = x[ix_off<I>(pre, p) + ix_wrap(t, n) * sax + ix_off<I>(post, c)];
    }
}

// Parameters of `take` (mirrored field for field by `TakeArgs` in
// crates/cuda/src/index/params.rs).
struct TakeArgs {
    u64 out;
    u64 x;
    u64 idx;
    Strided pre;
    Strided post;
    Strided si;
    long long sax;
    long long n;
    long long m;
    long long q;
    long long total;
    u64 first;
};

__device__ __forceinline__ void k_take(T* __restrict__ out, const T* __restrict__ x,
                                       const i64* __restrict__ idx, const Strided& pre,
                                       const Strided& post, const Strided& si, i64 sax, i64 n,
                                       i64 m, i64 q, i64 total, u64* first) {
    if (total < 2147483648LL) {
        take_body<unsigned>(out, x, idx, pre, post, si, sax, n, (unsigned)m, (unsigned)q,
                            (unsigned)total, first);
    } else {
        take_body<long long>(out, x, idx, pre, post, si, sax, n, m, q, total, first);
    }
}

extern "C" __global__ void take(TakeArgs a) {
    k_take((T*)a.out, (const T*)a.x, (const i64*)a.idx, a.pre, a.post, a.si, a.sax, a.n, a.m, a.q,
           a.total, (u64*)a.first);
}

// take_along_axis: out (C-contiguous) = x[.., idx[o], ..]. `sx` is x's view over the output's
// shape with the taken axis's stride set to 0 (coalesced jointly with `si`), `sax` that
// axis's stride.
template <class I>
__device__ __forceinline__ void take_along_body(T* __restrict__ out, const T* __restrict__ x,
                                                const i64* __restrict__ idx, const Strided& sx,
                                                const Strided& si, i64 sax, i64 n, I total,
                                                u64* first) {
    for (I o = (I)blockIdx.x * blockDim.x + threadIdx.x; o < total; o += (I)gridDim.x * blockDim.x) {
        long long t = idx[ix_off<I>(si, o)];
        if (t < -n || t >= n) {
            record_bad(first, (u64)o);
            continue;
        }
        out[o] = x[ix_off<I>(sx, o) + ix_wrap(t, n) * sax];
    }
}

// Parameters of `take_along` (mirrored field for field by `TakeAlongArgs` in
// crates/cuda/src/index/params.rs).
struct TakeAlongArgs {
    u64 out;
    u64 x;
    u64 idx;
    Strided sx;
    Strided si;
    long long sax;
    long long n;
    long long total;
    u64 first;
};

__device__ __forceinline__ void k_take_along(T* __restrict__ out, const T* __restrict__ x,
                                             const i64* __restrict__ idx, const Strided& sx,
                                             const Strided& si, i64 sax, i64 n, i64 total,
                                             u64* first) {
    if (total < 2147483648LL) {
        take_along_body<unsigned>(out, x, idx, sx, si, sax, n, (unsigned)total, first);
    } else {
        take_along_body<long long>(out, x, idx, sx, si, sax, n, total, first);
    }
}

extern "C" __global__ void take_along(TakeAlongArgs a) {
    k_take_along((T*)a.out, (const T*)a.x, (const i64*)a.idx, a.sx, a.si, a.sax, a.n, a.total,
                 (u64*)a.first);
}

// Scatter (put_along_axis). The index and value views share the shape S = pre x m x post;
// `sd` is the destination's view over S with the scattered axis's stride set to 0 (so it
// addresses the start of each lane), coalesced jointly with `si` and `sv`; `dax`, `iax`,
// `vax` are the strides of the scattered axis in the destination, indices and values.

// One thread per lane walks the lane's indices in order: the last value for a repeated index
// wins, as on the host. Used when there are enough lanes to fill the device or lanes are short.
// Parameters of `scatter_lanes` (mirrored field for field by `ScatterLanesArgs` in
// crates/cuda/src/index/params.rs).
struct ScatterLanesArgs {
    u64 dst;
    u64 idx;
    u64 v;
    Strided sd;
    Strided si;
    Strided sv;
    long long dax;
    long long iax;
    long long vax;
    long long n;
    long long m;
    long long q;
    long long lanes;
};

__device__ __forceinline__ void k_scatter_lanes(T* dst, const i64* __restrict__ idx,
                                                const T* __restrict__ v, const Strided& sd,
                                                const Strided& si, const Strided& sv, i64 dax,
                                                i64 iax, i64 vax, i64 n, i64 m, i64 q, i64 lanes) {
    GRID_STRIDE(l, lanes) {
        long long p = l / q;
        long long o = p * m * q + (l - p * q);
        long long od = ix_off<long long>(sd, o);
        long long oi = ix_off<long long>(si, o);
        long long ov = ix_off<long long>(sv, o);
        for (long long j = 0; j < m; ++j) {
            dst[od + ix_wrap(idx[oi], n) * dax] = v[ov];
            oi += iax;
            ov += vax;
        }
    }
}

extern "C" __global__ void scatter_lanes(ScatterLanesArgs a) {
    k_scatter_lanes((T*)a.dst, (const i64*)a.idx, (const T*)a.v, a.sd, a.si, a.sv, a.dax, a.iax,
                    a.vax, a.n, a.m, a.q, a.lanes);
}

// Position in the C-order destination space (pre x n x post) of index element o, and o's
// position j along its lane.
__device__ __forceinline__ long long scatter_key(long long o, long long t, long long n,
                                                 long long m, long long q, long long* j) {
    long long r = o / q;
    long long c = o - r * q;
    long long p = r / m;
    *j = r - p * m;
    return (p * n + t) * q + c;
}

// Few long lanes: every index element competes for its destination element with atomicMax of
// (its position along the lane + 1) in a zeroed winner buffer of the destination's size...
template <class W>
__device__ __forceinline__ void scatter_mark_body(W* win, const i64* __restrict__ idx,
                                                  const Strided& si, i64 n, i64 m, i64 q,
                                                  i64 total) {
    GRID_STRIDE(o, total) {
        long long t = ix_wrap(idx[ix_off<long long>(si, o)], n);
        long long j;
        long long key = scatter_key(o, t, n, m, q, &j);
        atomicMax(&win[key], (W)(j + 1));
    }
}

// ... then only the winner (the last along the lane) writes.
template <class W>
__device__ __forceinline__ void scatter_write_body(T* dst, const W* __restrict__ win,
                                                   const i64* __restrict__ idx,
                                                   const T* __restrict__ v, const Strided& sd,
                                                   const Strided& si, const Strided& sv, i64 dax,
                                                   i64 n, i64 m, i64 q, i64 total) {
    GRID_STRIDE(o, total) {
        long long t = ix_wrap(idx[ix_off<long long>(si, o)], n);
        long long j;
        long long key = scatter_key(o, t, n, m, q, &j);
        if (win[key] == (W)(j + 1)) {
            dst[ix_off<long long>(sd, o) + t * dax] = v[ix_off<long long>(sv, o)];
        }
    }
}

// Parameters of `scatter_mark32` and `scatter_mark64` (mirrored field for field by `ScatterMarkArgs` in
// crates/cuda/src/index/params.rs).
struct ScatterMarkArgs {
    u64 win;
    u64 idx;
    Strided si;
    long long n;
    long long m;
    long long q;
    long long total;
};

__device__ __forceinline__ void k_scatter_mark32(unsigned* win, const i64* __restrict__ idx,
                                                 const Strided& si, i64 n, i64 m, i64 q, i64 total) {
    scatter_mark_body<unsigned>(win, idx, si, n, m, q, total);
}

extern "C" __global__ void scatter_mark32(ScatterMarkArgs a) {
    k_scatter_mark32((unsigned*)a.win, (const i64*)a.idx, a.si, a.n, a.m, a.q, a.total);
}

__device__ __forceinline__ void k_scatter_mark64(unsigned long long* win,
                                                 const i64* __restrict__ idx, const Strided& si,
                                                 i64 n, i64 m, i64 q, i64 total) {
    scatter_mark_body<unsigned long long>(win, idx, si, n, m, q, total);
}

extern "C" __global__ void scatter_mark64(ScatterMarkArgs a) {
    k_scatter_mark64((unsigned long long*)a.win, (const i64*)a.idx, a.si, a.n, a.m, a.q, a.total);
}

// Parameters of `scatter_write32` and `scatter_write64` (mirrored field for field by `ScatterWriteArgs` in
// crates/cuda/src/index/params.rs).
struct ScatterWriteArgs {
    u64 dst;
    u64 win;
    u64 idx;
    u64 v;
    Strided sd;
    Strided si;
    Strided sv;
    long long dax;
    long long n;
    long long m;
    long long q;
    long long total;
};

__device__ __forceinline__ void k_scatter_write32(T* dst, const unsigned* __restrict__ win,
                                                  const i64* __restrict__ idx,
                                                  const T* __restrict__ v, const Strided& sd,
                                                  const Strided& si, const Strided& sv, i64 dax,
                                                  i64 n, i64 m, i64 q, i64 total) {
    scatter_write_body<unsigned>(dst, win, idx, v, sd, si, sv, dax, n, m, q, total);
}

extern "C" __global__ void scatter_write32(ScatterWriteArgs a) {
    k_scatter_write32((T*)a.dst, (const unsigned*)a.win, (const i64*)a.idx, (const T*)a.v, a.sd,
                      a.si, a.sv, a.dax, a.n, a.m, a.q, a.total);
}

__device__ __forceinline__ void k_scatter_write64(T* dst,
                                                  const unsigned long long* __restrict__ win,
                                                  const i64* __restrict__ idx,
                                                  const T* __restrict__ v, const Strided& sd,
                                                  const Strided& si, const Strided& sv, i64 dax,
                                                  i64 n, i64 m, i64 q, i64 total) {
    scatter_write_body<unsigned long long>(dst, win, idx, v, sd, si, sv, dax, n, m, q, total);
}

extern "C" __global__ void scatter_write64(ScatterWriteArgs a) {
    k_scatter_write64((T*)a.dst, (const unsigned long long*)a.win, (const i64*)a.idx, (const T*)a.v,
                      a.sd, a.si, a.sv, a.dax, a.n, a.m, a.q, a.total);
}
