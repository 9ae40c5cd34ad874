// reduce.cu: reductions, arg-reductions and scans.
//
// The host instantiates this file once per (op, element type) with these #defines:
//   T        the element type read (bool, u8, i32, i64, float, double, c64, c128)
//   OUT      the output element type (checked against the op's own at compile time)
//   OP       the op's functor of reduce_ops.cuh (placed before this file): red_sum,
//            red_argmax, scan_cumsum, ... (`red_<NAME>` / `scan_<NAME>` of the host's op)
//   and one of CUPRITE_REDUCE (reductions and arg-reductions) or CUPRITE_SCAN (scans).
//
// Every reduction op is a struct of static functions over an accumulator `Acc`, mirroring the
// host's `ReduceOp` (see reduce_ops.cuh). Results are deterministic: no atomics, every tree
// has a fixed shape for a given launch plan.
//
// Reduction geometry (planned on the host): `kept` is a strided view over the outputs (its
// offset is the base offset of the view), `red` a strided view of offsets relative to an
// output's first element (offset 0, strides >= 0 for the named reductions), `rsize` its
// size. The reduction of each output may be split into `n_chunks` chunks of `chunk`
// positions; then the kernels write accumulators to `part` and a second kernel combines
// them in order.

#define ACC_MAX_BYTES 32

// ---------- Kernel helpers ----------

__device__ __forceinline__ i64 r_min64(i64 a, i64 b) { return a < b ? a : b; }

// ---------- Warp and block combining of any trivially copyable value ----------

template <class V> __device__ __forceinline__ V shfl_any(V v, int src_or_delta, int how) {
    constexpr int W = (int)((sizeof(V) + 3) / 4);
    union {
        V v;
        int w[W];
    } u;
    u.v = v;
#pragma unroll
    for (int k = 0; k < W; ++k) {
        if (how == 0) u.w[k] = __shfl_xor_sync(0xffffffffu, u.w[k], src_or_delta);
        else if (how == 1) u.w[k] = __shfl_up_sync(0xffffffffu, u.w[k], src_or_delta);
        else u.w[k] = __shfl_sync(0xffffffffu, u.w[k], src_or_delta);
    }
    return u.v;
}

// Every lane of the warp gets the combination of the warp's 32 values (a fixed butterfly).
template <class Op, class A> __device__ __forceinline__ A warp_combine(A v) {
#pragma unroll
    for (int m = 16; m >= 1; m >>= 1) v = Op::combine(v, shfl_any(v, m, 0));
    return v;
}

// The combination over a group of G threads (1, 32, or the whole block of G threads); every
// thread of the group gets it. `sm` holds G / 32 values (block groups only).
template <class Op, int G, class A> __device__ __forceinline__ A group_combine(A v, A* sm) {
    if constexpr (G == 1) {
        return v;
    } else if constexpr (G == 32) {
        return warp_combine<Op>(v);
    } else {
        v = warp_combine<Op>(v);
        const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
        if (lane == 0) sm[warp] = v;
        __syncthreads();
        v = lane < G / 32 ? sm[lane] : Op::init();
        v = warp_combine<Op>(v);
        __syncthreads();
        return v;
    }
}

// ---------- Walking the reduced positions ----------

// Offset of position `j` of the dimensions of `s` before its last one.
__device__ __forceinline__ i64 outer_offset(const Strided& s, i64 j) {
    i64 off = 0;
    for (int d = s.ndim - 2; d >= 0; --d) {
        i64 n = s.shape[d];
        i64 q = j / n;
        off += (j - q * n) * s.strides[d];
        j = q;
    }
    return off;
}

// Sequential walk over the positions of a strided view (offsets relative to its start).
struct PosIter {
    i64 off, k, len, step, j;
    __device__ __forceinline__ PosIter(const Strided& s, i64 r) {
        if (s.ndim == 0) {
            off = 0; k = 0; len = 1; step = 0; j = r;
            return;
        }
        len = s.shape[s.ndim - 1];
        step = s.strides[s.ndim - 1];
        j = r / len;
        k = r - j * len;
        off = outer_offset(s, j) + k * step;
    }
    __device__ __forceinline__ void next(const Strided& s) {
        ++k;
        off += step;
        if (k == len) {
            k = 0;
            ++j;
            off = outer_offset(s, j);
        }
    }
};

#ifdef CUPRITE_REDUCE

