/* The lanes' answers back to their pairs at NEON (native on aarch64, SIMDe-emulated elsewhere). */
#define GJKB_FN(name) name##_neon
#include "kernel/scatter.inl"
