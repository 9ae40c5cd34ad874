"""Checks the cuprite_normalize extension against NumPy, PyTorch and CuPy.

For each library present (NumPy always; PyTorch and CuPy on a CUDA GPU), the script
normalises a float32 and a float64 matrix with cuprite, compares the result with the
library's own `(m - m.mean(0)) / m.std(0)`, and checks that no copy was made: the array
cuprite returns is viewed by `from_dlpack` at the address cuprite reports, and `view(x)`
hands back `x`'s own memory (same data pointer, writes visible).

Run it next to the built module (see README.md):

    python3 normalize.py            # NumPy, plus torch/cupy on CUDA when importable
    python3 normalize.py --numpy    # NumPy only
"""

import sys

import numpy as np

import cuprite_normalize as cn


def numpy_case(dtype, rtol):
    rng = np.random.default_rng(7)
    m = rng.standard_normal((1000, 37)).astype(dtype) * 3 + 5
    out = cn.normalize(m)
    assert out.dtype == np.dtype(dtype).name, out
    got = np.from_dlpack(out)
    assert got.ctypes.data == out.data_ptr, "np.from_dlpack copied cuprite's result"
    want = (m - m.mean(axis=0)) / m.std(axis=0)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
    # A strided, reversed view goes in and comes back as the same memory.
    v = m[::-2, 3:20:3]
    same = np.from_dlpack(cn.view(v))
    assert same.ctypes.data == v.ctypes.data and same.strides == v.strides
    np.testing.assert_array_equal(same, v)
    # Not a copy: a write to the producer's memory shows through cuprite's view.
    w = np.arange(6, dtype=dtype).reshape(2, 3)
    seen = np.from_dlpack(cn.view(w))
    w[1, 2] = 100
    assert seen[1, 2] == 100
    print(f"numpy {np.dtype(dtype).name}: ok (max error {np.abs(got - want).max():.2e})")


class OldProducer:
    """A producer from before DLPack 1.0: `__dlpack__` takes no `max_version`."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def protocol_case():
    m = np.linspace(0, 1, 12).reshape(3, 4)
    # A legacy producer: cuprite retries without max_version and takes "dltensor".
    same = np.from_dlpack(cn.view(OldProducer(m)))
    assert same.ctypes.data == m.ctypes.data
    out = cn.view(m)
    assert out.__dlpack_device__() == (1, 0) and out.shape == [3, 4], out
    # Capsules by the consumer's max_version; an unconsumed one releases its tensor.
    assert '"dltensor"' in repr(out.__dlpack__())
    assert '"dltensor_versioned"' in repr(out.__dlpack__(max_version=(1, 0)))
    for bad in ({"copy": True}, {"dl_device": (2, 0)}, {"stream": 5}):
        try:
            out.__dlpack__(**bad)
        except BufferError:
            pass
        else:
            raise AssertionError(f"__dlpack__({bad}) should raise BufferError")
    try:
        cn.normalize(np.arange(4))
    except TypeError as e:
        assert "int64" in str(e), e
    else:
        raise AssertionError("normalize of int64 should raise TypeError")
    print("protocol: ok")


def torch_case(dtype, rtol):
    import torch

    if not torch.cuda.is_available():
        print("torch: no CUDA device, skipped")
        return
    g = torch.Generator(device="cuda").manual_seed(7)
    m = torch.randn(4096, 129, device="cuda", dtype=dtype, generator=g) * 3 + 5
    out = cn.normalize(m)
    got = torch.from_dlpack(out)
    assert got.is_cuda and got.data_ptr() == out.data_ptr, "torch.from_dlpack copied"
    want = (m - m.mean(0)) / m.std(0, unbiased=False)
    torch.testing.assert_close(got, want, rtol=rtol, atol=rtol)
    v = m.t()[::2]
    same = torch.from_dlpack(cn.view(v))
    assert same.data_ptr() == v.data_ptr() and same.stride() == v.stride()
    assert torch.equal(same, v)
    print(f"torch {dtype}: ok (max error {(got - want).abs().max().item():.2e})")


def cupy_case(dtype, rtol):
    import cupy as cp

    rng = cp.random.default_rng(7)
    m = rng.standard_normal((4096, 129), dtype=dtype) * 3 + 5
    out = cn.normalize(m)
    got = cp.from_dlpack(out)
    assert got.data.ptr == out.data_ptr, "cupy.from_dlpack copied"
    want = (m - m.mean(axis=0)) / m.std(axis=0)
    cp.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
    # Positive strides: CuPy 14 exports a negative stride wrongly (the byte stride divided
    # by an unsigned itemsize gives about 2**61), and cuprite refuses such a tensor.
    v = m[1::2, 5:]
    same = cp.from_dlpack(cn.view(v))
    assert same.data.ptr == v.data.ptr and same.strides == v.strides
    assert bool((same == v).all())
    print(f"cupy {np.dtype(dtype).name}: ok (max error {float(abs(got - want).max()):.2e})")


def main():
    numpy_case(np.float64, 1e-12)
    numpy_case(np.float32, 1e-4)
    protocol_case()
    if "--numpy" in sys.argv:
        return
    for name, case in (("torch", torch_cases), ("cupy", cupy_cases)):
        try:
            __import__(name)
        except ImportError:
            print(f"{name}: not installed, skipped")
        else:
            case()


def torch_cases():
    import torch

    torch_case(torch.float64, 1e-12)
    torch_case(torch.float32, 1e-3)


def cupy_cases():
    cupy_case(np.float64, 1e-12)
    cupy_case(np.float32, 1e-3)


if __name__ == "__main__":
    main()
