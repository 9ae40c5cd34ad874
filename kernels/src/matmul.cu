// matmul kernels
