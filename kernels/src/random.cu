// random.cu: counter-based random numbers. Philox4x32-10, the counter layout and every sampler
// mirror crates/core/src/random/{philox,math,sample}.rs operation for operation (the same f64
// operations in the same order; cuprite's own log and exp), and the program is compiled with
// --fmad=false, so each output is bit-identical to the CPU backend's. Every program sets `T`,
// the output type.
//
// Kernels:
//   random_uniform(T* out, i64 n, u32 k0, u32 k1, u64 base, u64 first, T low, T high)
//       block stream; each thread computes one Philox block per step and stores its outputs
//       (4 floats or 2 doubles) with one 16-byte store.
//   random_float(T* out, i64 n, u32 k0, u32 k1, u64 base, u64 first, int dist, double a,
//                double b, double c)
//   random_int(T* out, i64 n, u32 k0, u32 k1, u64 base, u64 first, int dist, i64 low,
//              u64 range, double a, double b)
//       element streams; one element per thread per step (rejection loops inside).
//   Output element i is element first + i of the draw (first is 0 but for a part of a draw,
//   such as one GPU's shard of an array split over several).

#define RD_NORMAL 0
#define RD_LOGNORMAL 1
#define RD_EXPONENTIAL 2
#define RD_GAMMA 3
#define RD_BETA 4
#define RD_STANDARD_CAUCHY 5
#define RD_STANDARD_T 6
#define RD_CHISQUARE 7
#define RD_NONCENTRAL_CHISQUARE 8
#define RD_F 9
#define RD_NONCENTRAL_F 10
#define RD_LAPLACE 11
#define RD_LOGISTIC 12
#define RD_GUMBEL 13
#define RD_WEIBULL 14
#define RD_PARETO 15
#define RD_RAYLEIGH 16
#define RD_WALD 17
#define RD_TRIANGULAR 18
#define RD_POWER 19
#define RD_VONMISES 20

#define RI_INTEGERS 0
#define RI_POISSON 1
#define RI_BINOMIAL 2
#define RI_BITS 3
#define RI_GEOMETRIC 4
#define RI_NEGATIVE_BINOMIAL 5
#define RI_ZIPF 6
#define RI_LOGSERIES 7
#define RI_HYPERGEOMETRIC 8

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

__device__ __forceinline__ uint4 philox4x32_10(uint4 c, u32 k0, u32 k1) {
#pragma unroll
    for (int r = 0; r < 10; ++r) {
        if (r > 0) {
            k0 += PHILOX_W0;
            k1 += PHILOX_W1;
        }
        u32 hi0 = __umulhi(PHILOX_M0, c.x), lo0 = PHILOX_M0 * c.x;
        u32 hi1 = __umulhi(PHILOX_M1, c.z), lo1 = PHILOX_M1 * c.z;
        uint4 n;
        n.x = hi1 ^ c.y ^ k0;
        n.y = lo1;
        n.z = hi0 ^ c.w ^ k1;
        n.w = lo0;
        c = n;
    }
    return c;
}

#define F64_STEP (1.0 / 9007199254740992.0)
#define F32_STEP (1.0f / 16777216.0f)

__device__ __forceinline__ double f64_from_bits(u64 x) { return (double)(x >> 11) * F64_STEP; }
__device__ __forceinline__ float f32_from_bits(u32 x) { return (float)(x >> 8) * F32_STEP; }
// A uniform [0, 1) value of a 16-bit float from the top BITS bits (its significand's width:
// 11 for f16, 8 for bf16), `k * 2^-BITS`, exact in the type (`half_from_bits` on the host).
template <int BITS> __device__ __forceinline__ float half_from_bits(u32 x) {
    return (float)(x >> (32 - BITS)) * (1.0f / (float)(1u << BITS));
}

// One element's stream: counters (j, i mod 2^32, t_lo, t_hi), t = base + 1 + i / 2^32.
struct Stream {
    uint4 ctr;
    uint4 buf;
    u32 k0, k1;
    int used;

    __device__ __forceinline__ Stream(u32 key0, u32 key1, u64 base, u64 i) {
        u64 t = base + 1 + (i >> 32);
        ctr.x = 0;
        ctr.y = (u32)i;
        ctr.z = (u32)t;
        ctr.w = (u32)(t >> 32);
        k0 = key0;
        k1 = key1;
        used = 4;
    }
    __device__ __forceinline__ u32 next_u32() {
        if (used == 4) {
            buf = philox4x32_10(ctr, k0, k1);
            ctr.x += 1;
            used = 0;
        }
        u32 v = used == 0 ? buf.x : used == 1 ? buf.y : used == 2 ? buf.z : buf.w;
        used += 1;
        return v;
    }
    __device__ __forceinline__ u64 next_u64() {
        u64 lo = next_u32();
        u64 hi = next_u32();
        return (hi << 32) | lo;
    }
    __device__ __forceinline__ double next_f64() { return f64_from_bits(next_u64()); }
    __device__ __forceinline__ double next_f64_open() {
        return (double)((next_u64() >> 11) + 1) * F64_STEP;
    }
};

