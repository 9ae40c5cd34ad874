// common.cuh: what every cuprite kernel starts with. Element types under the names the host
// side uses (bool, i8, u8, i16, u16, i32, u32, i64, u64, float, double, c64, c128), a small
// complex type with the
// arithmetic of num-complex, the `Strided` view struct (mirrors `Strided` in
// crates/cuda/src/launch.rs field for field) and the offset computation of strided views.
// No headers are included, so NVRTC needs nothing but itself.

typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
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
// Integers (not bool): signedness and limits.
template <class T> struct int_traits { static const bool is_int = false; };
#define CUPRITE_INT_TRAITS(T, SIGNED, LO, HI) \
    template <> struct int_traits<T> { \
        static const bool is_int = true; \
        static const bool is_signed = SIGNED; \
        __device__ static T lowest() { return (T)(LO); } \
        __device__ static T highest() { return (T)(HI); } \
    };
CUPRITE_INT_TRAITS(i8, true, -128, 127)
CUPRITE_INT_TRAITS(u8, false, 0, 255)
CUPRITE_INT_TRAITS(i16, true, -32768, 32767)
CUPRITE_INT_TRAITS(u16, false, 0, 65535)
CUPRITE_INT_TRAITS(i32, true, -2147483647 - 1, 2147483647)
CUPRITE_INT_TRAITS(u32, false, 0, 4294967295u)
CUPRITE_INT_TRAITS(i64, true, -9223372036854775807LL - 1, 9223372036854775807LL)
CUPRITE_INT_TRAITS(u64, false, 0, 18446744073709551615ull)
template <class T> struct is_int { static const bool value = int_traits<T>::is_int; };
template <class T> struct is_uint {
    static const bool value = int_traits<T>::is_int && !int_traits<T>::is_signed;
};
template <class T> struct is_sint {
    static const bool value = int_traits<T>::is_int && int_traits<T>::is_signed;
};
template <class T, class U> struct is_same { static const bool value = false; };
template <class T> struct is_same<T, T> { static const bool value = true; };
template <bool C, class A, class B> struct conditional { typedef A type; };
template <class A, class B> struct conditional<false, A, B> { typedef B type; };
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
            // Rust's `as` saturates: the limits as floats round to a power of two (or are
            // exact), so `x` at or beyond them takes the limit and every `x` between converts.
            if (x != x) return (To)0;
            const To lo = int_traits<To>::lowest(), hi = int_traits<To>::highest();
            return x <= (From)lo ? lo : (x >= (From)hi ? hi : (To)x);
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
