/* The broadphase kernels (bounds, sweep) at the sse4 width (compiled with its own flags). */
#include "sse/wide_sse4.h"
#define GJKB_FN(name) name##_sse4
#include "kernel/bounds.inl"
#include "kernel/sweep.inl"