// ---- portable log / exp (fdlibm), as crates/core/src/random/math.rs ----

__device__ __forceinline__ double bits_f64(u64 b) { return __longlong_as_double((long long)b); }
__device__ __forceinline__ u64 f64_bits(double x) { return (u64)__double_as_longlong(x); }

__device__ double plog(double x) {
    const double ln2_hi = bits_f64(0x3fe62e42fee00000ull);
    const double ln2_lo = bits_f64(0x3dea39ef35793c76ull);
    const double Lg1 = bits_f64(0x3FE5555555555593ull);
    const double Lg2 = bits_f64(0x3FD999999997FA04ull);
    const double Lg3 = bits_f64(0x3FD2492494229359ull);
    const double Lg4 = bits_f64(0x3FCC71C51D8E78AFull);
    const double Lg5 = bits_f64(0x3FC7466496CB03DEull);
    const double Lg6 = bits_f64(0x3FC39A09D078C69Full);
    const double Lg7 = bits_f64(0x3FC2F112DF3E5244ull);
    u64 ix = f64_bits(x);
    u32 hx = (u32)(ix >> 32);
    int k = 0;
    if (hx < 0x00100000u || (hx >> 31) != 0) {
        if ((ix << 1) == 0) return bits_f64(0xfff0000000000000ull);
        if ((hx >> 31) != 0) return bits_f64(0x7ff8000000000000ull);
        k -= 54;
        x = x * 18014398509481984.0;
        ix = f64_bits(x);
        hx = (u32)(ix >> 32);
    } else if (hx >= 0x7ff00000u) {
        return x;
    } else if (hx == 0x3ff00000u && (ix << 32) == 0) {
        return 0.0;
    }
    hx += 0x3ff00000u - 0x3fe6a09eu;
    k += (int)(hx >> 20) - 0x3ff;
    hx = (hx & 0x000fffffu) + 0x3fe6a09eu;
    x = bits_f64(((u64)hx << 32) | (ix & 0xffffffffull));
    double f = x - 1.0;
    double hfsq = 0.5 * f * f;
    double s = f / (2.0 + f);
    double z = s * s;
    double w = z * z;
    double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    double r = t2 + t1;
    double dk = (double)k;
    return s * (hfsq + r) + dk * ln2_lo - hfsq + f + dk * ln2_hi;
}

__device__ __forceinline__ double pscalbn(double y, int n) {
    const double p1023 = bits_f64(0x7fe0000000000000ull);
    const double m969 = bits_f64(0x0360000000000000ull);
    if (n > 1023) {
        y = y * p1023;
        n -= 1023;
        if (n > 1023) {
            y = y * p1023;
            n -= 1023;
            if (n > 1023) n = 1023;
        }
    } else if (n < -1022) {
        y = y * m969;
        n += 1022 - 53;
        if (n < -1022) {
            y = y * m969;
            n += 1022 - 53;
            if (n < -1022) n = -1022;
        }
    }
    return y * bits_f64((u64)(0x3ff + n) << 52);
}

__device__ double pexp(double x) {
    const double ln2_hi = bits_f64(0x3fe62e42fee00000ull);
    const double ln2_lo = bits_f64(0x3dea39ef35793c76ull);
    const double inv_ln2 = bits_f64(0x3ff71547652b82feull);
    const double P1 = bits_f64(0x3FC555555555553Eull);
    const double P2 = bits_f64(0xBF66C16C16BEBD93ull);
    const double P3 = bits_f64(0x3F11566AAF25DE2Cull);
    const double P4 = bits_f64(0xBEBBBD41C5D26BF1ull);
    const double P5 = bits_f64(0x3E66376972BEA4D0ull);
    u32 hxs = (u32)(f64_bits(x) >> 32);
    int sign = (int)(hxs >> 31);
    u32 hx = hxs & 0x7fffffffu;
    if (hx >= 0x4086232bu) {
        if (x != x) return x;
        if (x > bits_f64(0x40862E42FEFA39EFull)) return bits_f64(0x7ff0000000000000ull);
        if (x < bits_f64(0xc0874910D52D3051ull)) return 0.0;
    }
    double hi, lo;
    int k;
    if (hx > 0x3fd62e42u) {
        if (hx >= 0x3ff0a2b2u) {
            k = (int)(inv_ln2 * x + (sign == 0 ? 0.5 : -0.5));
        } else {
            k = 1 - sign - sign;
        }
        double kf = (double)k;
        hi = x - kf * ln2_hi;
        lo = kf * ln2_lo;
        x = hi - lo;
    } else if (hx > 0x3e300000u) {
        k = 0;
        hi = x;
        lo = 0.0;
    } else {
        return 1.0 + x;
    }
    double xx = x * x;
    double c = x - xx * (P1 + xx * (P2 + xx * (P3 + xx * (P4 + xx * P5))));
    double y = 1.0 + (x * c / (2.0 - c) - lo + hi);
    if (k == 0) return y;
    return pscalbn(y, k);
}

