// reduce_ops.cuh: one device functor per reduction, arg-reduction and scan of cuprite-core
// (the ReduceOp and ScanOp values of crates/core/src/ops/reduce.rs, declared in
// crates/core/src/ops/registry.rs; the arg-reductions of its ARG_REDUCTIONS), named after the
// op's NAME: `red_<NAME>` for reductions and arg-reductions, `scan_<NAME>` for scans. A test of
// crates/cuda (without a GPU) checks that every declared op has its functor here.
//
// Interface, mirroring the host's traits (every function static):
//  - reductions: `typedef ... Acc; typedef ... Out;` `Acc init()`, `Acc fold(Acc, E x, i64 r)`
//    (r: the element's position in the reduction, used by the arg-reductions),
//    `Acc combine(Acc, Acc)`, `Out finish(Acc, i64 count, double param)` (param: the op's
//    first parameter, e.g. var's ddof); `sizeof(Acc)` at most ACC_MAX_BYTES (reduce.cu);
//  - scans: `typedef ... Out;` `Out init()`, `Out lift(E x)`, `Out combine(Out, Out)`.
// Needs common.cuh before it. Template parameters are named E (element) and R (real), never
// T, OUT or OP, which reduce.cu's programs #define.

// ---------- Types and scalar helpers ----------

// `Element::Accum`: i64 for bool and signed integers, u64 for unsigned ones.
template <class E, bool INT = is_int<E>::value> struct accum_of { typedef E type; };
template <class E> struct accum_of<E, true> {
    typedef typename conditional<is_uint<E>::value, u64, i64>::type type;
};
template <> struct accum_of<bool, false> { typedef i64 type; };
// `Element::Mean`: f64 for bool and integers.
template <class E, bool INT = is_int<E>::value> struct mean_of { typedef E type; };
template <class E> struct mean_of<E, true> { typedef double type; };
template <> struct mean_of<bool, false> { typedef double type; };

// Wrapping integer arithmetic (as the host's `Numeric::add`/`mul`), IEEE otherwise.
template <class A> __device__ __forceinline__ A r_add(A a, A b) {
    if constexpr (is_same<A, i64>::value) return (i64)((u64)a + (u64)b);
    else return a + b;
}
template <class A> __device__ __forceinline__ A r_mul(A a, A b) {
    if constexpr (is_same<A, i64>::value) return (i64)((u64)a * (u64)b);
    else return a * b;
}
template <class E> __device__ __forceinline__ bool r_isnan(E x) {
    if constexpr (is_float<E>::value) return x != x;
    else if constexpr (is_cplx<E>::value) return x.re != x.re || x.im != x.im;
    else return false;
}
template <class E> __device__ __forceinline__ bool r_truthy(E x) {
    if constexpr (is_cplx<E>::value) return x.re != 0 || x.im != 0;
    else return x != (E)0;
}
// `Numeric::from_usize`: the count through f64.
template <class A> __device__ __forceinline__ A from_count(i64 n) {
    return cast<A>((double)n);
}
template <class E> __device__ __forceinline__ E r_nan() {
    if constexpr (is_same<E, f16>::value) return f16::from_bits(0x7e00u);
    else if constexpr (is_same<E, bf16>::value) return bf16::from_bits(0x7fc0u);
    else if constexpr (is_same<E, float>::value) return __int_as_float(0x7fc00000);
    else return __longlong_as_double(0x7ff8000000000000LL);
}
// `Real::min_value` / `Real::max_value` (-inf / +inf for floats).
template <class E> __device__ __forceinline__ E r_lowest() {
    if constexpr (is_same<E, f16>::value) return f16::from_bits(0xfc00u);
    else if constexpr (is_same<E, bf16>::value) return bf16::from_bits(0xff80u);
    else if constexpr (is_same<E, float>::value) return __int_as_float((int)0xff800000u);
    else if constexpr (is_same<E, double>::value) return __longlong_as_double((i64)0xfff0000000000000ULL);
    else return int_traits<E>::lowest();
}
template <class E> __device__ __forceinline__ E r_highest() {
    if constexpr (is_same<E, f16>::value) return f16::from_bits(0x7c00u);
    else if constexpr (is_same<E, bf16>::value) return bf16::from_bits(0x7f80u);
    else if constexpr (is_same<E, float>::value) return __int_as_float(0x7f800000);
    else if constexpr (is_same<E, double>::value) return __longlong_as_double(0x7ff0000000000000LL);
    else return int_traits<E>::highest();
}

// ---------- Reduction and arg-reduction ops ----------

#define RED_FN static __device__ __forceinline__

