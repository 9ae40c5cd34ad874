// memory kernels
