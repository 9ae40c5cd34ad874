// elementwise.cu: element-wise map kernels. One program holds one variant for one op and
// element type, chosen by #defines placed before it (after common.cuh, ops_math.cuh, ops.cuh):
//   T       element type of the operands
//   OUT     result type (the functor's `out`, checked at compile time)
//   OP      functor template of ops.cuh (`op_add`); absent for EW_WHERE
//   one of  EW_UNARY          out[i] = op(x[i])
//           EW_BINARY         out[i] = op(a[i], b[i])
//           EW_SCALAR         out[i] = op(a[i], s)
//           EW_RSCALAR        out[i] = op(s, a[i])
//           EW_UNARY_INPLACE  x[i] = op(x[i])
//           EW_BINARY_INPLACE a[i] = op(a[i], b[i])
//           EW_SCALAR_INPLACE a[i] = op(a[i], s)
//           EW_WHERE          out[i] = c[i] ? a[i] : b[i]
// Each program has two kernels:
//   ew_contig   every operand one contiguous run (pointers already advanced to the first
//               element). Elements [head, head + nvec*VW) go through 16-byte vector loads and
//               stores (the host picks `head` so every pointer is 16-byte aligned there, or
//               head = n when no such head exists); the rest one by one. Grid-stride.
//   ew_strided  operands as `Strided` views of their buffers (jointly coalesced, one shape;
//               broadcast axes have stride 0); the out-of-place result is C-contiguous.
//               32-bit index arithmetic below 2^31 elements.
// EW_UNARY and EW_BINARY programs have a third kernel:
//   ew_tiled    two-dimensional views (shape R x C) where an operand walks axis 0 faster in
//               memory than axis 1 (`x.T`): 32 x 32 tiles, blocks of 32 x 8 threads; such an
//               operand is read into shared memory with warps along axis 0 and read back
//               along axis 1, so every global load and store of a warp is one run.
// Each kernel takes one struct by value, EwContig or EwStrided (mirrored field for field by
// the structs of crates/cuda/src/elementwise/params.rs): the result's address (0 in place),
// the operands' addresses in order, the scalar operand's bytes, the op parameters (the
// element-type ones as bytes; OpParams in ops.cuh), the size, and the aligned head or the
// operands' views. The entries unpack it and call the variant's body.

struct EwContig {
    u64 out;
    u64 x[3];
    Bytes16 s;
    Bytes16 t0;
    Bytes16 t1;
    double d0;
    double d1;
    long long k;
    long long n;
    long long head;
};

struct EwStrided {
    u64 out;
    u64 x[3];
    Bytes16 s;
    Bytes16 t0;
    Bytes16 t1;
    double d0;
    double d1;
    long long k;
    long long n;
    Strided v[3];
};

#define EW_TID ((long long)blockIdx.x * blockDim.x + threadIdx.x)
#define EW_NT ((long long)gridDim.x * blockDim.x)

// The unsigned integer type of B bytes, for vector loads and stores.
template <int B> struct raw_bytes;
template <> struct raw_bytes<16> { typedef uint4 type; };
template <> struct raw_bytes<8> { typedef uint2 type; };
template <> struct raw_bytes<4> { typedef unsigned type; };
template <> struct raw_bytes<2> { typedef unsigned short type; };
template <> struct raw_bytes<1> { typedef unsigned char type; };
template <class E, int V> using raw_t = typename raw_bytes<(int)sizeof(E) * V>::type;

// V elements of E viewed as one machine word (16 bytes at most).
template <class E, int V> union Pack {
    raw_t<E, V> raw;
    E v[V];
};

#ifndef OUT
#define OUT T
#endif

// Elements per vector: 16 bytes of the wider of the operand and result types.
constexpr int VW = 16 / (sizeof(T) > sizeof(OUT) ? (int)sizeof(T) : (int)sizeof(OUT));

// Grid-stride loop over n contiguous elements: vectors of VW from `head`, then the elements
// before `head` and after the last whole vector one by one.
template <class VecFn, class OneFn>
__device__ __forceinline__ void contig_loop(long long n, long long head, VecFn vec, OneFn one) {
    const long long tid = EW_TID, nt = EW_NT;
    const long long nvec = (n - head) / VW;
    for (long long j = tid; j < nvec; j += nt) vec(j);
    const long long tail0 = head + nvec * VW;
    const long long ns = head + (n - tail0);
    for (long long s = tid; s < ns; s += nt) one(s < head ? s : tail0 + (s - head));
}

