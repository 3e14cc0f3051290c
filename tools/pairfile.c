/* pairfile.c - parser and CSV writer for pair files, version 1. The
 * grammar and its error rules are specified in docs/file-format.md. */
#define _POSIX_C_SOURCE 200809L /* getline, newlocale, uselocale */

#include "pairfile.h"
#include "toolkit.h"

#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char pairfile_csv_header[] = "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations";
const char pairfile_contact_csv_header[] =
    "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations,contacts,"
    "c1ax,c1ay,c1az,c1bx,c1by,c1bz,c1sep,c2ax,c2ay,c2az,c2bx,c2by,c2bz,c2sep,"
    "c3ax,c3ay,c3az,c3bx,c3by,c3bz,c3sep,c4ax,c4ay,c4az,c4bx,c4by,c4bz,c4sep";

/* ---- locale ------------------------------------------------------------ */

/* The calling thread's locale switched to "C" while a file is read or
 * written: strtod and printf follow LC_NUMERIC, so a program that set a
 * comma-decimal locale would otherwise read "1.5" as 1 and print "0,1".
 * Per thread (uselocale), so other threads keep their locale. */
typedef struct c_locale_scope {
    locale_t c, prev;
} c_locale_scope;

/* 0, or -1 with errno set when the locale object cannot be made. */
static int c_locale_enter(c_locale_scope *sc)
{
    sc->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (sc->c == (locale_t)0)
        return -1;
    sc->prev = uselocale(sc->c);
    return 0;
}

static void c_locale_leave(c_locale_scope *sc)
{
    int e = errno;  /* callers report the errno of what failed inside */
    uselocale(sc->prev);
    freelocale(sc->c);
    errno = e;
}

/* ---- growth ------------------------------------------------------------ */

/* Reallocates *p to cap elements of sz bytes; the old block stays valid on
 * failure, so a half-grown set of arrays is still consistent at the old
 * capacity. */
static int resize(void **p, size_t cap, size_t sz)
{
    if (cap > SIZE_MAX / sz)
        return -1;
    void *q = realloc(*p, cap * sz);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* Next capacity for at least need elements: doubling keeps appends linear. */
static size_t grown(size_t cap, size_t need)
{
    size_t c = cap ? cap : 64;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    return c;
}

/* One array to grow: where its pointer is, and its element size. */
typedef struct column {
    void **p;
    size_t size;
} column;
#define COLUMN(a) { (void **)&(a), sizeof *(a) }

/* Grows the n arrays cols, *cap elements each, to hold need elements (at
 * most UINT32_MAX); a failure leaves them all valid at *cap. */
static int reserve(const column *cols, size_t n, uint32_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = grown(*cap, need);
    if (c > UINT32_MAX)
        c = UINT32_MAX;
    for (size_t k = 0; k < n; k++)
        if (resize(cols[k].p, c, cols[k].size))
            return -1;
    *cap = (uint32_t)c;
    return 0;
}

static int reserve_bodies(pairfile *pf, size_t need)
{
    const column cols[] = { COLUMN(pf->kind), COLUMN(pf->px),     COLUMN(pf->py), COLUMN(pf->pz), COLUMN(pf->qw),
                            COLUMN(pf->qx),   COLUMN(pf->qy),     COLUMN(pf->qz), COLUMN(pf->sx), COLUMN(pf->sy),
                            COLUMN(pf->sz),   COLUMN(pf->margin), COLUMN(pf->hull) };
    return reserve(cols, sizeof cols / sizeof cols[0], &pf->body_cap, need);
}

static int reserve_hulls(pairfile *pf, size_t need)
{
    const column cols[] = { COLUMN(pf->hull_file_id), COLUMN(pf->hull_line), COLUMN(pf->hull_first),
                            COLUMN(pf->hull_n) };
    return reserve(cols, sizeof cols / sizeof cols[0], &pf->hull_cap, need);
}

static int reserve_points(pairfile *pf, size_t need)
{
    if (need <= pf->point_cap)
        return 0;
    size_t c = grown(pf->point_cap, need);
    if (c > SIZE_MAX / 3 || resize((void **)&pf->hull_xyz, 3 * c, sizeof *pf->hull_xyz))
        return -1;
    pf->point_cap = c;
    return 0;
}

/* ---- hull ID map ---------------------------------------------------------
 * Open addressing with linear probing, kept at most half full. A slot is
 * empty when its value is UINT32_MAX, so every uint32 key is usable. */

static size_t map_slot(uint32_t key, size_t cap)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (cap - 1);
}

