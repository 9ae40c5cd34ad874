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

// The offset type of strided views under an index of type I: 32-bit signed under a
// 32-bit index (the host takes that path only where every strided view's offsets fit,
// `FusedArgs::w32`), 64-bit otherwise.
template <class I> struct fz_off { typedef long long type; };
template <> struct fz_off<unsigned> { typedef int type; };

// r / d. A 32-bit index divides by multiplying with d's magic number `mg` and shifting by
// `sh` (computed on the host for d < 2^31; exact for r < 2^31): the division by a value
// known only at run time was most of the cost of reading a strided view.
__device__ __forceinline__ unsigned fz_div(unsigned r, long long, unsigned mg, unsigned sh) {
    return (__umulhi(r, mg) + r) >> sh;
}
__device__ __forceinline__ long long fz_div(long long r, long long d, unsigned, unsigned) {
    return r / d;
}

#define FZ_TID ((long long)blockIdx.x * blockDim.x + threadIdx.x)
#define FZ_NT ((long long)gridDim.x * blockDim.x)
