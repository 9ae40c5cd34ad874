// ops.cuh: one functor per element-wise op of cuprite-core (the UnaryOp and BinaryOp values
// declared in crates/core/src/ops/registry.rs), named `op_<NAME>` after the op's NAME, with
// the host's semantics for every element type the host accepts (integer wrapping, NumPy's
// division and shift rules, NaN propagation, num-complex's complex functions; see
// ops_math.cuh). Define each at the start of a line, as `CUPRITE_UNARY(name, ...`,
// `CUPRITE_BINARY(name, ...`, `CUPRITE_INEXACT(name, ...` or `template <class E> struct
// op_name`: that is how `functors()` (kernels/src/elementwise.rs) finds them, and a test of
// crates/cuda checks that every declared op has one and every one is declared.
//
// Interface (for any kernel family): `OP<E>` is a class template over the element type with
//  - `typedef ... out;` the result type (E, bool, or the real type of a complex E);
//  - a constructor from `const OpParams<E>&`, the op's parameters (`params()` on the host):
//    E-typed parameters in t0, t1 (clip: lo, hi), f64 ones in d0, d1 (isclose: rtol, atol),
//    and a bool or integer one in k (isclose: equal_nan; round: decimals);
//  - `out operator()(E x) const` (unary ops) or `out operator()(E a, E b) const` (binary).
// Needs common.cuh and ops_math.cuh before it. Template parameters are named E (element) and
// R (real), never T, OUT or OP, which kernel families #define before including these headers.

template <class E> struct OpParams {
    E t0, t1;
    double d0, d1;
    long long k;
};

// Truthiness (NumPy): nonzero, NaN included; complex: either part nonzero.
template <class E> __device__ __forceinline__ bool truthy(E x) {
    if constexpr (is_same<E, bool>::value) {
        return x;
    } else if constexpr (is_cplx<E>::value) {
        return x.re != 0 || x.im != 0;
    } else {
        return x != (E)0;
    }
}
// NaN, or a complex value with a NaN part; false for bool and integers.
template <class E> __device__ __forceinline__ bool is_nan_value(E x) {
    if constexpr (is_cplx<E>::value) {
        return x.re != x.re || x.im != x.im;
    } else if constexpr (is_float<E>::value) {
        return x != x;
    } else {
        return false;
    }
}

// ---- Definition helpers -------------------------------------------------------------------

#define CUPRITE_UNARY(NAME, OUT_T, ...)                                                 \
    template <class E> struct op_##NAME {                                               \
        typedef OUT_T out;                                                              \
        __device__ __forceinline__ op_##NAME(const OpParams<E>&) {}                     \
        __device__ __forceinline__ out operator()(E x) const { __VA_ARGS__ }            \
    };
#define CUPRITE_BINARY(NAME, OUT_T, ...)                                                \
    template <class E> struct op_##NAME {                                               \
        typedef OUT_T out;                                                              \
        __device__ __forceinline__ op_##NAME(const OpParams<E>&) {}                     \
        __device__ __forceinline__ out operator()(E a, E b) const { __VA_ARGS__ }       \
    };
#define CUPRITE_REAL typename real_of<E>::type

// ---- arith.rs ---------------------------------------------------------------------------------

// Numeric: integers wrap.
CUPRITE_BINARY(add, E,
    if constexpr (is_cplx<E>::value) return mk(a.re + b.re, a.im + b.im);
    else if constexpr (is_int<E>::value) return wrap_add(a, b);
    else return a + b;)
CUPRITE_BINARY(subtract, E,
    if constexpr (is_cplx<E>::value) return mk(a.re - b.re, a.im - b.im);
    else if constexpr (is_int<E>::value) return wrap_sub(a, b);
    else return a - b;)
CUPRITE_BINARY(multiply, E,
    if constexpr (is_cplx<E>::value) return cmul(a, b);
    else if constexpr (is_int<E>::value) return wrap_mul(a, b);
    else return a * b;)
// Inexact.
CUPRITE_BINARY(true_divide, E,
    if constexpr (is_cplx<E>::value) return np_cdiv(a, b);
    else return a / b;)
// Real.
CUPRITE_BINARY(floor_divide, E,
    if constexpr (is_float<E>::value) return float_floor_div(a, b);
    else return int_floor_div(a, b);)
CUPRITE_BINARY(remainder, E,
    if constexpr (is_float<E>::value) return float_py_rem(a, b);
    else return int_py_rem(a, b);)
// Numeric.
CUPRITE_UNARY(negative, E,
    if constexpr (is_cplx<E>::value) return mk(-x.re, -x.im);
    else if constexpr (is_int<E>::value) return wrap_sub((E)0, x);
    else return -x;)

// ---- binmath.rs -------------------------------------------------------------------------------

