/* wchk_sse4.c - the wide-op check on sse/wide_sse4.h (CMake builds it once per
 * variant, with WCHK_SUFFIX and the ISA flags set). */
#include "sse/wide_sse4.h"
#include "wide_check.inl"