typedef OP<T> Op;
typedef typename Op::Acc Acc;
static_assert(is_same<typename Op::Out, OUT>::value, "the op's output type differs from the host's");
static_assert(sizeof(Acc) <= ACC_MAX_BYTES, "accumulator larger than the partials' slots");

template <class X> struct __align__(16) Vec16 {
    X v[16 / sizeof(X)];
};

// Folds the elements 0..e of a contiguous run (positions r..r+e) into four accumulators,
// the G threads of a group (G >= 32) taking 16-byte vectors in turn, eight in flight per
// thread: `loadv(v)` gives the run's vector v (elements v * VEC ..), `load1(i)` its element i.
// Every element is folded at the same accumulator and step whatever the loaders read: a
// loader that computes the elements (a fused expression) folds as a loader that reads them.
template <int G, class LV, class L1>
__device__ __forceinline__ void fold_vecs(const LV& loadv, const L1& load1, i64 e, i64 r,
                                          int lane, Acc& a0, Acc& a1, Acc& a2, Acc& a3) {
    constexpr int VEC = 16 / (int)sizeof(T);
    const i64 nv = e / VEC;
    i64 v = lane;
    for (; v + 7 * G < nv; v += 8 * G) {
        Vec16<T> q0 = loadv(v), q1 = loadv(v + G), q2 = loadv(v + 2 * G), q3 = loadv(v + 3 * G);
        Vec16<T> q4 = loadv(v + 4 * G), q5 = loadv(v + 5 * G), q6 = loadv(v + 6 * G);
        Vec16<T> q7 = loadv(v + 7 * G);
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            a0 = Op::fold(a0, q0.v[k], r + v * VEC + k);
            a1 = Op::fold(a1, q1.v[k], r + (v + G) * VEC + k);
            a2 = Op::fold(a2, q2.v[k], r + (v + 2 * G) * VEC + k);
            a3 = Op::fold(a3, q3.v[k], r + (v + 3 * G) * VEC + k);
        }
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            a0 = Op::fold(a0, q4.v[k], r + (v + 4 * G) * VEC + k);
            a1 = Op::fold(a1, q5.v[k], r + (v + 5 * G) * VEC + k);
            a2 = Op::fold(a2, q6.v[k], r + (v + 6 * G) * VEC + k);
            a3 = Op::fold(a3, q7.v[k], r + (v + 7 * G) * VEC + k);
        }
    }
    for (; v + 3 * G < nv; v += 4 * G) {
        Vec16<T> q0 = loadv(v), q1 = loadv(v + G), q2 = loadv(v + 2 * G), q3 = loadv(v + 3 * G);
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            a0 = Op::fold(a0, q0.v[k], r + v * VEC + k);
            a1 = Op::fold(a1, q1.v[k], r + (v + G) * VEC + k);
            a2 = Op::fold(a2, q2.v[k], r + (v + 2 * G) * VEC + k);
            a3 = Op::fold(a3, q3.v[k], r + (v + 3 * G) * VEC + k);
        }
    }
    for (; v < nv; v += G) {
        Vec16<T> q = loadv(v);
#pragma unroll
        for (int k = 0; k < VEC; ++k) a0 = Op::fold(a0, q.v[k], r + v * VEC + k);
    }
    for (i64 i = nv * VEC + lane; i < e; i += G) a1 = Op::fold(a1, load1(i), r + i);
}

// Folds the contiguous run p[0..e) (positions r..r+e): the elements before p's first 16-byte
// boundary one per thread, then fold_vecs over the aligned rest.
template <int G>
__device__ __forceinline__ void fold_run(const T* __restrict__ p, i64 e, i64 r, int lane, Acc& a0,
                                         Acc& a1, Acc& a2, Acc& a3) {
    constexpr int VEC = 16 / (int)sizeof(T);
    if constexpr (VEC > 1) {
        i64 head = (i64)(((16u - ((unsigned)(u64)p & 15u)) & 15u) / (unsigned)sizeof(T));
        if (head > e) head = e;
        if (lane < head) a0 = Op::fold(a0, p[lane], r + lane);
        p += head;
        e -= head;
        r += head;
    }
    const Vec16<T>* __restrict__ pv = (const Vec16<T>*)p;
    fold_vecs<G>([=](i64 v) { return pv[v]; }, [=](i64 i) { return p[i]; }, e, r, lane, a0, a1,
                 a2, a3);
}