// Buffer offsets of the element with C-order index i (< the size) in one, two or three
// views of one shape: one division per axis but the outermost.
template <class I> __device__ __forceinline__ long long offset1(const Strided& a, I i) {
    long long oa = a.offset;
    for (int d = a.ndim - 1; d > 0; --d) {
        const I n = (I)a.shape[d];
        const I q = i / n;
        oa += (long long)(i - q * n) * a.strides[d];
        i = q;
    }
    if (a.ndim > 0) oa += (long long)i * a.strides[0];
    return oa;
}
template <class I>
__device__ __forceinline__ void offsets2(const Strided& a, const Strided& b, I i, long long& oa,
                                         long long& ob) {
    oa = a.offset;
    ob = b.offset;
    for (int d = a.ndim - 1; d > 0; --d) {
        const I n = (I)a.shape[d];
        const I q = i / n;
        const long long r = (long long)(i - q * n);
        oa += r * a.strides[d];
        ob += r * b.strides[d];
        i = q;
    }
    if (a.ndim > 0) {
        oa += (long long)i * a.strides[0];
        ob += (long long)i * b.strides[0];
    }
}
template <class I>
__device__ __forceinline__ void offsets3(const Strided& a, const Strided& b, const Strided& c, I i,
                                         long long& oa, long long& ob, long long& oc) {
    oa = a.offset;
    ob = b.offset;
    oc = c.offset;
    for (int d = a.ndim - 1; d > 0; --d) {
        const I n = (I)a.shape[d];
        const I q = i / n;
        const long long r = (long long)(i - q * n);
        oa += r * a.strides[d];
        ob += r * b.strides[d];
        oc += r * c.strides[d];
        i = q;
    }
    if (a.ndim > 0) {
        oa += (long long)i * a.strides[0];
        ob += (long long)i * b.strides[0];
        oc += (long long)i * c.strides[0];
    }
}

// Grid-stride loop over n C-order indices, 32-bit when they fit.
template <class Fn> __device__ __forceinline__ void strided_loop(long long n, Fn body) {
    if (n <= 0x7fffffffLL) {
        const unsigned nt = (unsigned)EW_NT;
        for (unsigned i = (unsigned)EW_TID; i < (unsigned)n; i += nt) body(i);
    } else {
        for (long long i = EW_TID; i < n; i += EW_NT) body(i);
    }
}

// ---- the tiled kernel (EW_UNARY and EW_BINARY) ----

#define TILE 32
#define TILE_ROWS 8

// Whether the 2-d view `s` walks axis 0 faster in memory than axis 1 (not broadcast along it).
// The host's `tile_transposed` in crates/cuda/src/elementwise/plan.rs is the same test.
__device__ __forceinline__ bool tile_transposed(const Strided& s) {
    const long long s0 = s.strides[0] < 0 ? -s.strides[0] : s.strides[0];
    const long long s1 = s.strides[1] < 0 ? -s.strides[1] : s.strides[1];
    return s0 != 0 && s0 < s1;
}

// Shared storage for one tile of E (raw bytes: element types need no constructor here).
template <class E> struct Tile {
    __align__(16) unsigned char raw[TILE * (TILE + 1) * sizeof(E)];
    __device__ __forceinline__ E* row(int i) { return (E*)raw + i * (TILE + 1); }
};

// Fills `t` with the tile at (r0, c0) of the 2-d view `s` of `x`, warps along axis 0:
// t.row(j)[i] = element (r0 + i, c0 + j).
template <class E>
__device__ __forceinline__ void tile_load(Tile<E>& t, const E* __restrict__ x, const Strided& s,
                                          long long r0, long long c0) {
    const long long r = r0 + threadIdx.x;
    if (r >= s.shape[0]) return;
    for (int j = threadIdx.y; j < TILE; j += TILE_ROWS) {
        const long long c = c0 + j;
        if (c < s.shape[1]) t.row(j)[threadIdx.x] = x[s.offset + r * s.strides[0] + c * s.strides[1]];
    }
}

