/* The lanes' answers back to their pairs at the avx2 width (compiled with its own flags). */
#define GJKB_FN(name) name##_avx2
#include "kernel/scatter.inl"