// Numeric.
CUPRITE_BINARY(power, E,
    if constexpr (is_cplx<E>::value) return complex_pow(a, b);
    else if constexpr (is_float<E>::value) return m_pow(a, b);
    else return int_pow(a, b);)
// Float.
CUPRITE_BINARY(arctan2, E, return m_atan2(a, b);)
CUPRITE_BINARY(hypot, E, return m_hypot(a, b);)
CUPRITE_BINARY(copysign, E, return m_copysign(a, b);)
// Real.
CUPRITE_BINARY(fmod, E,
    if constexpr (is_float<E>::value) return m_fmod(a, b);
    else return int_fmod(a, b);)

// ---- compare.rs -------------------------------------------------------------------------------

// Element.
CUPRITE_BINARY(equal, bool, return a == b;)
CUPRITE_BINARY(not_equal, bool, return a != b;)
// Real.
CUPRITE_BINARY(less, bool, return a < b;)
CUPRITE_BINARY(less_equal, bool, return a <= b;)
CUPRITE_BINARY(greater, bool, return a > b;)
CUPRITE_BINARY(greater_equal, bool, return a >= b;)
// Real: maximum/minimum propagate a NaN of either side, fmax/fmin ignore one.
CUPRITE_BINARY(maximum, E, return (is_nan_value(a) || a >= b) ? a : b;)
CUPRITE_BINARY(minimum, E, return (is_nan_value(a) || a <= b) ? a : b;)
CUPRITE_BINARY(fmax, E, return (is_nan_value(b) || a >= b) ? a : b;)
CUPRITE_BINARY(fmin, E, return (is_nan_value(b) || a <= b) ? a : b;)
// Element.
CUPRITE_BINARY(logical_and, bool, return truthy(a) && truthy(b);)
CUPRITE_BINARY(logical_or, bool, return truthy(a) || truthy(b);)
CUPRITE_BINARY(logical_xor, bool, return truthy(a) != truthy(b);)
CUPRITE_UNARY(logical_not, bool, return !truthy(x);)
CUPRITE_UNARY(isnan, bool, return is_nan_value(x);)
CUPRITE_UNARY(isinf, bool,
    if constexpr (is_cplx<E>::value) return m_isinf(x.re) || m_isinf(x.im);
    else if constexpr (is_float<E>::value) return m_isinf(x);
    else return false;)
CUPRITE_UNARY(isfinite, bool,
    if constexpr (is_cplx<E>::value) return m_isfinite(x.re) && m_isfinite(x.im);
    else if constexpr (is_float<E>::value) return m_isfinite(x);
    else return true;)

// Numeric: NumPy's isclose evaluated in c128 (parameters rtol = d0, atol = d1,
// equal_nan = k != 0).
template <class E> struct op_isclose {
    typedef bool out;
    double rtol, atol;
    bool equal_nan;
    __device__ __forceinline__ op_isclose(const OpParams<E>& p)
        : rtol(p.d0), atol(p.d1), equal_nan(p.k != 0) {}
    __device__ __forceinline__ bool operator()(E a, E b) const {
        c128 x = cast<c128>(a), y = cast<c128>(b);
        if (x.re == y.re && x.im == y.im) return true;
        bool xn = x.re != x.re || x.im != x.im;
        bool yn = y.re != y.re || y.im != y.im;
        if (xn || yn) return equal_nan && xn && yn;
        return m_isfinite(y.re) && m_isfinite(y.im) &&
               m_hypot(x.re - y.re, x.im - y.im) <= atol + xmul(rtol, m_hypot(y.re, y.im));
    }
};

// ---- bitwise.rs -------------------------------------------------------------------------------

// Bool and integers.
CUPRITE_BINARY(bitwise_and, E,
    if constexpr (is_same<E, bool>::value) return a && b;
    else return (E)(a & b);)
CUPRITE_BINARY(bitwise_or, E,
    if constexpr (is_same<E, bool>::value) return a || b;
    else return (E)(a | b);)
CUPRITE_BINARY(bitwise_xor, E,
    if constexpr (is_same<E, bool>::value) return a != b;
    else return (E)(a ^ b);)
CUPRITE_UNARY(invert, E,
    if constexpr (is_same<E, bool>::value) return !x;
    else return (E)(~x);)
// Integers: a count outside 0..bits gives 0 (left) or the sign fill (right).
CUPRITE_BINARY(left_shift, E,
    typedef typename uint_of<E>::type U;
    if (!shift_in_range(b)) return (E)0;
    return (E)((U)a << (int)b);)
CUPRITE_BINARY(right_shift, E,
    if (!shift_in_range(b)) return (is_uint<E>::value || a >= (E)0) ? (E)0 : (E)~(E)0;
    return (E)(a >> (int)b);)

// ---- complex.rs -------------------------------------------------------------------------------

// Inexact.
CUPRITE_UNARY(real, CUPRITE_REAL,
    if constexpr (is_cplx<E>::value) return x.re;
    else return x;)
