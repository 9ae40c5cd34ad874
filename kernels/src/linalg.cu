// linalg.cu: the element-wise steps around cuSOLVER's decompositions, on batches of
// column-major matrices stored one after the other. One program per element type T (float,
// double, c64, c128); R is its real type and CT the complex type of that precision.
//   tri_copy            a triangle of each matrix, zeros elsewhere (Cholesky's L, QR's R)
//   conj_transpose      the conjugate transpose of each matrix (SVD of wide matrices)
//   identity            identity matrices (the singular vectors of empty matrices)
//   eig_values_real     LAPACK's real/imaginary halves of real geev eigenvalues -> complex
//   eig_vectors_real    LAPACK's packed real eigenvectors -> complex, normalised
//   eig_normalise       complex eigenvectors normalised in place
// Normalised: unit Euclidean norm, the component of largest magnitude (the first of equals)
// real and positive.

typedef real_of<T>::type R;
typedef cplx<R> CT;

__device__ __forceinline__ float lin_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double lin_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float lin_hypot(float a, float b) { return hypotf(a, b); }
__device__ __forceinline__ double lin_hypot(double a, double b) { return hypot(a, b); }

template <class X> __device__ __forceinline__ X lin_conj(X x) { return x; }
template <class Q> __device__ __forceinline__ cplx<Q> lin_conj(cplx<Q> x) { return mk(x.re, -x.im); }

// out: batch matrices of rows_out x cols; in: batch matrices of rows_in x cols. Element (i, j)
// of out is in(i, j) where the triangle keeps it (upper: i <= j and i < rows_in; lower:
// i >= j), else zero. With rows_out == rows_in, out may be in (each element reads itself).
// Parameters of `tri_copy` (mirrored field for field by `TriCopyArgs` in
// crates/cuda/src/linalg/params.rs).
struct TriCopyArgs {
    u64 out;
    u64 src;
    long long rows_out;
    long long rows_in;
    long long cols;
    long long batch;
    int upper;
};

__device__ __forceinline__ void k_tri_copy(T* out, const T* in, i64 rows_out, i64 rows_in, i64 cols,
                                           i64 batch, int upper) {
    const T zero = cast<T>((i32)0);
    GRID_STRIDE(idx, batch * rows_out * cols) {
        const i64 i = idx % rows_out;
        const i64 rest = idx / rows_out;
        const i64 j = rest % cols;
        const i64 b = rest / cols;
        const bool keep = upper ? (i <= j && i < rows_in) : (i >= j);
        out[idx] = keep ? in[(b * cols + j) * rows_in + i] : zero;
    }
}

extern "C" __global__ void tri_copy(TriCopyArgs a) {
    k_tri_copy((T*)a.out, (const T*)a.src, a.rows_out, a.rows_in, a.cols, a.batch, a.upper);
}

// out (batch matrices of cols x rows) = conj(in (rows x cols))^T. out must not overlap in.
// Parameters of `conj_transpose` (mirrored field for field by `ConjTransposeArgs` in
// crates/cuda/src/linalg/params.rs).
struct ConjTransposeArgs {
    u64 out;
    u64 src;
    long long rows;
    long long cols;
    long long batch;
};

__device__ __forceinline__ void k_conj_transpose(T* out, const T* in, i64 rows, i64 cols, i64 batch) {
    GRID_STRIDE(idx, batch * rows * cols) {
        const i64 p = idx % cols;  // row of out = column of in
        const i64 rest = idx / cols;
        const i64 q = rest % rows;  // column of out = row of in
        const i64 b = rest / rows;
        out[idx] = lin_conj(in[(b * cols + p) * rows + q]);
    }
}

extern "C" __global__ void conj_transpose(ConjTransposeArgs a) {
    k_conj_transpose((T*)a.out, (const T*)a.src, a.rows, a.cols, a.batch);
}

// out: batch matrices of rows x cols, ones on the diagonal and zeros elsewhere.
// Parameters of `identity` (mirrored field for field by `IdentityArgs` in
// crates/cuda/src/linalg/params.rs).
struct IdentityArgs {
    u64 out;
    long long rows;
    long long cols;
    long long batch;
};

__device__ __forceinline__ void k_identity(T* out, i64 rows, i64 cols, i64 batch) {
    const T zero = cast<T>((i32)0), one = cast<T>((i32)1);
    GRID_STRIDE(idx, batch * rows * cols) {
        const i64 i = idx % rows;
        const i64 j = (idx / rows) % cols;
        out[idx] = i == j ? one : zero;
    }
}

extern "C" __global__ void identity(IdentityArgs a) {
    k_identity((T*)a.out, a.rows, a.cols, a.batch);
}

