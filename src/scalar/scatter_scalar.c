/* The lanes' answers back to their pairs at width 1. */
#define GJKB_FN(name) name##_scalar
#include "kernel/scatter.inl"
