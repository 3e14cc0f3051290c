/* backend_context.h - the library context a command runs on: created for
 * the chosen backend with messages that name the backend that failed, and
 * the summary line of how it was used. */
#ifndef GJKB_TOOLS_BACKEND_CONTEXT_H
#define GJKB_TOOLS_BACKEND_CONTEXT_H

#include "gjkbatch.h"

/* A context on `backend`; NULL after a message on stderr. */
gjkb_context *create_context(gjkb_backend backend);

/* The "lane utilization:" line (label width `width`): how busy the wide
 * kernel's lanes were over the context's calls. Nothing when the backend
 * has no lanes or ran no bundles. */
void print_lane_use(const gjkb_context *ctx, int width);

#endif
