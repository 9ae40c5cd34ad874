// matmul.cu: the kernels of the batched matrix product that cuBLAS does not cover. Two
// sections, each compiled on its own:
//   MM_GATHER (defines T):               gather32, gather64 — a strided view to a contiguous
//                                        buffer (operands cuBLAS cannot read in place)
//   MM_INT    (defines T, ACC, MM_TILE,  gemm_int_tiled, gemm_int_dot, gemm_int_reduce — the
//              MM_TILE_K, MM_THREADS)    integer GEMM (u8, i32, i64), wrapping like NumPy
//
// Integer arithmetic runs in the unsigned accumulator type ACC (u32 for u8 and i32, u64 for
// i64): unsigned overflow is defined in C++, and sums and products modulo 2^32 (2^64) reduce to
// the same value modulo 2^8 (2^32) as the wrapping arithmetic of the element type, so the final
// conversion to T gives exactly what `wrapping_mul`/`wrapping_add` in any order give.
//
// Operands: element [i, p] of batch item z of A lives at a[strided_offset(ab, z) + i*a_rs +
// p*a_cs] (likewise B with bb, b_rs, b_cs); strides may be negative or zero. `ab`/`bb` hold
// the collapsed batch axes (ndim 0 for one item) and the view's offset. The output is the
// C-contiguous [batch, m, n]. With `splits > 1` each launch item covers one slice of the
// inner dimension and writes its partial sums to `ws` ([splits][batch*m*n] of ACC), which
// gemm_int_reduce adds up in order (split-K, for few outputs over a long inner dimension).

#ifdef MM_GATHER

// out[i] = element i (C order) of the view `s`, for views of fewer than 2^31 elements.
// Parameters of `gather32` and `gather64` (mirrored field for field by `GatherArgs` in
// crates/cuda/src/matmul/params.rs).
struct GatherArgs {
    u64 out;
    u64 src;
    Strided s;
    long long n;
};

__device__ __forceinline__ void k_gather32(T* __restrict__ out, const T* __restrict__ in,
                                           const Strided& s, i64 n) {
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride) {
        out[i] = in[strided_offset32(s, i)];
    }
}

extern "C" __global__ void __launch_bounds__(256) gather32(GatherArgs a) {
    k_gather32((T*)a.out, (const T*)a.src, a.s, a.n);
}

// The same with 64-bit index arithmetic.
__device__ __forceinline__ void k_gather64(T* __restrict__ out, const T* __restrict__ in,
                                           const Strided& s, i64 n) {
    GRID_STRIDE(i, n) { out[i] = in[strided_offset(s, i)]; }
}

extern "C" __global__ void __launch_bounds__(256) gather64(GatherArgs a) {
    k_gather64((T*)a.out, (const T*)a.src, a.s, a.n);
}

#endif  // MM_GATHER

#ifdef MM_INT

// Each thread of the tiled kernel owns an MM_PER x MM_PER block of outputs, spread over the
// tile with a step of MM_TILE / MM_PER (conflict-free shared-memory reads).
#define MM_PER (MM_TILE / 16)
static_assert(MM_THREADS == 256, "the tiled kernel runs 16 x 16 threads");
static_assert(MM_TILE % 16 == 0 && (MM_TILE * MM_TILE_K) % MM_THREADS == 0, "tile shape");

__device__ __forceinline__ ACC to_acc(T x) { return (ACC)x; }

// Stores one finished output: straight to C, or as a partial sum of split `s`.
__device__ __forceinline__ void put(T* c, ACC* ws, i64 o, i64 s, i64 splits, i64 outputs,
                                    ACC v) {
    if (splits == 1) {
        c[o] = (T)v;
    } else {
        ws[s * outputs + o] = v;
    }
}

