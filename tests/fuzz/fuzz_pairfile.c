/* fuzz_pairfile.c - libFuzzer harness for the pair-file parser the CLI
 * uses (tools/pairfile.c; grammar in docs/file-format.md). Any bytes must
 * either parse or fail with a syntax error that names a line and says
 * why. A parse must hold only what the grammar allows, and must go through
 * the library and the CSV writer as `gjkbatch query` takes it. A small
 * independent scan of the lines (first fields, NUL bytes) cross-checks
 * both outcomes. */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */

#include "pairfile.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz_pairfile: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#define CHECK(cond, ...)        \
    do {                        \
        if (!(cond))            \
            fail(__VA_ARGS__);  \
    } while (0)

/* ---- the independent scan ---------------------------------------------- */

typedef struct scan {
    unsigned long lines;        /* as the format counts them, from 1 */
    unsigned long first_bad;    /* first line with a NUL or an unknown record; 0: none */
    uint32_t pairs, hulls;      /* lines whose first field is pair or hull */
} scan;

static bool blank(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool field_is(const uint8_t *f, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(f, word, n) == 0;
}

/* One line (without its LF): its record kind, or whether it must fail. */
static void scan_line(scan *sc, const uint8_t *p, size_t n)
{
    sc->lines++;
    size_t i = 0, start;
    while (i < n && blank(p[i]))
        i++;
    start = i;
    while (i < n && !blank(p[i]) && p[i] != '\0')
        i++;
    const uint8_t *f = p + start;
    size_t len = i - start;
    bool nul = memchr(p, '\0', n) != NULL;
    bool known = len == 0 || f[0] == '#' || field_is(f, len, "pair") || field_is(f, len, "hull");
    if ((nul || !known) && !sc->first_bad)
        sc->first_bad = sc->lines;
    sc->pairs += field_is(f, len, "pair");
    sc->hulls += field_is(f, len, "hull");
}

/* Lines end in LF, CR LF or a lone CR (docs/file-format.md). */
static scan scan_input(const uint8_t *data, size_t size)
{
    scan sc = { 0, 0, 0, 0 };
    size_t start = 0;
    if (size >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))   /* a UTF-8 byte-order mark is skipped */
        start = 3;
    for (size_t i = start; i < size; i++) {
        if (data[i] == '\n' || data[i] == '\r') {
            scan_line(&sc, data + start, i - start);
            if (data[i] == '\r' && i + 1 < size && data[i + 1] == '\n')
                i++;
            start = i + 1;
        }
    }
    if (start < size)   /* a last line without a line end */
        scan_line(&sc, data + start, size - start);
    return sc;
}

/* ---- a failed parse ------------------------------------------------------- */

static bool all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

/* A syntax error on a real line, no later than the first line the scan
 * knows is bad, with a one-line message; nothing left to free. */
static void check_failure(pairfile_status st, const pairfile *pf, const pairfile_error *err, const scan *sc)
{
    size_t len = strnlen(err->message, sizeof err->message);
    CHECK(st == PAIRFILE_SYNTAX, "status %d from a memory stream of a few kB", (int)st);
    CHECK(len > 0 && len < sizeof err->message, "syntax error without a message (or not terminated)");
    CHECK(!memchr(err->message, '\n', len), "message spans lines: %s", err->message);
    CHECK(err->line >= 1 && err->line <= sc->lines, "error on line %lu of %lu: %s", err->line, sc->lines,
          err->message);
    CHECK(!sc->first_bad || err->line <= sc->first_bad, "error on line %lu, after the bad line %lu: %s", err->line,
          sc->first_bad, err->message);
    CHECK(all_zero(pf, sizeof *pf), "a failed parse left data in the pairfile");
}

/* ---- a successful parse --------------------------------------------------- */

/* The sizes a kind has in the file; the others are 0 ("Library sizes"). */
static void check_body(const pairfile *pf, uint32_t i)
{
    uint8_t k = pf->kind[i];
    CHECK(k < GJKB_KIND_COUNT, "body %u: kind %u", i, k);
    bool y = k == GJKB_BOX, z = k != GJKB_SPHERE && k != GJKB_HULL, x = k != GJKB_HULL;
    CHECK((x || pf->sx[i] == 0.0f) && (y || pf->sy[i] == 0.0f) && (z || pf->sz[i] == 0.0f),
          "body %u (kind %u): sizes %g %g %g, but the kind has no such field", i, k, pf->sx[i], pf->sy[i], pf->sz[i]);
    CHECK(k != GJKB_HULL || pf->hull[i] < pf->hull_count, "body %u: hull %u of %u", i, pf->hull[i], pf->hull_count);
}