__device__ double ploggam(double x) {
    const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                          -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                          6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                          -1.39243221690590e+00};
    if (x == 1.0 || x == 2.0) return 0.0;
    long long n = x < 7.0 ? (long long)(7.0 - x) : 0;
    double x0 = x + (double)n;
    double x2 = (1.0 / x0) * (1.0 / x0);
    const double lg2pi = 1.8378770664093453e+00;
    double gl0 = a[9];
    for (int k = 8; k >= 0; --k) {
        gl0 = gl0 * x2;
        gl0 = gl0 + a[k];
    }
    double gl = gl0 / x0 + 0.5 * lg2pi + (x0 - 0.5) * plog(x0) - x0;
    if (x < 7.0) {
        for (long long k = 1; k <= n; ++k) {
            gl = gl - plog(x0 - 1.0);
            x0 = x0 - 1.0;
        }
    }
    return gl;
}

__device__ double plog1p(double x) {
    double u = 1.0 + x;
    if (u == 1.0) return x;
    if (u == bits_f64(0x7ff0000000000000ull)) return u;
    return plog(u) * x / (u - 1.0);
}

__device__ double pexpm1(double x) {
    double u = pexp(x);
    if (u == 1.0) return x;
    double um1 = u - 1.0;
    if (um1 == -1.0) return -1.0;
    if (u == bits_f64(0x7ff0000000000000ull)) return u;
    return um1 * x / plog(u);
}

__device__ double pacos_r(double z) {
    const double pS0 = bits_f64(0x3FC5555555555555ull);
    const double pS1 = bits_f64(0xBFD4D61203EB6F7Dull);
    const double pS2 = bits_f64(0x3FC9C1550E884455ull);
    const double pS3 = bits_f64(0xBFA48228B5688F3Bull);
    const double pS4 = bits_f64(0x3F49EFE07501B288ull);
    const double pS5 = bits_f64(0x3F023DE10DFDF709ull);
    const double qS1 = bits_f64(0xC0033A271C8A2D4Bull);
    const double qS2 = bits_f64(0x40002AE59C598AC8ull);
    const double qS3 = bits_f64(0xBFE6066C1B8D0159ull);
    const double qS4 = bits_f64(0x3FB3B8C5B12E9282ull);
    double p = z * (pS0 + z * (pS1 + z * (pS2 + z * (pS3 + z * (pS4 + z * pS5)))));
    double q = 1.0 + z * (qS1 + z * (qS2 + z * (qS3 + z * qS4)));
    return p / q;
}

// fdlibm acos, as math.rs.
__device__ double pacos(double x) {
    const double pio2_hi = bits_f64(0x3FF921FB54442D18ull);
    const double pio2_lo = bits_f64(0x3C91A62633145C07ull);
    u64 bits = f64_bits(x);
    u32 hx = (u32)(bits >> 32);
    u32 ix = hx & 0x7fffffffu;
    if (ix >= 0x3ff00000u) {
        u32 lx = (u32)bits;
        if (((ix - 0x3ff00000u) | lx) == 0) return (hx >> 31) != 0 ? 2.0 * pio2_hi : 0.0;
        return bits_f64(0x7ff8000000000000ull);
    }
    if (ix < 0x3fe00000u) {
        if (ix <= 0x3c600000u) return pio2_hi;
        return pio2_hi - (x - (pio2_lo - x * pacos_r(x * x)));
    }
    if ((hx >> 31) != 0) {
        double z = (1.0 + x) * 0.5;
        double s = sqrt(z);
        double w = pacos_r(z) * s - pio2_lo;
        return 2.0 * (pio2_hi - (s + w));
    }
    double z = (1.0 - x) * 0.5;
    double s = sqrt(z);
    double df = bits_f64(f64_bits(s) & 0xffffffff00000000ull);
    double c = (z - df * df) / (s + df);
    double w = pacos_r(z) * s + c;
    return 2.0 * (df + w);
}

