// memory.cu: fills, copies, casts and ramps. Three sections, each compiled on its own:
//   MEM_FILL   (defines T):        fill_contig, fill_strided32, fill_strided64
//   MEM_CONV   (defines IN, OUT, MEM_TILE, MEM_TILE_ROWS):
//              conv_contig, conv_gather32/64, conv_scatter32/64, conv_tile
//              (a copy is the conversion of a type to itself)
//   MEM_ARANGE (defines T):        arange
// Every kernel loops grid-stride, so any grid of at least one block covers the work.

#ifdef MEM_FILL

// 16 bytes of `value` repeated, for vector stores.
union FillPack {
    T v[16 / sizeof(T)];
    uint4 u;
};

// out[0..n) = value. Elements before the first 16-byte boundary and after the last whole
// 16-byte vector are written one by one; the body with 16-byte stores.
// Parameters of `fill_contig` (mirrored field for field by `FillContigArgs` in
// crates/cuda/src/memory/params.rs).
struct FillContigArgs {
    u64 out;
    long long n;
    Bytes16 value;
};

__device__ __forceinline__ void k_fill_contig(T* out, i64 n, T value) {
    const int V = 16 / sizeof(T);
    const u64 addr = (u64)out;
    i64 head = (i64)(((16 - (addr & 15)) & 15) / sizeof(T));
    if (head > n) head = n;
    const i64 nv = (n - head) / V;
    FillPack p;
#pragma unroll
    for (int j = 0; j < V; ++j) p.v[j] = value;
    uint4* vout = (uint4*)(out + head);
    GRID_STRIDE(i, nv) { vout[i] = p.u; }
    const i64 tid = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    const i64 tail = head + nv * V;
    if (tid < head) out[tid] = value;
    if (tid < n - tail) out[tail + tid] = value;
}

extern "C" __global__ void fill_contig(FillContigArgs a) {
    k_fill_contig((T*)a.out, a.n, from_bytes<T>(a.value));
}

// Every element of a strided view (no two elements share an address).
// Parameters of `fill_strided32` and `fill_strided64` (mirrored field for field by `FillStridedArgs` in
// crates/cuda/src/memory/params.rs).
struct FillStridedArgs {
    u64 out;
    Strided s;
    long long n;
    Bytes16 value;
};

__device__ __forceinline__ void k_fill_strided32(T* out, const Strided& s, i64 n, T value) {
    GRID_STRIDE(i, n) { out[strided_offset32(s, (unsigned)i)] = value; }
}

extern "C" __global__ void fill_strided32(FillStridedArgs a) {
    k_fill_strided32((T*)a.out, a.s, a.n, from_bytes<T>(a.value));
}

__device__ __forceinline__ void k_fill_strided64(T* out, const Strided& s, i64 n, T value) {
    GRID_STRIDE(i, n) { out[strided_offset(s, i)] = value; }
}

extern "C" __global__ void fill_strided64(FillStridedArgs a) {
    k_fill_strided64((T*)a.out, a.s, a.n, from_bytes<T>(a.value));
}

#endif  // MEM_FILL

#ifdef MEM_CONV

// out[i] = cast<OUT>(in[i]) for contiguous runs (four independent loads in flight a thread).
// Parameters of `conv_contig` (mirrored field for field by `ConvContigArgs` in
// crates/cuda/src/memory/params.rs).
struct ConvContigArgs {
    u64 out;
    u64 src;
    long long n;
};

__device__ __forceinline__ void k_conv_contig(OUT* __restrict__ out, const IN* __restrict__ in,
                                              i64 n) {
    const i64 stride = (i64)gridDim.x * blockDim.x;
    i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        IN a0 = in[i], a1 = in[i + stride], a2 = in[i + 2 * stride], a3 = in[i + 3 * stride];
        out[i] = cast<OUT>(a0);
        out[i + stride] = cast<OUT>(a1);
        out[i + 2 * stride] = cast<OUT>(a2);
        out[i + 3 * stride] = cast<OUT>(a3);
    }
    for (; i < n; i += stride) out[i] = cast<OUT>(in[i]);
}

extern "C" __global__ void conv_contig(ConvContigArgs a) {
    k_conv_contig((OUT*)a.out, (const IN*)a.src, a.n);
}

// Contiguous out[i] from the strided view `s` of `in` (C order).
// Parameters of `conv_gather32` and `conv_gather64` (mirrored field for field by `ConvGatherArgs` in
// crates/cuda/src/memory/params.rs).
struct ConvGatherArgs {
    u64 out;
    u64 src;
    Strided s;
    long long n;
};