// The positions lo..hi of one output (first element at x + base), split over a group.
template <int G>
__device__ __forceinline__ Acc fold_positions(const T* __restrict__ x, i64 base, const Strided& red,
                                              i64 lo, i64 hi, int contig, int lane) {
    Acc a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
    if constexpr (G == 1) {
        // One thread: a sequential walk, four loads in flight.
        PosIter it(red, lo);
        i64 r = lo;
        for (; r + 4 <= hi; r += 4) {
            i64 f0 = it.off; it.next(red);
            i64 f1 = it.off; it.next(red);
            i64 f2 = it.off; it.next(red);
            i64 f3 = it.off; it.next(red);
            T x0 = x[base + f0], x1 = x[base + f1], x2 = x[base + f2], x3 = x[base + f3];
            a0 = Op::fold(a0, x0, r);
            a1 = Op::fold(a1, x1, r + 1);
            a2 = Op::fold(a2, x2, r + 2);
            a3 = Op::fold(a3, x3, r + 3);
        }
        for (; r < hi; ++r) {
            a0 = Op::fold(a0, x[base + it.off], r);
            it.next(red);
        }
    } else if (contig) {
        // The last reduced dimension is contiguous: runs of it, vectorised.
        const i64 len = red.shape[red.ndim - 1];
        i64 r = lo;
        while (r < hi) {
            const i64 j = r / len;
            const i64 s = r - j * len;
            const i64 e = r_min64(hi - r, len - s);
            fold_run<G>(x + base + outer_offset(red, j) + s, e, r, lane, a0, a1, a2, a3);
            r += e;
        }
    } else if (red.ndim == 1) {
        const i64 st = red.strides[0];
        i64 r = lo + lane;
        for (; r + 3 * G < hi; r += 4 * G) {
            T x0 = x[base + r * st], x1 = x[base + (r + G) * st];
            T x2 = x[base + (r + 2 * G) * st], x3 = x[base + (r + 3 * G) * st];
            a0 = Op::fold(a0, x0, r);
            a1 = Op::fold(a1, x1, r + G);
            a2 = Op::fold(a2, x2, r + 2 * G);
            a3 = Op::fold(a3, x3, r + 3 * G);
        }
        for (; r < hi; r += G) a0 = Op::fold(a0, x[base + r * st], r);
    } else {
        for (i64 r = lo + lane; r < hi; r += G) a0 = Op::fold(a0, x[base + strided_offset(red, r)], r);
    }
    return Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
}

// One group of G threads per (output, chunk) task; outputs are kept's positions in C order.
template <int G>
__device__ __forceinline__ void rows_impl(const T* __restrict__ x, OUT* __restrict__ out,
                                          Acc* __restrict__ part, const Strided& kept,
                                          const Strided& red, i64 n_out, i64 rsize, i64 chunk,
                                          i64 n_chunks, i64 count, double param, int contig) {
    __shared__ Acc sm[G >= 64 ? G / 32 : 1];
    const int lane = G == 1 ? 0 : (int)(threadIdx.x % G);
    const i64 groups = (i64)gridDim.x * blockDim.x / G;
    const i64 tasks = n_out * n_chunks;
    for (i64 t = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / G; t < tasks; t += groups) {
        const i64 o = t / n_chunks;
        const i64 c = t - o * n_chunks;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, rsize);
        Acc acc = fold_positions<G>(x, strided_offset(kept, o), red, lo, hi, contig, lane);
        acc = group_combine<Op, G>(acc, sm);
        if (lane == 0) {
            if (n_chunks == 1) out[o] = Op::finish(acc, count, param);
            else part[t] = acc;
        }
    }
}

// The reduction kernels' parameters (mirrored field for field by `RedArgs` in
// crates/cuda/src/reduce/params.rs): x (const T*), out (OUT*), part (Acc*), then as named.
struct RedArgs {
    u64 x;
    u64 out;
    u64 part;
    Strided kept;
    Strided red;
    long long n_out;
    long long rsize;
    long long chunk;
    long long n_chunks;
    long long count;
    double param;
    int contig;
};

#define RED_ARGS                                                                              \
    const T *__restrict__ x, OUT *__restrict__ out, Acc *__restrict__ part, const Strided &kept, \
        const Strided &red, i64 n_out, i64 rsize, i64 chunk, i64 n_chunks, i64 count,          \
        double param, int contig
#define RED_PASS                                                                              \
    (const T*)a.x, (OUT*)a.out, (Acc*)a.part, a.kept, a.red, a.n_out, a.rsize, a.chunk,        \
        a.n_chunks, a.count, a.param, a.contig

