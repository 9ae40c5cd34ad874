// small_linalg.cu: LU with partial pivoting, its solve (and the inverse) and Cholesky of
// batches of small column-major matrices (n <= 32), stored one after the other, in one
// launch for the whole batch. One program per element type T (float, double, c64, c128); R
// is its real type.
//
// Layout of the work: a warp holds 32 / W matrices, one per segment of W consecutive lanes
// (W = 4, 8, 16 or 32, the smallest with n <= W); lane i of a segment holds row i of its
// matrix in registers (row[j] = A(i, j)). Every step of an elimination broadcasts a row or a
// column within the segment with __shfl_sync(width W), so a matrix never goes through memory
// between its load and its store. The loops over columns are unrolled to W, so `row` stays in
// registers; a runtime n below W only masks steps. Every lane of the warp executes every
// shuffle (dead segments and lanes past n compute on zeros and store nothing).
//
//   small_lu_W        P A = L U (LAPACK getrf): the pivot of column k is the first row of
//                     largest |x| (|re| + |im| for complex, as LAPACK's i?amax) at or below
//                     k; a NaN there is taken only in row k (as the sequential search does);
//                     an exactly zero pivot divides nothing (U keeps the zero, as LAPACK).
//                     Pivots are stored 1-based.
//   small_solve_W     X = A^-1 B from the factors (LAPACK getrs, no transpose): the row swaps
//                     applied to B, then L (unit) and U substitutions; B may be absent (the
//                     identity: the inverse).
//   small_cholesky_W  A = L L^H from the lower triangle (LAPACK potrf): info = k + 1 for the
//                     first diagonal step k whose value is not positive (or NaN); the factor
//                     is unspecified after it, as LAPACK's. The strict upper triangle of L is
//                     zero.

typedef real_of<T>::type R;

__device__ __forceinline__ float sl_shfl(float v, int src, int w) {
    return __shfl_sync(0xffffffffu, v, src, w);
}
__device__ __forceinline__ double sl_shfl(double v, int src, int w) {
    return __shfl_sync(0xffffffffu, v, src, w);
}
__device__ __forceinline__ int sl_shfl(int v, int src, int w) {
    return __shfl_sync(0xffffffffu, v, src, w);
}
template <class Q> __device__ __forceinline__ cplx<Q> sl_shfl(cplx<Q> v, int src, int w) {
    return mk(sl_shfl(v.re, src, w), sl_shfl(v.im, src, w));
}
__device__ __forceinline__ float sl_xor(float v, int m, int w) {
    return __shfl_xor_sync(0xffffffffu, v, m, w);
}
__device__ __forceinline__ double sl_xor(double v, int m, int w) {
    return __shfl_xor_sync(0xffffffffu, v, m, w);
}
__device__ __forceinline__ int sl_xor(int v, int m, int w) {
    return __shfl_xor_sync(0xffffffffu, v, m, w);
}

// The magnitude LAPACK pivots on: |x|, or |re| + |im| for complex.
__device__ __forceinline__ float sl_abs1(float x) { return fabsf(x); }
__device__ __forceinline__ double sl_abs1(double x) { return fabs(x); }
template <class Q> __device__ __forceinline__ Q sl_abs1(cplx<Q> x) { return sl_abs1(x.re) + sl_abs1(x.im); }

__device__ __forceinline__ float sl_re(float x) { return x; }
__device__ __forceinline__ double sl_re(double x) { return x; }
template <class Q> __device__ __forceinline__ Q sl_re(cplx<Q> x) { return x.re; }

__device__ __forceinline__ float sl_conj(float x) { return x; }
__device__ __forceinline__ double sl_conj(double x) { return x; }
template <class Q> __device__ __forceinline__ cplx<Q> sl_conj(cplx<Q> x) { return mk(x.re, -x.im); }

__device__ __forceinline__ float sl_div_real(float x, float d) { return x / d; }
__device__ __forceinline__ double sl_div_real(double x, double d) { return x / d; }
template <class Q> __device__ __forceinline__ cplx<Q> sl_div_real(cplx<Q> x, Q d) { return mk(x.re / d, x.im / d); }

__device__ __forceinline__ float sl_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double sl_sqrt(double x) { return sqrt(x); }

__device__ __forceinline__ float sl_inf(float) { return __int_as_float(0x7f800000); }
__device__ __forceinline__ double sl_inf(double) { return __longlong_as_double(0x7ff0000000000000LL); }

