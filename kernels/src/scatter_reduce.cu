// scatter_reduce.cu: NumPy's unbuffered `ufunc.at` on the GPU (IndexOps::scatter_reduce):
// dst[idx[o]] = OP(dst[idx[o]], v[o]) for every element o of the index view, every value of a
// repeated index combined. Instantiated per element type and op with `#define T <type>`,
// `#define OP op_<name>` (a functor of ops.cuh, which comes before this file) and
// `#define AT_KIND` 1 for add, 2 for minimum, 3 for maximum, 0 for any other op. Indices are
// checked by `index_check` (index.cu) first, so every index lies in -n..n.
//
// The update of one element uses a native atomic where CUDA has one for the op and type
// (atomicAdd of 32/64-bit integers and floats and of each part of a complex number,
// atomicMin/atomicMax of 32/64-bit integers), else a compare-and-swap loop applying the
// functor to the element's bits (on the aligned 32-bit word that holds a 1- or 2-byte
// element), so f16/bf16 sums round after every addition as NumPy's float16 `add.at` does.
// `scatter_reduce_private` sums into a copy of a small destination in shared memory per
// block first, then adds the copies to the destination: many indices into few bins (the
// histogram case) then contend on shared, not global, memory.

#define SR_BLOCK 256

// A C-order position of the index view as a buffer offset (as `ix_off` of index.cu).
__device__ __forceinline__ long long sr_off(const Strided& s, long long i) {
    if (s.ndim == 0) return s.offset;
    if (s.ndim == 1) return s.offset + i * s.strides[0];
    return strided_offset(s, i);
}

template <class E> __device__ __forceinline__ void cas_update(E* p, E v) {
    OpParams<E> prm = {};
    const OP<E> f(prm);
    if constexpr (sizeof(E) == 4) {
        unsigned* w = (unsigned*)p;
        unsigned old = *(volatile unsigned*)w, assumed;
        do {
            assumed = old;
            const E nv = f(*reinterpret_cast<const E*>(&assumed), v);
            const unsigned nb = *reinterpret_cast<const unsigned*>(&nv);
            if (nb == assumed) break;
            old = atomicCAS(w, assumed, nb);
        } while (old != assumed);
    } else if constexpr (sizeof(E) == 8) {
        unsigned long long* w = (unsigned long long*)p;
        unsigned long long old = *(volatile unsigned long long*)w, assumed;
        do {
            assumed = old;
            const E nv = f(*reinterpret_cast<const E*>(&assumed), v);
            const unsigned long long nb = *reinterpret_cast<const unsigned long long*>(&nv);
            if (nb == assumed) break;
            old = atomicCAS(w, assumed, nb);
        } while (old != assumed);
    } else {
        // 1 or 2 bytes: the aligned word holding the element.
        static_assert(sizeof(E) <= 2, "scatter_reduce: no compare-and-swap of this width");
        const unsigned long long addr = (unsigned long long)p;
        unsigned* w = (unsigned*)(addr & ~3ull);
        const unsigned shift = (unsigned)(addr & 3ull) * 8u;
        const unsigned mask = (sizeof(E) == 1 ? 0xffu : 0xffffu) << shift;
        unsigned old = *(volatile unsigned*)w, assumed;
        do {
            assumed = old;
            unsigned bits = (assumed & mask) >> shift;
            E cur;
            if constexpr (sizeof(E) == 1) {
                const u8 b = (u8)bits;
                cur = *reinterpret_cast<const E*>(&b);
            } else {
                const u16 b = (u16)bits;
                cur = *reinterpret_cast<const E*>(&b);
            }
            const E nv = f(cur, v);
            unsigned nb;
            if constexpr (sizeof(E) == 1) {
                nb = *reinterpret_cast<const u8*>(&nv);
            } else {
                nb = *reinterpret_cast<const u16*>(&nv);
            }
            const unsigned word = (assumed & ~mask) | (nb << shift);
            if (word == assumed) break;
            old = atomicCAS(w, assumed, word);
        } while (old != assumed);
    }
}

// True when `at_update<E>` has a native atomic for E (and the kernel may use shared memory).
template <class E> struct native_at {
    static const bool value =
        (AT_KIND == 1 && (is_same<E, float>::value || is_same<E, double>::value ||
                          is_same<E, i32>::value || is_same<E, u32>::value ||
                          is_same<E, i64>::value || is_same<E, u64>::value || is_cplx<E>::value)) ||
        ((AT_KIND == 2 || AT_KIND == 3) && (is_same<E, i32>::value || is_same<E, u32>::value ||
                                            is_same<E, i64>::value || is_same<E, u64>::value));
};