/* Hulls in file order, points back to back, each file ID once. */
static void check_hulls(const pairfile *pf, const scan *sc)
{
    size_t next = 0;
    for (uint32_t h = 0; h < pf->hull_count; h++) {
        CHECK(pf->hull_first[h] == next, "hull %u starts at point %zu, not %zu", h, pf->hull_first[h], next);
        next += pf->hull_n[h];
        CHECK(pf->hull_line[h] >= 1 && pf->hull_line[h] <= sc->lines, "hull %u on line %lu", h, pf->hull_line[h]);
        CHECK(h == 0 || pf->hull_line[h] > pf->hull_line[h - 1], "hulls out of line order");
        for (uint32_t g = 0; g < h; g++)
            CHECK(pf->hull_file_id[g] != pf->hull_file_id[h], "hull ID %u twice", pf->hull_file_id[h]);
    }
    CHECK(next == pf->point_count, "%zu points in hulls, %zu stored", next, pf->point_count);
}

static void check_parse(const pairfile *pf, const scan *sc)
{
    CHECK(!sc->first_bad, "parsed although line %lu has a NUL byte or an unknown record", sc->first_bad);
    CHECK(pf->pair_count == sc->pairs && pf->hull_count == sc->hulls, "%u pairs and %u hulls parsed, %u and %u "
          "records", pf->pair_count, pf->hull_count, sc->pairs, sc->hulls);
    CHECK(pf->body_count == 2 * pf->pair_count, "%u bodies for %u pairs", pf->body_count, pf->pair_count);
    CHECK(pf->kind && pf->pair_a && pf->pair_b, "a body or pair array is NULL after a parse");
    for (uint32_t i = 0; i < pf->pair_count; i++)
        CHECK(pf->pair_a[i] == 2 * i && pf->pair_b[i] == 2 * i + 1, "pair %u is (%u, %u)", i, pf->pair_a[i],
              pf->pair_b[i]);
    for (uint32_t i = 0; i < pf->body_count; i++)
        check_body(pf, i);
    check_hulls(pf, sc);
}

/* ---- through the library, as the CLI does ---------------------------------- */

static gjkb_context *ctx;

/* One context for the process; remade once the hulls pile up. */
static gjkb_context *context(void)
{
    if (ctx && gjkb_hull_count(ctx) < 10000)
        return ctx;
    gjkb_destroy(ctx);
    ctx = NULL;
    CHECK(gjkb_create(NULL, &ctx) == GJKB_OK, "gjkb_create failed");
    return ctx;
}

static size_t count_lines(const char *s, size_t n)
{
    size_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += s[i] == '\n';
    return lines;
}

static void check_csv(uint32_t n, const gjkb_results *res)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK(out != NULL, "open_memstream failed");
    CHECK(pairfile_write_csv(out, n, res) == 0, "pairfile_write_csv failed");
    fclose(out);
    size_t head = strlen(pairfile_csv_header);
    CHECK(len > head && !memcmp(text, pairfile_csv_header, head) && text[head] == '\n', "CSV without its header");
    CHECK(count_lines(text, len) == (size_t)n + 1, "CSV of %zu lines for %u pairs", count_lines(text, len), n);
    free(text);
}

/* Registers the hulls, answers every pair in distance mode, writes CSV. */
static void answer(pairfile *pf)
{
    gjkb_context *c = context();
    gjkb_error e = pairfile_register_hulls(pf, c);
    CHECK(e == GJKB_OK, "pairfile_register_hulls: error %d", (int)e);
    uint32_t n = pf->pair_count;
    size_t cap = n ? n : 1;
    uint8_t *status = malloc(cap);
    uint32_t *iters = malloc(cap * sizeof *iters);
    double *d = malloc(cap * 10 * sizeof *d);
    CHECK(status && iters && d, "out of memory");
    gjkb_results res = { status, d, d + cap, d + 2 * cap, d + 3 * cap, d + 4 * cap, d + 5 * cap, d + 6 * cap,
                         d + 7 * cap, d + 8 * cap, d + 9 * cap, iters, {0} };
    gjkb_bodies bodies = pairfile_bodies(pf);
    gjkb_pairs pairs = pairfile_pairs(pf);
    gjkb_query q = { GJKB_DISTANCE, 0, 0.0, 0.0, NULL, NULL, NULL };
    e = gjkb_query_batch(c, &bodies, &pairs, &q, &res);
    CHECK(e == GJKB_OK, "gjkb_query_batch on a parsed file: %s", gjkb_last_error(c));
    for (uint32_t i = 0; i < n; i++)
        CHECK(status[i] <= GJKB_INVALID, "pair %u: status %u", i, status[i]);
    check_csv(n, &res);
    free(status);
    free(iters);
    free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A private copy: fmemopen wants a writable buffer, even to read. */
    char *copy = malloc(size + 1);
    CHECK(copy != NULL, "out of memory");
    memcpy(copy, data, size);
    FILE *in = fmemopen(copy, size, "r");
    CHECK(in != NULL, "fmemopen failed");
    pairfile pf;
    pairfile_error err;
    pairfile_status st = pairfile_read(in, &pf, &err);
    fclose(in);
    scan sc = scan_input(data, size);
    if (st != PAIRFILE_OK) {
        check_failure(st, &pf, &err, &sc);
    } else {
        check_parse(&pf, &sc);
        answer(&pf);
        pairfile_free(&pf);
    }
    free(copy);
    return 0;
}