// ---- samplers, as crates/core/src/random/sample.rs ----

__device__ u64 bounded(Stream& s, u64 range) {
    if (range <= 0xffffffffull) {
        u32 r = (u32)range;
        u64 m = (u64)s.next_u32() * (u64)r;
        if ((u32)m < r) {
            u32 t = (0u - r) % r;
            while ((u32)m < t) m = (u64)s.next_u32() * (u64)r;
        }
        return m >> 32;
    }
    u64 x = s.next_u64();
    u64 lo = x * range, hi = __umul64hi(x, range);
    if (lo < range) {
        u64 t = (0ull - range) % range;
        while (lo < t) {
            x = s.next_u64();
            lo = x * range;
            hi = __umul64hi(x, range);
        }
    }
    return hi;
}

__device__ double snormal(Stream& s) {
    for (;;) {
        double x = 2.0 * s.next_f64() - 1.0;
        double y = 2.0 * s.next_f64() - 1.0;
        double r2 = x * x + y * y;
        if (r2 < 1.0 && r2 > 0.0) return x * sqrt(-2.0 * plog(r2) / r2);
    }
}

__device__ __forceinline__ double sexponential(Stream& s) { return 0.0 - plog(s.next_f64_open()); }

// Gamma(shape >= 1) by Marsaglia and Tsang.
__device__ double sgamma_ge1(Stream& s, double shape) {
    double d = shape - 1.0 / 3.0;
    double c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        for (;;) {
            x = snormal(s);
            v = 1.0 + c * x;
            if (v > 0.0) break;
        }
        v = v * v * v;
        double u = s.next_f64();
        double x2 = x * x;
        if (u < 1.0 - 0.0331 * (x2 * x2)) return d * v;
        if (plog(u) < 0.5 * x2 + d * (1.0 - v + plog(v))) return d * v;
    }
}

__device__ double sgamma(Stream& s, double shape) {
    if (shape == 0.0) return 0.0;
    if (shape < 1.0) {
        double g = sgamma_ge1(s, shape + 1.0);
        double u = s.next_f64_open();
        return g * pexp(plog(u) / shape);
    }
    return sgamma_ge1(s, shape);
}

__device__ double sbeta(Stream& s, double a, double b) {
    if (a <= 1.0 && b <= 1.0) {
        for (;;) {
            double u = s.next_f64();
            double v = s.next_f64();
            double x = pexp(plog(u) / a);
            double y = pexp(plog(v) / b);
            double xy = x + y;
            if (xy <= 1.0 && u + v > 0.0) {
                if (xy > 0.0) return x / xy;
                double lx = plog(u) / a;
                double ly = plog(v) / b;
                double lm = lx > ly ? lx : ly;
                lx = lx - lm;
                ly = ly - lm;
                return pexp(lx - plog(pexp(lx) + pexp(ly)));
            }
        }
    }
    double x = sgamma(s, a);
    double y = sgamma(s, b);
    return x / (x + y);
}

__device__ long long spoisson(Stream& s, double lam) {
    if (lam == 0.0) return 0;
    if (lam < 10.0) {
        double enlam = pexp(0.0 - lam);
        long long k = 0;
        double prod = 1.0;
        for (;;) {
            prod = prod * s.next_f64();
            if (prod > enlam) {
                k += 1;
            } else {
                return k;
            }
        }
    }
    double slam = sqrt(lam);
    double loglam = plog(lam);
    double b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4);
    double vr = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        double u = s.next_f64() - 0.5;
        double v = s.next_f64();
        double us = 0.5 - fabs(u);
        long long k = (long long)floor((2.0 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) return k;
        if (k < 0 || (us < 0.013 && v > us)) continue;
        if (plog(v) + plog(invalpha) - plog(a / (us * us) + b) <=
            0.0 - lam + (double)k * loglam - ploggam((double)k + 1.0)) {
            return k;
        }
    }
}

__device__ long long sbinomial_inversion(Stream& s, long long n, double p) {
    if (n == 0 || p <= 0.0) return 0;
    bool flip = p > 0.5;
    if (flip) p = 1.0 - p;
    double q = 1.0 - p;
    double qn = pexp((double)n * plog(q));
    double np = (double)n * p;
    double bound_f = np + 10.0 * sqrt(np * q + 1.0);
    double bound = (double)n < bound_f ? (double)n : bound_f;
    long long x = 0;
    double px = qn;
    double u = s.next_f64();
    while (u > px) {
        x += 1;
        if ((double)x > bound) {
            x = 0;
            px = qn;
            u = s.next_f64();
        } else {
            u = u - px;
            px = ((double)(n - x + 1) * p * px) / ((double)x * q);
        }
    }
    return flip ? n - x : x;
}

