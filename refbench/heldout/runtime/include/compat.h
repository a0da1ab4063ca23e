/* compat.h as the publishers' build sees it. pqm4 builds PQClean's clean directories with
 * -I common -I mupq/common (mupq/mk/config.mk) and never puts PQClean's own common/ on the include
 * path, so the compat.h its code includes is mupq's (mupq common/compat.h), not PQClean's (whose
 * copy at c3e6861f includes glibc's <features.h>, absent from a bare-metal toolchain). Under GCC
 * both define the same two macros, written here: a VLA is a plain array, and the branch hack is an
 * empty asm that makes the compiler forget a value's range. */
#ifndef PQCLEAN_COMMON_COMPAT_H
#define PQCLEAN_COMMON_COMPAT_H

#define PQCLEAN_VLA(type, name, size) type name[size]
#define PQCLEAN_PREVENT_BRANCH_HACK(b) __asm__("" : "+r"(b) :);

#endif
