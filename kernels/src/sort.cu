// sort kernels
