// ops_math.cuh: the scalar mathematics behind the element-wise op functors of ops.cuh, with
// the semantics of the host's implementations (crates/core/src/ops/*.rs):
//  - float wrappers that pick the f32 or f64 CUDA function by overload (m_sin(float) is sinf);
//  - `xmul`, a product the compiler may not fuse into an FMA: the host (LLVM without
//    fast-math) rounds every product, so sums of products here round them too;
//  - complex functions as num-complex 0.4 defines them (nc_*: exp, ln, sqrt, sin, ..., the
//    reciprocal `finv`, `powc`) and as crates/core/src/ops/cmath.rs defines the inverse and
//    logarithmic ones (cm_*: Kahan's branch-cut-correct formulas);
//  - NumPy's integer and float rules used by several ops (Python floor division and
//    remainder, integer powers, rounding to decimals).
// Needs common.cuh (types, cplx, mk) before it; no headers. Template parameters are named E
// and R, never T, OUT or OP (kernel families #define those).

// ---- Real floats -------------------------------------------------------------------------

#define CUPRITE_M1(name, f32fn, f64fn)                                              \
    __device__ __forceinline__ float name(float x) { return f32fn(x); }             \
    __device__ __forceinline__ double name(double x) { return f64fn(x); }
#define CUPRITE_M2(name, f32fn, f64fn)                                              \
    __device__ __forceinline__ float name(float x, float y) { return f32fn(x, y); } \
    __device__ __forceinline__ double name(double x, double y) { return f64fn(x, y); }

CUPRITE_M1(m_sqrt, sqrtf, sqrt)
CUPRITE_M1(m_cbrt, cbrtf, cbrt)
CUPRITE_M1(m_exp, expf, exp)
CUPRITE_M1(m_exp2, exp2f, exp2)
CUPRITE_M1(m_expm1, expm1f, expm1)
CUPRITE_M1(m_log, logf, log)
CUPRITE_M1(m_log2, log2f, log2)
CUPRITE_M1(m_log10, log10f, log10)
CUPRITE_M1(m_log1p, log1pf, log1p)
CUPRITE_M1(m_sin, sinf, sin)
CUPRITE_M1(m_cos, cosf, cos)
CUPRITE_M1(m_tan, tanf, tan)
CUPRITE_M1(m_sinh, sinhf, sinh)
CUPRITE_M1(m_cosh, coshf, cosh)
CUPRITE_M1(m_tanh, tanhf, tanh)
CUPRITE_M1(m_asin, asinf, asin)
CUPRITE_M1(m_acos, acosf, acos)
CUPRITE_M1(m_atan, atanf, atan)
CUPRITE_M1(m_asinh, asinhf, asinh)
CUPRITE_M1(m_acosh, acoshf, acosh)
CUPRITE_M1(m_atanh, atanhf, atanh)
CUPRITE_M1(m_fabs, fabsf, fabs)
CUPRITE_M1(m_floor, floorf, floor)
CUPRITE_M1(m_ceil, ceilf, ceil)
CUPRITE_M1(m_trunc, truncf, trunc)
CUPRITE_M1(m_rint, rintf, rint)
CUPRITE_M2(m_atan2, atan2f, atan2)
CUPRITE_M2(m_hypot, hypotf, hypot)
CUPRITE_M2(m_copysign, copysignf, copysign)
CUPRITE_M2(m_fmod, fmodf, fmod)
CUPRITE_M2(m_pow, powf, pow)
#undef CUPRITE_M1
#undef CUPRITE_M2

// The same for the 16-bit floats: the f32 function, rounded once.
#define CUPRITE_H1(name)                                                                   \
    __device__ __forceinline__ f16 name(f16 x) { return f16(name((float)x)); }             \
    __device__ __forceinline__ bf16 name(bf16 x) { return bf16(name((float)x)); }
#define CUPRITE_H2(name)                                                                   \
    __device__ __forceinline__ f16 name(f16 x, f16 y) { return f16(name((float)x, (float)y)); } \
    __device__ __forceinline__ bf16 name(bf16 x, bf16 y) { return bf16(name((float)x, (float)y)); }