__device__ long long sbinomial(Stream& s, long long n, double p) {
    if (n == 0 || p == 0.0) return 0;
    if (p == 1.0) return n;
    long long k = 0;
    while ((double)n * (p < 0.5 ? p : 1.0 - p) > 30.0) {
        long long a = 1 + n / 2;
        long long b = n + 1 - a;
        double x = sbeta(s, (double)a, (double)b);
        if (x >= p) {
            n = a - 1;
            p = p / x;
        } else {
            k += a;
            n = b - 1;
            p = (p - x) / (1.0 - x);
        }
    }
    return k + sbinomial_inversion(s, n, p);
}

// ---- more samplers, as crates/core/src/random/sample_more.rs ----

#define TWO_63 9223372036854775808.0

__device__ double sstandard_cauchy(Stream& s) {
    double n = snormal(s);
    double d = snormal(s);
    return n / d;
}

__device__ double sstandard_t(Stream& s, double df) {
    double num = snormal(s);
    double denom = sgamma(s, df / 2.0);
    return sqrt(df / 2.0) * num / sqrt(denom);
}

__device__ __forceinline__ double schisquare(Stream& s, double df) { return 2.0 * sgamma(s, df / 2.0); }

__device__ double snoncentral_chisquare(Stream& s, double df, double nonc) {
    if (nonc == 0.0) return schisquare(s, df);
    if (1.0 < df) {
        double chi2 = schisquare(s, df - 1.0);
        double n = snormal(s) + sqrt(nonc);
        return chi2 + n * n;
    }
    long long i = spoisson(s, nonc / 2.0);
    return schisquare(s, df + 2.0 * (double)i);
}

__device__ double sf(Stream& s, double dfnum, double dfden) {
    double num = schisquare(s, dfnum) * dfden;
    double den = schisquare(s, dfden) * dfnum;
    return num / den;
}

__device__ double snoncentral_f(Stream& s, double dfnum, double dfden, double nonc) {
    double t = snoncentral_chisquare(s, dfnum, nonc) * dfden;
    return t / (schisquare(s, dfden) * dfnum);
}

__device__ double slaplace(Stream& s, double loc, double scale) {
    for (;;) {
        double u = s.next_f64();
        if (u >= 0.5) return loc - scale * plog(2.0 - u - u);
        if (u > 0.0) return loc + scale * plog(u + u);
    }
}

__device__ double slogistic(Stream& s, double loc, double scale) {
    for (;;) {
        double u = s.next_f64();
        if (u > 0.0) return loc + scale * plog(u / (1.0 - u));
    }
}

__device__ double sgumbel(Stream& s, double loc, double scale) {
    for (;;) {
        double u = 1.0 - s.next_f64();
        if (u < 1.0) return loc - scale * plog(0.0 - plog(u));
    }
}

__device__ double sweibull(Stream& s, double a) {
    if (a == 0.0) return 0.0;
    return pexp(plog(sexponential(s)) / a);
}

__device__ __forceinline__ double spareto(Stream& s, double a) { return pexpm1(sexponential(s) / a); }

__device__ __forceinline__ double srayleigh(Stream& s, double scale) {
    return scale * sqrt(2.0 * sexponential(s));
}

__device__ double swald(Stream& s, double mean, double scale) {
    double mu_2l = mean / (2.0 * scale);
    double y = snormal(s);
    y = mean * y * y;
    double x = mean + mu_2l * (y - sqrt(4.0 * scale * y + y * y));
    double u = s.next_f64();
    if (u <= mean / (mean + x)) return x;
    return mean * mean / x;
}

__device__ double striangular(Stream& s, double left, double mode, double right) {
    double base = right - left;
    double leftbase = mode - left;
    double ratio = leftbase / base;
    double leftprod = leftbase * base;
    double rightprod = (right - mode) * base;
    double u = s.next_f64();
    if (u <= ratio) return left + sqrt(u * leftprod);
    return right - sqrt((1.0 - u) * rightprod);
}

__device__ __forceinline__ double spower(Stream& s, double a) { return pexp(plog(s.next_f64_open()) / a); }