CUPRITE_UNARY(imag, CUPRITE_REAL,
    if constexpr (is_cplx<E>::value) return x.im;
    else return (E)0;)
CUPRITE_UNARY(angle, CUPRITE_REAL,
    if constexpr (is_cplx<E>::value) return m_atan2(x.im, x.re);
    else return m_atan2((E)0, x);)
// Numeric.
CUPRITE_UNARY(conjugate, E,
    if constexpr (is_cplx<E>::value) return mk(x.re, -x.im);
    else return x;)

// ---- math.rs: inexact (real floats and complex) ---------------------------------------------

#define CUPRITE_INEXACT(NAME, REAL_FN, CPLX_FN)                                         \
    CUPRITE_UNARY(NAME, E,                                                              \
        if constexpr (is_cplx<E>::value) return CPLX_FN(x);                             \
        else return REAL_FN(x);)

CUPRITE_INEXACT(sqrt, m_sqrt, nc_sqrt)
CUPRITE_INEXACT(exp, m_exp, nc_exp)
CUPRITE_INEXACT(exp2, m_exp2, nc_exp2)
CUPRITE_INEXACT(sin, m_sin, nc_sin)
CUPRITE_INEXACT(cos, m_cos, nc_cos)
CUPRITE_INEXACT(tan, m_tan, nc_tan)
CUPRITE_INEXACT(sinh, m_sinh, nc_sinh)
CUPRITE_INEXACT(cosh, m_cosh, nc_cosh)
CUPRITE_INEXACT(tanh, m_tanh, nc_tanh)
CUPRITE_INEXACT(log, m_log, cm_ln)
CUPRITE_INEXACT(log2, m_log2, cm_log2)
CUPRITE_INEXACT(log10, m_log10, cm_log10)
CUPRITE_INEXACT(arcsin, m_asin, cm_asin)
CUPRITE_INEXACT(arccos, m_acos, cm_acos)
CUPRITE_INEXACT(arctan, m_atan, cm_atan)
CUPRITE_INEXACT(arcsinh, real_asinh, cm_asinh)
CUPRITE_INEXACT(arccosh, real_acosh, cm_acosh)
CUPRITE_INEXACT(arctanh, m_atanh, cm_atanh)
#undef CUPRITE_INEXACT

CUPRITE_UNARY(reciprocal, E,
    if constexpr (is_cplx<E>::value) return nc_finv(x);
    else return (E)1 / x;)

// Float.
CUPRITE_UNARY(cbrt, E, return m_cbrt(x);)
CUPRITE_UNARY(expm1, E, return m_expm1(x);)
CUPRITE_UNARY(log1p, E, return m_log1p(x);)

// ---- math.rs: real (integers unchanged) -------------------------------------------------------

CUPRITE_UNARY(floor, E, if constexpr (is_float<E>::value) return m_floor(x); else return x;)
CUPRITE_UNARY(ceil, E, if constexpr (is_float<E>::value) return m_ceil(x); else return x;)
CUPRITE_UNARY(trunc, E, if constexpr (is_float<E>::value) return m_trunc(x); else return x;)
CUPRITE_UNARY(rint, E, if constexpr (is_float<E>::value) return m_rint(x); else return x;)

// Real: round to `decimals` = k places, halves to even.
template <class E> struct op_round {
    typedef E out;
    int decimals;
    __device__ __forceinline__ op_round(const OpParams<E>& p) : decimals((int)p.k) {}
    __device__ __forceinline__ E operator()(E x) const {
        if constexpr (is_float<E>::value) return float_round(x, decimals);
        else return int_round(x, decimals);
    }
};

// ---- math.rs: numeric ---------------------------------------------------------------------------

CUPRITE_UNARY(square, E,
    if constexpr (is_cplx<E>::value) return cmul(x, x);
    else if constexpr (is_int<E>::value) return wrap_mul(x, x);
    else return x * x;)
// Integers wrap at MIN; complex values give their modulus hypot(re, im).
CUPRITE_UNARY(absolute, CUPRITE_REAL,
    if constexpr (is_cplx<E>::value) return cnorm(x);
    else if constexpr (is_float<E>::value) return m_fabs(x);
    else if constexpr (is_uint<E>::value) return x;
    else return x < (E)0 ? wrap_sub((E)0, x) : x;)
// -1, 0, 1 (NaN stays NaN, either zero gives +0); complex: z / |z| (NumPy 2).
CUPRITE_UNARY(sign, E,
    if constexpr (is_cplx<E>::value) return complex_sign(x);
    else if constexpr (is_float<E>::value) {
        if (x > (E)0) return (E)1;
        if (x < (E)0) return (E)-1;
        if (x == (E)0) return (E)0;
        return x;
    } else if constexpr (is_uint<E>::value) return (E)(x > 0 ? 1 : 0);
    else return (E)((x > (E)0) - (x < (E)0));)