CUPRITE_H1(m_sqrt) CUPRITE_H1(m_cbrt) CUPRITE_H1(m_exp) CUPRITE_H1(m_exp2) CUPRITE_H1(m_expm1)
CUPRITE_H1(m_log) CUPRITE_H1(m_log2) CUPRITE_H1(m_log10) CUPRITE_H1(m_log1p) CUPRITE_H1(m_sin)
CUPRITE_H1(m_cos) CUPRITE_H1(m_tan) CUPRITE_H1(m_sinh) CUPRITE_H1(m_cosh) CUPRITE_H1(m_tanh)
CUPRITE_H1(m_asin) CUPRITE_H1(m_acos) CUPRITE_H1(m_atan) CUPRITE_H1(m_asinh) CUPRITE_H1(m_acosh)
CUPRITE_H1(m_atanh) CUPRITE_H1(m_fabs) CUPRITE_H1(m_floor) CUPRITE_H1(m_ceil) CUPRITE_H1(m_trunc)
CUPRITE_H1(m_rint)
CUPRITE_H2(m_atan2) CUPRITE_H2(m_hypot) CUPRITE_H2(m_copysign) CUPRITE_H2(m_fmod) CUPRITE_H2(m_pow)
#undef CUPRITE_H1
#undef CUPRITE_H2

// A product rounded on its own (never fused with a following add into an FMA).
__device__ __forceinline__ float xmul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double xmul(double a, double b) { return __dmul_rn(a, b); }

// Bit-exact special values (Rust's f32::NAN / f64::NAN are these quiet NaNs).
template <class R> struct flt;
template <> struct flt<float> {
    static __device__ __forceinline__ float nan() { return __int_as_float(0x7fc00000); }
    static __device__ __forceinline__ float inf() { return __int_as_float(0x7f800000); }
    static __device__ __forceinline__ bool signbit(float x) { return __float_as_int(x) < 0; }
    // num-traits' FloatConst for f32 (the f32 literals of core::f32::consts).
    static __device__ __forceinline__ float ln_2() { return 0.693147180559945309417232121458176568f; }
};
template <> struct flt<double> {
    static __device__ __forceinline__ double nan() {
        return __longlong_as_double(0x7ff8000000000000LL);
    }
    static __device__ __forceinline__ double inf() {
        return __longlong_as_double(0x7ff0000000000000LL);
    }
    static __device__ __forceinline__ bool signbit(double x) {
        return __double_as_longlong(x) < 0;
    }
    static __device__ __forceinline__ double ln_2() { return 0.693147180559945309417232121458176568; }
};
// The 16-bit floats' NaN and infinity as the `half` crate's constants.
template <> struct flt<f16> {
    static __device__ __forceinline__ f16 nan() { return f16::from_bits(0x7e00u); }
    static __device__ __forceinline__ f16 inf() { return f16::from_bits(0x7c00u); }
    static __device__ __forceinline__ bool signbit(f16 x) { return (x.bits & 0x8000u) != 0; }
};
template <> struct flt<bf16> {
    static __device__ __forceinline__ bf16 nan() { return bf16::from_bits(0x7fc0u); }
    static __device__ __forceinline__ bf16 inf() { return bf16::from_bits(0x7f80u); }
    static __device__ __forceinline__ bool signbit(bf16 x) { return (x.bits & 0x8000u) != 0; }
};
// f64 constants converted to the float type, as `F::from(std::f64::consts::X)` does.
#define CUPRITE_LN_2 0.693147180559945309417232121458176568
#define CUPRITE_LOG2_E 1.44269504088896340735992468100189214
#define CUPRITE_LOG10_E 0.434294481903251827651128918916605082

template <class R> __device__ __forceinline__ bool m_isnan(R x) { return x != x; }
template <class R> __device__ __forceinline__ bool m_isinf(R x) { return m_fabs(x) == flt<R>::inf(); }
template <class R> __device__ __forceinline__ bool m_isfinite(R x) { return m_fabs(x) < flt<R>::inf(); }

// `x.powi(n)` as Rust computes it for a run-time exponent (compiler-builtins' __powidf2:
// binary exponentiation by repeated products, reciprocal for a negative exponent).
__device__ __forceinline__ double powi_f64(double a, int b) {
    bool recip = b < 0;
    unsigned p = b < 0 ? 0u - (unsigned)b : (unsigned)b;
    double r = 1.0;
    while (true) {
        if (p & 1u) r = r * a;
        p >>= 1;
        if (p == 0) break;
        a = a * a;
    }
    return recip ? 1.0 / r : r;
}

