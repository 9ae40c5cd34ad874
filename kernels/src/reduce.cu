// reduce kernels