// The cosine of a uniform angle from a point uniform in the unit disk (by rejection), as
// `circle_cos` of crates/core/src/random/sample_more.rs.
__device__ double scircle_cos(Stream& s) {
    for (;;) {
        double x = 2.0 * s.next_f64() - 1.0;
        double y = 2.0 * s.next_f64() - 1.0;
        double r2 = x * x + y * y;
        if (r2 < 1.0 && r2 > 0.0) return (x * x - y * y) / r2;
    }
}

// Von Mises (Best and Fisher's rejection), operation for operation as `vonmises` of
// crates/core/src/random/sample_more.rs.
__device__ double svonmises(Stream& s, double mu, double kappa) {
    const double pi = 3.141592653589793;
    if (kappa < 1e-8) return pi * (2.0 * s.next_f64() - 1.0);
    if (kappa > 1e6) {
        double r = mu + sqrt(1.0 / kappa) * snormal(s);
        if (r < 0.0 - pi) r += 2.0 * pi;
        if (r > pi) r -= 2.0 * pi;
        return r;
    }
    double sp;
    if (kappa < 1e-5) {
        sp = 1.0 / kappa + kappa;
    } else {
        double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
        double rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
        sp = (1.0 + rho * rho) / (2.0 * rho);
    }
    double w;
    for (;;) {
        double z = scircle_cos(s);
        w = (1.0 + sp * z) / (sp + z);
        double y = kappa * (sp - w);
        double v = s.next_f64();
        if (y * (2.0 - y) - v >= 0.0 || plog(y / v) + 1.0 - y >= 0.0) break;
    }
    if (w < -1.0) w = -1.0;
    if (w > 1.0) w = 1.0;
    double u = s.next_f64();
    double result = pacos(w);
    if (u < 0.5) result = -result;
    result += mu;
    bool neg = result < 0.0;
    double m = fmod(fabs(result) + pi, 2.0 * pi) - pi;
    return neg ? -m : m;
}

__device__ long long sgeometric(Stream& s, double p) {
    if (p >= 0.3333333333333333) {
        long long x = 1;
        double sum = p, prod = p;
        double q = 1.0 - p;
        double u = s.next_f64();
        while (u > sum) {
            prod = prod * q;
            sum = sum + prod;
            x += 1;
        }
        return x;
    }
    double z = ceil(0.0 - sexponential(s) / plog1p(0.0 - p));
    if (z >= TWO_63) return 0x7fffffffffffffffll;
    if (z < 1.0) return 1;
    return (long long)z;
}

__device__ long long snegative_binomial(Stream& s, double n, double p) {
    double y = sgamma(s, n) * ((1.0 - p) / p);
    return spoisson(s, y);
}

__device__ long long szipf(Stream& s, double a) {
    if (a >= 1025.0) return 1;
    double am1 = a - 1.0;
    double b = pexp(am1 * plog(2.0));
    for (;;) {
        double u = 1.0 - s.next_f64();
        double v = s.next_f64();
        double x = floor(pexp(plog(u) * (-1.0 / am1)));
        if (x > TWO_63 || x < 1.0) continue;
        double t = pexp(am1 * plog(1.0 + 1.0 / x));
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (long long)x;
    }
}

__device__ long long slogseries(Stream& s, double p) {
    double r = plog1p(0.0 - p);
    for (;;) {
        double v = s.next_f64();
        if (v >= p) return 1;
        double u = s.next_f64();
        double q = 0.0 - pexpm1(r * u);
        if (v <= q * q) {
            double result = floor(1.0 + plog(v) / plog(q));
            if (result < 1.0 || v == 0.0) continue;
            return (long long)result;
        }
        if (v >= q) return 1;
        return 2;
    }
}

__device__ long long shypergeometric_urn(Stream& s, long long good, long long bad, long long sample) {
    long long total = good + bad;
    bool flip = sample > total / 2;
    long long left = flip ? total - sample : sample;
    long long rest = total, rest_good = good;
    while (left > 0 && rest_good > 0 && rest > rest_good) {
        rest -= 1;
        if ((long long)bounded(s, (u64)rest + 1) < rest_good) rest_good -= 1;
        left -= 1;
    }
    if (rest == rest_good) rest_good -= left;
    return flip ? rest_good : good - rest_good;
}

__device__ __forceinline__ double plogfactorial(long long k) { return ploggam((double)k + 1.0); }

