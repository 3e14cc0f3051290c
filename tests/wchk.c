/* wchk.c - the wide-op check on one wide_<isa>.h, which CMake forces in
 * ahead of this file (-include), once per variant with WCHK_SUFFIX and the
 * ISA flags set (tests/CMakeLists.txt). */
#include "wide_check.inl"