// The warp's place in the batch: its first matrix, how far the grid strides, and this lane's
// segment and row.
struct SlPlace {
    i64 first;
    i64 stride;
    int seg;
    int i;
};

template <int W> __device__ __forceinline__ SlPlace sl_place() {
    const int lane = threadIdx.x & 31;
    const i64 warp = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
    SlPlace p;
    p.first = warp * (32 / W);
    p.stride = warps * (32 / W);
    p.seg = lane / W;
    p.i = lane & (W - 1);
    return p;
}

// Parameters of `small_lu_W` (mirrored field for field by `SmallLuArgs` in
// crates/cuda/src/linalg/params.rs).
struct SmallLuArgs {
    u64 a;
    u64 lu;
    u64 ipiv;
    long long n;
    long long batch;
};

template <int W> __device__ __forceinline__ void k_small_lu(SmallLuArgs args) {
    const T* a = (const T*)args.a;
    T* lu = (T*)args.lu;
    int* ipiv = (int*)args.ipiv;
    const int n = (int)args.n;
    const T zero = cast<T>((i32)0);
    const SlPlace pl = sl_place<W>();
    const int i = pl.i;
    for (i64 first = pl.first; first < args.batch; first += pl.stride) {
        const i64 m = first + pl.seg;
        const bool live = m < args.batch && i < n;
        const i64 off = m * n * n;
        T row[W];
#pragma unroll
        for (int j = 0; j < W; ++j) row[j] = (live && j < n) ? a[off + (i64)j * n + i] : zero;
#pragma unroll
        for (int k = 0; k < W; ++k) {
            if (k >= n) break;
            // The pivot: the largest key, the first row of equals.
            R key = sl_abs1(row[k]);
            if (key != key) key = (i == k) ? sl_inf(key) : (R)-1;
            if (!live || i < k) key = (R)-1;
            int idx = i;
#pragma unroll
            for (int s = W / 2; s >= 1; s >>= 1) {
                const R ok = sl_xor(key, s, W);
                const int oi = sl_xor(idx, s, W);
                if (ok > key || (ok == key && oi < idx)) {
                    key = ok;
                    idx = oi;
                }
            }
            const int p = idx;
            if (live && i == k) ipiv[m * n + k] = p + 1;
            if (__any_sync(0xffffffffu, p != k)) {
                const int src = (i == k) ? p : (i == p ? k : i);
#pragma unroll
                for (int j = 0; j < W; ++j) {
                    if (j < n) row[j] = sl_shfl(row[j], src, W);
                }
            }
            const T piv = sl_shfl(row[k], k, W);
            if (i > k && piv != zero) row[k] = row[k] / piv;
#pragma unroll
            for (int j = k + 1; j < W; ++j) {
                if (j < n) {
                    const T pj = sl_shfl(row[j], k, W);
                    if (i > k) row[j] = row[j] - row[k] * pj;
                }
            }
        }
        if (live) {
#pragma unroll
            for (int j = 0; j < W; ++j) {
                if (j < n) lu[off + (i64)j * n + i] = row[j];
            }
        }
    }
}

extern "C" __global__ void small_lu_4(SmallLuArgs a) { k_small_lu<4>(a); }
extern "C" __global__ void small_lu_8(SmallLuArgs a) { k_small_lu<8>(a); }
extern "C" __global__ void small_lu_16(SmallLuArgs a) { k_small_lu<16>(a); }
extern "C" __global__ void small_lu_32(SmallLuArgs a) { k_small_lu<32>(a); }

// Parameters of `small_solve_W` (mirrored field for field by `SmallSolveArgs` in
// crates/cuda/src/linalg/params.rs). `b` is 0 for the identity.
struct SmallSolveArgs {
    u64 lu;
    u64 ipiv;
    u64 b;
    u64 x;
    long long n;
    long long nrhs;
    long long batch;
};

