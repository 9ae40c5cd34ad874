// bins.cu: the counting behind `histogram` (IndexOps::bin_add on the GPU): each value's bin
// among NB = edges.len() - 1 bins, found in the edges' type exactly as the host finds it,
// adds the value's weight (or 1) to out[bin]. Comes after ops.cuh and scatter_reduce.cu
// (whose `at_update`, `native_at` and `sum_identity` it uses, with `T` the type of the sums,
// `OP` op_add and `AT_KIND` 1), with `BX` (the values' type), `BE` (the edges' type),
// `BINS_UNIFORM` (1: NumPy's equal-bin arithmetic; 0: binary search) and `BINS_WEIGHTED`
// (1: weights of type T) defined.

// Parameters of `bin_add_global` and `bin_add_private` (mirrored field for field by
// `BinArgs` in crates/cuda/src/index/params.rs). `sx`/`sw` are the value and weight views
// coalesced jointly; `first`, `last`, `denom` hold values of the edges' type (exact in f64).
struct BinArgs {
    u64 x;
    u64 edges;
    u64 w;
    u64 out;
    Strided sx;
    Strided sw;
    long long nb;
    long long total;
    double first;
    double last;
    double denom;
};

// The bin of x, or -1 outside the edges (and for NaN).
__device__ __forceinline__ long long bin_of(BX xv, const BE* __restrict__ edges, long long nb,
                                            BE first, BE last, BE denom) {
    const BE x = (BE)xv;
#if BINS_UNIFORM
    if (!(x >= first && x <= last)) return -1;
    const BE f = ((x - first) / denom) * (BE)nb;
    long long i = (long long)(double)f;
    if (i > nb - 1) i = nb - 1;
    if (x < edges[i]) --i;
    if (i != nb - 1 && x >= edges[i + 1]) ++i;
    return i;
#else
    // The first edge greater than x (NaN: none is <= it, so it lands before the first).
    long long lo = 0, hi = nb + 1;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (edges[mid] <= x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (x == edges[nb]) return nb - 1;
    return (lo >= 1 && lo <= nb) ? lo - 1 : -1;
#endif
}

__device__ __forceinline__ T bin_weight(const T* __restrict__ w, const Strided& sw, long long o) {
#if BINS_WEIGHTED
    return w[sr_off(sw, o)];
#else
    return (T)1;
#endif
}

extern "C" __global__ void bin_add_global(BinArgs a) {
    const BX* x = (const BX*)a.x;
    const BE* edges = (const BE*)a.edges;
    const T* w = (const T*)a.w;
    T* out = (T*)a.out;
    const BE first = (BE)a.first, last = (BE)a.last, denom = (BE)a.denom;
    GRID_STRIDE(o, a.total) {
        const long long b = bin_of(x[sr_off(a.sx, o)], edges, a.nb, first, last, denom);
        if (b >= 0) at_update<T>(out + b, bin_weight(w, a.sw, o));
    }
}

// One shared-memory copy of the bins per block (nb * sizeof(T) bytes of dynamic shared
// memory), merged into `out` at the end. Only for the types of `native_at`.
extern "C" __global__ void bin_add_private(BinArgs a) {
    if constexpr (native_at<T>::value) {
        extern __shared__ unsigned long long bin_smem[];
        T* priv = (T*)bin_smem;
        for (long long k = threadIdx.x; k < a.nb; k += blockDim.x) priv[k] = sum_identity<T>();
        __syncthreads();
        const BX* x = (const BX*)a.x;
        const BE* edges = (const BE*)a.edges;
        const T* w = (const T*)a.w;
        const BE first = (BE)a.first, last = (BE)a.last, denom = (BE)a.denom;
        GRID_STRIDE(o, a.total) {
            const long long b = bin_of(x[sr_off(a.sx, o)], edges, a.nb, first, last, denom);
            if (b >= 0) at_update<T>(priv + b, bin_weight(w, a.sw, o));
        }
        __syncthreads();
        T* out = (T*)a.out;
        for (long long k = threadIdx.x; k < a.nb; k += blockDim.x) {
            const T s = priv[k];
            if (!is_sum_identity<T>(s)) at_update<T>(out + k, s);
        }
    }
}