extern "C" __global__ void __launch_bounds__(256) red_rows_1(RedArgs a) { rows_impl<1>(RED_PASS); }
extern "C" __global__ void __launch_bounds__(256) red_rows_32(RedArgs a) { rows_impl<32>(RED_PASS); }
extern "C" __global__ void __launch_bounds__(256) red_rows_256(RedArgs a) { rows_impl<256>(RED_PASS); }

// Rows whose reduced positions are one contiguous run (red.ndim == 1, stride 1): the same
// tasks as rows_impl with only the vector path compiled, so the loads keep their registers.
template <int G>
__device__ __forceinline__ void rows_flat_impl(const T* __restrict__ x, OUT* __restrict__ out,
                                               Acc* __restrict__ part, const Strided& kept,
                                               i64 n_out, i64 rsize, i64 chunk, i64 n_chunks,
                                               i64 count, double param) {
    __shared__ Acc sm[G >= 64 ? G / 32 : 1];
    const int lane = (int)(threadIdx.x % G);
    const i64 groups = (i64)gridDim.x * blockDim.x / G;
    const i64 tasks = n_out * n_chunks;
    for (i64 t = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / G; t < tasks; t += groups) {
        const i64 o = t / n_chunks;
        const i64 c = t - o * n_chunks;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, rsize);
        Acc a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
        fold_run<G>(x + strided_offset(kept, o) + lo, hi - lo, lo, lane, a0, a1, a2, a3);
        Acc acc = group_combine<Op, G>(Op::combine(Op::combine(a0, a1), Op::combine(a2, a3)), sm);
        if (lane == 0) {
            if (n_chunks == 1) out[o] = Op::finish(acc, count, param);
            else part[t] = acc;
        }
    }
}

// The reductions of n_out outputs, each of the rsize consecutive positions starting at
// element strided_offset(kept, o) of an array that `loadv`/`load1` compute (vector v: its
// elements v * VEC ..; element i), with rows_flat_impl's tasks, folds and combines over a
// 16-byte aligned C-contiguous buffer: the elements before each run's first 16-byte boundary
// one per thread, then whole vectors. A fused expression's reduction has the bits of the
// reduction of its evaluated array.
template <int G, class LV, class L1>
__device__ __forceinline__ void rows_loaded(const LV& loadv, const L1& load1, OUT* __restrict__ out,
                                            Acc* __restrict__ part, const Strided& kept, i64 n_out,
                                            i64 rsize, i64 chunk, i64 n_chunks, i64 count,
                                            double param) {
    constexpr int VEC = 16 / (int)sizeof(T);
    __shared__ Acc sm[G >= 64 ? G / 32 : 1];
    const int lane = (int)(threadIdx.x % G);
    const i64 groups = (i64)gridDim.x * blockDim.x / G;
    const i64 tasks = n_out * n_chunks;
    for (i64 t = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / G; t < tasks; t += groups) {
        const i64 o = t / n_chunks;
        const i64 c = t - o * n_chunks;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, rsize);
        Acc a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
        i64 s = strided_offset(kept, o) + lo, e = hi - lo, r = lo;
        if constexpr (VEC > 1) {
            const i64 head = r_min64((VEC - s % VEC) % VEC, e);
            if (lane < head) a0 = Op::fold(a0, load1(s + lane), r + lane);
            s += head;
            e -= head;
            r += head;
        }
        const i64 vs = s / VEC;
        fold_vecs<G>([&](i64 v) { return loadv(vs + v); }, [&](i64 i) { return load1(s + i); }, e,
                     r, lane, a0, a1, a2, a3);
        Acc acc = group_combine<Op, G>(Op::combine(Op::combine(a0, a1), Op::combine(a2, a3)), sm);
        if (lane == 0) {
            if (n_chunks == 1) out[o] = Op::finish(acc, count, param);
            else part[t] = acc;
        }
    }
}