__device__ __forceinline__ void k_conv_gather32(OUT* __restrict__ out, const IN* __restrict__ in,
                                                const Strided& s, i64 n) {
    GRID_STRIDE(i, n) { out[i] = cast<OUT>(in[strided_offset32(s, (unsigned)i)]); }
}

extern "C" __global__ void conv_gather32(ConvGatherArgs a) {
    k_conv_gather32((OUT*)a.out, (const IN*)a.src, a.s, a.n);
}

__device__ __forceinline__ void k_conv_gather64(OUT* __restrict__ out, const IN* __restrict__ in,
                                                const Strided& s, i64 n) {
    GRID_STRIDE(i, n) { out[i] = cast<OUT>(in[strided_offset(s, i)]); }
}

extern "C" __global__ void conv_gather64(ConvGatherArgs a) {
    k_conv_gather64((OUT*)a.out, (const IN*)a.src, a.s, a.n);
}

// The strided view `d` of `out` from the strided view `s` of `in` (same shape; `d` has no
// overlapping elements and shares no memory with `s`).
// Parameters of `conv_scatter32` and `conv_scatter64` (mirrored field for field by `ConvScatterArgs` in
// crates/cuda/src/memory/params.rs).
struct ConvScatterArgs {
    u64 out;
    Strided d;
    u64 src;
    Strided s;
    long long n;
};

__device__ __forceinline__ void k_conv_scatter32(OUT* __restrict__ out, const Strided& d,
                                                 const IN* __restrict__ in, const Strided& s, i64 n) {
    GRID_STRIDE(i, n) {
        out[strided_offset32(d, (unsigned)i)] = cast<OUT>(in[strided_offset32(s, (unsigned)i)]);
    }
}

extern "C" __global__ void conv_scatter32(ConvScatterArgs a) {
    k_conv_scatter32((OUT*)a.out, a.d, (const IN*)a.src, a.s, a.n);
}

__device__ __forceinline__ void k_conv_scatter64(OUT* __restrict__ out, const Strided& d,
                                                 const IN* __restrict__ in, const Strided& s, i64 n) {
    GRID_STRIDE(i, n) { out[strided_offset(d, i)] = cast<OUT>(in[strided_offset(s, i)]); }
}

extern "C" __global__ void conv_scatter64(ConvScatterArgs a) {
    k_conv_scatter64((OUT*)a.out, a.d, (const IN*)a.src, a.s, a.n);
}

// A batch of 2-D transposes through shared memory, for views where axis `k` is (nearly)
// contiguous in the source and axis `l` in the destination: each block moves
// MEM_TILE x MEM_TILE tiles (MEM_TILE, a multiple of 32, is defined by the host), reading rows
// along `k` and writing rows along `l`, so both sides are coalesced. The other axes of `d`/`s`
// (same shape) are the batch. Block: (32, MEM_TILE_ROWS). Tiles are numbered (batch, tile
// along k, tile along l) in C order.
// Parameters of `conv_tile` (mirrored field for field by `ConvTileArgs` in
// crates/cuda/src/memory/params.rs).
struct ConvTileArgs {
    u64 out;
    Strided d;
    u64 src;
    Strided s;
    int k;
    int l;
    long long tiles_k;
    long long tiles_l;
    long long ntiles;
};

__device__ __forceinline__ void k_conv_tile(OUT* __restrict__ out, const Strided& d,
                                            const IN* __restrict__ in, const Strided& s, int k,
                                            int l, i64 tiles_k, i64 tiles_l, i64 ntiles) {
    __shared__ OUT tile[MEM_TILE][MEM_TILE + 1];  // [along l][along k]
    const i64 nk = s.shape[k], nl = s.shape[l];
    const i64 sk = s.strides[k], sl = s.strides[l];
    const i64 dk = d.strides[k], dl = d.strides[l];
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (i64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
        i64 r = t / tiles_l;
        const i64 tl = t - r * tiles_l;
        i64 b = r / tiles_k;
        const i64 tk = r - b * tiles_k;
        i64 in_off = s.offset, out_off = d.offset;
        for (int a = s.ndim - 1; a >= 0; --a) {
            if (a == k || a == l) continue;
            const i64 na = s.shape[a];
            const i64 q = b / na;
            const i64 ia = b - q * na;
            b = q;
            in_off += ia * s.strides[a];
            out_off += ia * d.strides[a];
        }
        const i64 k0 = tk * MEM_TILE, l0 = tl * MEM_TILE;
        const IN* src = in + (in_off + k0 * sk + l0 * sl);
        OUT* dst = out + (out_off + k0 * dk + l0 * dl);
        const int vk = (int)min((i64)MEM_TILE, nk - k0);
        const int vl = (int)min((i64)MEM_TILE, nl - l0);
#pragma unroll
        for (int c = tx; c < MEM_TILE; c += 32) {
#pragma unroll
            for (int j = ty; j < MEM_TILE; j += MEM_TILE_ROWS) {
                if (c < vk && j < vl) tile[j][c] = cast<OUT>(src[c * sk + j * sl]);
            }
        }
        __syncthreads();
#pragma unroll
        for (int c = tx; c < MEM_TILE; c += 32) {
#pragma unroll
            for (int j = ty; j < MEM_TILE; j += MEM_TILE_ROWS) {
                if (c < vl && j < vk) dst[j * dk + c * dl] = tile[c][j];
            }
        }
        __syncthreads();
    }
}

