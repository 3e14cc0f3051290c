/* timing.h - the clock the timed commands read, and the statistic their
 * per-frame times are summed up by. */
#ifndef GJKB_TOOLS_TIMING_H
#define GJKB_TOOLS_TIMING_H

#include <stdint.h>

/* Seconds on the monotonic clock (from an arbitrary start). */
double now_seconds(void);

/* Median of v[0..n) (n >= 1); reorders v. */
double median(double *v, uint32_t n);

#endif