// The reductions of n_out outputs, each of the rsize positions strided_offset(kept, o) +
// r * st of an array that `load1` computes (element i), with cols_impl's tasks and folds for
// one reduced dimension: a fused expression's column reduction has the bits of the
// reduction of its evaluated array.
template <class L1>
__device__ __forceinline__ void cols_loaded(const L1& load1, OUT* __restrict__ out,
                                            Acc* __restrict__ part, const Strided& kept, i64 st,
                                            i64 n_out, i64 rsize, i64 chunk, i64 n_chunks,
                                            i64 count, double param) {
    const i64 tasks = n_out * n_chunks;
    GRID_STRIDE(t, tasks) {
        const i64 c = t / n_out;
        const i64 o = t - c * n_out;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, rsize);
        i64 p = strided_offset(kept, o) + lo * st;
        Acc a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
        i64 r = lo;
        for (; r + 8 <= hi; r += 8) {
            T x0 = load1(p), x1 = load1(p + st), x2 = load1(p + 2 * st), x3 = load1(p + 3 * st);
            T x4 = load1(p + 4 * st), x5 = load1(p + 5 * st), x6 = load1(p + 6 * st);
            T x7 = load1(p + 7 * st);
            p += 8 * st;
            a0 = Op::fold(a0, x0, r);
            a1 = Op::fold(a1, x1, r + 1);
            a2 = Op::fold(a2, x2, r + 2);
            a3 = Op::fold(a3, x3, r + 3);
            a0 = Op::fold(a0, x4, r + 4);
            a1 = Op::fold(a1, x5, r + 5);
            a2 = Op::fold(a2, x6, r + 6);
            a3 = Op::fold(a3, x7, r + 7);
        }
        for (; r < hi; ++r, p += st) a0 = Op::fold(a0, load1(p), r);
        const Acc acc = Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
        if (n_chunks == 1) out[o] = Op::finish(acc, count, param);
        else part[t] = acc;
    }
}

extern "C" __global__ void __launch_bounds__(256) red_rows_32_flat(RedArgs a) {
    rows_flat_impl<32>((const T*)a.x, (OUT*)a.out, (Acc*)a.part, a.kept, a.n_out, a.rsize, a.chunk,
                       a.n_chunks, a.count, a.param);
}
extern "C" __global__ void __launch_bounds__(256) red_rows_256_flat(RedArgs a) {
    rows_flat_impl<256>((const T*)a.x, (OUT*)a.out, (Acc*)a.part, a.kept, a.n_out, a.rsize, a.chunk,
                       a.n_chunks, a.count, a.param);
}

// One thread per (output, chunk) task, consecutive threads on consecutive outputs (the kept
// innermost dimension is the fastest in memory, so reads coalesce across the warp). Task
// t = c * n_out + o; partials are laid out the same way.
__device__ __forceinline__ void cols_impl(RED_ARGS) {
    const i64 tasks = n_out * n_chunks;
    GRID_STRIDE(t, tasks) {
        const i64 c = t / n_out;
        const i64 o = t - c * n_out;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, rsize);
        Acc acc;
        if (red.ndim <= 1) {
            // One reduced dimension: a pointer walk, eight loads in flight.
            const i64 st = red.ndim == 1 ? red.strides[0] : 0;
            const T* p = x + strided_offset(kept, o) + lo * st;
            Acc a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
            i64 r = lo;
            for (; r + 8 <= hi; r += 8) {
                T x0 = p[0], x1 = p[st], x2 = p[2 * st], x3 = p[3 * st];
                T x4 = p[4 * st], x5 = p[5 * st], x6 = p[6 * st], x7 = p[7 * st];
                p += 8 * st;
                a0 = Op::fold(a0, x0, r);
                a1 = Op::fold(a1, x1, r + 1);
                a2 = Op::fold(a2, x2, r + 2);
                a3 = Op::fold(a3, x3, r + 3);
                a0 = Op::fold(a0, x4, r + 4);
                a1 = Op::fold(a1, x5, r + 5);
                a2 = Op::fold(a2, x6, r + 6);
                a3 = Op::fold(a3, x7, r + 7);
            }
            for (; r < hi; ++r, p += st) a0 = Op::fold(a0, *p, r);
            acc = Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
        } else {
            acc = fold_positions<1>(x, strided_offset(kept, o), red, lo, hi, 0, 0);
        }
        if (n_chunks == 1) out[o] = Op::finish(acc, count, param);
        else part[t] = acc;
    }
}

extern "C" __global__ void __launch_bounds__(256) red_cols(RedArgs a) { cols_impl(RED_PASS); }

