/* The broadphase kernels (bounds, sweep) on NEON (native on aarch64, SIMDe-emulated elsewhere). */
#include "neon/wide_neon.h"
#define GJKB_FN(name) name##_neon
#include "kernel/bounds.inl"
#include "kernel/sweep.inl"