// sum / nansum / prod in the accumulation type (i64 for bool and integers, wrapping), carried
// out in its work type (f32 for the 16-bit floats, rounded once at the end).
template <class E, int KIND> struct OpAccumulate {
    typedef typename accum_of<E>::type Out;
    typedef typename work_of<Out>::type Acc;
    RED_FN Acc init() { return cast<Acc>(KIND == 2 ? 1 : 0); }
    RED_FN Acc combine(Acc a, Acc b) { return KIND == 2 ? r_mul(a, b) : r_add(a, b); }
    RED_FN Acc fold(Acc a, E x, i64) {
        if (KIND == 1 && r_isnan(x)) return a;
        return combine(a, cast<Acc>(x));
    }
    RED_FN Out finish(Acc a, i64, double) { return cast<Out>(a); }
};
template <class E> struct red_sum : OpAccumulate<E, 0> {};
template <class E> struct red_nansum : OpAccumulate<E, 1> {};
template <class E> struct red_prod : OpAccumulate<E, 2> {};

// mean in the mean type (f64 for bool and integers): sum / count.
template <class E> struct red_mean {
    typedef typename mean_of<E>::type Out;
    typedef typename work_of<Out>::type Acc;
    RED_FN Acc init() { return cast<Acc>(0); }
    RED_FN Acc combine(Acc a, Acc b) { return a + b; }
    RED_FN Acc fold(Acc a, E x, i64) { return a + cast<Acc>(x); }
    RED_FN Out finish(Acc a, i64 count, double) { return cast<Out>(a / from_count<Acc>(count)); }
};

// min / max (NaN propagates) and nanmin / nanmax (NaN skipped; NaN is "nothing yet").
template <class E, bool MIN, bool PROP> struct OpExtremum {
    typedef E Acc;
    typedef E Out;
    RED_FN Acc init() {
        if constexpr (!PROP && is_float<E>::value) return r_nan<E>();
        else return MIN ? r_highest<E>() : r_lowest<E>();
    }
    RED_FN Acc combine(Acc a, Acc x) {
        bool better = MIN ? (a <= x) : (a >= x);
        bool keep = PROP ? (better || a != a) : (better || x != x);
        return keep ? a : x;
    }
    RED_FN Acc fold(Acc a, E x, i64) { return combine(a, x); }
    RED_FN Out finish(Acc a, i64, double) { return a; }
};
template <class E> struct red_min : OpExtremum<E, true, true> {};
template <class E> struct red_max : OpExtremum<E, false, true> {};
template <class E> struct red_nanmin : OpExtremum<E, true, false> {};
template <class E> struct red_nanmax : OpExtremum<E, false, false> {};

// all / any of the truthiness.
template <class E, bool ALL> struct OpTruth {
    typedef bool Acc;
    typedef bool Out;
    RED_FN Acc init() { return ALL; }
    RED_FN Acc combine(Acc a, Acc b) { return ALL ? (a && b) : (a || b); }
    RED_FN Acc fold(Acc a, E x, i64) { return combine(a, r_truthy(x)); }
    RED_FN Out finish(Acc a, i64, double) { return a; }
};
template <class E> struct red_all : OpTruth<E, true> {};
template <class E> struct red_any : OpTruth<E, false> {};

template <class E> struct red_count_nonzero {
    typedef i64 Acc;
    typedef i64 Out;
    RED_FN Acc init() { return 0; }
    RED_FN Acc combine(Acc a, Acc b) { return a + b; }
    RED_FN Acc fold(Acc a, E x, i64) { return a + (r_truthy(x) ? 1 : 0); }
    RED_FN Out finish(Acc a, i64, double) { return a; }
};

// nanmean: (sum, count) of the non-NaN values.
template <class M> struct NanMeanAcc {
    M s;
    i64 n;
};
template <class E> struct red_nanmean {
    typedef typename mean_of<E>::type Out;
    typedef typename work_of<Out>::type M;
    typedef NanMeanAcc<M> Acc;
    RED_FN Acc init() {
        Acc a;
        a.s = cast<M>(0);
        a.n = 0;
        return a;
    }
    RED_FN Acc combine(Acc a, Acc b) {
        a.s = a.s + b.s;
        a.n += b.n;
        return a;
    }
    RED_FN Acc fold(Acc a, E x, i64) {
        if (r_isnan(x)) return a;
        a.s = a.s + cast<M>(x);
        a.n += 1;
        return a;
    }
    RED_FN Out finish(Acc a, i64, double) { return cast<Out>(a.s / from_count<M>(a.n)); }
};

// var's last step (DdofMean): sum / max(count - ddof, 0); `param` is ddof.
template <class E> struct red_var {
    typedef typename work_of<E>::type Acc;
    typedef E Out;
    RED_FN Acc init() { return (Acc)0; }
    RED_FN Acc combine(Acc a, Acc b) { return a + b; }
    RED_FN Acc fold(Acc a, E x, i64) { return a + cast<Acc>(x); }
    RED_FN Out finish(Acc a, i64 count, double ddof) {
        return cast<Out>(a / (Acc)fmax((double)count - ddof, 0.0));
    }
};