// Combines the chunks of each output in order: part[o * o_stride + c * c_stride].
template <int G>
__device__ __forceinline__ void partials_impl(const Acc* __restrict__ part, OUT* __restrict__ out,
                                              i64 n_out, i64 n_chunks, i64 o_stride, i64 c_stride,
                                              i64 count, double param) {
    __shared__ Acc sm[G >= 64 ? G / 32 : 1];
    const int lane = G == 1 ? 0 : (int)(threadIdx.x % G);
    const i64 groups = (i64)gridDim.x * blockDim.x / G;
    for (i64 o = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / G; o < n_out; o += groups) {
        const Acc* p = part + o * o_stride;
        Acc a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
        i64 c = lane;
        for (; c + 3 * G < n_chunks; c += 4 * G) {
            Acc b0 = p[c * c_stride], b1 = p[(c + G) * c_stride];
            Acc b2 = p[(c + 2 * G) * c_stride], b3 = p[(c + 3 * G) * c_stride];
            a0 = Op::combine(a0, b0);
            a1 = Op::combine(a1, b1);
            a2 = Op::combine(a2, b2);
            a3 = Op::combine(a3, b3);
        }
        for (; c < n_chunks; c += G) a0 = Op::combine(a0, p[c * c_stride]);
        Acc acc = Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
        acc = group_combine<Op, G>(acc, sm);
        if (lane == 0) out[o] = Op::finish(acc, count, param);
    }
}

// The partials kernels' parameters (mirrored by `PartArgs` in crates/cuda/src/reduce/params.rs):
// part (const Acc*), out (OUT*), then as named.
struct PartArgs {
    u64 part;
    u64 out;
    long long n_out;
    long long n_chunks;
    long long o_stride;
    long long c_stride;
    long long count;
    double param;
};

#define PART_PASS                                                                             \
    (const Acc*)a.part, (OUT*)a.out, a.n_out, a.n_chunks, a.o_stride, a.c_stride, a.count, a.param

extern "C" __global__ void __launch_bounds__(256) red_partials_1(PartArgs a) { partials_impl<1>(PART_PASS); }
extern "C" __global__ void __launch_bounds__(256) red_partials_32(PartArgs a) { partials_impl<32>(PART_PASS); }
extern "C" __global__ void __launch_bounds__(256) red_partials_256(PartArgs a) { partials_impl<256>(PART_PASS); }

// The result of reducing nothing, `finish(init, count)`, for every output.
// (Mirrored by `FillArgs` in crates/cuda/src/reduce/params.rs; out is OUT*.)
struct FillArgs {
    u64 out;
    long long n;
    long long count;
    double param;
};

__device__ __forceinline__ void fill_impl(OUT* __restrict__ out, i64 n, i64 count, double param) {
    GRID_STRIDE(i, n) out[i] = Op::finish(Op::init(), count, param);
}
extern "C" __global__ void __launch_bounds__(256) red_fill(FillArgs a) {
    fill_impl((OUT*)a.out, a.n, a.count, a.param);
}

#endif  // CUPRITE_REDUCE

// ---------- Scans ----------

#ifdef CUPRITE_SCAN

typedef OP<T> Op;
static_assert(is_same<typename Op::Out, OUT>::value, "the op's output type differs from the host's");

// Inclusive scan over the 32 lanes of a warp.
template <class A> __device__ __forceinline__ A warp_scan(A v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        A y = shfl_any(v, d, 1);
        if (lane >= d) v = Op::combine(y, v);
    }
    return v;
}

// Exclusive scan over a group of G threads (a warp or the whole block) and the group's total.
template <int G> __device__ __forceinline__ void group_scan(OUT v, OUT& excl, OUT& total, OUT* sm) {
    const int lane = threadIdx.x & 31;
    OUT incl = warp_scan(v, lane);
    OUT wex = shfl_any(incl, 1, 1);
    if (lane == 0) wex = Op::init();
    if constexpr (G == 32) {
        excl = wex;
        total = shfl_any(incl, 31, 2);
    } else {
        const int warp = threadIdx.x >> 5;
        if (lane == 31) sm[warp] = incl;
        __syncthreads();
        OUT pre = Op::init(), all = Op::init();
#pragma unroll
        for (int w = 0; w < G / 32; ++w) {
            OUT y = sm[w];
            if (w < warp) pre = Op::combine(pre, y);
            all = Op::combine(all, y);
        }
        __syncthreads();
        excl = Op::combine(pre, wex);
        total = all;
    }
}

// Lane geometry: lane l (C order over the view without the scanned axis) starts at
// x + strided_offset(lanes, l) and steps by `s`; its outputs start at
// (l / inner) * n * inner + l % inner and step by `inner`. Each lane may be split into
// `n_chunks` chunks of `chunk` elements: pass 0 writes each chunk's total to `tot`, the carry
// kernel turns those into exclusive prefixes in place, pass 1 scans each chunk from its
// prefix (from init when there is one chunk).
// The scan kernels' parameters (mirrored field for field by `ScanArgs` in
// crates/cuda/src/reduce/params.rs): x (const T*), out (OUT*), tot (OUT*), then as named.
struct ScanArgs {
    u64 x;
    u64 out;
    u64 tot;
    Strided lanes;
    long long n_lanes;
    long long n;
    long long s;
    long long inner;
    long long chunk;
    long long n_chunks;
    int pass;
};