static uint32_t map_find(const pairfile *pf, uint32_t key)
{
    if (!pf->map_cap)
        return UINT32_MAX;
    for (size_t i = map_slot(key, pf->map_cap);; i = (i + 1) & (pf->map_cap - 1)) {
        if (pf->map_val[i] == UINT32_MAX || pf->map_key[i] == key)
            return pf->map_val[i];
    }
}

static void map_put_unchecked(uint32_t *keys, uint32_t *vals, size_t cap, uint32_t key, uint32_t val)
{
    size_t i = map_slot(key, cap);
    while (vals[i] != UINT32_MAX)
        i = (i + 1) & (cap - 1);
    keys[i] = key;
    vals[i] = val;
}

static int map_put(pairfile *pf, uint32_t key, uint32_t val)
{
    if (2 * ((size_t)pf->hull_count + 1) > pf->map_cap) {
        size_t cap = pf->map_cap ? 2 * pf->map_cap : 64;
        uint32_t *keys = malloc(cap * sizeof *keys), *vals = malloc(cap * sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return -1;
        }
        memset(vals, 0xff, cap * sizeof *vals);
        for (size_t i = 0; i < pf->map_cap; i++)
            if (pf->map_val[i] != UINT32_MAX)
                map_put_unchecked(keys, vals, cap, pf->map_key[i], pf->map_val[i]);
        free(pf->map_key);
        free(pf->map_val);
        pf->map_key = keys;
        pf->map_val = vals;
        pf->map_cap = cap;
    }
    map_put_unchecked(pf->map_key, pf->map_val, pf->map_cap, key, val);
    return 0;
}

/* ---- tokens ------------------------------------------------------------ */

typedef struct parser {
    pairfile *pf;
    pairfile_error *err;
    char *cur;                  /* rest of the current line */
    const char *side;           /* "shape A: " while parsing a pair's side */
} parser;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* The next whitespace-separated token, NUL-terminated in place; NULL at the
 * end of the line. */
static char *next_token(parser *ps)
{
    char *p = ps->cur;
    while (is_space(*p))
        p++;
    if (!*p) {
        ps->cur = p;
        return NULL;
    }
    char *start = p;
    while (*p && !is_space(*p))
        p++;
    if (*p)
        *p++ = '\0';
    ps->cur = p;
    return start;
}

/* Whether the next token is word, without consuming it. */
static int peek_is(const parser *ps, const char *word)
{
    const char *p = ps->cur;
    while (is_space(*p))
        p++;
    size_t n = strlen(word);
    return strncmp(p, word, n) == 0 && (p[n] == '\0' || is_space(p[n]));
}

static pairfile_status fail(parser *ps, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static pairfile_status fail(parser *ps, const char *fmt, ...)
{
    size_t n = (size_t)snprintf(ps->err->message, sizeof ps->err->message, "%s", ps->side);
    if (n >= sizeof ps->err->message)
        n = sizeof ps->err->message - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err->message + n, sizeof ps->err->message - n, fmt, ap);
    va_end(ap);
    return PAIRFILE_SYNTAX;
}

/* Tokens quoted in messages are cut short so a message stays one line. */
#define TOK_FMT "'%.40s%s'"
#define TOK_ARG(t) (t), strlen(t) > 40 ? "..." : ""

/* A number in strtod syntax (nan, inf and hex floats included; the C
 * locale's, see c_locale_scope); overflow gives +-inf, which the library
 * then rejects as geometry, not syntax. */
static pairfile_status number(parser *ps, const char *what, double *out)
{
    char *t = next_token(ps);
    if (!t)
        return fail(ps, "missing %s", what);
    char *end;
    *out = strtod(t, &end);
    if (end == t || *end)
        return fail(ps, "%s: " TOK_FMT " is not a number", what, TOK_ARG(t));
    return PAIRFILE_OK;
}

/* double -> float with out-of-range values mapped to infinity explicitly
 * (a plain cast of such a value is undefined in C). */
static float to_float(double v)
{
    if (v > FLT_MAX)
        return INFINITY;
    if (v < -FLT_MAX)
        return -INFINITY;
    return (float)v;
}

static pairfile_status float_number(parser *ps, const char *what, float *out)
{
    double v = 0.0;
    pairfile_status st = number(ps, what, &v);
    *out = to_float(v);
    return st;
}

