//! Whole-array programs: an MLP forward pass and a stable softmax (NPBench mlp/softmax, the
//! softmax 2-d), PolyBench gesummv, and NPBench nbody (its `getAcc` and leapfrog steps; the
//! energy bookkeeping left out). Temporaries are the ones NumPy makes; `np.maximum(x, 0)`
//! is `x.maximum_scalar(0.0)?`, `x**2` is `x.square()?`.

use super::{frac, grid, line, Prog, Runnable};
use cuprite::{s, Array, ArrayBackend, Result};

/// NPBench's relu: `np.maximum(x, 0)`.
pub fn relu<B: ArrayBackend>(x: &Array<f64, B>) -> Result<Array<f64, B>> {
    x.maximum_scalar(0.0)
}

/// NPBench's softmax along the last axis:
/// ```python
/// tmp_max = np.max(x, axis=-1, keepdims=True)
/// tmp_out = np.exp(x - tmp_max)
/// tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
/// return tmp_out / tmp_sum
/// ```
pub fn softmax<B: ArrayBackend>(x: &Array<f64, B>) -> Result<Array<f64, B>> {
    let tmp_max = x.max_axes(-1, true)?;
    let tmp_out = (x - &tmp_max).exp()?;
    let tmp_sum = tmp_out.sum_axes(-1, true)?;
    Ok(&tmp_out / &tmp_sum)
}

/// NPBench mlp:
/// ```python
/// x = relu(input @ w1 + b1)
/// x = relu(x @ w2 + b2)
/// x = softmax(x @ w3 + b3)
/// ```
pub fn mlp<B: ArrayBackend>(
    input: &Array<f64, B>,
    w: &[Array<f64, B>; 3],
    b: &[Array<f64, B>; 3],
) -> Result<Array<f64, B>> {
    let x = relu(&(input.matmul(&w[0])? + &b[0]))?;
    let x = relu(&(x.matmul(&w[1])? + &b[1]))?;
    softmax(&(x.matmul(&w[2])? + &b[2]))
}

/// A layer's weights `w[i,j] = ((i + 2j) % 7 - 3) / (3 * fan_in)` and bias
/// `b[j] = (j % 5 - 2) / 10`.
pub fn layer<B: ArrayBackend>(
    fan_in: usize,
    fan_out: usize,
    dev: &B,
) -> Result<(Array<f64, B>, Array<f64, B>)> {
    let w = grid(
        fan_in,
        fan_out,
        |i, j| (((i + 2 * j) % 7) as f64 - 3.0) / (3 * fan_in) as f64,
        dev,
    )?;
    let b = line(fan_out, |j| ((j % 5) as f64 - 2.0) / 10.0, dev)?;
    Ok((w, b))
}

/// mlp ready to time: `[batch, in, hidden1, hidden2, out]`; input `((i*j+1) % in) / in`.
pub fn mlp_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| {
            let input = grid(p[0], p[1], |i, j| frac(i, j, p[1]), d)?;
            let (w1, b1) = layer(p[1], p[2], d)?;
            let (w2, b2) = layer(p[2], p[3], d)?;
            let (w3, b3) = layer(p[3], p[4], d)?;
            Ok((input, [w1, w2, w3], [b1, b2, b3]))
        },
        |(input, w, b), _| Ok(vec![mlp(input, w, b)?.into()]),
    )
}

/// softmax ready to time: `[rows, cols]`; input `((i*j+1) % cols) / cols * 10`.
pub fn softmax_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| grid(p[0], p[1], |i, j| frac(i, j, p[1]) * 10.0, d),
        |x, _| Ok(vec![softmax(x)?.into()]),
    )
}

/// NPBench gesummv: `return alpha * A @ x + beta * B @ x` (`alpha * A` first: `*` and `@`
/// bind equally, left to right).
pub fn gesummv<B: ArrayBackend>(
    alpha: f64,
    beta: f64,
    a: &Array<f64, B>,
    b: &Array<f64, B>,
    x: &Array<f64, B>,
) -> Result<Array<f64, B>> {
    Ok((alpha * a).matmul(x)? + &(beta * b).matmul(x)?)
}

/// gesummv ready to time: `[N]`; `A[i,j] = ((i*j+1) % n)/n`, `B[i,j] = ((i*j+2) % n)/n`,
/// `x[i] = (i % n)/n`, alpha 1.5, beta 1.2.
pub fn gesummv_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| {
            let n = p[0];
            Ok((
                grid(n, n, |i, j| frac(i, j, n), d)?,
                grid(n, n, |i, j| ((i * j + 2) % n) as f64 / n as f64, d)?,
                line(n, |i| (i % n) as f64 / n as f64, d)?,
            ))
        },
        |(a, b, x), _| Ok(vec![gesummv(1.5, 1.2, a, b, x)?.into()]),
    )
}