// Element (r, c) = (r0 + j, c0 + threadIdx.x) of operand `x`: from its tile when it is read
// through one, else straight from memory (a run along axis 1 across the warp).
template <class E>
__device__ __forceinline__ E tile_get(Tile<E>& t, bool tiled, const E* __restrict__ x,
                                      const Strided& s, long long r, long long c, int j) {
    return tiled ? t.row(threadIdx.x)[j] : x[s.offset + r * s.strides[0] + c * s.strides[1]];
}

// Grid-stride loop over the tiles of an R x C shape: `load(r0, c0)` fills the shared tiles,
// then `body(r, c, j)` computes element (r, c) = (r0 + j, c0 + threadIdx.x).
template <class Load, class Body>
__device__ __forceinline__ void tiled_loop(long long R, long long C, Load load, Body body) {
    const long long tc = (C + TILE - 1) / TILE;
    const long long tiles = ((R + TILE - 1) / TILE) * tc;
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const long long r0 = (t / tc) * TILE, c0 = (t % tc) * TILE;
        load(r0, c0);
        __syncthreads();
        const long long c = c0 + threadIdx.x;
        if (c < C) {
            for (int j = threadIdx.y; j < TILE; j += TILE_ROWS) {
                const long long r = r0 + j;
                if (r < R) body(r, c, j);
            }
        }
        __syncthreads();
    }
}

#ifdef OP
typedef typename lift<OP, T>::type Fn;
static_assert(is_same<typename Fn::out, OUT>::value, "OUT is not the op's result type");
#define EW_PARAMS T p0, T p1, double d0, double d1, long long k
#define EW_FN                                  \
    OpParams<T> prm;                           \
    prm.t0 = p0;                               \
    prm.t1 = p1;                               \
    prm.d0 = d0;                               \
    prm.d1 = d1;                               \
    prm.k = k;                                 \
    const Fn f(prm)
#define EW_ARGS from_bytes<T>(a.t0), from_bytes<T>(a.t1), a.d0, a.d1, a.k
#endif

typedef Pack<T, VW> PackT;
typedef Pack<OUT, VW> PackO;
typedef raw_t<T, VW> RawT;
typedef raw_t<OUT, VW> RawO;

#if defined(EW_UNARY)

__device__ __forceinline__ void contig_body(OUT* __restrict__ out, const T* __restrict__ x, long long n,
                                     long long head, EW_PARAMS) {
    EW_FN;
    const RawT* xv = (const RawT*)(x + head);
    RawO* ov = (RawO*)(out + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackT px;
            PackO po;
            px.raw = xv[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) po.v[e] = f(px.v[e]);
            ov[j] = po.raw;
        },
        [&](long long i) { out[i] = f(x[i]); });
}

