/* error.c - error codes and messages: the context's last message, the
 * static descriptions of codes and statuses. At the bottom of the library:
 * every other file may fail through gjkb__fail. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

gjkb_error gjkb__fail(gjkb_context *ctx, gjkb_error err, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
        va_end(ap);
    }
    return err;
}

const char *gjkb_last_error(const gjkb_context *ctx)
{
    return ctx ? ctx->message : "no context";
}

const char *gjkb_error_string(gjkb_error err)
{
    switch (err) {
    case GJKB_OK: return "ok";
    case GJKB_ERR_NULL: return "a required pointer is NULL";
    case GJKB_ERR_RANGE: return "an index is out of range";
    case GJKB_ERR_KIND: return "unknown shape kind, mode or backend";
    case GJKB_ERR_ARGUMENT: return "bad argument";
    case GJKB_ERR_MEMORY: return "out of memory";
    case GJKB_ERR_UNSUPPORTED: return "backend not available on this build or CPU";
    }
    return "unknown error";
}

const char *gjkb_status_name(gjkb_status status)
{
    switch (status) {
    case GJKB_SEPARATED: return "separated";
    case GJKB_OVERLAP: return "overlap";
    case GJKB_LIMIT: return "limit";
    case GJKB_INVALID: return "invalid";
    }
    return "?";
}
