/* fuzz_check.h - how a harness reports a broken promise: its name and the
 * message on stderr, then what the harness knows of the input
 * (fuzz_context, which each harness defines), then abort, so that libFuzzer
 * keeps the input. Define FUZZ_NAME before including. */
#ifndef GJKB_FUZZ_CHECK_H
#define GJKB_FUZZ_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void fuzz_context(void);

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(FUZZ_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fuzz_context();
    abort();
}

#define CHECK(cond, ...)        \
    do {                        \
        if (!(cond))            \
            fail(__VA_ARGS__);  \
    } while (0)

#endif
