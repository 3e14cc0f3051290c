/* lanes.inl - the lane scheduler: runs a query's loops over a chunk in
 * passes, independent of what the loops compute.
 *
 * Every bundle runs once; lanes still going after a pass wait in a queue
 * with their loop state and are packed densely into bundles of their own,
 * pass after pass, so that a few slow lanes do not hold up whole bundles.
 * A loop may hand lanes on to a next loop (a light loop to its closest-point
 * loop), afresh or with the state it reached. A lane's state survives
 * between passes, so its answer depends neither on the pass length, nor on
 * where it paused, nor on its neighbours. A query plugs in with a table of
 * loop descriptors (gjk.inl). */

/* A loop the scheduler runs. */
typedef struct loop_desc {
    /* One bundle's pass (loop_call); returns the lanes still going (state
     * in c->spill) and in *handover those handed on (state, if any, in
     * c->hand_spill). */
    unsigned (*bundle)(const loop_call *c, unsigned *handover);
    int rows;           /* floats of state per lane between passes */
    int witnesses;      /* writes points and axis */
    int final;          /* writes the final simplex (contact mode) */
    uint32_t cap;       /* steps per pass */
    uint32_t steps;     /* a light loop's budget per lane (within the bound); 0: the bound */
    int next;           /* index of the loop taking the lanes handed on, or -1
                           (chains of at most three loops: ls_drain) */
    int hand_rows;      /* rows of their state; 0: they start afresh there,
                           their steps here counted as the next loop's base */
} loop_desc;

/* The most rows any loop keeps, and the lane outputs a pass copies back
 * (distance and the nine floats of a, b, n). */
enum { LS_ROWS = CL_ROWS_DIST, LS_OUT = 10 };
_Static_assert((int)LT_ROWS_DIST <= (int)LS_ROWS && (int)CL_ROWS_HIT <= (int)LS_ROWS, "the queue holds every loop's state");

/* Lanes that outlast a pass wait here, up to LS_QCAP at a time: four
 * bundles of the widest kernel, enough for the lanes left by the bundles
 * the scheduler runs before it drains the queue. */
enum { LS_QCAP = 4 * GJKB_PACK_ALIGN, LS_QROW = LS_QCAP + GJKB_W };
typedef struct lane_queue {
    /* W past the capacity: a push may store a whole bundle (compress) */
    _Alignas(64) float rows[LS_ROWS][LS_QROW];
    uint32_t lane[LS_QROW];
    uint32_t n;
} lane_queue;

/* Steps a light loop may take (within the bound); the bound otherwise. */
static GJKB_INLINE uint32_t ls_budget(const gjkb__world *w, const loop_desc *d)
{
    return d->steps && d->steps < w->max_iterations ? d->steps : w->max_iterations;
}

/* Appends the lanes `bits` of a bundle (loop state in spill, chunk lanes
 * from lane[0, W) or, without lane, from `first` on). */
static GJKB_INLINE void ls_push(lane_queue *q, const float *spill, unsigned bits, const uint32_t *lane, uint32_t first,
                           int rows)
{
#ifdef GJKB_WIDE_COMPRESS
    /* Row by row, the lanes packed down and stored whole. */
    if (bits) {
        mw m = mw_from_bits(bits);
        for (int r = 0; r < rows; r++)
            iw_storeu((int32_t *)(void *)&q->rows[r][q->n], iw_compress(m, fw_bits(fw_load(spill + r * GJKB_W))));
        iw ids = lane ? iw_loadu((const int32_t *)(const void *)lane)
                      : iw_add(iw_splat((int32_t)first), iw_lane_index());
        iw_storeu((int32_t *)(void *)&q->lane[q->n], iw_compress(m, ids));
        q->n += gjkb_popcount(bits);
    }
#else
    for (int i = 0; bits; i++, bits >>= 1) {
        if (!(bits & 1u))
            continue;
        for (int r = 0; r < rows; r++)
            q->rows[r][q->n] = spill[r * GJKB_W + i];
        q->lane[q->n++] = lane ? lane[i] : first + (uint32_t)i;
    }
#endif
}

/* A queue's lanes as a chunk of their own: their pair inputs copied into
 * local lane arrays (and, starting afresh, their warm axes). */
typedef struct ls_chunk {
    _Alignas(64) int32_t pa[LS_QCAP], pb[LS_QCAP], ka[LS_QCAP], kb[LS_QCAP];
    _Alignas(64) float d[3][LS_QCAP];
    _Alignas(64) float warm[3][LS_QCAP];
} ls_chunk;