// ---- binmath.rs: clip -------------------------------------------------------------------------

// Real: minimum(maximum(x, lo), hi) with lo = t0, hi = t1 (NaN anywhere propagates).
template <class E> struct op_clip {
    typedef E out;
    E lo, hi;
    __device__ __forceinline__ op_clip(const OpParams<E>& p) : lo(p.t0), hi(p.t1) {}
    __device__ __forceinline__ E operator()(E x) const {
        E m = (is_nan_value(x) || x >= lo) ? x : lo;
        return (is_nan_value(m) || m <= hi) ? m : hi;
    }
};

// ---- reduce.rs helpers ------------------------------------------------------------------------

// Inexact: |a - b|^2 as a real value.
CUPRITE_BINARY(abs_sq_diff, CUPRITE_REAL,
    if constexpr (is_cplx<E>::value) {
        CUPRITE_REAL re = a.re - b.re, im = a.im - b.im;
        return xmul(re, re) + xmul(im, im);
    } else {
        E d = a - b;
        return d * d;
    })
// Float: `probe` (b) where it is NaN, else a.
CUPRITE_BINARY(propagate_nan, E, return b != b ? b : a;)

// ---- math_extra.rs -----------------------------------------------------------------------------

// Float.
CUPRITE_BINARY(logaddexp, E, return log_add_exp(a, b, false);)
CUPRITE_BINARY(logaddexp2, E, return log_add_exp(a, b, true);)
// Constants computed in E (NumPy's npy_deg2rad / npy_deg2radf: pi / 180 in the type).
CUPRITE_UNARY(deg2rad, E, return x * ((E)3.14159265358979323846 / (E)180.0);)
CUPRITE_UNARY(rad2deg, E, return x * ((E)180.0 / (E)3.14159265358979323846);)
// NaN for a NaN x, h0 (b) for either zero, else 0 or 1 (NumPy's npy_heaviside).
CUPRITE_BINARY(heaviside, E,
    if (a != a) return flt<E>::nan();
    if (a == (E)0) return b;
    return a < (E)0 ? (E)0 : (E)1;)
CUPRITE_BINARY(nextafter, E, return next_after(a, b);)
// Float: a * 2^n correctly rounded, n the integer-valued b truncated, NaN read as 0, clamped
// to +-2200 (the host's Ldexp in crates/core/src/ops/math_extra.rs); 16-bit floats through
// half_op's f32 functor.
CUPRITE_BINARY(ldexp, E,
    double n = (double)b;
    int k = n != n ? 0 : (int)fmin(fmax(n, -2200.0), 2200.0);
    if constexpr (sizeof(E) == 4) return ldexpf(a, k);
    else return ldexp(a, k);)
// Real: the sign bit of floats, x < 0 for integers.
CUPRITE_UNARY(signbit, bool,
    if constexpr (is_float<E>::value) return flt<E>::signbit(x);
    else if constexpr (is_uint<E>::value) return false;
    else return x < (E)0;)

// ---- nanreduce.rs helpers ---------------------------------------------------------------------

// Inexact: |x - mean|^2 as a real value, -1 where x is NaN (the marks OpNanVar skips).
CUPRITE_BINARY(nan_sq_dev, CUPRITE_REAL,
    typedef CUPRITE_REAL Rt;
    if (is_nan_value(a)) return (Rt)-1;
    if constexpr (is_cplx<E>::value) {
        CUPRITE_REAL re = a.re - b.re, im = a.im - b.im;
        return xmul(re, re) + xmul(im, im);
    } else {
        E d = a - b;
        return d * d;
    })

// ---- special.rs: scipy.special, computed in f64 and rounded once for every float type -------
// (the 16-bit floats through half_op's f32 functor, as the host). erf, erfc, tgamma, lgamma,
// erfinv and erfcinv are CUDA's; digamma, beta and betaln are the host's algorithms
// (crates/core/src/ops/special.rs) line for line.