template <int W> __device__ __forceinline__ void k_small_solve(SmallSolveArgs args) {
    const T* lu = (const T*)args.lu;
    const int* ipiv = (const int*)args.ipiv;
    const T* b = (const T*)args.b;
    T* x = (T*)args.x;
    const int n = (int)args.n;
    const i64 nrhs = args.nrhs;
    const T zero = cast<T>((i32)0);
    const T one = cast<T>((i32)1);
    const SlPlace pl = sl_place<W>();
    const int i = pl.i;
    for (i64 first = pl.first; first < args.batch; first += pl.stride) {
        const i64 m = first + pl.seg;
        const bool live = m < args.batch && i < n;
        const i64 off = m * n * n;
        T row[W];
#pragma unroll
        for (int j = 0; j < W; ++j) row[j] = (live && j < n) ? lu[off + (i64)j * n + i] : zero;
        // Row i of the swapped right-hand side is row `perm` of b: the swaps of steps
        // n-1, ..., 0 applied to i (pivots outside [k, n) are clamped, never read out of the
        // matrix).
        const int mine = live ? ipiv[m * n + i] - 1 : i;
        int perm = i;
        for (int k = n - 1; k >= 0; --k) {
            int p = sl_shfl(mine, k, W);
            p = p < k ? k : (p >= n ? n - 1 : p);
            perm = (perm == k) ? p : (perm == p ? k : perm);
        }
        const i64 boff = m * n * nrhs;
        for (i64 c = 0; c < nrhs; ++c) {
            T v = zero;
            if (live) v = b ? b[boff + c * n + perm] : ((i64)perm == c ? one : zero);
#pragma unroll
            for (int k = 0; k < W; ++k) {
                if (k < n) {
                    const T xk = sl_shfl(v, k, W);
                    if (i > k) v = v - row[k] * xk;
                }
            }
#pragma unroll
            for (int kk = 0; kk < W; ++kk) {
                const int k = W - 1 - kk;
                if (k < n) {
                    if (i == k && v != zero) v = v / row[k];
                    const T xk = sl_shfl(v, k, W);
                    if (i < k) v = v - row[k] * xk;
                }
            }
            if (live) x[boff + c * n + i] = v;
        }
    }
}

extern "C" __global__ void small_solve_4(SmallSolveArgs a) { k_small_solve<4>(a); }
extern "C" __global__ void small_solve_8(SmallSolveArgs a) { k_small_solve<8>(a); }
extern "C" __global__ void small_solve_16(SmallSolveArgs a) { k_small_solve<16>(a); }
extern "C" __global__ void small_solve_32(SmallSolveArgs a) { k_small_solve<32>(a); }

// Parameters of `small_cholesky_W` (mirrored field for field by `SmallCholeskyArgs` in
// crates/cuda/src/linalg/params.rs).
struct SmallCholeskyArgs {
    u64 a;
    u64 l;
    u64 info;
    long long n;
    long long batch;
};

template <int W> __device__ __forceinline__ void k_small_cholesky(SmallCholeskyArgs args) {
    const T* a = (const T*)args.a;
    T* l = (T*)args.l;
    int* info = (int*)args.info;
    const int n = (int)args.n;
    const T zero = cast<T>((i32)0);
    const SlPlace pl = sl_place<W>();
    const int i = pl.i;
    for (i64 first = pl.first; first < args.batch; first += pl.stride) {
        const i64 m = first + pl.seg;
        const bool live = m < args.batch && i < n;
        const i64 off = m * n * n;
        T row[W];
#pragma unroll
        for (int j = 0; j < W; ++j) row[j] = (live && j <= i) ? a[off + (i64)j * n + i] : zero;
        int bad = 0;
#pragma unroll
        for (int k = 0; k < W; ++k) {
            if (k >= n) break;
            const R d = sl_re(sl_shfl(row[k], k, W));
            if (bad == 0 && !(d > (R)0)) bad = k + 1;
            const R s = sl_sqrt(d);
            if (i == k) row[k] = cast<T>(s);
            else if (i > k) row[k] = sl_div_real(row[k], s);
#pragma unroll
            for (int j = k + 1; j < W; ++j) {
                if (j < n) {
                    const T ljk = sl_shfl(row[k], j, W);
                    if (i >= j) row[j] = row[j] - row[k] * sl_conj(ljk);
                }
            }
        }
        if (live) {
#pragma unroll
            for (int j = 0; j < W; ++j) {
                if (j < n) l[off + (i64)j * n + i] = j <= i ? row[j] : zero;
            }
            if (i == 0) info[m] = bad;
        }
    }
}

extern "C" __global__ void small_cholesky_4(SmallCholeskyArgs a) { k_small_cholesky<4>(a); }
extern "C" __global__ void small_cholesky_8(SmallCholeskyArgs a) { k_small_cholesky<8>(a); }
extern "C" __global__ void small_cholesky_16(SmallCholeskyArgs a) { k_small_cholesky<16>(a); }
extern "C" __global__ void small_cholesky_32(SmallCholeskyArgs a) { k_small_cholesky<32>(a); }
