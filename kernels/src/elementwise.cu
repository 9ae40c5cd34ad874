// elementwise kernels
