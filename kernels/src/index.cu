// index kernels