// 2^28: above it asinh(x) = ln(2x) to the last bit (cmath.rs `big`).
template <class R> __device__ __forceinline__ R asinh_big() { return (R)268435456.0; }

// cmath.rs `real_asinh`: no overflow for huge |x|.
template <class R> __device__ __forceinline__ R real_asinh(R x) {
    R a = m_fabs(x);
    if (a > asinh_big<R>() && m_isfinite(a)) return m_copysign(m_log(a) + (R)CUPRITE_LN_2, x);
    return m_asinh(x);
}

// cmath.rs `real_acosh`: no overflow for huge x.
template <class R> __device__ __forceinline__ R real_acosh(R x) {
    if (x > asinh_big<R>() && m_isfinite(x)) return m_log(x) + (R)CUPRITE_LN_2;
    return m_acosh(x);
}

// ---- Complex values as num-complex computes them -------------------------------------------

template <class R> __device__ __forceinline__ cplx<R> cmul(cplx<R> a, cplx<R> b) {
    return mk(xmul(a.re, b.re) - xmul(a.im, b.im), xmul(a.re, b.im) + xmul(a.im, b.re));
}
// (a * conj(b)) / |b|^2 with |b|^2 = re^2 + im^2 (num-complex's `Div`).
template <class R> __device__ __forceinline__ cplx<R> cdiv(cplx<R> a, cplx<R> b) {
    R n = xmul(b.re, b.re) + xmul(b.im, b.im);
    R re = xmul(a.re, b.re) + xmul(a.im, b.im);
    R im = xmul(a.im, b.re) - xmul(a.re, b.im);
    return mk(re / n, im / n);
}
// a / b as NumPy divides complex values (Smith's algorithm; the CPU's `cmath::c_div`).
template <class R> __device__ __forceinline__ cplx<R> np_cdiv(cplx<R> a, cplx<R> b) {
    R br = m_fabs(b.re), bi = m_fabs(b.im);
    if (br >= bi) {
        if (br == (R)0) return mk(a.re / br, a.im / br);  // bi <= br: both parts zero
        R rat = b.im / b.re;
        R scl = (R)1 / (b.re + xmul(b.im, rat));
        return mk(xmul(a.re + xmul(a.im, rat), scl), xmul(a.im - xmul(a.re, rat), scl));
    }
    R rat = b.re / b.im;
    R scl = (R)1 / (b.im + xmul(b.re, rat));
    return mk(xmul(xmul(a.re, rat) + a.im, scl), xmul(xmul(a.im, rat) - a.re, scl));
}
template <class R> __device__ __forceinline__ cplx<R> cscale(cplx<R> z, R t) {
    return mk(z.re * t, z.im * t);
}
template <class R> __device__ __forceinline__ cplx<R> cunscale(cplx<R> z, R t) {
    return mk(z.re / t, z.im / t);
}
template <class R> __device__ __forceinline__ R cnorm(cplx<R> z) { return m_hypot(z.re, z.im); }
template <class R> __device__ __forceinline__ cplx<R> cpolar(R r, R theta) {
    return mk(r * m_cos(theta), r * m_sin(theta));
}

// e^z, with num-complex's treatment of infinite and NaN real parts.
template <class R> __device__ cplx<R> nc_exp(cplx<R> z) {
    R re = z.re, im = z.im;
    if (m_isinf(re)) {
        if (re < (R)0) {
            if (!m_isfinite(im)) return mk((R)0, (R)0);
        } else if (im == (R)0 || !m_isfinite(im)) {
            if (m_isinf(im)) im = flt<R>::nan();
            return mk(re, im);
        }
    } else if (m_isnan(re) && im == (R)0) {
        return z;
    }
    return cpolar(m_exp(re), im);
}

// 2^z = from_polar(2^re, im ln 2).
template <class R> __device__ __forceinline__ cplx<R> nc_exp2(cplx<R> z) {
    return cpolar(m_exp2(z.re), z.im * flt<R>::ln_2());
}

