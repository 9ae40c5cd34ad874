// fused.cuh: helpers of the fused element-wise programs that crates/cuda/src/fused generates
// from a pending expression of `Fused<Cuda>` (after common.cuh, ops_math.cuh and ops.cuh).
// A generated program defines `struct FusedArgs` (the result's address and size, the leaves'
// addresses, the scalar operands and op parameters as Bytes16 slots, the shape and strides of
// the strided leaves) and one kernel, `fused`, whose element function applies the registry's
// functors (`lift<op_NAME, E>`) in the expression's order, so every element has the bits
// of the unfused ops.

// The unsigned integer type of B bytes, for vector loads and stores.
template <int B> struct fz_word;
template <> struct fz_word<16> { typedef uint4 type; };
template <> struct fz_word<8> { typedef uint2 type; };
template <> struct fz_word<4> { typedef unsigned type; };
template <> struct fz_word<2> { typedef unsigned short type; };
template <> struct fz_word<1> { typedef unsigned char type; };

// V elements of E read or written as one machine word.
template <class E, int V> union FzPack {
    typename fz_word<(int)sizeof(E) * V>::type raw;
    E v[V];
};

// V elements of E at element j * V of `p` (16-byte aligned by the host's choice of path).
template <class E, int V> __device__ __forceinline__ FzPack<E, V> fz_load(const E* p, long long j) {
    FzPack<E, V> q;
    q.raw = ((const typename fz_word<(int)sizeof(E) * V>::type*)p)[j];
    return q;
}

// The parameters of an op from five slots at `s`: t0, t1 (of E), d0, d1 (f64), k (i64).
template <class E> __device__ __forceinline__ OpParams<E> fz_params(const Bytes16* s) {
    OpParams<E> q;
    q.t0 = from_bytes<E>(s[0]);
    q.t1 = from_bytes<E>(s[1]);
    q.d0 = from_bytes<double>(s[2]);
    q.d1 = from_bytes<double>(s[3]);
    q.k = from_bytes<long long>(s[4]);
    return q;
}

// The parameters of an op that takes none (all zero).
template <class E> __device__ __forceinline__ OpParams<E> fz_no_params() {
    Bytes16 z;
    for (int b = 0; b < 16; ++b) z.b[b] = 0;
    OpParams<E> q;
    q.t0 = from_bytes<E>(z);
    q.t1 = q.t0;
    q.d0 = 0;
    q.d1 = 0;
    q.k = 0;
    return q;
}

#define FZ_TID ((long long)blockIdx.x * blockDim.x + threadIdx.x)
#define FZ_NT ((long long)gridDim.x * blockDim.x)
