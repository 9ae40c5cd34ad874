// user.cuh: what the kernels users write (ElementwiseKernel, ReductionKernel) see beside
// common.cuh. `RawArray<T>` is a `raw` parameter: the body indexes it with a flat C-order
// index over the argument's own shape, through its strides. `_Ind` is the index space
// (`_ind.size()`). INFINITY and NAN are defined because NVRTC compiles without headers.
// The host mirrors `RawArray` as `RawView` in crates/cuda/src/user/launch.rs.

#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef CUDART_INF_F
#define CUDART_INF_F __int_as_float(0x7f800000)
#endif
#ifndef CUDART_INF
#define CUDART_INF __longlong_as_double(0x7ff0000000000000LL)
#endif

// NumPy's names of the 16-bit floats, for bodies (`float16(x * 2.0f)`).
typedef f16 float16;
typedef bf16 bfloat16;

template <class T> struct RawArray {
    T* data;
    long long n;
    Strided view;
    __device__ __forceinline__ long long size() const { return n; }
    __device__ __forceinline__ T& operator[](long long j) const {
        if (view.ndim == 1) return data[view.offset + j * view.strides[0]];
        return data[strided_offset(view, j)];
    }
};
static_assert(sizeof(RawArray<float>) == 160, "RawArray must match RawView on the host");

struct _Ind {
    long long n;
    __device__ __forceinline__ long long size() const { return n; }
};

// Block-wide tree reduction of `v` in shared memory `sh` (blockDim.x a power of two, at most
// 1024 entries); every thread gets the result.
template <class A, class F>
__device__ __forceinline__ A _cp_block_reduce(A v, A* sh, F f) {
    unsigned t = threadIdx.x;
    sh[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sh[t] = f(sh[t], sh[t + s]);
        __syncthreads();
    }
    A r = sh[0];
    __syncthreads();
    return r;
}

// Buffer offset of element `r` of a view, without divisions for a view of one axis.
__device__ __forceinline__ long long _cp_off(const Strided& s, long long r) {
    if (s.ndim == 1) return s.offset + r * s.strides[0];
    return strided_offset(s, r);
}
