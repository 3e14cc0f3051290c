/* progress.c - the progress bar (progress.h). */
#include "progress.h"

#include "timing.h"

#include <stdio.h>

/* Set while the bar occupies the terminal line, so that a message first
 * clears it. */
static int progress_on_line;

void progress_clear(void)
{
    if (progress_on_line)
        fprintf(stderr, "\r%*s\r", 79, "");
    progress_on_line = 0;
}

void progress_draw(uint32_t done, uint32_t total, double frame_seconds, double *last_draw)
{
    double t = now_seconds();
    if (done < total && t - *last_draw < 0.05)
        return;
    *last_draw = t;
    enum { WIDTH = 32 };
    char bar[WIDTH + 1];
    uint32_t filled = (uint32_t)((uint64_t)WIDTH * done / total);
    for (uint32_t k = 0; k < WIDTH; k++)
        bar[k] = k < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r[%s] frame %lu/%lu  %.2f ms/frame ", bar, (unsigned long)done, (unsigned long)total,
            frame_seconds * 1e3);
    progress_on_line = 1;
}