__device__ long long shypergeometric_hrua(Stream& s, long long good, long long bad, long long sample) {
    const double D1 = 1.7155277699214135;
    const double D2 = 0.8989161620588988;
    long long popsize = good + bad;
    long long m_s = sample < popsize - sample ? sample : popsize - sample;
    long long mingb = good < bad ? good : bad;
    long long maxgb = good < bad ? bad : good;
    double p = (double)mingb / (double)popsize;
    double q = (double)maxgb / (double)popsize;
    double mu = (double)m_s * p;
    double a = mu + 0.5;
    double var = (double)(popsize - m_s) * (double)m_s * p * q / (double)(popsize - 1);
    double c = sqrt(var + 0.5);
    double h = D1 * c + D2;
    long long m = (long long)floor((double)(m_s + 1) * (double)(mingb + 1) / (double)(popsize + 2));
    double g = plogfactorial(m) + plogfactorial(mingb - m) + plogfactorial(m_s - m) +
               plogfactorial(maxgb - m_s + m);
    double bf = floor(a + 16.0 * c);
    double b0 = (double)((m_s < mingb ? m_s : mingb) + 1);
    double b = b0 < bf ? b0 : bf;
    long long k;
    for (;;) {
        double u = s.next_f64();
        double v = s.next_f64();
        double x = a + h * (v - 0.5) / u;
        if (x < 0.0 || x >= b) continue;
        k = (long long)floor(x);
        double gp = plogfactorial(k) + plogfactorial(mingb - k) + plogfactorial(m_s - k) +
                    plogfactorial(maxgb - m_s + k);
        double t = g - gp;
        if (u * (4.0 - u) - 3.0 <= t) break;
        if (u * (u - t) >= 1.0) continue;
        if (2.0 * plog(u) <= t) break;
    }
    if (good > bad) k = m_s - k;
    if (m_s < sample) k = good - k;
    return k;
}

__device__ long long shypergeometric(Stream& s, long long good, long long bad, long long sample) {
    if (sample >= 10 && sample <= good + bad - 10) return shypergeometric_hrua(s, good, bad, sample);
    return shypergeometric_urn(s, good, bad, sample);
}

// ---- kernels ----

// Parameters of `random_uniform` (mirrored field for field by `RandomUniformArgs` in
// crates/cuda/src/random/params.rs).
struct RandomUniformArgs {
    u64 out;
    long long n;
    u32 k0;
    u32 k1;
    u64 base;
    u64 first;
    Bytes16 low;
    Bytes16 high;
};

__device__ __forceinline__ void k_random_uniform(T* out, long long n, u32 k0, u32 k1, u64 base,
                                                 u64 first, T low, T high) {
    constexpr int per = (is_same<T, float>::value || is_half<T>::value) ? 4 : 2;
    // Output element i is element first + i of the draw: the blocks first / per up to the
    // one holding element first + n - 1; a part that starts inside a block skips the words
    // before it.
    const long long skip = (long long)(first % per);
    const u64 b0 = first / per;
    const long long blocks = (n + skip + per - 1) / per;
    const T span = high - low;
    // Fresh pool allocations are 256-byte aligned; anything else takes scalar stores.
    const bool aligned = ((u64)out & 15) == 0 && skip == 0;
    GRID_STRIDE(bb, blocks) {
        const u64 b = b0 + (u64)bb;
        uint4 c;
        c.x = (u32)b;
        c.y = (u32)((u64)b >> 32);
        c.z = (u32)base;
        c.w = (u32)(base >> 32);
        uint4 w = philox4x32_10(c, k0, k1);
        T v[4];
        if constexpr (is_half<T>::value) {
            constexpr int BITS = is_same<T, f16>::value ? 11 : 8;
            v[0] = low + span * T(half_from_bits<BITS>(w.x));
            v[1] = low + span * T(half_from_bits<BITS>(w.y));
            v[2] = low + span * T(half_from_bits<BITS>(w.z));
            v[3] = low + span * T(half_from_bits<BITS>(w.w));
        } else if constexpr (is_same<T, float>::value) {
            v[0] = low + span * f32_from_bits(w.x);
            v[1] = low + span * f32_from_bits(w.y);
            v[2] = low + span * f32_from_bits(w.z);
            v[3] = low + span * f32_from_bits(w.w);
        } else {
            v[0] = low + span * f64_from_bits(((u64)w.y << 32) | w.x);
            v[1] = low + span * f64_from_bits(((u64)w.w << 32) | w.z);
        }
        long long i0 = bb * per - skip;
        if (is_half<T>::value && aligned && i0 + per <= n) {
            union {
                T t[4];
                uint2 u;
            } pack;
#pragma unroll
            for (int k = 0; k < 4; ++k) pack.t[k] = v[k];
            *(uint2*)(out + i0) = pack.u;
        } else if (!is_half<T>::value && aligned && i0 + per <= n) {
            union {
                T t[4];
                uint4 u;
            } pack;
#pragma unroll
            for (int k = 0; k < per; ++k) pack.t[k] = v[k];
            *(uint4*)(out + i0) = pack.u;
        } else {
            // Constant indices only: a loop indexing `v` at run time puts it in local
            // memory, whose traffic halved the kernel's store bandwidth.
#pragma unroll
            for (int k = 0; k < per; ++k) {
                if (i0 + k >= 0 && i0 + k < n) out[i0 + k] = v[k];
            }
        }
    }
}

