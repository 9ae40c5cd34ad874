// common.cuh: what every cuprite kernel starts with. Element types under the names the host
// side uses (bool, u8, i32, i64, float, double, c64, c128), a small complex type with the
// arithmetic of num-complex, the `Strided` view struct (mirrors `Strided` in
// crates/cuda/src/launch.rs field for field) and the offset computation of strided views.
// No headers are included, so NVRTC needs nothing but itself.

typedef unsigned char u8;
typedef int i32;
typedef long long i64;
typedef unsigned int u32;
typedef unsigned long long u64;

template <class R> struct __align__(2 * sizeof(R)) cplx {
    R re;
    R im;
};
typedef cplx<float> c64;
typedef cplx<double> c128;

template <class R> __device__ __forceinline__ cplx<R> mk(R re, R im) {
    cplx<R> z;
    z.re = re;
    z.im = im;
    return z;
}
template <class R> __device__ __forceinline__ cplx<R> operator+(cplx<R> a, cplx<R> b) {
    return mk(a.re + b.re, a.im + b.im);
}
template <class R> __device__ __forceinline__ cplx<R> operator-(cplx<R> a, cplx<R> b) {
    return mk(a.re - b.re, a.im - b.im);
}
template <class R> __device__ __forceinline__ cplx<R> operator-(cplx<R> a) {
    return mk(-a.re, -a.im);
}
template <class R> __device__ __forceinline__ cplx<R> operator*(cplx<R> a, cplx<R> b) {
    return mk(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// Division as num-complex computes it: (a * conj(b)) / |b|^2.
template <class R> __device__ __forceinline__ cplx<R> operator/(cplx<R> a, cplx<R> b) {
    R n = b.re * b.re + b.im * b.im;
    return mk((a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n);
}
template <class R> __device__ __forceinline__ bool operator==(cplx<R> a, cplx<R> b) {
    return a.re == b.re && a.im == b.im;
}
template <class R> __device__ __forceinline__ bool operator!=(cplx<R> a, cplx<R> b) {
    return !(a == b);
}

// Type traits without <type_traits>.
template <class T> struct is_cplx { static const bool value = false; };
template <class R> struct is_cplx<cplx<R>> { static const bool value = true; };
template <class T> struct is_float { static const bool value = false; };
template <> struct is_float<float> { static const bool value = true; };
template <> struct is_float<double> { static const bool value = true; };
template <class T> struct is_int { static const bool value = false; };
template <> struct is_int<u8> { static const bool value = true; };
template <> struct is_int<i32> { static const bool value = true; };
template <> struct is_int<i64> { static const bool value = true; };
template <class T, class U> struct is_same { static const bool value = false; };
template <class T> struct is_same<T, T> { static const bool value = true; };
// The real type of a complex type (the type itself otherwise).
template <class T> struct real_of { typedef T type; };
template <class R> struct real_of<cplx<R>> { typedef R type; };

// Conversion between any two element types, as the host's `Element::cast` does: complex to
// real keeps the real part, float to integer truncates toward zero (NaN gives 0, out of range
// saturates), anything to bool is `!= 0`.
template <class To, class From> struct Cast {
    __device__ __forceinline__ static To run(From x) {
        if constexpr (is_same<To, From>::value) {
            return x;
        } else if constexpr (is_cplx<From>::value) {
            if constexpr (is_cplx<To>::value) {
                return mk((typename real_of<To>::type)x.re, (typename real_of<To>::type)x.im);
            } else if constexpr (is_same<To, bool>::value) {
                return x.re != 0 || x.im != 0;
            } else {
                return Cast<To, typename real_of<From>::type>::run(x.re);
            }
        } else if constexpr (is_cplx<To>::value) {
            typedef typename real_of<To>::type R;
            return mk(Cast<R, From>::run(x), (R)0);
        } else if constexpr (is_same<To, bool>::value) {
            return x != (From)0;
        } else if constexpr (is_int<To>::value && is_float<From>::value) {
            if (x != x) return (To)0;
            if constexpr (is_same<To, u8>::value) {
                // Rust's `as u8` saturates.
                return x <= (From)0 ? (To)0 : (x >= (From)255 ? (To)255 : (To)x);
            } else if constexpr (is_same<To, i32>::value) {
                return x <= (From)-2147483648.0 ? (To)(-2147483647 - 1)
                     : (x >= (From)2147483647.0 ? (To)2147483647 : (To)x);
            } else {
                return x <= (From)-9223372036854775808.0 ? (To)(-9223372036854775807LL - 1)
                     : (x >= (From)9223372036854775807.0 ? (To)9223372036854775807LL : (To)x);
            }
        } else {
            return (To)x;
        }
    }
};
template <class To, class From> __device__ __forceinline__ To cast(From x) {
    return Cast<To, From>::run(x);
}

#define CUPRITE_MAX_DIMS 8

// A view: shape, strides and offset in elements (after joint coalescing on the host).
struct Strided {
    long long shape[CUPRITE_MAX_DIMS];
    long long strides[CUPRITE_MAX_DIMS];
    int ndim;
    long long offset;
};

// A value of an element type (16 bytes at most) as the bytes of a kernel parameter field;
// mirrors `ArgBytes` in crates/cuda/src/elementwise/plan.rs.
struct __align__(16) Bytes16 {
    unsigned char b[16];
};
template <class E> __device__ __forceinline__ E from_bytes(const Bytes16& v) {
    return *(const E*)v.b;
}

// Buffer offset of the element with C-order linear index `i` of the view.
__device__ __forceinline__ long long strided_offset(const Strided& s, long long i) {
    long long off = s.offset;
    for (int d = s.ndim - 1; d >= 0; --d) {
        long long n = s.shape[d];
        long long q = i / n;
        off += (i - q * n) * s.strides[d];
        i = q;
    }
    return off;
}

// The same with 32-bit index arithmetic, for views of fewer than 2^31 elements.
__device__ __forceinline__ long long strided_offset32(const Strided& s, unsigned i) {
    long long off = s.offset;
    for (int d = s.ndim - 1; d >= 0; --d) {
        unsigned n = (unsigned)s.shape[d];
        unsigned q = i / n;
        off += (long long)(i - q * n) * s.strides[d];
        i = q;
    }
    return off;
}

// Grid-stride loop over `n` items.
#define GRID_STRIDE(i, n)                                                                  \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n); \
         i += (long long)gridDim.x * blockDim.x)
