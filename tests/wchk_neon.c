/* wchk_neon.c - the wide-op check on neon/wide_neon.h (CMake builds it once per
 * variant, with WCHK_SUFFIX and the ISA flags set). */
#include "neon/wide_neon.h"
#include "wide_check.inl"
