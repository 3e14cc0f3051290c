/* frame.h - gjkb_step's own buffers (frame.c). */
#ifndef GJKB_FRAME_H
#define GJKB_FRAME_H

#include "internal.h"

/* Frees gjkb_step's boxes, classes and results (ctx->frame). */
void gjkb__frame_free(gjkb_context *ctx);

#endif