static GJKB_INLINE gjkb__world ls_chunk_world(const gjkb__world *w, const lane_queue *in, int fresh, ls_chunk *k)
{
    const int warm = fresh && w->lane_wx;
    /* whole bundles: the lanes past n repeat the first */
    const uint32_t end = (in->n + GJKB_W - 1) / GJKB_W * GJKB_W;
    for (uint32_t i = 0; i < end; i++) {
        uint32_t j = in->lane[i < in->n ? i : 0];
        k->pa[i] = w->lane_a[j];
        k->pb[i] = w->lane_b[j];
        k->ka[i] = w->lane_ka[j];
        k->kb[i] = w->lane_kb[j];
        k->d[0][i] = w->lane_dx[j];
        k->d[1][i] = w->lane_dy[j];
        k->d[2][i] = w->lane_dz[j];
        if (warm) {
            k->warm[0][i] = w->lane_wx[j];
            k->warm[1][i] = w->lane_wy[j];
            k->warm[2][i] = w->lane_wz[j];
        }
    }
    gjkb__world rw = *w;
    rw.lane_a = k->pa;
    rw.lane_b = k->pb;
    rw.lane_ka = k->ka;
    rw.lane_kb = k->kb;
    rw.lane_dx = k->d[0];
    rw.lane_dy = k->d[1];
    rw.lane_dz = k->d[2];
    /* A resumed lane's direction comes with its state. */
    rw.lane_wx = warm ? k->warm[0] : NULL;
    rw.lane_wy = warm ? k->warm[1] : NULL;
    rw.lane_wz = warm ? k->warm[2] : NULL;
    return rw;
}

/* One pass of loop d over the queued lanes `in`: their pairs packed again
 * and either their state restored (all `start` steps in) or (fresh)
 * started from the beginning; at most d->cap more steps; lanes that finish
 * go to their chunk lanes, the rest to `out`, lanes handed on to `hand`.
 * Lane by lane the same work whatever the width or the neighbours, so the
 * bits are too. */
static GJKB_INLINE void ls_pass(const gjkb__world *w, const gjkb__lanes *l, const loop_desc *d, const lane_queue *in,
                                lane_queue *out, lane_queue *hand, uint32_t start, uint32_t base, int fresh)
{
    ls_chunk k;
    _Alignas(64) int32_t status[LS_QCAP], iters[LS_QCAP];
    _Alignas(64) float res[LS_OUT][LS_QCAP];
    _Alignas(64) float spill[LS_ROWS * GJKB_W], hand_spill[LS_ROWS * GJKB_W];
    _Alignas(64) float fin[GJKB_K_FINAL_FIELDS][LS_QCAP];
    const uint32_t n = in->n;
    gjkb__world rw = ls_chunk_world(w, in, fresh, &k);
    gjkb__lanes rl = { .status = status, .iterations = iters, .dist = res[0],
                       .ax = res[1], .ay = res[2], .az = res[3], .bx = res[4], .by = res[5], .bz = res[6],
                       .nx = res[7], .ny = res[8], .nz = res[9], .counts = l->counts };
    for (int f = 0; f < GJKB_K_FINAL_FIELDS; f++)
        rl.fin[f] = fin[f];
    loop_call c = { .w = &rw, .count = n, .l = &rl, .start = start, .cap = d->cap, .base = base,
                    .budget = ls_budget(w, d), .stride = LS_QROW, .spill = spill, .hand_spill = hand_spill };
    for (uint32_t o = 0; o < n; o += GJKB_W) {
        unsigned handed;
        c.o = o;
        c.resume = fresh ? NULL : &in->rows[0][o];
        unsigned bits = d->bundle(&c, &handed);
        ls_push(out, spill, bits, in->lane + o, 0, d->rows);
        ls_push(hand, hand_spill, handed, in->lane + o, 0, d->hand_rows);
    }
    float *const to[9] = { l->ax, l->ay, l->az, l->bx, l->by, l->bz, l->nx, l->ny, l->nz };
    for (uint32_t i = 0; i < n; i++) {
        if (status[i] == K_RETRY)
            continue;
        uint32_t j = in->lane[i];
        l->status[j] = status[i];
        l->iterations[j] = iters[i];
        l->dist[j] = res[0][i];
        if (d->witnesses)
            for (int f = 0; f < 9; f++)
                to[f][j] = res[1 + f][i];
        if (d->final && (l->fin[GJKB_K_FINAL_COUNT][j] = fin[GJKB_K_FINAL_COUNT][i]) >= 3.0f)
            for (int f = 0; f < GJKB_K_FINAL_COUNT; f++)
                l->fin[f][j] = fin[f][i];
    }
}

