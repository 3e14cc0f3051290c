/* The lanes' answers back to their pairs at the sse4 width (compiled with its own flags). */
#define GJKB_FN(name) name##_sse4
#include "kernel/scatter.inl"
