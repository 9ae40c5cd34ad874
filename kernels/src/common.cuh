// common.cuh: what every cuprite kernel starts with. Element types under the names the host
// side uses (bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, float, double, c64,
// c128), the 16-bit floats with the arithmetic of the `half` crate, a small complex type with
// the arithmetic of num-complex, the `Strided` view struct (mirrors `Strided` in
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

// ---- 16-bit floats ----------------------------------------------------------------------
// f16 (IEEE binary16) and bf16 (bfloat16) hold their bits. Every operation widens to f32
// (exact), computes there and rounds once to nearest, ties to even: f32's 24 bits are more
// than twice the 11 (8) bits of the result plus two, so the double rounding is harmless and
// each result is the correctly rounded one, as the host's `half` crate computes it. NaNs are
// converted as that crate converts them (quiet bit set, payload kept).

__device__ __forceinline__ float f16_bits_to_f32(u16 b) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(b));
    return f;
}
__device__ __forceinline__ u16 f32_to_f16_bits(float f) {
    if (f != f) {
        const u32 x = __float_as_uint(f);
        return (u16)(((x >> 16) & 0x8000u) | 0x7e00u | ((x & 0x7fffffu) >> 13));
    }
    u16 b;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
    return b;
}
// An f64 rounded to f32 toward zero with a sticky last bit (round to odd): rounding that
// to 11 bits gives the f64's own correctly rounded f16 (`f16::from_f64`).
__device__ __forceinline__ float f64_to_f32_odd(double d) {
    float f = __double2float_rz(d);
    if ((double)f != d && f == f) f = __uint_as_float(__float_as_uint(f) | 1u);
    return f;
}
__device__ __forceinline__ float bf16_bits_to_f32(u16 b) { return __uint_as_float((u32)b << 16); }
__device__ __forceinline__ u16 f32_to_bf16_bits(float f) {
    const u32 x = __float_as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (u16)((x >> 16) | 0x40u);
    return (u16)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

struct __align__(2) f16 {
    u16 bits;
    f16() = default;
    __device__ __forceinline__ explicit f16(float x) : bits(f32_to_f16_bits(x)) {}
    __device__ __forceinline__ explicit f16(double x) : bits(f32_to_f16_bits(f64_to_f32_odd(x))) {}
    __device__ __forceinline__ explicit f16(int x) : f16((float)x) {}
    __device__ __forceinline__ explicit f16(long long x) : f16((float)x) {}
    __device__ __forceinline__ explicit f16(unsigned long long x) : f16((float)x) {}
    __device__ __forceinline__ explicit operator float() const { return f16_bits_to_f32(bits); }
    __device__ __forceinline__ explicit operator double() const { return (double)f16_bits_to_f32(bits); }
    __device__ __forceinline__ static f16 from_bits(u16 b) {
        f16 h;
        h.bits = b;
        return h;
    }
};
struct __align__(2) bf16 {
    u16 bits;
    bf16() = default;
    __device__ __forceinline__ explicit bf16(float x) : bits(f32_to_bf16_bits(x)) {}
    // Through f32, as ml_dtypes and the host convert an f64.
    __device__ __forceinline__ explicit bf16(double x) : bits(f32_to_bf16_bits((float)x)) {}
    __device__ __forceinline__ explicit bf16(int x) : bf16((float)x) {}
    __device__ __forceinline__ explicit bf16(long long x) : bf16((float)x) {}
    __device__ __forceinline__ explicit bf16(unsigned long long x) : bf16((float)x) {}
    __device__ __forceinline__ explicit operator float() const { return bf16_bits_to_f32(bits); }
    __device__ __forceinline__ explicit operator double() const { return (double)bf16_bits_to_f32(bits); }
    __device__ __forceinline__ static bf16 from_bits(u16 b) {
        bf16 h;
        h.bits = b;
        return h;
    }
};

#define CUPRITE_HALF_ARITH(H)                                                                 \
    __device__ __forceinline__ H operator+(H a, H b) { return H((float)a + (float)b); }      \
    __device__ __forceinline__ H operator-(H a, H b) { return H((float)a - (float)b); }      \
    __device__ __forceinline__ H operator*(H a, H b) { return H(__fmul_rn((float)a, (float)b)); } \
    __device__ __forceinline__ H operator/(H a, H b) { return H((float)a / (float)b); }      \
    __device__ __forceinline__ H operator-(H a) { return H::from_bits(a.bits ^ 0x8000u); }   \
    __device__ __forceinline__ H& operator+=(H& a, H b) { return a = a + b; }                \
    __device__ __forceinline__ H& operator-=(H& a, H b) { return a = a - b; }                \
    __device__ __forceinline__ H& operator*=(H& a, H b) { return a = a * b; }                \
    __device__ __forceinline__ H& operator/=(H& a, H b) { return a = a / b; }                \
    __device__ __forceinline__ bool operator==(H a, H b) { return (float)a == (float)b; }    \
    __device__ __forceinline__ bool operator!=(H a, H b) { return (float)a != (float)b; }    \
    __device__ __forceinline__ bool operator<(H a, H b) { return (float)a < (float)b; }      \
    __device__ __forceinline__ bool operator<=(H a, H b) { return (float)a <= (float)b; }    \
    __device__ __forceinline__ bool operator>(H a, H b) { return (float)a > (float)b; }      \
    __device__ __forceinline__ bool operator>=(H a, H b) { return (float)a >= (float)b; }
CUPRITE_HALF_ARITH(f16)
CUPRITE_HALF_ARITH(bf16)
#undef CUPRITE_HALF_ARITH

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
template <> struct is_float<f16> { static const bool value = true; };
template <> struct is_float<bf16> { static const bool value = true; };
// The 16-bit floats, which compute in f32 and round once.
template <class T> struct is_half { static const bool value = false; };
template <> struct is_half<f16> { static const bool value = true; };
template <> struct is_half<bf16> { static const bool value = true; };
// The type sums of T are carried out in: f32 for the 16-bit floats, T otherwise.
template <class T> struct work_of { typedef T type; };
template <> struct work_of<f16> { typedef float type; };
template <> struct work_of<bf16> { typedef float type; };
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
        } else if constexpr (is_half<From>::value) {
            // Exact in f32; from there as any f32 converts.
            return Cast<To, float>::run((float)x);
        } else if constexpr (is_half<To>::value && !is_cplx<From>::value) {
            // One rounding from the value (bf16: through f32, as the host).
            if constexpr (is_same<From, double>::value) return To(x);
            else if constexpr (is_same<From, bool>::value) return To(x ? 1.0f : 0.0f);
            else return To((float)x);
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