// ln|z| + i arg z (num-complex's `ln`, used by `powc`).
template <class R> __device__ __forceinline__ cplx<R> nc_ln(cplx<R> z) {
    return mk(m_log(cnorm(z)), m_atan2(z.im, z.re));
}

// Principal square root: exact on the axes, polar form elsewhere.
template <class R> __device__ cplx<R> nc_sqrt(cplx<R> z) {
    if (z.im == (R)0) {
        if (!flt<R>::signbit(z.re)) return mk(m_sqrt(z.re), z.im);
        R im = m_sqrt(-z.re);
        return flt<R>::signbit(z.im) ? mk((R)0, -im) : mk((R)0, im);
    }
    if (z.re == (R)0) {
        R x = m_sqrt(m_fabs(z.im) / (R)2);
        return flt<R>::signbit(z.im) ? mk(x, -x) : mk(x, x);
    }
    R r = cnorm(z), theta = m_atan2(z.im, z.re);
    return cpolar(m_sqrt(r), theta / (R)2);
}

template <class R> __device__ __forceinline__ cplx<R> nc_sin(cplx<R> z) {
    return mk(m_sin(z.re) * m_cosh(z.im), m_cos(z.re) * m_sinh(z.im));
}
template <class R> __device__ __forceinline__ cplx<R> nc_cos(cplx<R> z) {
    return mk(m_cos(z.re) * m_cosh(z.im), -m_sin(z.re) * m_sinh(z.im));
}
template <class R> __device__ __forceinline__ cplx<R> nc_tan(cplx<R> z) {
    R a = z.re + z.re, b = z.im + z.im;
    return cunscale(mk(m_sin(a), m_sinh(b)), m_cos(a) + m_cosh(b));
}
template <class R> __device__ __forceinline__ cplx<R> nc_sinh(cplx<R> z) {
    return mk(m_sinh(z.re) * m_cos(z.im), m_cosh(z.re) * m_sin(z.im));
}
template <class R> __device__ __forceinline__ cplx<R> nc_cosh(cplx<R> z) {
    return mk(m_cosh(z.re) * m_cos(z.im), m_sinh(z.re) * m_sin(z.im));
}
template <class R> __device__ __forceinline__ cplx<R> nc_tanh(cplx<R> z) {
    R a = z.re + z.re, b = z.im + z.im;
    return cunscale(mk(m_sinh(a), m_sin(b)), m_cosh(a) + m_cos(b));
}
// 1/z as conj(z) / |z| / |z| (num-complex's `finv`, no overflow of |z|^2).
template <class R> __device__ __forceinline__ cplx<R> nc_finv(cplx<R> z) {
    R n = cnorm(z);
    return mk((z.re / n) / n, (-z.im / n) / n);
}
// z^w = exp(w ln z), 1 for w == 0.
template <class R> __device__ cplx<R> nc_powc(cplx<R> z, cplx<R> w) {
    if (w.re == (R)0 && w.im == (R)0) return mk((R)1, (R)0);
    return nc_exp(cmul(w, nc_ln(z)));
}

// NumPy's complex power npy_cpow (binmath.rs `complex_pow`): exact repeated products for
// integer exponents below 100 in magnitude, `0 ** w` is 0 for Re(w) > 0 and NaN otherwise.
template <class R> __device__ cplx<R> complex_pow(cplx<R> a, cplx<R> b) {
    if (b.re == (R)0 && b.im == (R)0) return mk((R)1, (R)0);
    if (a.re == (R)0 && a.im == (R)0) {
        return b.re > (R)0 ? mk((R)0, (R)0) : mk(flt<R>::nan(), flt<R>::nan());
    }
    if (b.im == (R)0 && b.re == m_trunc(b.re) && m_fabs(b.re) < (R)100) {
        int n = (int)b.re;
        unsigned m = n < 0 ? 0u - (unsigned)n : (unsigned)n;
        unsigned mask = 1u;
        cplx<R> aa = mk((R)1, (R)0), p = a;
        while (true) {
            if (m & mask) aa = cmul(aa, p);
            mask <<= 1;
            if (m < mask || mask == 0) break;
            p = cmul(p, p);
        }
        return n < 0 ? cdiv(mk((R)1, (R)0), aa) : aa;
    }
    return nc_powc(a, b);
}

