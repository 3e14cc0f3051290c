/* The broadphase kernels (bounds, sweep) at width 1: the same bodies as every SIMD width. */
#include "scalar/wide_scalar.h"
#define GJKB_FN(name) name##_scalar
#include "kernel/bounds.inl"
#include "kernel/sweep.inl"