// scipy's erfinv: +0.0 for either zero.
__device__ __forceinline__ double sp_erfinv(double x) { return x == 0.0 ? 0.0 : erfinv(x); }
// scipy's erfcinv: -0.0 at 1 (-ndtri(0.5) / sqrt(2)).
__device__ __forceinline__ double sp_erfcinv(double q) { return q == 1.0 ? -0.0 : erfcinv(q); }
// scipy's gammaln: -inf at -inf (C's lgamma gives +inf there).
// From 2^52 on, Stirling's leading terms are exact to the last bit (the next term,
// 1 / (12 x), is below an ulp) and CUDA's lgamma is not: differences of such values in
// betaln lost 1e-13.
__device__ __forceinline__ double sp_gammaln(double x) {
    if (x >= 4503599627370496.0 && x != flt<double>::inf()) {
        return (x - 0.5) * log(x) - x + 0.91893853320467274178;
    }
    return x == -flt<double>::inf() ? x : lgamma(x);
}
// Digamma on [1, 2]: (x - root) * (Y + P(x - 1) / Q(x - 1)) (Boost's rational approximation).
__device__ __forceinline__ double sp_digamma_1_2(double x) {
    const double root1 = 1569415565.0 / 1073741824.0;
    const double root2 = (381566830.0 / 1073741824.0) / 1073741824.0;
    const double root3 = 0.9016312093258695918615325266959189453125e-19;
    const double y = 0.99558162689208984;
    double g = x - root1 - root2 - root3;
    double t = x - 1.0;
    double p = -0.0020713321167745952;
    p = p * t + -0.045251321448739056;
    p = p * t + -0.28919126444774784;
    p = p * t + -0.65031853770896507;
    p = p * t + -0.32555031186804491;
    p = p * t + 0.25479851061131551;
    double q = -0.55789841321675513e-6;
    q = q * t + 0.0021284987017821144;
    q = q * t + 0.054151797245674225;
    q = q * t + 0.43593529692665969;
    q = q * t + 1.4606242909763515;
    q = q * t + 2.0767117023730469;
    q = q * t + 1.0;
    return g * y + g * (p / q);
}
// Digamma for x >= 10: ln x - 1/(2x) - z A(z), z = 1/x^2.
__device__ __forceinline__ double sp_digamma_asymptotic(double x) {
    double y = 0.0;
    if (x < 1e17) {
        double z = 1.0 / (x * x);
        double a = 8.33333333333333333333E-2;
        a = a * z + -2.10927960927960927961E-2;
        a = a * z + 7.57575757575757575758E-3;
        a = a * z + -4.16666666666666666667E-3;
        a = a * z + 3.96825396825396825397E-3;
        a = a * z + -8.33333333333333333333E-3;
        a = a * z + 8.33333333333333333333E-2;
        y = z * a;
    }
    return log(x) - 0.5 / x - y;
}
// scipy's digamma (cephes' psi): reflection for x < 0, the recurrence to [1, 2] or above 10.
__device__ __forceinline__ double sp_digamma(double x) {
    const double pi = 3.14159265358979323846;
    double y = 0.0;
    if (x != x || x == flt<double>::inf()) return x;
    if (x == -flt<double>::inf()) return flt<double>::nan();
    if (x == 0.0) return copysign(flt<double>::inf(), -x);
    if (x < 0.0) {
        double r = x - trunc(x);
        if (r == 0.0) return flt<double>::nan();
        y = -pi / tan(pi * r);
        x = 1.0 - x;
    }
    if (x <= 10.0 && x == floor(x)) {
        int n = (int)x;
        for (int i = 1; i < n; i++) y += 1.0 / (double)i;
        return y - 0.57721566490153286061;
    }
    if (x < 1.0) {
        y -= 1.0 / x;
        x += 1.0;
    } else if (x < 10.0) {
        while (x > 2.0) {
            x -= 1.0;
            y += 1.0 / x;
        }
    }
    if (1.0 <= x && x <= 2.0) return y + sp_digamma_1_2(x);
    return y + sp_digamma_asymptotic(x);
}
__device__ __forceinline__ double sp_expit(double x) { return 1.0 / (1.0 + exp(-x)); }
__device__ __forceinline__ double sp_logit(double x) {
    if (x < 0.3 || x > 0.65) return log(x / (1.0 - x));
    double s = 2.0 * (x - 0.5);
    return log1p(s) - log1p(-s);
}
__device__ __forceinline__ double sp_log_expit(double x) {
    if (x < 0.0) return x - log1p(exp(x));
    return -log1p(exp(-x));
}
__device__ __forceinline__ double sp_entr(double x) {
    if (x != x) return x;
    if (x > 0.0) return -x * log(x);
    if (x == 0.0) return 0.0;
    return -flt<double>::inf();
}
__device__ __forceinline__ double sp_xlogy(double x, double y) {
    return (x == 0.0 && y == y) ? 0.0 : x * log(y);
}
__device__ __forceinline__ double sp_xlog1py(double x, double y) {
    return (x == 0.0 && y == y) ? 0.0 : x * log1p(y);
}
// The sign of gamma(x) as cephes' lgam_sgn reports it (poles: +1).
__device__ __forceinline__ double sp_gamma_sign(double x) {
    if (x < 0.0) {
        double f = floor(x);
        if (f != x && floor(f * 0.5) != f * 0.5) return -1.0;
    }
    return 1.0;
}
// 1 / gamma(x): 0 at the poles, x itself where gamma overflows near 0.
__device__ __forceinline__ double sp_rgamma(double x) {
    if (x <= 0.0 && x == floor(x)) return 0.0;
    if (fabs(x) < 1e-300) return x;
    return 1.0 / tgamma(x);
}
// C's (int)x on the hardware cephes runs on: truncated, INT_MIN out of range.
__device__ __forceinline__ int sp_c_int(double x) {
    return fabs(x) < 2147483648.0 ? (int)x : (int)(-2147483647 - 1);
}
// beta (LOG false) / betaln (true) for a, b that are not non-positive integers.
__device__ __forceinline__ double sp_beta_regular(double a, double b, bool lg) {
    if (fabs(a) < fabs(b)) {
        double t = a;
        a = b;
        b = t;
    }
    if (fabs(a) > 1e6 * fabs(b) && a > 1e6) {
        double r = sp_gammaln(b);
        r -= b * log(a);
        r += b * (1.0 - b) / (2.0 * a);
        r += b * (1.0 - b) * (1.0 - 2.0 * b) / (12.0 * a * a);
        r += -b * b * (1.0 - b) * (1.0 - b) / (12.0 * a * a * a);
        return lg ? r : sp_gamma_sign(b) * exp(r);
    }
    const double maxgam = 171.624376956302725;
    double y = a + b;
    if (fabs(y) > maxgam || fabs(a) > maxgam || fabs(b) > maxgam) {
        double sign = sp_gamma_sign(y) * sp_gamma_sign(b) * sp_gamma_sign(a);
        // Both beyond 2^52: Stirling's terms of the three lgammas combined by hand, so
        // nothing cancels (as the host).
        double r = b >= 4503599627370496.0 && m_isfinite(y)
                       ? -a * log1p(b / a) - b * log1p(a / b) + 0.5 * log(y / a / b) +
                             0.91893853320467274178
                       : sp_gammaln(a) + (sp_gammaln(b) - sp_gammaln(y));
        if (lg) return r;
        if (r > 7.09782712893383996843E2) return sign * flt<double>::inf();
        return sign * exp(r);
    }
    y = sp_rgamma(y);
    double ga = tgamma(a), gb = tgamma(b);
    if (m_isinf(y)) return flt<double>::inf();
    double p = fabs(fabs(ga * y) - 1.0) > fabs(fabs(gb * y) - 1.0) ? gb * y * ga : ga * y * gb;
    return lg ? log(fabs(p)) : p;
}
// The non-positive integer a (cephes' beta_negint / lbeta_negint, its recursion written out).
__device__ __forceinline__ double sp_beta_negint(int a, double b, bool lg) {
    if (b == (double)sp_c_int(b) && 1.0 - (double)a - b > 0.0) {
        double c = 1.0 - (double)a - b;
        double r = b <= 0.0 ? flt<double>::inf() : sp_beta_regular(c, b, lg);
        return (lg || sp_c_int(b) % 2 == 0) ? r : -r;
    }
    return flt<double>::inf();
}
__device__ __forceinline__ double sp_beta_any(double a, double b, bool lg) {
    if (a <= 0.0 && a == floor(a))
        return a == (double)sp_c_int(a) ? sp_beta_negint(sp_c_int(a), b, lg) : flt<double>::inf();
    if (b <= 0.0 && b == floor(b))
        return b == (double)sp_c_int(b) ? sp_beta_negint(sp_c_int(b), a, lg) : flt<double>::inf();
    return sp_beta_regular(a, b, lg);
}