extern "C" __global__ void __launch_bounds__(32 * MEM_TILE_ROWS) conv_tile(ConvTileArgs a) {
    k_conv_tile((OUT*)a.out, a.d, (const IN*)a.src, a.s, a.k, a.l, a.tiles_k, a.tiles_l, a.ntiles);
}

#endif  // MEM_CONV

#ifdef MEM_ARANGE

// start + i * step exactly as the host computes it: integers wrap (unsigned arithmetic, no
// undefined overflow), floats round each operation separately (no fused multiply-add), the
// index converts through double, complex multiplication is num-complex's
// (re*re - im*im, re*im + im*re) with the index as (i, 0).
// Integers: the index wraps to the type first (as the host's `i as T`), then a + i * s in
// the unsigned type of the arithmetic.
#define CUPRITE_INT_RAMP(T, U) \
    __device__ __forceinline__ T ramp(i64 i, T a, T s) { \
        return (T)((U)a + (U)(T)i * (U)s); \
    }
CUPRITE_INT_RAMP(i8, u32)
CUPRITE_INT_RAMP(u8, u32)
CUPRITE_INT_RAMP(i16, u32)
CUPRITE_INT_RAMP(u16, u32)
CUPRITE_INT_RAMP(i32, u32)
CUPRITE_INT_RAMP(u32, u32)
CUPRITE_INT_RAMP(i64, u64)
CUPRITE_INT_RAMP(u64, u64)
__device__ __forceinline__ float ramp(i64 i, float a, float s) {
    return __fadd_rn(a, __fmul_rn((float)(double)i, s));
}
// 16-bit floats: in f32, rounded once (NumPy's float16 fill).
__device__ __forceinline__ f16 ramp(i64 i, f16 a, f16 s) {
    return f16(__fadd_rn((float)a, __fmul_rn((float)(double)i, (float)s)));
}
__device__ __forceinline__ bf16 ramp(i64 i, bf16 a, bf16 s) {
    return bf16(__fadd_rn((float)a, __fmul_rn((float)(double)i, (float)s)));
}
__device__ __forceinline__ double ramp(i64 i, double a, double s) {
    return __dadd_rn(a, __dmul_rn((double)i, s));
}
__device__ __forceinline__ c64 ramp(i64 i, c64 a, c64 s) {
    const float x = (float)(double)i, z = 0.0f;
    const float re = __fsub_rn(__fmul_rn(x, s.re), __fmul_rn(z, s.im));
    const float im = __fadd_rn(__fmul_rn(x, s.im), __fmul_rn(z, s.re));
    return mk(__fadd_rn(a.re, re), __fadd_rn(a.im, im));
}
__device__ __forceinline__ c128 ramp(i64 i, c128 a, c128 s) {
    const double x = (double)i, z = 0.0;
    const double re = __dsub_rn(__dmul_rn(x, s.re), __dmul_rn(z, s.im));
    const double im = __dadd_rn(__dmul_rn(x, s.im), __dmul_rn(z, s.re));
    return mk(__dadd_rn(a.re, re), __dadd_rn(a.im, im));
}

// Parameters of `arange` (mirrored field for field by `ArangeArgs` in
// crates/cuda/src/memory/params.rs).
struct ArangeArgs {
    u64 out;
    long long n;
    Bytes16 start;
    Bytes16 step;
};

__device__ __forceinline__ void k_arange(T* out, i64 n, T start, T step) {
    GRID_STRIDE(i, n) { out[i] = ramp(i, start, step); }
}

extern "C" __global__ void arange(ArangeArgs a) {
    k_arange((T*)a.out, a.n, from_bytes<T>(a.start), from_bytes<T>(a.step));
}

#endif  // MEM_ARANGE
