/* progress.h - run's progress bar on stderr. Every message printed while
 * it may be on the line clears it first (progress_clear), so that the
 * message starts a clean line. */
#ifndef GJKB_TOOLS_PROGRESS_H
#define GJKB_TOOLS_PROGRESS_H

#include <stdint.h>

/* Redraws the bar for `done` of `total` frames, at most 20 times a second
 * (always for the last frame); *last_draw holds the time of the last
 * drawing (-INFINITY before the first). */
void progress_draw(uint32_t done, uint32_t total, double frame_seconds, double *last_draw);

/* Blanks the bar's line, if it is drawn. */
void progress_clear(void);

#endif
