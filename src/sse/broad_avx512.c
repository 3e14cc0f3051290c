/* The broadphase kernels (bounds, sweep) at the avx512 width (compiled with its own flags). */
#include "sse/wide_avx512.h"
#define GJKB_FN(name) name##_avx512
#include "kernel/bounds.inl"
#include "kernel/sweep.inl"