// Float (f32, f64; the 16-bit floats through half_op): the f64 function of the widened value.
CUPRITE_UNARY(erf, E, return (E)erf((double)x);)
CUPRITE_UNARY(erfc, E, return (E)erfc((double)x);)
CUPRITE_UNARY(erfinv, E, return (E)sp_erfinv((double)x);)
CUPRITE_UNARY(erfcinv, E, return (E)sp_erfcinv((double)x);)
CUPRITE_UNARY(gamma, E, return (E)tgamma((double)x);)
CUPRITE_UNARY(gammaln, E, return (E)sp_gammaln((double)x);)
CUPRITE_UNARY(digamma, E, return (E)sp_digamma((double)x);)
CUPRITE_UNARY(expit, E, return (E)sp_expit((double)x);)
CUPRITE_UNARY(logit, E, return (E)sp_logit((double)x);)
CUPRITE_UNARY(log_expit, E, return (E)sp_log_expit((double)x);)
CUPRITE_UNARY(entr, E, return (E)sp_entr((double)x);)
CUPRITE_BINARY(xlogy, E, return (E)sp_xlogy((double)a, (double)b);)
CUPRITE_BINARY(xlog1py, E, return (E)sp_xlog1py((double)a, (double)b);)
CUPRITE_BINARY(beta, E, return (E)sp_beta_any((double)a, (double)b, false);)
CUPRITE_BINARY(betaln, E, return (E)sp_beta_any((double)a, (double)b, true);)

