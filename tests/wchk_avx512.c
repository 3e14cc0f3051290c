/* wchk_avx512.c - the wide-op check on sse/wide_avx512.h (CMake builds it once per
 * variant, with WCHK_SUFFIX and the ISA flags set). */
#include "sse/wide_avx512.h"
#include "wide_check.inl"
