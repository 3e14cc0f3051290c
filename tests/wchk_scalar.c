/* wchk_scalar.c - the wide-op check on scalar/wide_scalar.h (CMake builds it once per
 * variant, with WCHK_SUFFIX and the ISA flags set). */
#include "scalar/wide_scalar.h"
#include "wide_check.inl"