/* A hull ID: decimal digits only, at most UINT32_MAX. */
static int parse_id(const char *t, uint32_t *out)
{
    uint64_t v = 0;
    if (!*t)
        return -1;
    for (const char *p = t; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* ---- records ----------------------------------------------------------- */

static pairfile_status parse_hull(parser *ps, unsigned long line)
{
    pairfile *pf = ps->pf;
    char *t = next_token(ps);
    uint32_t id;
    if (!t)
        return fail(ps, "hull: missing ID");
    if (parse_id(t, &id))
        return fail(ps, "hull: " TOK_FMT " is not a hull ID (an integer from 0 to %lu)", TOK_ARG(t),
                    (unsigned long)UINT32_MAX);
    uint32_t prev = map_find(pf, id);
    if (prev != UINT32_MAX)
        return fail(ps, "hull %lu is already defined on line %lu", (unsigned long)id, pf->hull_line[prev]);
    if (pf->hull_count == UINT32_MAX - 1)
        return fail(ps, "too many hulls");
    if (reserve_hulls(pf, (size_t)pf->hull_count + 1))
        return PAIRFILE_MEMORY;

    size_t first = pf->point_count, coords = 0;
    float *dst = NULL;
    while ((t = next_token(ps)) != NULL) {
        if (coords % 3 == 0) {
            if (reserve_points(pf, first + coords / 3 + 1))
                return PAIRFILE_MEMORY;
            dst = pf->hull_xyz + 3 * first;
        }
        char *end;
        double v = strtod(t, &end);
        if (end == t || *end)
            return fail(ps, "hull %lu: coordinate %zu: " TOK_FMT " is not a number", (unsigned long)id,
                        coords + 1, TOK_ARG(t));
        dst[coords++] = to_float(v);
    }
    if (coords % 3)
        return fail(ps, "hull %lu: %zu coordinates, not a multiple of 3", (unsigned long)id, coords);
    if (coords / 3 > UINT32_MAX)
        return fail(ps, "hull %lu: too many points", (unsigned long)id);
    if (map_put(pf, id, pf->hull_count))
        return PAIRFILE_MEMORY;
    uint32_t h = pf->hull_count++;
    pf->hull_file_id[h] = id;
    pf->hull_line[h] = line;
    pf->hull_first[h] = first;
    pf->hull_n[h] = (uint32_t)(coords / 3);
    pf->point_count = first + coords / 3;
    return PAIRFILE_OK;
}

/* The size fields of a kind with sizes (a shape's name is its kind's,
 * gjkb_kind_name). */
typedef struct shape_syntax {
    int count;                  /* size fields */
    const char *field[3];
    int slot[3];                /* 0: sx, 1: sy, 2: sz */
} shape_syntax;

static const shape_syntax shapes[GJKB_KIND_COUNT] = {
    [GJKB_SPHERE] = { 1, { "sphere radius" }, { 0 } },
    [GJKB_CAPSULE] = { 2, { "capsule radius", "capsule half length" }, { 0, 2 } },
    [GJKB_BOX] = { 3, { "box half extent x", "box half extent y", "box half extent z" }, { 0, 1, 2 } },
    [GJKB_CYLINDER] = { 2, { "cylinder radius", "cylinder half height" }, { 0, 2 } },
    [GJKB_CONE] = { 2, { "cone radius", "cone half height" }, { 0, 2 } },
};

/* "sphere, capsule, ... or hull": every kind's name, for a message. */
static void kind_list(char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < GJKB_KIND_COUNT && used < size; k++) {
        const char *sep = k == 0 ? "" : k + 1 < GJKB_KIND_COUNT ? ", " : " or ";
        int n = snprintf(out + used, size - used, "%s%s", sep, gjkb_kind_name((gjkb_kind)k));
        used += n > 0 ? (size_t)n : 0;
    }
}

/* SHAPE [margin M] POSE into body i. */
static pairfile_status parse_side(parser *ps, uint32_t i)
{
    pairfile *pf = ps->pf;
    pairfile_status st;
    char *t = next_token(ps);
    if (!t)
        return fail(ps, "missing shape");

    float size[3] = { 0.0f, 0.0f, 0.0f };
    uint32_t hull = 0;
    gjkb_kind kind;
    if (gjkb_kind_parse(t, &kind) != GJKB_OK) {
        char kinds[128];
        kind_list(kinds, sizeof kinds);
        return fail(ps, "unknown shape " TOK_FMT " (expected %s)", TOK_ARG(t), kinds);
    }
    if (kind == GJKB_HULL) {
        uint32_t id;
        t = next_token(ps);
        if (!t)
            return fail(ps, "missing hull ID");
        if (parse_id(t, &id))
            return fail(ps, "hull: " TOK_FMT " is not a hull ID", TOK_ARG(t));
        hull = map_find(pf, id);
        if (hull == UINT32_MAX)
            return fail(ps, "hull %lu is not defined (define hulls before the pairs that use them)",
                        (unsigned long)id);
    } else {
        const shape_syntax *sh = &shapes[kind];
        for (int k = 0; k < sh->count; k++)
            if ((st = float_number(ps, sh->field[k], &size[sh->slot[k]])) != PAIRFILE_OK)
                return st;
    }

    /* The optional margin: a pose never starts with this word. */
    float margin = 0.0f;
    if (peek_is(ps, "margin")) {
        next_token(ps);
        if ((st = float_number(ps, "margin", &margin)) != PAIRFILE_OK)
            return st;
    }

    double p[3];
    float q[4];
    static const char *const pos_name[3] = { "position x", "position y", "position z" };
    static const char *const rot_name[4] = { "quaternion w", "quaternion x", "quaternion y", "quaternion z" };
    for (int k = 0; k < 3; k++)
        if ((st = number(ps, pos_name[k], &p[k])) != PAIRFILE_OK)
            return st;
    for (int k = 0; k < 4; k++)
        if ((st = float_number(ps, rot_name[k], &q[k])) != PAIRFILE_OK)
            return st;

    pf->kind[i] = (uint8_t)kind;
    pf->px[i] = p[0];
    pf->py[i] = p[1];
    pf->pz[i] = p[2];
    pf->qw[i] = q[0];
    pf->qx[i] = q[1];
    pf->qy[i] = q[2];
    pf->qz[i] = q[3];
    pf->sx[i] = size[0];
    pf->sy[i] = size[1];
    pf->sz[i] = size[2];
    pf->margin[i] = margin;
    pf->hull[i] = hull;
    return PAIRFILE_OK;
}

static pairfile_status parse_pair(parser *ps)
{
    pairfile *pf = ps->pf;
    pairfile_status st;
    if (pf->body_count > UINT32_MAX - 2)
        return fail(ps, "too many pairs");
    if (reserve_bodies(pf, (size_t)pf->body_count + 2))
        return PAIRFILE_MEMORY;
    ps->side = "shape A: ";
    if ((st = parse_side(ps, pf->body_count)) != PAIRFILE_OK)
        return st;
    ps->side = "shape B: ";
    if ((st = parse_side(ps, pf->body_count + 1)) != PAIRFILE_OK)
        return st;
    ps->side = "";
    char *t = next_token(ps);
    if (t)
        return fail(ps, "extra field " TOK_FMT " after the pair", TOK_ARG(t));
    pf->body_count += 2;
    pf->pair_count++;
    return PAIRFILE_OK;
}

static pairfile_status parse_line(parser *ps, char *line, size_t len, unsigned long lineno)
{
    ps->cur = line;
    ps->side = "";
    if (strlen(line) != len)
        return fail(ps, "the line contains a NUL byte");
    char *t = next_token(ps);
    if (!t || t[0] == '#')
        return PAIRFILE_OK;
    if (strcmp(t, "pair") == 0)
        return parse_pair(ps);
    if (strcmp(t, "hull") == 0)
        return parse_hull(ps, lineno);
    return fail(ps, "unknown record " TOK_FMT " (expected pair, hull or a # comment)", TOK_ARG(t));
}

/* ---- whole files ------------------------------------------------------- */

void pairfile_free(pairfile *pf)
{
    if (!pf)
        return;
    void *arrays[] = { TOOLKIT_BODY_ARRAYS(pf), pf->pair_a, pf->pair_b, pf->hull_file_id, pf->hull_line,
                       pf->hull_first, pf->hull_n, pf->hull_xyz, pf->map_key, pf->map_val };
    free_each(arrays, sizeof arrays / sizeof arrays[0]);
    memset(pf, 0, sizeof *pf);
}

static pairfile_status finish(pairfile *pf)
{
    size_t n = pf->pair_count ? pf->pair_count : 1;
    pf->pair_a = malloc(n * sizeof *pf->pair_a);
    pf->pair_b = malloc(n * sizeof *pf->pair_b);
    if (!pf->pair_a || !pf->pair_b)
        return PAIRFILE_MEMORY;
    for (uint32_t i = 0; i < pf->pair_count; i++) {
        pf->pair_a[i] = 2 * i;
        pf->pair_b[i] = 2 * i + 1;
    }
    /* Keep every body array non-NULL, even for a file without pairs. */
    return reserve_bodies(pf, 1) ? PAIRFILE_MEMORY : PAIRFILE_OK;
}

/* A byte-order mark at the start of the file: UTF-8's (which some Windows
 * editors write) is skipped; UTF-16's means the text is not UTF-8 at all,
 * which no line would survive, so it gets a message of its own. */
static pairfile_status byte_order_mark(parser *ps, const char *buf, size_t len, size_t *skip)
{
    *skip = 0;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        *skip = 3;
    else if (len >= 2 && (memcmp(buf, "\xFF\xFE", 2) == 0 || memcmp(buf, "\xFE\xFF", 2) == 0))
        return fail(ps, "the file is UTF-16 text (it starts with a UTF-16 byte-order mark): save it as UTF-8");
    return PAIRFILE_OK;
}

/* Parses the lines of one getline buffer (buf[len] is writable: getline
 * ends it with a NUL). Lines end in LF, CR LF or a CR alone; a file with
 * only CRs (old Mac) comes as one buffer. CR LF counts as one line end. */
static pairfile_status parse_buffer(parser *ps, char *buf, size_t len, unsigned long *lineno)
{
    char *end = buf + len;
    for (char *p = buf; p < end;) {
        char *q = p;
        while (q < end && *q != '\r' && *q != '\n')
            q++;
        char *next = q;
        if (next < end && *next++ == '\r' && next < end && *next == '\n')
            next++;
        *q = '\0';
        pairfile_status st = parse_line(ps, p, (size_t)(q - p), ++*lineno);
        if (st != PAIRFILE_OK)
            return st;
        p = next;
    }
    return PAIRFILE_OK;
}

/* Reads and parses every line of in; on failure err says why (its line
 * included for a syntax error). */
static pairfile_status read_lines(FILE *in, pairfile *pf, pairfile_error *err)
{
    parser ps = { pf, err, NULL, "" };
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned long lineno = 0;
    pairfile_status st = PAIRFILE_OK;
    /* errno is cleared before each read so that after the loop it tells
     * a failed getline (ENOMEM, EIO) from a plain end of file */
    for (int first = 1; (errno = 0, len = getline(&line, &cap, in)) >= 0; first = 0) {
        size_t skip = 0;
        if (first && (st = byte_order_mark(&ps, line, (size_t)len, &skip)) != PAIRFILE_OK) {
            lineno = 1;
            break;
        }
        if ((st = parse_buffer(&ps, line + skip, (size_t)len - skip, &lineno)) != PAIRFILE_OK)
            break;
    }
    if (st == PAIRFILE_OK && ferror(in)) {
        st = PAIRFILE_IO;
        snprintf(err->message, sizeof err->message, "read error: %s", strerror(errno ? errno : EIO));
    } else if (st == PAIRFILE_OK && len < 0 && errno == ENOMEM) {
        st = PAIRFILE_MEMORY;
    }
    free(line);
    if (st == PAIRFILE_SYNTAX)
        err->line = lineno;
    return st;
}

pairfile_status pairfile_read(FILE *in, pairfile *pf, pairfile_error *err)
{
    memset(pf, 0, sizeof *pf);
    err->line = 0;
    err->message[0] = '\0';
    c_locale_scope loc;
    pairfile_status st = PAIRFILE_MEMORY;
    if (c_locale_enter(&loc) == 0) {
        st = read_lines(in, pf, err);
        c_locale_leave(&loc);
    }
    if (st == PAIRFILE_OK)
        st = finish(pf);
    if (st == PAIRFILE_MEMORY)
        snprintf(err->message, sizeof err->message, "out of memory");
    if (st != PAIRFILE_OK)
        pairfile_free(pf);
    return st;
}

/* ---- library glue ------------------------------------------------------ */

gjkb_error pairfile_register_hulls(pairfile *pf, gjkb_context *ctx)
{
    if (!pf || !ctx)
        return GJKB_ERR_NULL;
    if (pf->registered)
        return GJKB_ERR_ARGUMENT;
    uint32_t *lib = malloc((pf->hull_count ? pf->hull_count : 1) * sizeof *lib);
    if (!lib)
        return GJKB_ERR_MEMORY;
    for (uint32_t h = 0; h < pf->hull_count; h++) {
        const float *xyz = pf->hull_n[h] ? pf->hull_xyz + 3 * pf->hull_first[h] : NULL;
        gjkb_error e = gjkb_hull_add(ctx, xyz, pf->hull_n[h], &lib[h]);
        if (e != GJKB_OK) {
            free(lib);
            return e;
        }
    }
    for (uint32_t i = 0; i < pf->body_count; i++)
        if (pf->kind[i] == GJKB_HULL)
            pf->hull[i] = lib[pf->hull[i]];
    free(lib);
    pf->registered = 1;
    return GJKB_OK;
}

gjkb_bodies pairfile_bodies(const pairfile *pf)
{
    return TOOLKIT_BODIES_VIEW(pf, pf->body_count);
}

gjkb_pairs pairfile_pairs(const pairfile *pf)
{
    gjkb_pairs p = { pf->pair_count, pf->pair_a, pf->pair_b };
    return p;
}

/* ---- CSV ----------------------------------------------------------------- */

/* %.9g, but with the spelling of non-finite values fixed (printf's varies
 * between C libraries: "-nan", "NaN", "1.#INF"). */
static char *put_number(char *p, const double *col, size_t i)
{
    double v = col ? col[i] : NAN;
    const char *word = isnan(v) ? ",nan" : isinf(v) ? (v > 0 ? ",inf" : ",-inf") : NULL;
    if (!word)
        return p + sprintf(p, ",%.9g", v);
    size_t n = strlen(word);
    memcpy(p, word, n);
    return p + n;
}

/* The columns both layouts share: pair, status, distance, a, b, n. */
static char *put_answer(char *p, const gjkb_results *res, uint32_t i)
{
    p += sprintf(p, "%lu,%s", (unsigned long)i, gjkb_status_name((gjkb_status)res->status[i]));
    const double *cols[10] = { res->distance, res->ax, res->ay, res->az, res->bx,
                               res->by,       res->bz, res->nx, res->ny, res->nz };
    for (int k = 0; k < 10; k++)
        p = put_number(p, cols[k], i);
    return p;
}

/* The contact columns of pair i: the point count, then every slot's a, b
 * and separation; slots past the count print nan whatever the arrays hold,
 * so that a row never shows a stale point. */
static char *put_manifold(char *p, const gjkb_manifolds *m, uint32_t i)
{
    unsigned count = m->count ? m->count[i] : 0;
    p += sprintf(p, ",%u", count);
    const double *cols[7] = { m->ax, m->ay, m->az, m->bx, m->by, m->bz, m->separation };
    for (unsigned k = 0; k < GJKB_MAX_CONTACTS; k++)
        for (int c = 0; c < 7; c++)
            p = put_number(p, k < count ? cols[c] : NULL, (size_t)i * GJKB_MAX_CONTACTS + k);
    return p;
}

/* The rows of the CSV writers, in whatever locale the caller set. */
static int write_rows(FILE *out, uint32_t count, const gjkb_results *res, int contact)
{
    if (fprintf(out, "%s\n", contact ? pairfile_contact_csv_header : pairfile_csv_header) < 0)
        return -1;
    for (uint32_t i = 0; i < count; i++) {
        /* at most 40 numbers of 17 characters each, plus the rest */
        char row[1024], *p = put_answer(row, res, i);
        p += sprintf(p, ",%lu", (unsigned long)(res->iterations ? res->iterations[i] : 0));
        if (contact)
            p = put_manifold(p, &res->manifold, i);
        *p++ = '\n';
        if (fwrite(row, 1, (size_t)(p - row), out) != (size_t)(p - row))
            return -1;
    }
    return fflush(out) == 0 ? 0 : -1;
}

/* Either layout; a comma-decimal locale would print 0.1 as "0,1", a field
 * too many, hence the C locale around it. */
static int write_csv(FILE *out, uint32_t count, const gjkb_results *res, int contact)
{
    c_locale_scope loc;
    if (c_locale_enter(&loc))
        return -1;
    int r = write_rows(out, count, res, contact);
    c_locale_leave(&loc);
    return r;
}

int pairfile_write_csv(FILE *out, uint32_t count, const gjkb_results *res)
{
    return write_csv(out, count, res, 0);
}

int pairfile_write_contact_csv(FILE *out, uint32_t count, const gjkb_results *res)
{
    return write_csv(out, count, res, 1);
}