#define SCAN_ARGS                                                                              \
    const T *__restrict__ x, OUT *__restrict__ out, OUT *__restrict__ tot, const Strided &lanes, \
        i64 n_lanes, i64 n, i64 s, i64 inner, i64 chunk, i64 n_chunks, int pass
#define SCAN_PASS                                                                              \
    (const T*)a.x, (OUT*)a.out, (OUT*)a.tot, a.lanes, a.n_lanes, a.n, a.s, a.inner, a.chunk,    \
        a.n_chunks, a.pass

// One thread per (lane, chunk) task, consecutive threads on consecutive lanes (for lanes
// that are neighbours in memory). Task t = c * n_lanes + l.
__device__ __forceinline__ void scan_thread_impl(SCAN_ARGS) {
    const i64 tasks = n_lanes * n_chunks;
    GRID_STRIDE(t, tasks) {
        const i64 c = t / n_lanes;
        const i64 l = t - c * n_lanes;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, n);
        const T* p = x + strided_offset(lanes, l);
        i64 i = lo;
        if (pass == 0) {
            OUT a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
            for (; i + 4 <= hi; i += 4) {
                T x0 = p[i * s], x1 = p[(i + 1) * s], x2 = p[(i + 2) * s], x3 = p[(i + 3) * s];
                a0 = Op::combine(a0, Op::lift(x0));
                a1 = Op::combine(a1, Op::lift(x1));
                a2 = Op::combine(a2, Op::lift(x2));
                a3 = Op::combine(a3, Op::lift(x3));
            }
            for (; i < hi; ++i) a0 = Op::combine(a0, Op::lift(p[i * s]));
            tot[t] = Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
        } else {
            OUT a = n_chunks > 1 ? tot[t] : Op::init();
            const i64 q = l / inner;
            OUT* o = out + q * n * inner + (l - q * inner);
            for (; i + 4 <= hi; i += 4) {
                T x0 = p[i * s], x1 = p[(i + 1) * s], x2 = p[(i + 2) * s], x3 = p[(i + 3) * s];
                a = Op::combine(a, Op::lift(x0));
                o[i * inner] = a;
                a = Op::combine(a, Op::lift(x1));
                o[(i + 1) * inner] = a;
                a = Op::combine(a, Op::lift(x2));
                o[(i + 2) * inner] = a;
                a = Op::combine(a, Op::lift(x3));
                o[(i + 3) * inner] = a;
            }
            for (; i < hi; ++i) {
                a = Op::combine(a, Op::lift(p[i * s]));
                o[i * inner] = a;
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(256) scan_thread(ScanArgs a) {
    scan_thread_impl(SCAN_PASS);
}

#define SCAN_V 4

// One group of G threads per (lane, chunk) task (t = l * n_chunks + c), in tiles of
// G * SCAN_V elements: each thread scans SCAN_V neighbours, the group scans the threads'
// totals, and the running prefix carries from tile to tile.
// Shared-memory index of tile element k: one pad element after every 128 bytes.
__device__ __forceinline__ int pad(int k) { return k + k / (int)(128 / sizeof(OUT)); }

template <int G> __device__ __forceinline__ void group_sync() {
    if constexpr (G == 32) __syncwarp();
    else __syncthreads();
}

template <int G> __device__ __forceinline__ void coop_impl(SCAN_ARGS) {
    __shared__ OUT sm[G >= 64 ? G / 32 : 1];
    // 256 threads' tiles (G == 32: one region of 32 * (SCAN_V + 1) per warp).
    __shared__ OUT tile[256 * (SCAN_V + 1)];
    const int lane = (int)(threadIdx.x % G);
    const i64 groups = (i64)gridDim.x * blockDim.x / G;
    const i64 tasks = n_lanes * n_chunks;
    for (i64 t = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / G; t < tasks; t += groups) {
        const i64 l = t / n_chunks;
        const i64 c = t - l * n_chunks;
        const i64 lo = c * chunk;
        const i64 hi = r_min64(lo + chunk, n);
        const T* p = x + strided_offset(lanes, l);
        if (pass == 0) {
            OUT a0 = Op::init(), a1 = Op::init(), a2 = Op::init(), a3 = Op::init();
            i64 i = lo + lane;
            for (; i + 3 * G < hi; i += 4 * G) {
                T x0 = p[i * s], x1 = p[(i + G) * s], x2 = p[(i + 2 * G) * s], x3 = p[(i + 3 * G) * s];
                a0 = Op::combine(a0, Op::lift(x0));
                a1 = Op::combine(a1, Op::lift(x1));
                a2 = Op::combine(a2, Op::lift(x2));
                a3 = Op::combine(a3, Op::lift(x3));
            }
            for (; i < hi; i += G) a0 = Op::combine(a0, Op::lift(p[i * s]));
            OUT a = Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
            a = group_combine<Op, G>(a, sm);
            if (lane == 0) tot[t] = a;
        } else {
            OUT run = n_chunks > 1 ? tot[t] : Op::init();
            const i64 q = l / inner;
            OUT* o = out + q * n * inner + (l - q * inner);
            // The tile goes through shared memory: read and written in coalesced stripes
            // (element b + j * G + lane), scanned in blocked runs (SCAN_V per thread). One
            // pad element per 128 bytes keeps the blocked accesses free of bank conflicts.
            OUT* tl = tile + (G == 32 ? (threadIdx.x & ~31u) * (SCAN_V + 1) : 0);
            for (i64 b = lo; b < hi; b += (i64)G * SCAN_V) {
#pragma unroll
                for (int j = 0; j < SCAN_V; ++j) {
                    const i64 i = b + (i64)j * G + lane;
                    tl[pad(j * G + lane)] = i < hi ? Op::lift(p[i * s]) : Op::init();
                }
                group_sync<G>();
                OUT v[SCAN_V];
#pragma unroll
                for (int j = 0; j < SCAN_V; ++j) {
                    const OUT y = tl[pad(lane * SCAN_V + j)];
                    v[j] = j == 0 ? y : Op::combine(v[j - 1], y);
                }
                OUT excl, total;
                group_scan<G>(v[SCAN_V - 1], excl, total, sm);
                const OUT pre = Op::combine(run, excl);
#pragma unroll
                for (int j = 0; j < SCAN_V; ++j) tl[pad(lane * SCAN_V + j)] = Op::combine(pre, v[j]);
                group_sync<G>();
#pragma unroll
                for (int j = 0; j < SCAN_V; ++j) {
                    const i64 i = b + (i64)j * G + lane;
                    if (i < hi) o[i * inner] = tl[pad(j * G + lane)];
                }
                group_sync<G>();
                run = Op::combine(run, total);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(256) scan_coop_32(ScanArgs a) { coop_impl<32>(SCAN_PASS); }
extern "C" __global__ void __launch_bounds__(256) scan_coop_256(ScanArgs a) { coop_impl<256>(SCAN_PASS); }

// Turns each lane's chunk totals tot[l * l_stride + c * c_stride] into exclusive prefixes,
// one warp per lane, 32 chunks per step.
// (Mirrored by `CarryArgs` in crates/cuda/src/reduce/params.rs; tot is OUT*.)
struct CarryArgs {
    u64 tot;
    long long n_lanes;
    long long n_chunks;
    long long l_stride;
    long long c_stride;
};

__device__ __forceinline__ void carry_impl(OUT* __restrict__ tot, i64 n_lanes, i64 n_chunks,
                                           i64 l_stride, i64 c_stride) {
    const int lane = threadIdx.x & 31;
    const i64 warps = (i64)gridDim.x * blockDim.x / 32;
    for (i64 l = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / 32; l < n_lanes; l += warps) {
        OUT* p = tot + l * l_stride;
        OUT run = Op::init();
        for (i64 c0 = 0; c0 < n_chunks; c0 += 32) {
            const i64 c = c0 + lane;
            OUT v = c < n_chunks ? p[c * c_stride] : Op::init();
            OUT incl = warp_scan(v, lane);
            OUT ex = shfl_any(incl, 1, 1);
            if (lane == 0) ex = Op::init();
            if (c < n_chunks) p[c * c_stride] = Op::combine(run, ex);
            run = Op::combine(run, shfl_any(incl, 31, 2));
        }
    }
}
extern "C" __global__ void __launch_bounds__(256) scan_carry(CarryArgs a) {
    carry_impl((OUT*)a.tot, a.n_lanes, a.n_chunks, a.l_stride, a.c_stride);
}

#endif  // CUPRITE_SCAN
