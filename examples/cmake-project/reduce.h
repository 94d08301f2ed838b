// Host interface of reduce_kernel.cu (plain C++: main.cpp needs no CUDA).
#pragma once

// Sums n floats on the GPU; returns false and prints why if CUDA fails.
bool reduce_on_gpu(const float *host, long long n, double *sum);
