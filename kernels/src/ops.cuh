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
    if constexpr (is_cplx<E>::value) return cdiv(a, b);
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
// rounding to float16) and so does `nextafter` (the neighbour in the type's own bits).
template <template <class> class OP, class E> struct lift {
    typedef typename conditional<is_half<E>::value, half_op<OP, E>, OP<E>>::type type;
};
template <class E> struct lift<op_round, E> { typedef op_round<E> type; };
template <class E> struct lift<op_nextafter, E> { typedef op_nextafter<E> type; };