// ---- Complex functions of cmath.rs (C99 branch cuts, Kahan's formulas) ----------------------

// Natural logarithm; the real part uses log1p when |z| is near 1.
template <class R> __device__ cplx<R> cm_ln(cplx<R> z) {
    R a = m_fabs(z.re), b = m_fabs(z.im);
    R hi, lo;
    if (a >= b) {
        hi = a;
        lo = b;
    } else {
        hi = b;
        lo = a;
    }
    R re;
    if (hi > (R)0.5 && hi < (R)2) {
        re = (R)0.5 * m_log1p(xmul(hi - (R)1, hi + (R)1) + xmul(lo, lo));
    } else {
        re = m_log(m_hypot(a, b));
    }
    return mk(re, m_atan2(z.im, z.re));
}
template <class R> __device__ __forceinline__ cplx<R> cm_log2(cplx<R> z) {
    return cscale(cm_ln(z), (R)CUPRITE_LOG2_E);
}
template <class R> __device__ __forceinline__ cplx<R> cm_log10(cplx<R> z) {
    return cscale(cm_ln(z), (R)CUPRITE_LOG10_E);
}

template <class R> __device__ cplx<R> cm_asin(cplx<R> z) {
    cplx<R> sm = nc_sqrt(mk((R)1 - z.re, -z.im));
    cplx<R> sp = nc_sqrt(mk((R)1 + z.re, z.im));
    // Re(sm * sp) and Im(conj(sm) * sp), products rounded as num-complex rounds them.
    R re = m_atan2(z.re, xmul(sm.re, sp.re) - xmul(sm.im, sp.im));
    R im = real_asinh(xmul(sm.re, sp.im) + xmul(-sm.im, sp.re));
    return mk(re, im);
}
template <class R> __device__ cplx<R> cm_acos(cplx<R> z) {
    cplx<R> sm = nc_sqrt(mk((R)1 - z.re, -z.im));
    cplx<R> sp = nc_sqrt(mk((R)1 + z.re, z.im));
    R re = (R)2 * m_atan2(sm.re, sp.re);
    // Im(conj(sp) * sm).
    R im = real_asinh(xmul(sp.re, sm.im) + xmul(-sp.im, sm.re));
    return mk(re, im);
}
template <class R> __device__ cplx<R> cm_acosh(cplx<R> z) {
    cplx<R> sm = nc_sqrt(mk(z.re - (R)1, z.im));
    cplx<R> sp = nc_sqrt(mk(z.re + (R)1, z.im));
    // Re(conj(sm) * sp).
    R re = real_asinh(xmul(sm.re, sp.re) - xmul(-sm.im, sp.im));
    R im = (R)2 * m_atan2(sm.im, sp.re);
    return mk(re, im);
}
template <class R> __device__ cplx<R> cm_atanh(cplx<R> z) {
    R x = z.re, y = z.im;
    R ax = m_fabs(x);
    R d = xmul((R)1 - ax, (R)1 - ax) + xmul(y, y);
    R re = m_copysign(m_log1p((R)4 * ax / d) / (R)4, x);
    R im = m_atan2((R)2 * y, xmul((R)1 - x, (R)1 + x) - xmul(y, y)) / (R)2;
    return mk(re, im);
}
// asinh(z) = -i asin(i z).
template <class R> __device__ __forceinline__ cplx<R> cm_asinh(cplx<R> z) {
    cplx<R> w = cm_asin(mk(-z.im, z.re));
    return mk(w.im, -w.re);
}
// atan(z) = -i atanh(i z).
template <class R> __device__ __forceinline__ cplx<R> cm_atan(cplx<R> z) {
    cplx<R> w = cm_atanh(mk(-z.im, z.re));
    return mk(w.im, -w.re);
}

// NumPy 2's complex sign z / |z| (math.rs `complex_sign`).
template <class R> __device__ cplx<R> complex_sign(cplx<R> z) {
    R m = m_hypot(z.re, z.im);
    if (m_isnan(m)) return mk(flt<R>::nan(), flt<R>::nan());
    if (m_isinf(m)) {
        bool ri = m_isinf(z.re), ii = m_isinf(z.im);
        if (ri && ii) return mk(flt<R>::nan(), flt<R>::nan());
        if (ri) return mk(z.re > (R)0 ? (R)1 : (R)-1, (R)0);
        return mk((R)0, z.im > (R)0 ? (R)1 : (R)-1);
    }
    if (m == (R)0) return mk((R)0, (R)0);
    return mk(z.re / m, z.im / m);
}