/* Pass after pass of loop d over the lanes queued in *a (all `start`
 * steps in, or fresh), b the other queue, until none is left; a pass's
 * leftovers are at most its lanes, so the other queue has room. */
static GJKB_INLINE void ls_drain_loop(const gjkb__world *w, const gjkb__lanes *l, const loop_desc *d, lane_queue *a,
                                      lane_queue *b, lane_queue *hand, uint32_t start, uint32_t base, int fresh)
{
    while (a->n > 0) {
        b->n = 0;
        ls_pass(w, l, d, a, b, hand, start, base, fresh);
        lane_queue *t = a;
        a = b;
        b = t;
        start += d->cap;
        fresh = 0;
    }
}

/* The lanes loop d handed on (queued in *hand) through loop `next`:
 * afresh, their steps in d counted as next's base, or from the state they
 * reached; *a and *b are free queues, and the lanes next hands on go to
 * *a, which then becomes the hand-over queue. */
static GJKB_INLINE void ls_hand_on(const gjkb__world *w, const gjkb__lanes *l, const loop_desc *d,
                                   const loop_desc *next, lane_queue **a, lane_queue *b, lane_queue **hand)
{
    const uint32_t budget = ls_budget(w, d);
    lane_queue *q = *hand;
    *hand = *a;
    (*hand)->n = 0;
    if (d->hand_rows == 0)
        ls_drain_loop(w, l, next, q, b, *hand, 0, budget, 1);
    else
        ls_drain_loop(w, l, next, q, b, *hand, budget, 0, 0);
    *a = q;
}

/* The queued lanes *a of loops[0] (one pass in, or fresh: none) to the
 * end, then the lanes each loop handed on through the next, up to three
 * loops deep. Written
 * out, not as a loop over the chain, so that every descriptor is a
 * constant where it is used (the queue's row counts unroll). */
static GJKB_INLINE void ls_drain(const gjkb__world *w, const gjkb__lanes *l, const loop_desc *loops, lane_queue *a,
                                 lane_queue *b, lane_queue *hand, const int fresh)
{
    const loop_desc *d0 = &loops[0];
    ls_drain_loop(w, l, d0, a, b, hand, fresh ? 0 : d0->cap, 0, fresh);
    if (d0->next >= 0 && hand->n > 0) {
        const loop_desc *d1 = &loops[d0->next];
        ls_hand_on(w, l, d0, d1, &a, b, &hand);
        if (d1->next >= 0 && hand->n > 0)
            ls_hand_on(w, l, d1, &loops[d1->next], &a, b, &hand);
    }
    hand->n = 0;
}

/* A chunk in passes, starting every lane in loops[0]. */
static GJKB_INLINE void ls_run(const gjkb__world *w, uint32_t count, const gjkb__lanes *l, const loop_desc *loops)
{
    lane_queue q[3];
    _Alignas(64) float spill[LS_ROWS * GJKB_W], hand_spill[LS_ROWS * GJKB_W];
    const loop_desc *d = &loops[0];
    loop_call c = { .w = w, .count = count, .l = l, .start = 0, .cap = d->cap, .base = 0,
                    .budget = ls_budget(w, d), .resume = NULL, .stride = 0, .spill = spill, .hand_spill = hand_spill };
    q[0].n = q[2].n = 0;
    for (uint32_t o = 0; o < count; o += GJKB_W) {
        unsigned handed;
        c.o = o;
        unsigned bits = d->bundle(&c, &handed);
        ls_push(&q[0], spill, bits, NULL, (uint32_t)o, d->rows);
        ls_push(&q[2], hand_spill, handed, NULL, (uint32_t)o, d->hand_rows);
        if ((q[0].n > 0 || q[2].n > 0) && (q[0].n + q[2].n + GJKB_W > LS_QCAP || o + GJKB_W >= count)) {
            ls_drain(w, l, loops, &q[0], &q[1], &q[2], 0);
            q[0].n = q[2].n = 0;
        }
    }
}