// ---- math_extra.rs: NumPy's integer and float extras ------------------------------------------

// Integers: the magnitude in the unsigned type of the width (|MIN| = 2^(bits-1)), as NumPy.
template <class E> __device__ __forceinline__ unsigned long long int_magnitude(E x) {
    if constexpr (is_uint<E>::value) {
        return (unsigned long long)x;
    } else {
        // Negation in the unsigned type of the width: |MIN| wraps to 2^(bits-1).
        typedef typename conditional<sizeof(E) == 8, u64,
            typename conditional<sizeof(E) == 4, u32,
            typename conditional<sizeof(E) == 2, u16, u8>::type>::type>::type W;
        W w = (W)x;
        if (x < (E)0) w = (W)((W)0 - w);
        return (unsigned long long)w;
    }
}
__device__ __forceinline__ unsigned long long gcd_u64(unsigned long long a, unsigned long long b) {
    while (a != 0ull) {
        unsigned long long c = a;
        a = b % a;
        b = c;
    }
    return b;
}
// Integers: Euclid on the magnitudes, the result cast back (gcd(MIN, 0) == MIN).
CUPRITE_BINARY(gcd, E, return (E)gcd_u64(int_magnitude(a), int_magnitude(b));)
// Integers: |a| / gcd * |b| wrapping in the width (cast back), 0 when both are 0.
CUPRITE_BINARY(lcm, E,
    unsigned long long ua = int_magnitude(a), ub = int_magnitude(b);
    unsigned long long g = gcd_u64(ua, ub);
    if (g == 0ull) return (E)0;
    return (E)((ua / g) * ub);)
// Integers: the one bits of |x|, as u8.
CUPRITE_UNARY(bitwise_count, u8, return (u8)__popcll(int_magnitude(x));)
// Float: the step away from zero from x (NumPy's npy_spacing; +min subnormal at either zero,
// NaN at the infinities); 16-bit floats in their own bits (kept out of half_op below).
CUPRITE_UNARY(spacing, E,
    if (m_isinf(x)) return flt<E>::nan();
    const E zero = (E)0.0f;
    if (x == zero) return next_after(zero, (E)1.0f);
    return next_after(x, m_copysign(flt<E>::inf(), x)) - x;)
// Real: +inf / -inf; never for integers.
CUPRITE_UNARY(isposinf, bool,
    if constexpr (is_float<E>::value) return x == flt<E>::inf();
    else return false;)
CUPRITE_UNARY(isneginf, bool,
    if constexpr (is_float<E>::value) return x == -flt<E>::inf();
    else return false;)
// Numeric: the value itself.
CUPRITE_UNARY(positive, E, return x;)
// Float: C's frexp, (x, 0) for zeros, infinities and NaN (NumPy's results there).
CUPRITE_UNARY(frexp_mantissa, E,
    if (!m_isfinite(x) || x == (E)0) return x;
    int e;
    if constexpr (is_same<E, float>::value) return frexpf(x, &e);
    else return frexp(x, &e);)
CUPRITE_UNARY(frexp_exponent, i32,
    if (!m_isfinite(x) || x == (E)0) return 0;
    int e;
    if constexpr (is_same<E, float>::value) frexpf(x, &e);
    else frexp(x, &e);
    return e;)
// Float: NumPy's nan_to_num defaults, NaN to 0 and the infinities to the type's largest and
// most negative finite values (16-bit floats in their own bits, kept out of half_op below).
template <class E> __device__ __forceinline__ E nan_to_num_limit(bool neg) {
    if constexpr (is_same<E, float>::value) {
        return __int_as_float(neg ? (int)0xff7fffffu : 0x7f7fffff);
    } else if constexpr (is_same<E, double>::value) {
        return __longlong_as_double(neg ? (long long)0xffefffffffffffffull : 0x7fefffffffffffffll);
    } else if constexpr (is_same<E, f16>::value) {
        return f16::from_bits(neg ? 0xfbffu : 0x7bffu);
    } else {
        return bf16::from_bits(neg ? 0xff7fu : 0x7f7fu);
    }
}
template <class E> __device__ __forceinline__ E nan_to_num_real(E x) {
    if (m_isnan(x)) return (E)0.0f;
    if (x == flt<E>::inf()) return nan_to_num_limit<E>(false);
    if (x == -flt<E>::inf()) return nan_to_num_limit<E>(true);
    return x;
}
// Inexact: a complex value part by part.
CUPRITE_UNARY(nan_to_num, E,
    if constexpr (is_cplx<E>::value) return mk(nan_to_num_real(x.re), nan_to_num_real(x.im));
    else return nan_to_num_real(x);)

// ---- signal_math.rs: NumPy's sinc and i0, computed in f64 and rounded once ---------------------