// C = A @ B with 64 x 64 output tiles per block (block (x, y) covers columns x*64.., rows
// y*64.., looping when the grid is smaller than the tile count), the inner dimension walked
// in steps of MM_TILE_K through shared memory, and blockIdx.z looping over (batch item,
// split) pairs. Loads follow whichever operand axis has unit stride, so both row- and
// column-major operands are read coalesced.
// Parameters of `gemm_int_tiled` and `gemm_int_dot` (mirrored field for field by `GemmIntArgs` in
// crates/cuda/src/matmul/params.rs).
struct GemmIntArgs {
    u64 c;
    u64 ws;
    u64 a;
    u64 b;
    long long m;
    long long n;
    long long k;
    long long a_rs;
    long long a_cs;
    long long b_rs;
    long long b_cs;
    Strided ab;
    Strided bb;
    long long batch;
    long long splits;
    long long kchunk;
};

__device__ __forceinline__ void k_gemm_int_tiled(T* __restrict__ c, ACC* __restrict__ ws,
                                                 const T* __restrict__ a, const T* __restrict__ b,
                                                 i64 m, i64 n, i64 k, i64 a_rs, i64 a_cs, i64 b_rs,
                                                 i64 b_cs, const Strided& ab, const Strided& bb,
                                                 i64 batch, i64 splits, i64 kchunk) {
    __shared__ ACC As[MM_TILE_K][MM_TILE + 1];
    __shared__ ACC Bs[MM_TILE_K][MM_TILE + 1];
    const int t = threadIdx.x, tx = t & 15, ty = t >> 4;
    const i64 outputs = batch * m * n;
    const i64 items = batch * splits;
    for (i64 zz = blockIdx.z; zz < items; zz += gridDim.z) {
        const i64 z = zz / splits, s = zz - z * splits;
        const T* pa = a + strided_offset(ab, z);
        const T* pb = b + strided_offset(bb, z);
        const i64 p_begin = s * kchunk;
        const i64 p_end = min(k, p_begin + kchunk);
        for (i64 tm = blockIdx.y; tm * MM_TILE < m; tm += gridDim.y) {
            for (i64 tn = blockIdx.x; tn * MM_TILE < n; tn += gridDim.x) {
                const i64 i0 = tm * MM_TILE, j0 = tn * MM_TILE;
                ACC acc[MM_PER][MM_PER];
#pragma unroll
                for (int u = 0; u < MM_PER; ++u)
#pragma unroll
                    for (int v = 0; v < MM_PER; ++v) acc[u][v] = 0;
                for (i64 p0 = p_begin; p0 < p_end; p0 += MM_TILE_K) {
#pragma unroll
                    for (int e0 = 0; e0 < MM_TILE * MM_TILE_K; e0 += MM_THREADS) {
                        const int e = e0 + t;
                        int r, q;
                        if (a_cs == 1) {
                            r = e / MM_TILE_K;
                            q = e % MM_TILE_K;
                        } else {
                            r = e % MM_TILE;
                            q = e / MM_TILE;
                        }
                        const i64 i = i0 + r, p = p0 + q;
                        As[q][r] = (i < m && p < p_end) ? to_acc(pa[i * a_rs + p * a_cs]) : (ACC)0;
                    }
#pragma unroll
                    for (int e0 = 0; e0 < MM_TILE * MM_TILE_K; e0 += MM_THREADS) {
                        const int e = e0 + t;
                        int q, col;
                        if (b_rs == 1 && b_cs != 1) {
                            q = e % MM_TILE_K;
                            col = e / MM_TILE_K;
                        } else {
                            q = e / MM_TILE;
                            col = e % MM_TILE;
                        }
                        const i64 p = p0 + q, j = j0 + col;
                        Bs[q][col] = (p < p_end && j < n) ? to_acc(pb[p * b_rs + j * b_cs]) : (ACC)0;
                    }
                    __syncthreads();
#pragma unroll
                    for (int q = 0; q < MM_TILE_K; ++q) {
                        ACC av[MM_PER], bv[MM_PER];
#pragma unroll
                        for (int u = 0; u < MM_PER; ++u) av[u] = As[q][ty + 16 * u];
#pragma unroll
                        for (int v = 0; v < MM_PER; ++v) bv[v] = Bs[q][tx + 16 * v];
#pragma unroll
                        for (int u = 0; u < MM_PER; ++u)
#pragma unroll
                            for (int v = 0; v < MM_PER; ++v) acc[u][v] += av[u] * bv[v];
                    }
                    __syncthreads();
                }
#pragma unroll
                for (int u = 0; u < MM_PER; ++u) {
                    const i64 i = i0 + ty + 16 * u;
#pragma unroll
                    for (int v = 0; v < MM_PER; ++v) {
                        const i64 j = j0 + tx + 16 * v;
                        if (i < m && j < n) put(c, ws, (z * m + i) * n + j, s, splits, outputs, acc[u][v]);
                    }
                }
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(MM_THREADS) gemm_int_tiled(GemmIntArgs a) {
    k_gemm_int_tiled((T*)a.c, (ACC*)a.ws, (const T*)a.a, (const T*)a.b, a.m, a.n, a.k, a.a_rs,
                     a.a_cs, a.b_rs, a.b_cs, a.ab, a.bb, a.batch, a.splits, a.kchunk);
}

// C = A @ B for few or thin outputs (matrix-vector, vector-matrix, dot products): one warp
// per (output, split), its lanes striding the inner dimension, then a shuffle reduction.
// Warps loop grid-stride over the (split, batch item, row, column) items.
__device__ __forceinline__ void k_gemm_int_dot(T* __restrict__ c, ACC* __restrict__ ws,
                                               const T* __restrict__ a, const T* __restrict__ b,
                                               i64 m, i64 n, i64 k, i64 a_rs, i64 a_cs, i64 b_rs,
                                               i64 b_cs, const Strided& ab, const Strided& bb,
                                               i64 batch, i64 splits, i64 kchunk) {
    const i64 mn = m * n;
    const i64 outputs = batch * mn;
    const i64 items = outputs * splits;
    const int lane = threadIdx.x & 31;
    const i64 nwarps = ((i64)gridDim.x * blockDim.x) >> 5;
    for (i64 w = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; w < items; w += nwarps) {
        const i64 s = w / outputs, o = w - s * outputs;
        const i64 z = o / mn, ij = o - z * mn;
        const i64 i = ij / n, j = ij - i * n;
        const T* pa = a + strided_offset(ab, z) + i * a_rs;
        const T* pb = b + strided_offset(bb, z) + j * b_cs;
        const i64 p_end = min(k, s * kchunk + kchunk);
        ACC acc = 0;
        for (i64 p = s * kchunk + lane; p < p_end; p += 32) {
            acc += to_acc(pa[p * a_cs]) * to_acc(pb[p * b_rs]);
        }
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, d);
        if (lane == 0) put(c, ws, o, s, splits, outputs, acc);
    }
}

extern "C" __global__ void __launch_bounds__(MM_THREADS) gemm_int_dot(GemmIntArgs a) {
    k_gemm_int_dot((T*)a.c, (ACC*)a.ws, (const T*)a.a, (const T*)a.b, a.m, a.n, a.k, a.a_rs, a.a_cs,
                   a.b_rs, a.b_cs, a.ab, a.bb, a.batch, a.splits, a.kchunk);
}

// c[o] = sum over splits of ws[split][o] (the second pass of split-K).
// Parameters of `gemm_int_reduce` (mirrored field for field by `GemmIntReduceArgs` in
// crates/cuda/src/matmul/params.rs).
struct GemmIntReduceArgs {
    u64 c;
    u64 ws;
    long long outputs;
    long long splits;
};

__device__ __forceinline__ void k_gemm_int_reduce(T* __restrict__ c, const ACC* __restrict__ ws,
                                                  i64 outputs, i64 splits) {
    GRID_STRIDE(o, outputs) {
        ACC acc = 0;
        for (i64 s = 0; s < splits; ++s) acc += ws[s * outputs + o];
        c[o] = (T)acc;
    }
}

extern "C" __global__ void __launch_bounds__(256) gemm_int_reduce(GemmIntReduceArgs a) {
    k_gemm_int_reduce((T*)a.c, (const ACC*)a.ws, a.outputs, a.splits);
}

#endif  // MM_INT