// The scale that normalises a column whose sum of squared magnitudes is `sq` and whose
// largest component is `big` (zero columns stay as they are).
__device__ __forceinline__ CT lin_scale(R sq, CT big) {
    const R norm = lin_sqrt(sq);
    const R mag = lin_hypot(big.re, big.im);
    if (norm == (R)0 || mag == (R)0 || norm != norm || mag != mag) return mk((R)1, (R)0);
    const R d = mag * norm;
    return mk(big.re / d, -big.im / d);
}

// w[b, j] = wri[b, j] + i * wri[b, n + j]: each matrix's 2n reals (real parts, then
// imaginary parts) as n complex values.
// Parameters of `eig_values_real` (mirrored field for field by `EigValuesRealArgs` in
// crates/cuda/src/linalg/params.rs).
struct EigValuesRealArgs {
    u64 w;
    u64 wri;
    long long n;
    long long batch;
};

__device__ __forceinline__ void k_eig_values_real(CT* w, const R* wri, i64 n, i64 batch) {
    GRID_STRIDE(idx, batch * n) {
        const i64 b = idx / n, j = idx % n;
        w[idx] = mk(wri[b * 2 * n + j], wri[b * 2 * n + n + j]);
    }
}

extern "C" __global__ void eig_values_real(EigValuesRealArgs a) {
    k_eig_values_real((CT*)a.w, (const R*)a.wri, a.n, a.batch);
}

// v[b][:, j] = the j-th eigenvector of matrix b, normalised, from LAPACK's real format: for
// a real eigenvalue (imaginary part 0) column j itself; for a complex pair (j, j + 1) with
// positive imaginary part at j, vr[:, j] + i vr[:, j + 1] and its conjugate. One thread per
// column. v must not overlap vr.
// Parameters of `eig_vectors_real` (mirrored field for field by `EigVectorsRealArgs` in
// crates/cuda/src/linalg/params.rs).
struct EigVectorsRealArgs {
    u64 v;
    u64 vr;
    u64 wri;
    long long n;
    long long batch;
};

__device__ __forceinline__ void k_eig_vectors_real(CT* v, const R* vr, const R* wri, i64 n,
                                                   i64 batch) {
    GRID_STRIDE(c, batch * n) {
        const i64 b = c / n, j = c % n;
        const R wi = wri[b * 2 * n + n + j];
        const R* base = vr + b * n * n;
        const R* re = base + j * n;
        const R* im = nullptr;
        R sign = (R)1;
        if (wi > (R)0 && j + 1 < n) {
            im = base + (j + 1) * n;
        } else if (wi < (R)0 && j > 0) {
            re = base + (j - 1) * n;
            im = base + j * n;
            sign = (R)-1;
        }
        R sq = (R)0, best = (R)0;
        CT big = mk((R)0, (R)0);
        for (i64 i = 0; i < n; ++i) {
            const CT x = mk(re[i], im ? sign * im[i] : (R)0);
            const R a = lin_hypot(x.re, x.im);
            sq += a * a;
            if (a > best) {
                best = a;
                big = x;
            }
        }
        const CT s = lin_scale(sq, big);
        CT* out = v + b * n * n + j * n;
        for (i64 i = 0; i < n; ++i) out[i] = mk(re[i], im ? sign * im[i] : (R)0) * s;
    }
}

extern "C" __global__ void eig_vectors_real(EigVectorsRealArgs a) {
    k_eig_vectors_real((CT*)a.v, (const R*)a.vr, (const R*)a.wri, a.n, a.batch);
}

// Normalises every column of the batch n x n complex matrices v in place (one thread per
// column).
// Parameters of `eig_normalise` (mirrored field for field by `EigNormaliseArgs` in
// crates/cuda/src/linalg/params.rs).
struct EigNormaliseArgs {
    u64 v;
    long long n;
    long long batch;
};

__device__ __forceinline__ void k_eig_normalise(CT* v, i64 n, i64 batch) {
    GRID_STRIDE(c, batch * n) {
        CT* col = v + c * n;
        R sq = (R)0, best = (R)0;
        CT big = mk((R)0, (R)0);
        for (i64 i = 0; i < n; ++i) {
            const R a = lin_hypot(col[i].re, col[i].im);
            sq += a * a;
            if (a > best) {
                best = a;
                big = col[i];
            }
        }
        const CT s = lin_scale(sq, big);
        for (i64 i = 0; i < n; ++i) col[i] = col[i] * s;
    }
}

extern "C" __global__ void eig_normalise(EigNormaliseArgs a) {
    k_eig_normalise((CT*)a.v, a.n, a.batch);
}