extern "C" __global__ void random_uniform(RandomUniformArgs a) {
    k_random_uniform((T*)a.out, a.n, a.k0, a.k1, a.base, a.first, from_bytes<T>(a.low), from_bytes<T>(a.high));
}

// Parameters of `random_float` (mirrored field for field by `RandomFloatArgs` in
// crates/cuda/src/random/params.rs).
struct RandomFloatArgs {
    u64 out;
    long long n;
    u32 k0;
    u32 k1;
    u64 base;
    u64 first;
    int dist;
    double a;
    double b;
    double c;
};

__device__ __forceinline__ void k_random_float(T* out, long long n, u32 k0, u32 k1, u64 base,
                                               u64 first, int dist, double a, double b, double c) {
    GRID_STRIDE(i, n) {
        Stream s(k0, k1, base, first + (u64)i);
        double v;
        switch (dist) {
        case RD_NORMAL: v = a + b * snormal(s); break;
        case RD_LOGNORMAL: v = pexp(a + b * snormal(s)); break;
        case RD_EXPONENTIAL: v = a * sexponential(s); break;
        case RD_GAMMA: v = b * sgamma(s, a); break;
        case RD_BETA: v = sbeta(s, a, b); break;
        case RD_STANDARD_CAUCHY: v = sstandard_cauchy(s); break;
        case RD_STANDARD_T: v = sstandard_t(s, a); break;
        case RD_CHISQUARE: v = schisquare(s, a); break;
        case RD_NONCENTRAL_CHISQUARE: v = snoncentral_chisquare(s, a, b); break;
        case RD_F: v = sf(s, a, b); break;
        case RD_NONCENTRAL_F: v = snoncentral_f(s, a, b, c); break;
        case RD_LAPLACE: v = slaplace(s, a, b); break;
        case RD_LOGISTIC: v = slogistic(s, a, b); break;
        case RD_GUMBEL: v = sgumbel(s, a, b); break;
        case RD_WEIBULL: v = sweibull(s, a); break;
        case RD_PARETO: v = spareto(s, a); break;
        case RD_RAYLEIGH: v = srayleigh(s, a); break;
        case RD_WALD: v = swald(s, a, b); break;
        case RD_TRIANGULAR: v = striangular(s, a, b, c); break;
        case RD_POWER: v = spower(s, a); break;
        default: v = svonmises(s, a, b); break;
        }
        out[i] = (T)v;
    }
}

extern "C" __global__ void random_float(RandomFloatArgs a) {
    k_random_float((T*)a.out, a.n, a.k0, a.k1, a.base, a.first, a.dist, a.a, a.b, a.c);
}

// Parameters of `random_int` (mirrored field for field by `RandomIntArgs` in
// crates/cuda/src/random/params.rs).
struct RandomIntArgs {
    u64 out;
    long long n;
    u32 k0;
    u32 k1;
    u64 base;
    u64 first;
    int dist;
    long long low;
    u64 range;
    double a;
    double b;
};

__device__ __forceinline__ void k_random_int(T* out, long long n, u32 k0, u32 k1, u64 base,
                                             u64 first, int dist, long long low, u64 range, double a,
                                             double b) {
    GRID_STRIDE(i, n) {
        Stream s(k0, k1, base, first + (u64)i);
        long long v;
        switch (dist) {
        case RI_INTEGERS: v = (long long)((u64)low + bounded(s, range)); break;
        case RI_POISSON: v = spoisson(s, a); break;
        case RI_BINOMIAL: v = sbinomial(s, low, a); break;
        case RI_BITS: v = (long long)s.next_u64(); break;
        case RI_GEOMETRIC: v = sgeometric(s, a); break;
        case RI_NEGATIVE_BINOMIAL: v = snegative_binomial(s, a, b); break;
        case RI_ZIPF: v = szipf(s, a); break;
        case RI_LOGSERIES: v = slogseries(s, a); break;
        default: v = shypergeometric(s, low, (long long)range, (long long)a); break;
        }
        out[i] = (T)v;
    }
}

extern "C" __global__ void random_int(RandomIntArgs a) {
    k_random_int((T*)a.out, a.n, a.k0, a.k1, a.base, a.first, a.dist, a.low, a.range, a.a, a.b);
}
