/* The lanes' answers back to their pairs at the avx512 width (compiled with its own flags). */
#define GJKB_FN(name) name##_avx512
#include "kernel/scatter.inl"