/// NPBench nbody's getAcc:
/// ```python
/// x = pos[:, 0:1]; y = pos[:, 1:2]; z = pos[:, 2:3]
/// dx = x.T - x; dy = y.T - y; dz = z.T - z
/// inv_r3 = (dx**2 + dy**2 + dz**2 + softening**2)
/// inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0]**(-1.5)
/// ax = G * (dx * inv_r3) @ mass
/// ay = G * (dy * inv_r3) @ mass
/// az = G * (dz * inv_r3) @ mass
/// a = np.hstack((ax, ay, az))
/// ```
pub fn get_acc<B: ArrayBackend>(
    pos: &Array<f64, B>,
    mass: &Array<f64, B>,
    g: f64,
    softening: f64,
) -> Result<Array<f64, B>> {
    let x = pos.slice(&s![.., 0..1])?;
    let y = pos.slice(&s![.., 1..2])?;
    let z = pos.slice(&s![.., 2..3])?;
    let dx = &x.t() - &x;
    let dy = &y.t() - &y;
    let dz = &z.t() - &z;
    let mut inv_r3 = dx.square()? + &dy.square()? + &dz.square()? + softening * softening;
    let v = inv_r3.select(&inv_r3.gt_scalar(0.0)?)?.pow_scalar(-1.5)?;
    let m = inv_r3.gt_scalar(0.0)?;
    inv_r3.put_mask(&m, &v)?;
    let ax = (g * &(&dx * &inv_r3)).matmul(mass)?;
    let ay = (g * &(&dy * &inv_r3)).matmul(mass)?;
    let az = (g * &(&dz * &inv_r3)).matmul(mass)?;
    Array::hstack(&[&ax, &ay, &az])
}

/// NPBench nbody without the energies:
/// ```python
/// vel -= np.mean(mass * vel, 0) / np.mean(mass)
/// acc = getAcc(pos, mass, G, softening)
/// for i in range(Nt):
///     vel += acc * dt / 2.0
///     pos += vel * dt
///     acc = getAcc(pos, mass, G, softening)
///     vel += acc * dt / 2.0
/// return pos, vel
/// ```
#[allow(clippy::too_many_arguments)]
pub fn nbody<B: ArrayBackend>(
    mass: &Array<f64, B>,
    pos: &mut Array<f64, B>,
    vel: &mut Array<f64, B>,
    nt: usize,
    dt: f64,
    g: f64,
    softening: f64,
) -> Result<()> {
    *vel -= &(&(mass * &*vel).mean_axes(0, false)? / &mass.mean()?);
    let mut acc = get_acc(pos, mass, g, softening)?;
    for _i in 0..nt {
        *vel += &(&acc * dt / 2.0);
        *pos += &(&*vel * dt);
        acc = get_acc(pos, mass, g, softening)?;
        *vel += &(&acc * dt / 2.0);
    }
    Ok(())
}

/// nbody's inputs: `mass = 20 * (1 + i % 3) / N` (N x 1), `pos[i,k] = ((i*(2k+3) + k) %
/// 97) / 97`, `vel[i,k] = ((i*(k+1) + 1) % 13) / 13 - 0.5`.
#[allow(clippy::type_complexity)]
pub fn nbody_init<B: ArrayBackend>(n: usize, dev: &B) -> Result<[Array<f64, B>; 3]> {
    Ok([
        grid(n, 1, |i, _| (20 * (1 + i % 3)) as f64 / n as f64, dev)?,
        grid(n, 3, |i, k| ((i * (2 * k + 3) + k) % 97) as f64 / 97.0, dev)?,
        grid(
            n,
            3,
            |i, k| ((i * (k + 1) + 1) % 13) as f64 / 13.0 - 0.5,
            dev,
        )?,
    ])
}

/// nbody ready to time: `[N, NT]`, dt 0.01, G 1, softening 0.1; outputs `pos`, `vel`.
pub fn nbody_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| Ok((p[1], nbody_init(p[0], d)?)),
        |(nt, [mass, pos, vel]), _| {
            nbody(mass, pos, vel, *nt, 0.01, 1.0, 0.1)?;
            Ok(vec![pos.clone().into(), vel.clone().into()])
        },
    )
}
