/* The broadphase kernels (bounds, sweep) at the avx2 width (compiled with its own flags). */
#include "sse/wide_avx2.h"
#define GJKB_FN(name) name##_avx2
#include "kernel/bounds.inl"
#include "kernel/sweep.inl"