// NumPy's normalised sinc: sin(pi x) / (pi x), divided at 1e-20 where x is zero.
__device__ __forceinline__ double sg_sinc(double x) {
    double y = 3.141592653589793 * (x == 0.0 ? 1.0e-20 : x);
    return sin(y) / y;
}
// Cephes' Chebyshev coefficients of i0 (NumPy's _i0A on [0, 8], _i0B beyond).
__device__ const double sg_i0a[30] = {
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
    1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
    -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
    9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
    1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
    -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
    0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
    -0.02373741480589947, 0.04930528423967071, -0.09490109704804764,
    0.17162090152220877, -0.3046826723431984, 0.6767952744094761};
__device__ const double sg_i0b[25] = {
    -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
    3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
    1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
    -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
    -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
    3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
    2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
    0.8044904110141088};
// Clenshaw's recurrence (NumPy's _chbevl).
__device__ __forceinline__ double sg_chbevl(double x, const double* c, int n) {
    double b0 = c[0], b1 = 0.0, b2 = 0.0;
    for (int i = 1; i < n; ++i) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + c[i];
    }
    return 0.5 * (b0 - b2);
}
// NumPy's i0 of |x| (the host's signal_math::i0 line for line).
__device__ __forceinline__ double sg_i0(double x) {
    x = fabs(x);
    if (x <= 8.0) return exp(x) * sg_chbevl(x / 2.0 - 2.0, sg_i0a, 30);
    return exp(x) * sg_chbevl(32.0 / x - 2.0, sg_i0b, 25) / sqrt(x);
}
// Complex sinc in complex128, as the host's signal_math::sinc_any: sin(pi z) / (pi z) with
// num-complex's sin and division, 1e-20 for a zero z. A template (R is always double), so
// that only the programs of sinc contain its code: compiled into every program, as a plain
// function, it changed NVRTC's code for complex128 arctan, which then returned garbage
// real parts on an H200 (CUDA 13.0; a compiler fault we could not reduce further).
template <class R> __device__ __forceinline__ cplx<R> sg_sinc_c(cplx<R> z) {
    if (z.re == (R)0 && z.im == (R)0) z = mk((R)1.0e-20, (R)0);
    cplx<R> y = cscale(z, (R)3.141592653589793);
    return cdiv(nc_sin(y), y);
}
// Inexact (f32, f64, c64, c128; the 16-bit floats through half_op): the f64 (c128) function
// of the widened value, rounded once.
CUPRITE_UNARY(sinc, E,
    if constexpr (is_cplx<E>::value) {
        typedef typename real_of<E>::type R;
        cplx<double> r = sg_sinc_c<double>(mk((double)x.re, (double)x.im));
        return mk((R)r.re, (R)r.im);
    } else {
        return (E)sg_sinc((double)x);
    })
// Float (f32, f64; the 16-bit floats through half_op): the f64 function of the widened value.
CUPRITE_UNARY(i0, E, return (E)sg_i0((double)x);)

#undef CUPRITE_UNARY
#undef CUPRITE_BINARY
#undef CUPRITE_REAL

// ---- 16-bit floats ------------------------------------------------------------------------------

// An op on a 16-bit float H: the op's f32 functor on the widened (exact) operands, its
// result rounded once to H (a bool or integer result as it is), as NumPy's float16 loops
// and the host's scalar ops compute.
template <template <class> class OP, class H> struct half_op {
    typedef OP<float> F;
    typedef typename conditional<is_same<typename F::out, float>::value, H, typename F::out>::type out;
    F f;
    static __device__ __forceinline__ OpParams<float> widen(const OpParams<H>& p) {
        OpParams<float> q;
        q.t0 = (float)p.t0;
        q.t1 = (float)p.t1;
        q.d0 = p.d0;
        q.d1 = p.d1;
        q.k = p.k;
        return q;
    }
    __device__ __forceinline__ half_op(const OpParams<H>& p) : f(widen(p)) {}
    __device__ __forceinline__ out operator()(H x) const { return cast<out>(f((float)x)); }
    __device__ __forceinline__ out operator()(H a, H b) const {
        return cast<out>(f((float)a, (float)b));
    }
};
// The functor an element-wise kernel applies to elements of E: `OP<E>`, or `half_op` for
// the 16-bit floats. `round` keeps its own (NumPy rounds a float16 array in three steps, each
// rounding to float16) and so do `nextafter` and `spacing` (the neighbour in the type's own
// bits).
template <template <class> class OP, class E> struct lift {
    typedef typename conditional<is_half<E>::value, half_op<OP, E>, OP<E>>::type type;
};
template <class E> struct lift<op_round, E> { typedef op_round<E> type; };
template <class E> struct lift<op_nextafter, E> { typedef op_nextafter<E> type; };
template <class E> struct lift<op_spacing, E> { typedef op_spacing<E> type; };
template <class E> struct lift<op_nan_to_num, E> { typedef op_nan_to_num<E> type; };