// ---- Integers and NumPy's division rules -----------------------------------------------------

// The unsigned type integer arithmetic wraps in (narrow types wrap when cast back).
template <class E> struct uint_of { typedef u32 type; };
template <> struct uint_of<i64> { typedef u64 type; };
template <> struct uint_of<u64> { typedef u64 type; };

template <class E> __device__ __forceinline__ E wrap_add(E a, E b) {
    typedef typename uint_of<E>::type U;
    return (E)((U)a + (U)b);
}
template <class E> __device__ __forceinline__ E wrap_sub(E a, E b) {
    typedef typename uint_of<E>::type U;
    return (E)((U)a - (U)b);
}
template <class E> __device__ __forceinline__ E wrap_mul(E a, E b) {
    typedef typename uint_of<E>::type U;
    return (E)((U)a * (U)b);
}

// A shift count in 0..bits of E.
template <class E> __device__ __forceinline__ bool shift_in_range(E b) {
    if constexpr (is_uint<E>::value) {
        return b < (E)(8 * sizeof(E));
    } else {
        return b >= (E)0 && b < (E)(8 * sizeof(E));
    }
}

// Python's floor division of integers; 0 for a zero divisor, MIN // -1 wraps to MIN.
template <class E> __device__ __forceinline__ E int_floor_div(E a, E b) {
    if (b == (E)0) return (E)0;
    if constexpr (is_uint<E>::value) {
        return (E)(a / b);
    } else {
        if (b == (E)-1) return wrap_sub((E)0, a);
        E q = a / b;
        E r = a - q * b;
        if (r != (E)0 && ((a < (E)0) != (b < (E)0))) q = q - (E)1;
        return q;
    }
}
// Python's remainder of integers (the sign of b); 0 for a zero divisor.
template <class E> __device__ __forceinline__ E int_py_rem(E a, E b) {
    if (b == (E)0) return (E)0;
    if constexpr (is_uint<E>::value) {
        return (E)(a % b);
    } else {
        if (b == (E)-1) return (E)0;
        E r = a % b;
        if (r != (E)0 && ((r < (E)0) != (b < (E)0))) r = r + b;
        return r;
    }
}
// C's remainder of integers (the sign of a); 0 for a zero divisor, MIN % -1 == 0.
template <class E> __device__ __forceinline__ E int_fmod(E a, E b) {
    if (b == (E)0) return (E)0;
    if constexpr (!is_uint<E>::value) {
        if (b == (E)-1) return (E)0;
    }
    return (E)(a % b);
}

// NumPy's npy_divmod floor division of floats (exact for the representable quotient).
template <class R> __device__ R float_floor_div(R a, R b) {
    if (b == (R)0) return a / b;
    R m = m_fmod(a, b);
    R div = (a - m) / b;
    if (m != (R)0 && ((b < (R)0) != (m < (R)0))) div = div - (R)1;
    if (div == (R)0) return m_copysign((R)0, a / b);
    R f = m_floor(div);
    return div - f > (R)0.5 ? f + (R)1 : f;
}
// Python's remainder of floats (the sign of b); NaN for a zero divisor.
template <class R> __device__ R float_py_rem(R a, R b) {
    if (b == (R)0) return flt<R>::nan();
    R m = m_fmod(a, b);
    if (m != (R)0) return ((b < (R)0) != (m < (R)0)) ? m + b : m;
    return m_copysign((R)0, b);
}

// Integer power by squaring, wrapping; a negative exponent gives the integer part of the
// exact result (1 for base 1, ±1 for base -1, 0 otherwise).
template <class E> __device__ E int_pow(E base, E exp) {
    typedef typename uint_of<E>::type U;
    if constexpr (!is_uint<E>::value) {
        if (exp < (E)0) {
            if (base == (E)1) return (E)1;
            if (base == (E)-1) return (exp % (E)2 == (E)0) ? (E)1 : base;
            return (E)0;
        }
    }
    U acc = 1, b = (U)base;
    u64 e = (u64)exp;
    while (e > 0) {
        if (e & 1) acc = acc * b;
        e >>= 1;
        if (e > 0) b = b * b;
    }
    return (E)acc;
}