__device__ __forceinline__ void strided_body(OUT* __restrict__ out, const T* __restrict__ x, const Strided& sx,
                                      long long n, EW_PARAMS) {
    EW_FN;
    strided_loop(n, [&](auto i) {
        out[i] = f(x[offset1(sx, i)]);
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((OUT*)a.out, (const T*)a.x[0], a.n, a.head, EW_ARGS);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((OUT*)a.out, (const T*)a.x[0], a.v[0], a.n, EW_ARGS);
}

__device__ __forceinline__ void tiled_body(OUT* __restrict__ out, const T* __restrict__ x,
                                    const Strided& sx, EW_PARAMS) {
    EW_FN;
    __shared__ Tile<T> tx;
    const bool ttx = tile_transposed(sx);
    const long long C = sx.shape[1];
    tiled_loop(
        sx.shape[0], C,
        [&](long long r0, long long c0) {
            if (ttx) tile_load(tx, x, sx, r0, c0);
        },
        [&](long long r, long long c, int j) { out[r * C + c] = f(tile_get(tx, ttx, x, sx, r, c, j)); });
}

extern "C" __global__ void __launch_bounds__(256) ew_tiled(EwStrided a) {
    tiled_body((OUT*)a.out, (const T*)a.x[0], a.v[0], EW_ARGS);
}

#elif defined(EW_BINARY)

__device__ __forceinline__ void contig_body(OUT* __restrict__ out, const T* __restrict__ a,
                                     const T* __restrict__ b, long long n, long long head,
                                     EW_PARAMS) {
    EW_FN;
    const RawT* av = (const RawT*)(a + head);
    const RawT* bv = (const RawT*)(b + head);
    RawO* ov = (RawO*)(out + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackT pa, pb;
            PackO po;
            pa.raw = av[j];
            pb.raw = bv[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) po.v[e] = f(pa.v[e], pb.v[e]);
            ov[j] = po.raw;
        },
        [&](long long i) { out[i] = f(a[i], b[i]); });
}

__device__ __forceinline__ void strided_body(OUT* __restrict__ out, const T* __restrict__ a,
                                      const T* __restrict__ b, const Strided& sa, const Strided& sb, long long n,
                                      EW_PARAMS) {
    EW_FN;
    strided_loop(n, [&](auto i) {
        long long oa, ob;
        offsets2(sa, sb, i, oa, ob);
        out[i] = f(a[oa], b[ob]);
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((OUT*)a.out, (const T*)a.x[0], (const T*)a.x[1], a.n, a.head, EW_ARGS);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((OUT*)a.out, (const T*)a.x[0], (const T*)a.x[1], a.v[0], a.v[1], a.n, EW_ARGS);
}

__device__ __forceinline__ void tiled_body(OUT* __restrict__ out, const T* __restrict__ a,
                                    const T* __restrict__ b, const Strided& sa,
                                    const Strided& sb, EW_PARAMS) {
    EW_FN;
    __shared__ Tile<T> ta, tb;
    const bool tta = tile_transposed(sa), ttb = tile_transposed(sb);
    const long long C = sa.shape[1];
    tiled_loop(
        sa.shape[0], C,
        [&](long long r0, long long c0) {
            if (tta) tile_load(ta, a, sa, r0, c0);
            if (ttb) tile_load(tb, b, sb, r0, c0);
        },
        [&](long long r, long long c, int j) {
            out[r * C + c] = f(tile_get(ta, tta, a, sa, r, c, j), tile_get(tb, ttb, b, sb, r, c, j));
        });
}

extern "C" __global__ void __launch_bounds__(256) ew_tiled(EwStrided a) {
    tiled_body((OUT*)a.out, (const T*)a.x[0], (const T*)a.x[1], a.v[0], a.v[1], EW_ARGS);
}

#elif defined(EW_SCALAR) || defined(EW_RSCALAR)

#ifdef EW_SCALAR
#define EW_APPLY(v) f(v, s)
#else
#define EW_APPLY(v) f(s, v)
#endif

__device__ __forceinline__ void contig_body(OUT* __restrict__ out, const T* __restrict__ a, T s,
                                     long long n, long long head, EW_PARAMS) {
    EW_FN;
    const RawT* av = (const RawT*)(a + head);
    RawO* ov = (RawO*)(out + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackT pa;
            PackO po;
            pa.raw = av[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) po.v[e] = EW_APPLY(pa.v[e]);
            ov[j] = po.raw;
        },
        [&](long long i) { out[i] = EW_APPLY(a[i]); });
}

__device__ __forceinline__ void strided_body(OUT* __restrict__ out, const T* __restrict__ a, T s,
                                      const Strided& sa, long long n, EW_PARAMS) {
    EW_FN;
    strided_loop(n, [&](auto i) {
        out[i] = EW_APPLY(a[offset1(sa, i)]);
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((OUT*)a.out, (const T*)a.x[0], from_bytes<T>(a.s), a.n, a.head, EW_ARGS);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((OUT*)a.out, (const T*)a.x[0], from_bytes<T>(a.s), a.v[0], a.n, EW_ARGS);
}

#elif defined(EW_UNARY_INPLACE)

__device__ __forceinline__ void contig_body(T* x, long long n, long long head, EW_PARAMS) {
    EW_FN;
    RawT* xv = (RawT*)(x + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackT px;
            px.raw = xv[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) px.v[e] = f(px.v[e]);
            xv[j] = px.raw;
        },
        [&](long long i) { x[i] = f(x[i]); });
}

__device__ __forceinline__ void strided_body(T* x, const Strided& sx, long long n, EW_PARAMS) {
    EW_FN;
    strided_loop(n, [&](auto i) {
        const long long o = offset1(sx, i);
        x[o] = f(x[o]);
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((T*)a.x[0], a.n, a.head, EW_ARGS);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((T*)a.x[0], a.v[0], a.n, EW_ARGS);
}

#elif defined(EW_BINARY_INPLACE)

__device__ __forceinline__ void contig_body(T* __restrict__ a, const T* __restrict__ b, long long n,
                                     long long head, EW_PARAMS) {
    EW_FN;
    RawT* av = (RawT*)(a + head);
    const RawT* bv = (const RawT*)(b + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackT pa, pb;
            pa.raw = av[j];
            pb.raw = bv[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) pa.v[e] = f(pa.v[e], pb.v[e]);
            av[j] = pa.raw;
        },
        [&](long long i) { a[i] = f(a[i], b[i]); });
}

__device__ __forceinline__ void strided_body(T* __restrict__ a, const T* __restrict__ b, const Strided& sa,
                                      const Strided& sb, long long n, EW_PARAMS) {
    EW_FN;
    strided_loop(n, [&](auto i) {
        long long oa, ob;
        offsets2(sa, sb, i, oa, ob);
        a[oa] = f(a[oa], b[ob]);
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((T*)a.x[0], (const T*)a.x[1], a.n, a.head, EW_ARGS);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((T*)a.x[0], (const T*)a.x[1], a.v[0], a.v[1], a.n, EW_ARGS);
}

#elif defined(EW_SCALAR_INPLACE)

__device__ __forceinline__ void contig_body(T* a, T s, long long n, long long head, EW_PARAMS) {
    EW_FN;
    RawT* av = (RawT*)(a + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackT pa;
            pa.raw = av[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) pa.v[e] = f(pa.v[e], s);
            av[j] = pa.raw;
        },
        [&](long long i) { a[i] = f(a[i], s); });
}

__device__ __forceinline__ void strided_body(T* a, T s, const Strided& sa, long long n, EW_PARAMS) {
    EW_FN;
    strided_loop(n, [&](auto i) {
        const long long o = offset1(sa, i);
        a[o] = f(a[o], s);
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((T*)a.x[0], from_bytes<T>(a.s), a.n, a.head, EW_ARGS);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((T*)a.x[0], from_bytes<T>(a.s), a.v[0], a.n, EW_ARGS);
}

#elif defined(EW_WHERE)

typedef Pack<bool, VW> PackC;
typedef raw_t<bool, VW> RawC;

__device__ __forceinline__ void contig_body(T* __restrict__ out, const bool* __restrict__ c,
                                     const T* __restrict__ a, const T* __restrict__ b, long long n,
                                     long long head) {
    const RawC* cv = (const RawC*)(c + head);
    const RawT* av = (const RawT*)(a + head);
    const RawT* bv = (const RawT*)(b + head);
    RawT* ov = (RawT*)(out + head);
    contig_loop(
        n, head,
        [&](long long j) {
            PackC pc;
            PackT pa, pb, po;
            pc.raw = cv[j];
            pa.raw = av[j];
            pb.raw = bv[j];
#pragma unroll
            for (int e = 0; e < VW; ++e) po.v[e] = pc.v[e] ? pa.v[e] : pb.v[e];
            ov[j] = po.raw;
        },
        [&](long long i) { out[i] = c[i] ? a[i] : b[i]; });
}

__device__ __forceinline__ void strided_body(T* __restrict__ out, const bool* __restrict__ c,
                                      const T* __restrict__ a, const T* __restrict__ b, const Strided& sc,
                                      const Strided& sa, const Strided& sb, long long n) {
    strided_loop(n, [&](auto i) {
        long long oc, oa, ob;
        offsets3(sc, sa, sb, i, oc, oa, ob);
        out[i] = c[oc] ? a[oa] : b[ob];
    });
}

extern "C" __global__ void ew_contig(EwContig a) {
    contig_body((T*)a.out, (const bool*)a.x[0], (const T*)a.x[1], (const T*)a.x[2], a.n, a.head);
}

extern "C" __global__ void ew_strided(EwStrided a) {
    strided_body((T*)a.out, (const bool*)a.x[0], (const T*)a.x[1], (const T*)a.x[2], a.v[0], a.v[1], a.v[2], a.n);
}

#else
#error "elementwise.cu: define one EW_* variant"
#endif
