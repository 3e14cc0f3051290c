/* The wide GJK kernel on NEON (native on aarch64, SIMDe-emulated elsewhere). */
#include "neon/wide_neon.h"
#define GJKB_FN(name) name##_neon
#include "kernel/gjk.inl"