// math.rs `round_int`: round an integer to a multiple of 10^-d (d < 0), halves to even, the
// result truncated to E's width; unchanged for d >= 0, 0 for d < -19. Computed without
// 128-bit integers: |v| < 2^63 and 10^19 < 2^64.
template <class E> __device__ E int_round(E v, int d) {
    if (d >= 0) return v;
    if (d < -19) return (E)0;
    int k = -d;
    u64 p = 1;
    for (int j = 0; j < k; ++j) p *= 10ull;
    long long x = (long long)v;
    long long q;
    u64 r;
    if (k <= 18) {
        long long pp = (long long)p;
        q = x / pp;
        long long rr = x - q * pp;
        if (rr < 0) {
            q -= 1;
            rr += pp;
        }
        r = (u64)rr;
    } else {
        // p = 10^19 exceeds every |x|: the floor quotient is -1 or 0.
        q = x < 0 ? -1 : 0;
        r = x < 0 ? (u64)x + p : (u64)x;
    }
    u64 half = p / 2;
    if (r > half || (r == half && (q & 1) != 0)) q += 1;
    return (E)((u64)q * p);
}

// math.rs `round_float`: rint(v * 10^d) / 10^d, or rint(v / 10^-d) * 10^-d for d < 0, with
// the power computed in f64 as Rust's `powi` computes it, then converted to R.
template <class R> __device__ __forceinline__ R float_round(R v, int d) {
    if (d >= 0) {
        R f = (R)powi_f64(10.0, d);
        return m_rint(v * f) / f;
    }
    R f = (R)powi_f64(10.0, (int)(0u - (unsigned)d));
    return m_rint(v / f) * f;
}

// ---- math_extra.rs: logaddexp, nextafter --------------------------------------------------

// NumPy's npy_logaddexp (BASE2 false) / npy_logaddexp2 (true), as the host's `log_add_exp`:
// equal arguments (equal infinities included) add log(2) or 1, else the larger plus
// log1p(exp(-|d|)), NaN as x - y.
template <class R> __device__ __forceinline__ R log_add_exp(R x, R y, bool base2) {
    if (x == y) return base2 ? x + (R)1 : x + (R)CUPRITE_LN_2;
    R d = x - y;
    if (d > (R)0 || d <= (R)0) {
        R big = d > (R)0 ? x : y;
        R t = d > (R)0 ? -d : d;
        R tail = base2 ? xmul(m_log1p(m_exp2(t)), (R)CUPRITE_LOG2_E) : m_log1p(m_exp(t));
        return big + tail;
    }
    return d;
}

// C's nextafter on the bits, as the host's `next_after_f32`/`next_after_f64`.
__device__ __forceinline__ float next_after(float x, float y) {
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    if (x == 0.0f) return copysignf(__int_as_float(1), y);
    unsigned b = __float_as_uint(x);
    bool up = (y > x) == (x > 0.0f);
    return __uint_as_float(up ? b + 1u : b - 1u);
}
// The same for a 16-bit float, on its own bits (`next_after_half` on the host).
template <class H> __device__ __forceinline__ H next_after_half(H x, H y) {
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    const H zero(0.0f);
    if (x == zero) return H::from_bits((u16)((y.bits & 0x8000u) | 1u));
    const bool up = (y > x) == (x > zero);
    return H::from_bits((u16)(up ? x.bits + 1u : x.bits - 1u));
}
__device__ __forceinline__ f16 next_after(f16 x, f16 y) { return next_after_half(x, y); }
__device__ __forceinline__ bf16 next_after(bf16 x, bf16 y) { return next_after_half(x, y); }
__device__ __forceinline__ double next_after(double x, double y) {
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    if (x == 0.0) return copysign(__longlong_as_double(1LL), y);
    unsigned long long b = (unsigned long long)__double_as_longlong(x);
    bool up = (y > x) == (x > 0.0);
    return __longlong_as_double((long long)(up ? b + 1ull : b - 1ull));
}
