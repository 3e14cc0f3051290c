/* The wide GJK kernel at width 1: the same body as every SIMD width. */
#include "scalar/wide_scalar.h"
#define GJKB_FN(name) name##_scalar
#include "kernel/gjk.inl"