// sum of squared magnitudes in the real type.
template <class E> struct red_sum_abs_sq {
    typedef typename real_of<E>::type Out;
    typedef typename work_of<Out>::type Acc;
    RED_FN Acc init() { return (Acc)0; }
    RED_FN Acc combine(Acc a, Acc b) { return a + b; }
    RED_FN Acc fold(Acc a, E x, i64) {
        if constexpr (is_cplx<E>::value) {
            return a + (x.re * x.re + x.im * x.im);
        } else {
            const Acc w = cast<Acc>(x);
            return a + w * w;
        }
    }
    RED_FN Out finish(Acc a, i64, double) { return cast<Out>(a); }
};

// argmin / argmax: (value, position) of the first extremum, the first NaN winning (NumPy).
// `i < 0` marks an empty accumulator. The selection is a minimum under a total order (NaN
// first, then by value, then by position), so any combining order gives the same answer.
template <class E> struct ArgAcc {
    E v;
    i64 i;
};
template <class E, bool MAX> __device__ __forceinline__ bool arg_beats(E x, E best) {
    if constexpr (is_cplx<E>::value) {
        // Lexicographic, as the host's sort order for complex values.
        if (MAX) return x.re > best.re || (x.re == best.re && x.im > best.im);
        return x.re < best.re || (x.re == best.re && x.im < best.im);
    } else {
        return MAX ? (x > best) : (x < best);
    }
}
template <class E, bool MAX> struct OpArg {
    typedef ArgAcc<E> Acc;
    typedef i64 Out;
    RED_FN Acc init() {
        Acc a;
        a.v = cast<E>(0);
        a.i = -1;
        return a;
    }
    RED_FN Acc combine(Acc a, Acc b) {
        if (a.i < 0) return b;
        if (b.i < 0) return a;
        bool an = r_isnan(a.v), bn = r_isnan(b.v);
        if (an || bn) {
            if (an && bn) return a.i < b.i ? a : b;
            return an ? a : b;
        }
        if (arg_beats<E, MAX>(b.v, a.v)) return b;
        if (arg_beats<E, MAX>(a.v, b.v)) return a;
        return a.i < b.i ? a : b;
    }
    // Every kernel folds an accumulator's positions in increasing order, so a later
    // position wins only by being NaN or strictly better (as the host's sequential scan).
    RED_FN Acc fold(Acc a, E x, i64 r) {
        if (a.i >= 0 && (r_isnan(a.v) || !(r_isnan(x) || arg_beats<E, MAX>(x, a.v)))) return a;
        a.v = x;
        a.i = r;
        return a;
    }
    RED_FN Out finish(Acc a, i64, double) { return a.i < 0 ? 0 : a.i; }
};
template <class E> struct red_argmin : OpArg<E, false> {};
template <class E> struct red_argmax : OpArg<E, true> {};

// ---------- NaN-ignoring products and variances (mirror crates/core/src/ops/nanreduce.rs) ----------

// nanprod in the accumulation type, NaN counting as one (bool and integers: prod).
template <class E> struct red_nanprod {
    typedef typename accum_of<E>::type Out;
    typedef typename work_of<Out>::type Acc;
    RED_FN Acc init() { return cast<Acc>(1); }
    RED_FN Acc combine(Acc a, Acc b) { return r_mul(a, b); }
    RED_FN Acc fold(Acc a, E x, i64) {
        if (r_isnan(x)) return a;
        return r_mul(a, cast<Acc>(x));
    }
    RED_FN Out finish(Acc a, i64, double) { return cast<Out>(a); }
};

// nanvar's last step over the marked squared deviations of nan_sq_dev: (sum, count) of the
// values that are not -1, then sum / (count - ddof), NaN where that is not positive;
// `param` is ddof.
template <class E> struct red_nanvar {
    typedef typename work_of<E>::type W;
    typedef NanMeanAcc<W> Acc;
    typedef E Out;
    RED_FN Acc init() {
        Acc a;
        a.s = (W)0;
        a.n = 0;
        return a;
    }
    RED_FN Acc combine(Acc a, Acc b) {
        a.s = a.s + b.s;
        a.n += b.n;
        return a;
    }
    RED_FN Acc fold(Acc a, E x, i64) {
        if (x < (E)0) return a;
        a.s = a.s + cast<W>(x);
        a.n += 1;
        return a;
    }
    RED_FN Out finish(Acc a, i64, double ddof) {
        double dof = (double)a.n - ddof;
        return dof > 0.0 ? cast<Out>(a.s / (W)dof) : r_nan<E>();
    }
};

// ---------- Scan ops ----------

// cumsum / cumprod in the accumulation type: out[i] = combine(out[i - 1], lift(x[i])).
template <class E, bool PROD> struct ScanAccumulate {
    typedef typename accum_of<E>::type Out;
    RED_FN Out init() { return cast<Out>(PROD ? 1 : 0); }
    RED_FN Out lift(E x) { return cast<Out>(x); }
    RED_FN Out combine(Out a, Out b) { return PROD ? r_mul(a, b) : r_add(a, b); }
};
template <class E> struct scan_cumsum : ScanAccumulate<E, false> {};
template <class E> struct scan_cumprod : ScanAccumulate<E, true> {};