template <class E> __device__ __forceinline__ void at_update(E* p, E v) {
    if constexpr (AT_KIND == 1 && is_cplx<E>::value) {
        atomicAdd(&p->re, v.re);
        atomicAdd(&p->im, v.im);
    } else if constexpr (AT_KIND == 1 && (is_same<E, float>::value || is_same<E, double>::value ||
                                          is_same<E, u32>::value || is_same<E, u64>::value)) {
        atomicAdd(p, v);
    } else if constexpr (AT_KIND == 1 && is_same<E, i32>::value) {
        atomicAdd((unsigned*)p, (unsigned)v);
    } else if constexpr (AT_KIND == 1 && is_same<E, i64>::value) {
        atomicAdd((unsigned long long*)p, (unsigned long long)v);
    } else if constexpr (AT_KIND == 2 && (is_same<E, i32>::value || is_same<E, u32>::value ||
                                          is_same<E, u64>::value || is_same<E, i64>::value)) {
        atomicMin(p, v);
    } else if constexpr (AT_KIND == 3 && (is_same<E, i32>::value || is_same<E, u32>::value ||
                                          is_same<E, u64>::value || is_same<E, i64>::value)) {
        atomicMax(p, v);
    } else {
        cas_update<E>(p, v);
    }
}

// Parameters of `scatter_reduce` and `scatter_reduce_private` (mirrored field for field by
// `ScatterReduceArgs` in crates/cuda/src/index/params.rs). The destination is 1-d: element k
// at `doff + k * dstride`; `si`/`sv` are the index and value views coalesced jointly.
struct ScatterReduceArgs {
    u64 dst;
    u64 idx;
    u64 v;
    Strided si;
    Strided sv;
    long long doff;
    long long dstride;
    long long n;
    long long total;
};

extern "C" __global__ void scatter_reduce(ScatterReduceArgs a) {
    T* dst = (T*)a.dst;
    const i64* idx = (const i64*)a.idx;
    const T* v = (const T*)a.v;
    GRID_STRIDE(o, a.total) {
        const long long t = idx[sr_off(a.si, o)];
        const long long k = t < 0 ? t + a.n : t;
        at_update<T>(dst + a.doff + k * a.dstride, v[sr_off(a.sv, o)]);
    }
}

// The sum's identity for every sign of zero: -0.0 for floats (so untouched bins add nothing,
// bit for bit), 0 for integers.
template <class E> __device__ __forceinline__ E sum_identity() {
    if constexpr (is_cplx<E>::value) {
        E z;
        z.re = -0.0;
        z.im = -0.0;
        return z;
    } else if constexpr (is_float<E>::value) {
        return (E)-0.0;
    } else {
        return (E)0;
    }
}

template <class E> __device__ __forceinline__ bool is_sum_identity(E x) {
    const E z = sum_identity<E>();
    if constexpr (is_cplx<E>::value) {
        return __double_as_longlong((double)x.re) == __double_as_longlong((double)z.re) &&
               __double_as_longlong((double)x.im) == __double_as_longlong((double)z.im);
    } else if constexpr (is_float<E>::value) {
        return __double_as_longlong((double)x) == __double_as_longlong((double)z);
    } else {
        return x == z;
    }
}

// Sums into one shared-memory copy of the destination (n elements, launched with
// n * sizeof(T) bytes of dynamic shared memory) per block, then adds each copy's touched
// elements to the destination. Only for AT_KIND 1 and the types of `native_at`.
extern "C" __global__ void scatter_reduce_private(ScatterReduceArgs a) {
    if constexpr (AT_KIND == 1 && native_at<T>::value) {
        extern __shared__ unsigned long long sr_smem[];
        T* priv = (T*)sr_smem;
        for (long long k = threadIdx.x; k < a.n; k += blockDim.x) priv[k] = sum_identity<T>();
        __syncthreads();
        const i64* idx = (const i64*)a.idx;
        const T* v = (const T*)a.v;
        GRID_STRIDE(o, a.total) {
            const long long t = idx[sr_off(a.si, o)];
            at_update<T>(priv + (t < 0 ? t + a.n : t), v[sr_off(a.sv, o)]);
        }
        __syncthreads();
        T* dst = (T*)a.dst;
        for (long long k = threadIdx.x; k < a.n; k += blockDim.x) {
            const T s = priv[k];
            if (!is_sum_identity<T>(s)) at_update<T>(dst + a.doff + k * a.dstride, s);
        }
    }
}
