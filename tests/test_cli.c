/* test_cli.c - the pair file parser and CSV writer (tools/pairfile.c), run
 * through the library on every available backend against hand-computed
 * answers, and the gjkbatch binary end to end (its path comes from the
 * GJKBATCH_CLI environment variable that CTest sets). */
#define _POSIX_C_SOURCE 200809L /* posix_spawn, mkdtemp */
#define _XOPEN_SOURCE 700       /* nftw, mknod */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../tools/pairfile.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cli_harness.h"

/* ---- helpers ------------------------------------------------------------ */

static FILE *text_file(const char *text)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    rewind(f);
    return f;
}


static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Removes path and everything under it (folders the tests made). */
static void remove_tree(const char *path)
{
    nftw(path, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Names in folder dir (. and .. aside); *dot gets how many start with a
 * '.', as the tool's temporary files do. */
static int folder_entries(const char *dir, int *dot)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    *dot = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        *dot += e->d_name[0] == '.';
    }
    closedir(d);
    return n;
}

/* Fails when a temporary file of the tool's is left in dir. */
static void expect_no_temp_files(const char *dir)
{
    int dot;
    folder_entries(dir, &dot);
    if (dot)
        fail_msg("%d temporary file(s) left in %s", dot, dir);
}

/* Runs argv with every standard stream on /dev/null: its exit status, or
 * -1 when it could not start or did not exit. */
static int run_quiet(const char *const *argv)
{
    posix_spawn_file_actions_t fa;
    assert_int_equal(posix_spawn_file_actions_init(&fa), 0);
    for (int fd = 0; fd < 3; fd++)
        assert_int_equal(posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0), 0);
    fflush(NULL);
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status;
    if (e != 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static pairfile_status parse(const char *text, pairfile *pf, pairfile_error *err)
{
    FILE *f = text_file(text);
    pairfile_status st = pairfile_read(f, pf, err);
    fclose(f);
    return st;
}

/* Result arrays for n pairs in every column, the manifold included. */
typedef struct answer_buf {
    gjkb_results r;
    double *col[10], *slot[7];
    uint32_t *feature;
} answer_buf;

static void answer_alloc(answer_buf *ab, uint32_t n, gjkb_mode mode)
{
    memset(ab, 0, sizeof *ab);
    for (int k = 0; k < 10; k++)
        assert_non_null(ab->col[k] = calloc(n, sizeof(double)));
    for (int k = 0; k < 7; k++)
        assert_non_null(ab->slot[k] = calloc((size_t)n * GJKB_MAX_CONTACTS, sizeof(double)));
    assert_non_null(ab->feature = calloc((size_t)n * GJKB_MAX_CONTACTS, sizeof(uint32_t)));
    gjkb_results *r = &ab->r;
    assert_non_null(r->status = calloc(n, 1));
    assert_non_null(r->iterations = calloc(n, sizeof(uint32_t)));
    r->distance = ab->col[0];
    if (mode != GJKB_HIT) { /* hit mode: NULL, as the tool does */
        double **pt[9] = { &r->ax, &r->ay, &r->az, &r->bx, &r->by, &r->bz, &r->nx, &r->ny, &r->nz };
        for (int k = 0; k < 9; k++)
            *pt[k] = ab->col[1 + k];
    }
    if (mode == GJKB_CONTACT) {
        gjkb_manifolds *m = &r->manifold;
        assert_non_null(m->count = calloc(n, 1));
        double **sl[7] = { &m->ax, &m->ay, &m->az, &m->bx, &m->by, &m->bz, &m->separation };
        for (int k = 0; k < 7; k++)
            *sl[k] = ab->slot[k];
        m->feature = ab->feature;
    }
}

static void answer_free(answer_buf *ab)
{
    for (int k = 0; k < 10; k++)
        free(ab->col[k]);
    for (int k = 0; k < 7; k++)
        free(ab->slot[k]);
    free(ab->feature);
    free(ab->r.status);
    free(ab->r.iterations);
    free(ab->r.manifold.count);
}

/* Parses text, answers it on backend in mode (max_distance as the query's)
 * and returns the CSV text in the mode's layout. */
static char *answer_with(const char *text, gjkb_backend backend, gjkb_mode mode, double max_distance)
{
    pairfile pf;
    pairfile_error err;
    pairfile_status st = parse(text, &pf, &err);
    if (st != PAIRFILE_OK)
        fail_msg("line %lu: %s", err.line, err.message);
    gjkb_config cfg = { backend, 0 };
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
    assert_int_equal(pairfile_register_hulls(&pf, ctx), GJKB_OK);

    answer_buf ab;
    answer_alloc(&ab, pf.pair_count ? pf.pair_count : 1, mode);
    gjkb_bodies bodies = pairfile_bodies(&pf);
    gjkb_pairs pairs = pairfile_pairs(&pf);
    gjkb_query q = { mode, 0, 0.0, max_distance, NULL, NULL, NULL };
    if (gjkb_query_batch(ctx, &bodies, &pairs, &q, &ab.r) != GJKB_OK)
        fail_msg("%s query: %s", gjkb_backend_name(backend), gjkb_last_error(ctx));

    FILE *out = tmpfile();
    assert_non_null(out);
    if (mode == GJKB_CONTACT)
        assert_int_equal(pairfile_write_contact_csv(out, pf.pair_count, &ab.r), 0);
    else
        assert_int_equal(pairfile_write_csv(out, pf.pair_count, &ab.r), 0);
    char *csv = slurp(out);
    fclose(out);
    answer_free(&ab);
    gjkb_destroy(ctx);
    pairfile_free(&pf);
    return csv;
}

static char *answer(const char *text, gjkb_backend backend, gjkb_mode mode)
{
    return answer_with(text, backend, mode, 0.0);
}

/* CSV split into rows of fields (pointers into the text, modified): 13
 * fields, or CONTACT_FIELDS in the contact layout. */
#define NFIELDS 13
#define CONTACT_FIELDS 42
typedef struct csv {
    char *text;
    int rows, fields;
    char *f[64][CONTACT_FIELDS];
} csv;

static void csv_split_layout(csv *c, char *text, const char *header, int fields)
{
    c->text = text;
    c->rows = 0;
    c->fields = fields;
    char *line = text, *nl = strchr(line, '\n');
    assert_non_null(nl);
    *nl = '\0';
    assert_string_equal(line, header);
    for (line = nl + 1; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        assert_non_null(nl); /* every row ends in a newline */
        *nl = '\0';
        assert_true(c->rows < 64);
        char *p = line;
        for (int k = 0; k < fields; k++) {
            c->f[c->rows][k] = p;
            char *comma = strchr(p, ',');
            if (k < fields - 1) {
                assert_non_null(comma);
                *comma = '\0';
                p = comma + 1;
            } else {
                assert_null(comma);
            }
        }
        c->rows++;
    }
}

static void csv_split(csv *c, char *text)
{
    csv_split_layout(c, text, pairfile_csv_header, NFIELDS);
}

static void csv_split_contact(csv *c, char *text)
{
    csv_split_layout(c, text, pairfile_contact_csv_header, CONTACT_FIELDS);
}

static double field(const csv *c, int row, int k)
{
    char *end;
    double v = strtod(c->f[row][k], &end);
    assert_true(*c->f[row][k] && !*end);
    return v;
}

/* Column indices */
enum { C_PAIR, C_STATUS, C_DIST, C_AX, C_AY, C_AZ, C_BX, C_BY, C_BZ, C_NX, C_NY, C_NZ, C_ITER, C_CONTACTS };
/* Contact layout: column of field k (C_SAX .. C_SSEP) of slot j (0..3). */
enum { C_SAX, C_SAY, C_SAZ, C_SBX, C_SBY, C_SBZ, C_SSEP, SLOT_FIELDS };
#define C_SLOT(j, k) (C_CONTACTS + 1 + (j) * SLOT_FIELDS + (k))

/* Backends this build and CPU run (reference first). */

/* ---- round trip: every kind against hand-computed answers --------------- */

static const char round_trip_file[] =
    "# gjkbatch pair file, version 1: every kind, a hull, margins\n"
    "\n"
    "   # a tetrahedron and one interior point\n"
    "hull 7  0 0 0  1 0 0  0 1 0  0 0 1  0.2 0.2 0.2\n"
    "\t\n"
    "# 0: unit spheres 3 apart\n"
    "pair sphere 1  0 0 0  1 0 0 0   sphere 1  3 0 0  1 0 0 0\n"
    "# 1: boxes face to face, gap 1\n"
    "pair box 1 1 1  0 0 0  1 0 0 0   box 1 1 1  3 0 0  1 0 0 0\n"
    "# 2: boxes touching face to face\n"
    "pair box 1 1 1  0 0 0  1 0 0 0   box 0.5 0.5 0.5  1.5 0 0  1 0 0 0\n"
    "# 3: parallel capsules, segment ends (0,0,1) and (2,0,2) closest\n"
    "pair capsule 0.5 1  0 0 0  1 0 0 0   capsule 0.5 1  2 0 3  1 0 0 0\n"
    "# 4: cone apex (z = 1) under a box face (z = 2)\n"
    "pair cone 1 1  0 0 0  1 0 0 0   box 1 1 1  0 0 3  1 0 0 0\n"
    "# 5: hull at x = 10, sphere over its slanted face\n"
    "pair hull 7  10 0 0  1 0 0 0   sphere 0.5  11 1 1  1 0 0 0\n"
    "# 6: cylinder rim against a sphere\n"
    "pair cylinder 1 1  0 0 0  1 0 0 0   sphere 1  3 0 3  1 0 0 0\n"
    "# 7: box turned 45 degrees about z, its vertical edge against a sphere\n"
    "pair box 1 1 1  0 0 0  0.923879533 0 0 0.382683432   sphere 0.5  3 0 0  1 0 0 0\n"
    "# 8: margins: a rounded box and a rounded sphere, 1 apart\n"
    "pair box 0.5 0.5 0.5 margin 0.5  0 0 0  1 0 0 0   sphere 0.5 margin 0.5  3 0 0  1 0 0 0\n"
    "# 9: overlapping spheres\n"
    "pair sphere 1  0 0 0  1 0 0 0   sphere 1  1 0 0  1 0 0 0\n"
    "# 10: a capsule along y through a box\n"
    "pair capsule 0.25 2  0 0 0  0.707106781 0.707106781 0 0   box 1 1 1  0 0 0  1 0 0 0\n"
    "# 11: the hull against itself moved to x = -3: B's vertex (-2,0,0) to A's corner (0,0,0)\n"
    "pair hull 7  0 0 0  1 0 0 0   hull 7  -3 0 0  1 0 0 0\n"
    "# 12: cylinder against cone, flat base (z = 2) over the cylinder's top (z = 1)\n"
    "pair cylinder 0.5 1  0 0 0  1 0 0 0   cone 1 1  0.25 0 3  1 0 0 0\n";

#define NR 13
#define X NAN /* not determined by the geometry: not compared */

typedef struct expect {
    const char *status;
    double d, a[3], b[3], n[3];
} expect;

static const double r5 = 2.23606797749978969641;   /* sqrt 5 */
static const double r2 = 1.41421356237309504880;   /* sqrt 2 */
static const double r3 = 1.73205080756887729353;   /* sqrt 3 */

static void expected_rows(expect e[NR])
{
    const expect sep = { "separated", X, { X, X, X }, { X, X, X }, { X, X, X } };
    const expect ovl = { "overlap", 0.0, { X, X, X }, { X, X, X }, { X, X, X } };
    for (int i = 0; i < NR; i++)
        e[i] = sep;
    e[0] = (expect){ "separated", 1.0, { 1, 0, 0 }, { 2, 0, 0 }, { 1, 0, 0 } };
    /* face-face: only x of the witnesses is determined */
    e[1] = (expect){ "separated", 1.0, { 1, X, X }, { 2, X, X }, { 1, 0, 0 } };
    e[2] = ovl;
    e[3] = (expect){ "separated", r5 - 1.0,
                     { 0.5 * 2 / r5, 0, 1 + 0.5 / r5 },
                     { 2 - 0.5 * 2 / r5, 0, 2 - 0.5 / r5 },
                     { 2 / r5, 0, 1 / r5 } };
    e[4] = (expect){ "separated", 1.0, { 0, 0, 1 }, { 0, 0, 2 }, { 0, 0, 1 } };
    e[5] = (expect){ "separated", 2 / r3 - 0.5,
                     { 10 + 1.0 / 3, 1.0 / 3, 1.0 / 3 },
                     { 11 - 0.5 / r3, 1 - 0.5 / r3, 1 - 0.5 / r3 },
                     { 1 / r3, 1 / r3, 1 / r3 } };
    e[6] = (expect){ "separated", 2 * r2 - 1, { 1, 0, 1 }, { 3 - 1 / r2, 0, 3 - 1 / r2 }, { 1 / r2, 0, 1 / r2 } };
    e[7] = (expect){ "separated", 2.5 - r2, { r2, 0, 0 }, { 2.5, 0, 0 }, { 1, 0, 0 } };
    e[8] = (expect){ "separated", 1.0, { 1, 0, 0 }, { 2, 0, 0 }, { 1, 0, 0 } };
    e[9] = ovl;
    e[10] = ovl;
    e[11] = (expect){ "separated", 2.0, { 0, 0, 0 }, { -2, 0, 0 }, { -1, 0, 0 } };
    /* face-face again: the witnesses share x, y and lie at z = 1 and 2 */
    e[12] = (expect){ "separated", 1.0, { X, X, 1 }, { X, X, 2 }, { 0, 0, 1 } };
}

/* Float kernels carry about 1e-7 relative error in poses and sizes. */
#define TOL 2e-5

static void check_value(const char *what, int row, double got, double want)
{
    if (isnan(want))
        return;
    if (!(fabs(got - want) <= TOL))
        fail_msg("row %d %s: got %.9g, want %.9g", row, what, got, want);
}

static void check_round_trip(gjkb_backend backend)
{
    csv c;
    expect e[NR];
    expected_rows(e);
    csv_split(&c, answer(round_trip_file, backend, GJKB_DISTANCE));
    assert_int_equal(c.rows, NR);
    static const char *const names[9] = { "ax", "ay", "az", "bx", "by", "bz", "nx", "ny", "nz" };
    for (int i = 0; i < NR; i++) {
        assert_int_equal((int)field(&c, i, C_PAIR), i);
        if (strcmp(c.f[i][C_STATUS], e[i].status) != 0)
            fail_msg("%s row %d: status %s, want %s", gjkb_backend_name(backend), i, c.f[i][C_STATUS],
                     e[i].status);
        check_value("distance", i, field(&c, i, C_DIST), e[i].d);
        for (int k = 0; k < 3; k++) {
            check_value(names[k], i, field(&c, i, C_AX + k), e[i].a[k]);
            check_value(names[3 + k], i, field(&c, i, C_BX + k), e[i].b[k]);
            check_value(names[6 + k], i, field(&c, i, C_NX + k), e[i].n[k]);
        }
        /* 0 where the cores' inner balls or a box pair's axes showed the
         * overlap before any support */
        double iterations = field(&c, i, C_ITER);
        assert_true(iterations == floor(iterations));
        assert_true(iterations >= (strcmp(e[i].status, "overlap") == 0 ? 0 : 1));
        if (strcmp(e[i].status, "separated") == 0) {
            /* b - a = d n, whatever witnesses a face contact picked */
            double d = field(&c, i, C_DIST);
            for (int k = 0; k < 3; k++)
                check_value("b - a", i, field(&c, i, C_BX + k) - field(&c, i, C_AX + k),
                            d * field(&c, i, C_NX + k));
        }
    }
    /* face contacts: the witnesses sit on the shared face region */
    for (int k = 1; k < 3; k++) {
        check_value("by - ay", 1, field(&c, 1, C_BX + k), field(&c, 1, C_AX + k));
        assert_true(fabs(field(&c, 1, C_AX + k)) <= 1 + TOL);
    }
    for (int k = 0; k < 2; k++) {
        check_value("b - a (xy)", 12, field(&c, 12, C_BX + k), field(&c, 12, C_AX + k));
        assert_true(fabs(field(&c, 12, C_AX + k) - (k == 0 ? 0.25 : 0.0)) <= 0.5 + TOL);
    }
    free(c.text);
}

static void test_round_trip_distance(void **state)
{
    (void)state;
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++)
        check_round_trip(b[i]);
}

/* Hit mode: same verdicts, nan for the witnesses and the axis; the
 * distance is 0 for overlapping pairs and nan for the others. */
static void test_hit_mode_prints_nan(void **state)
{
    (void)state;
    expect e[NR];
    expected_rows(e);
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b);
    for (int j = 0; j < n; j++) {
        csv c;
        csv_split(&c, answer(round_trip_file, b[j], GJKB_HIT));
        assert_int_equal(c.rows, NR);
        for (int i = 0; i < NR; i++) {
            assert_string_equal(c.f[i][C_STATUS], e[i].status);
            assert_string_equal(c.f[i][C_DIST], strcmp(e[i].status, "overlap") == 0 ? "0" : "nan");
            for (int k = C_AX; k <= C_NZ; k++)
                assert_string_equal(c.f[i][k], "nan");
        }
        free(c.text);
    }
}

/* ---- invalid pairs --------------------------------------------------------- */

static const char good_pairs[] =
    "hull 1  0 0 0  1 0 0  0 1 0  0 0 1\n"
    "pair sphere 1  0 0 0  1 0 0 0   sphere 1  3 0 0  1 0 0 0\n"
    "pair box 1 2 1  0 0 0  0.9 0.1 0.2 0.3   hull 1  1 2 3  1 0 0 0\n"
    "pair capsule 0.5 1  0 0 0  1 0 0 0   cone 1 1  1.5 0.2 0.1  0.5 0.5 0.5 0.5\n"
    "pair cylinder 1 1  5 5 5  1 0 0 0   hull 1  6 7 8  0 1 0 0\n";

/* The same pairs with invalid ones between them. */
static const char mixed_pairs[] =
    "hull 1  0 0 0  1 0 0  0 1 0  0 0 1\n"
    "hull 2\n"
    "pair sphere 1  nan 0 0  1 0 0 0   sphere 1  3 0 0  1 0 0 0\n"
    "pair sphere 1  0 0 0  1 0 0 0   sphere 1  3 0 0  1 0 0 0\n"
    "pair sphere -1  0 0 0  1 0 0 0   sphere 1  3 0 0  1 0 0 0\n"
    "pair box 1 2 1  0 0 0  0.9 0.1 0.2 0.3   hull 1  1 2 3  1 0 0 0\n"
    "pair box 1 1 1  0 0 0  0 0 0 0   box 1 1 1  0.5 0 0  1 0 0 0\n"
    "pair capsule 0.5 1  0 0 0  1 0 0 0   cone 1 1  1.5 0.2 0.1  0.5 0.5 0.5 0.5\n"
    "pair hull 2  0 0 0  1 0 0 0   sphere 1  0 0 0  1 0 0 0\n"
    "pair cylinder inf 1  0 0 0  1 0 0 0   sphere 1  0 0 0  1 0 0 0\n"
    "pair cylinder 1 1  5 5 5  1 0 0 0   hull 1  6 7 8  0 1 0 0\n"
    "pair sphere 1 margin -0.5  0 0 0  1 0 0 0   sphere 1  3 0 0  1 0 0 0\n"
    "pair sphere 1  0 0 0  1 0 0 0   sphere 1  1e300 0 0  1 0 0 0\n";

static void test_invalid_pairs_isolated(void **state)
{
    (void)state;
    static const int good_rows[4] = { 1, 3, 5, 8 };
    static const int bad_rows[7] = { 0, 2, 4, 6, 7, 9, 10 };
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b);
    for (int j = 0; j < n; j++) {
        csv g, m;
        csv_split(&g, answer(good_pairs, b[j], GJKB_DISTANCE));
        csv_split(&m, answer(mixed_pairs, b[j], GJKB_DISTANCE));
        assert_int_equal(g.rows, 4);
        assert_int_equal(m.rows, 11);
        for (int i = 0; i < 7; i++) {
            int r = bad_rows[i];
            if (strcmp(m.f[r][C_STATUS], "invalid") != 0)
                fail_msg("%s row %d: %s, want invalid", gjkb_backend_name(b[j]), r, m.f[r][C_STATUS]);
            for (int k = C_DIST; k <= C_NZ; k++)
                assert_string_equal(m.f[r][k], "nan");
        }
        /* the neighbours' rows are the same text, field for field */
        for (int i = 0; i < 4; i++) {
            assert_int_equal((int)field(&m, good_rows[i], C_PAIR), good_rows[i]);
            for (int k = C_STATUS; k < NFIELDS; k++)
                assert_string_equal(m.f[good_rows[i]][k], g.f[i][k]);
            assert_string_not_equal(g.f[i][C_STATUS], "invalid");
        }
        free(g.text);
        free(m.text);
    }
}

/* ---- contact mode ----------------------------------------------------------- */

/* The contact layout's header, written out as docs/file-format.md gives it. */
static const char contact_header[] =
    "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations,contacts,"
    "c1ax,c1ay,c1az,c1bx,c1by,c1bz,c1sep,"
    "c2ax,c2ay,c2az,c2bx,c2by,c2bz,c2sep,"
    "c3ax,c3ay,c3az,c3bx,c3by,c3bz,c3sep,"
    "c4ax,c4ay,c4az,c4bx,c4by,c4bz,c4sep";

/* n copies of ",nan" (n <= 28). */
static const char *nans(int n)
{
    static char buf[4 * 28 + 1];
    assert_true(n >= 0 && n <= 28);
    buf[0] = '\0';
    for (int k = 0; k < n; k++)
        strcat(buf, ",nan");
    return buf;
}

static void test_contact_header(void **state)
{
    (void)state;
    assert_string_equal(pairfile_contact_csv_header, contact_header);
    assert_int_equal(count_of(contact_header, ","), CONTACT_FIELDS - 1);
    /* the slot columns follow the c{k}{field} pattern for k = 1..4 */
    char want[512];
    snprintf(want, sizeof want, "%s,contacts", pairfile_csv_header);
    static const char *const f[SLOT_FIELDS] = { "ax", "ay", "az", "bx", "by", "bz", "sep" };
    for (int k = 1; k <= GJKB_MAX_CONTACTS; k++)
        for (int j = 0; j < SLOT_FIELDS; j++)
            snprintf(want + strlen(want), sizeof want - strlen(want), ",c%d%s", k, f[j]);
    assert_string_equal(pairfile_contact_csv_header, want);
}

/* Rows: the 13 columns as ever, the count, the counted slots; every slot
 * from the count on is nan whatever the arrays hold. */
static void test_write_contact_csv_format(void **state)
{
    (void)state;
    answer_buf ab;
    answer_alloc(&ab, 2, GJKB_CONTACT);
    gjkb_results *r = &ab.r;
    double row0[10] = { -0.5, 1, 0, 0, 0.5, 0, 0, 1, 0, 0 };
    for (int k = 0; k < 10; k++) {
        ab.col[k][0] = row0[k];
        ab.col[k][1] = NAN;
    }
    for (int k = 0; k < 7; k++)
        for (int s = 0; s < 2 * GJKB_MAX_CONTACTS; s++)
            ab.slot[k][s] = 7.0; /* stale values past the counts */
    double slot0[7] = { 1, 0, 0, 0.5, 0, 0, -0.5 };
    for (int k = 0; k < 7; k++)
        ab.slot[k][0] = slot0[k];
    r->status[0] = GJKB_OVERLAP;
    r->status[1] = GJKB_INVALID;
    r->iterations[0] = 3;
    r->manifold.count[0] = 1;
    r->manifold.count[1] = 0;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(pairfile_write_contact_csv(f, 2, r), 0);
    uint8_t *count = r->manifold.count;
    r->manifold.count = NULL; /* no count array: 0 points */
    assert_int_equal(pairfile_write_contact_csv(f, 1, r), 0);
    r->manifold.count = count;
    char *s = slurp(f);
    fclose(f);
    char want[2048];
    snprintf(want, sizeof want, "%s\n0,overlap,-0.5,1,0,0,0.5,0,0,1,0,0,3,1,1,0,0,0.5,0,0,-0.5%s\n", contact_header,
             nans(21));
    /* nans() returns one buffer: one use per call */
    snprintf(want + strlen(want), sizeof want - strlen(want), "1,invalid%s", nans(10));
    snprintf(want + strlen(want), sizeof want - strlen(want), ",0,0%s\n", nans(28));
    snprintf(want + strlen(want), sizeof want - strlen(want),
             "%s\n0,overlap,-0.5,1,0,0,0.5,0,0,1,0,0,3,0%s\n", contact_header, nans(28));
    assert_string_equal(s, want);
    free(s);
    answer_free(&ab);
}

/* Hand-computed contacts: a resting box, a sphere in a face, two
 * overlapping spheres, a separated pair. */
static const char contact_file[] =
    "# 0: box B (half 0.5) on box A's top face (z = 1), 0.01 deep, all of B's face over A's\n"
    "pair box 1 1 1  0 0 0  1 0 0 0   box 0.5 0.5 0.5  0.1 0.2 1.49  1 0 0 0\n"
    "# 1: a sphere 0.1 deep in A's top face\n"
    "pair box 1 1 1  0 0 0  1 0 0 0   sphere 0.5  0.3 -0.2 1.4  1 0 0 0\n"
    "# 2: spheres of radius 1 and 0.75, centres 1.3 apart: depth 0.45\n"
    "pair sphere 1  0 0 0  1 0 0 0   sphere 0.75  1.2 0.5 0  1 0 0 0\n"
    "# 3: boxes face to face, gap 1\n"
    "pair box 1 1 1  0 0 0  1 0 0 0   box 1 1 1  3 0 0  1 0 0 0\n";

static void check_contact_value(const char *backend, const char *what, int row, double got, double want)
{
    if (!(fabs(got - want) <= TOL))
        fail_msg("%s row %d %s: got %.9g, want %.9g", backend, row, what, got, want);
}

/* Row 0: 4 points, one at each corner of B's bottom face, on z = 1 (A) and
 * z = 0.99 (B). */
static void check_resting_box(const csv *c, const char *be)
{
    check_contact_value(be, "distance", 0, field(c, 0, C_DIST), -0.01);
    check_contact_value(be, "nz", 0, field(c, 0, C_NZ), 1.0);
    check_contact_value(be, "az", 0, field(c, 0, C_AZ), 1.0);
    check_contact_value(be, "bz", 0, field(c, 0, C_BZ), 0.99);
    if (field(c, 0, C_CONTACTS) != 4)
        fail_msg("%s: the resting box has %s contacts, want 4", be, c->f[0][C_CONTACTS]);
    unsigned corners = 0;
    for (int j = 0; j < 4; j++) {
        double x = field(c, 0, C_SLOT(j, C_SAX)), y = field(c, 0, C_SLOT(j, C_SAY));
        check_contact_value(be, "slot az", 0, field(c, 0, C_SLOT(j, C_SAZ)), 1.0);
        check_contact_value(be, "slot bz", 0, field(c, 0, C_SLOT(j, C_SBZ)), 0.99);
        check_contact_value(be, "slot bx - ax", 0, field(c, 0, C_SLOT(j, C_SBX)), x);
        check_contact_value(be, "slot by - ay", 0, field(c, 0, C_SLOT(j, C_SBY)), y);
        check_contact_value(be, "slot sep", 0, field(c, 0, C_SLOT(j, C_SSEP)), -0.01);
        for (unsigned q = 0; q < 4; q++)
            if (fabs(x - (q & 1 ? 0.6 : -0.4)) <= TOL && fabs(y - (q & 2 ? 0.7 : -0.3)) <= TOL)
                corners |= 1u << q;
    }
    if (corners != 15)
        fail_msg("%s: the resting box's points cover corners 0x%x of 0xf", be, corners);
}

/* Row 1: one point, straight below the sphere's centre; slots 2..4 nan. */
static void check_sphere_on_box(const csv *c, const char *be)
{
    check_contact_value(be, "distance", 1, field(c, 1, C_DIST), -0.1);
    check_contact_value(be, "nz", 1, field(c, 1, C_NZ), 1.0);
    assert_int_equal((int)field(c, 1, C_CONTACTS), 1);
    const double want[7] = { 0.3, -0.2, 1.0, 0.3, -0.2, 0.9, -0.1 };
    for (int k = 0; k < SLOT_FIELDS; k++)
        check_contact_value(be, "slot 1", 1, field(c, 1, C_SLOT(0, k)), want[k]);
    for (int k = C_SLOT(1, 0); k < CONTACT_FIELDS; k++)
        assert_string_equal(c->f[1][k], "nan");
}

/* Row 2: distance = -(r1 + r2 - |d|), n = d / |d|, a on A along n, b on B
 * along -n, one point at the witnesses. */
static void check_sphere_sphere(const csv *c, const char *be)
{
    const double dx = 1.2, dy = 0.5, len = 1.3, depth = 1.0 + 0.75 - len;
    const double n[3] = { dx / len, dy / len, 0.0 };
    const double a[3] = { n[0], n[1], 0.0 }, b[3] = { dx - 0.75 * n[0], dy - 0.75 * n[1], 0.0 };
    assert_string_equal(c->f[2][C_STATUS], "overlap");
    check_contact_value(be, "distance", 2, field(c, 2, C_DIST), -depth);
    for (int k = 0; k < 3; k++) {
        check_contact_value(be, "n", 2, field(c, 2, C_NX + k), n[k]);
        check_contact_value(be, "a", 2, field(c, 2, C_AX + k), a[k]);
        check_contact_value(be, "b", 2, field(c, 2, C_BX + k), b[k]);
        check_contact_value(be, "slot a", 2, field(c, 2, C_SLOT(0, C_SAX + k)), a[k]);
        check_contact_value(be, "slot b", 2, field(c, 2, C_SLOT(0, C_SBX + k)), b[k]);
    }
    assert_int_equal((int)field(c, 2, C_CONTACTS), 1);
    check_contact_value(be, "slot sep", 2, field(c, 2, C_SLOT(0, C_SSEP)), -depth);
}

/* Row 3 without --max-distance: distance mode's answer, no points. */
static void check_separated(const csv *c, const char *be)
{
    assert_string_equal(c->f[3][C_STATUS], "separated");
    check_contact_value(be, "distance", 3, field(c, 3, C_DIST), 1.0);
    check_contact_value(be, "nx", 3, field(c, 3, C_NX), 1.0);
    assert_string_equal(c->f[3][C_CONTACTS], "0");
    for (int k = C_SLOT(0, 0); k < CONTACT_FIELDS; k++)
        assert_string_equal(c->f[3][k], "nan");
}

static void test_contact_closed_forms(void **state)
{
    (void)state;
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b);
    for (int j = 0; j < n; j++) {
        const char *be = gjkb_backend_name(b[j]);
        csv c;
        csv_split_contact(&c, answer(contact_file, b[j], GJKB_CONTACT));
        assert_int_equal(c.rows, 4);
        for (int i = 0; i < 3; i++)
            if (strcmp(c.f[i][C_STATUS], "overlap") != 0)
                fail_msg("%s row %d: %s, want overlap", be, i, c.f[i][C_STATUS]);
        check_resting_box(&c, be);
        check_sphere_on_box(&c, be);
        check_sphere_sphere(&c, be);
        check_separated(&c, be);
        free(c.text);
    }
}

/* ---- parsing ---------------------------------------------------------------- */

static void test_parse_values(void **state)
{
    (void)state;
    pairfile pf;
    pairfile_error err;
    const char *text =
        "# strtod syntax, CRLF line ends, tabs, arbitrary hull IDs\r\n"
        "hull 4294967295 0x1p-1 +2 -3e0\r\n"
        "hull 0\r\n"
        "  hull 12\t1 2 3 4 5 6\r\n"
        "pair sphere 0.5 margin 0.25 1 2 3 1 0 0 0 capsule 0.5 2 4 5 6 0 1 0 0\r\n"
        "pair box 1 2 3 0 0 0 1 0 0 0 cylinder 4 5 margin 0.125 0 0 0 1 0 0 0\n"
        "\tpair cone 6 7 0 0 0 1 0 0 0\thull 12 -1 -2 -3 0.5 0.5 0.5 0.5\n"
        "pair hull 4294967295 nan inf -inf 1 0 0 0 hull 0 0 0 0 1 0 0 0";   /* no final newline */
    assert_int_equal(parse(text, &pf, &err), PAIRFILE_OK);
    assert_int_equal(pf.pair_count, 4);
    assert_int_equal(pf.body_count, 8);
    assert_int_equal(pf.hull_count, 3);
    assert_int_equal(pf.hull_file_id[0], 4294967295u);
    assert_int_equal(pf.hull_n[0], 1);
    assert_true(pf.hull_xyz[3 * pf.hull_first[0]] == 0.5f);
    assert_true(pf.hull_xyz[3 * pf.hull_first[0] + 1] == 2.0f);
    assert_true(pf.hull_xyz[3 * pf.hull_first[0] + 2] == -3.0f);
    assert_int_equal(pf.hull_n[1], 0);
    assert_int_equal(pf.hull_n[2], 2);
    assert_true(pf.hull_xyz[3 * pf.hull_first[2] + 5] == 6.0f);

    static const uint8_t kinds[8] = { GJKB_SPHERE, GJKB_CAPSULE, GJKB_BOX, GJKB_CYLINDER,
                                      GJKB_CONE, GJKB_HULL, GJKB_HULL, GJKB_HULL };
    static const float sx[8] = { 0.5f, 0.5f, 1, 4, 6, 0, 0, 0 };
    static const float sy[8] = { 0, 0, 2, 0, 0, 0, 0, 0 };
    static const float sz[8] = { 0, 2, 3, 5, 7, 0, 0, 0 };
    static const float margin[8] = { 0.25f, 0, 0, 0.125f, 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++) {
        assert_int_equal(pf.kind[i], kinds[i]);
        assert_true(pf.sx[i] == sx[i] && pf.sy[i] == sy[i] && pf.sz[i] == sz[i]);
        assert_true(pf.margin[i] == margin[i]);
        assert_int_equal(pf.pair_a[i / 2], i / 2 * 2);
        assert_int_equal(pf.pair_b[i / 2], i / 2 * 2 + 1);
    }
    assert_true(pf.px[0] == 1 && pf.py[0] == 2 && pf.pz[0] == 3);
    assert_true(pf.px[1] == 4 && pf.py[1] == 5 && pf.pz[1] == 6);
    assert_true(pf.qw[1] == 0 && pf.qx[1] == 1 && pf.qy[1] == 0 && pf.qz[1] == 0);
    assert_true(pf.px[5] == -1 && pf.qw[5] == 0.5f && pf.qz[5] == 0.5f);
    /* hull bodies hold definition indices until registered */
    assert_int_equal(pf.hull[5], 2);
    assert_int_equal(pf.hull[6], 0);
    assert_int_equal(pf.hull[7], 1);
    assert_true(isnan(pf.px[6]) && isinf(pf.py[6]) && pf.py[6] > 0 && isinf(pf.pz[6]) && pf.pz[6] < 0);

    /* Registration into a context that already has hulls remaps the ids. */
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    float pt[3] = { 0, 0, 0 };
    uint32_t id;
    for (int i = 0; i < 3; i++)
        assert_int_equal(gjkb_hull_add(ctx, pt, 1, &id), GJKB_OK);
    assert_int_equal(pairfile_register_hulls(&pf, ctx), GJKB_OK);
    assert_int_equal(gjkb_hull_count(ctx), 6);
    assert_int_equal(pf.hull[5], 5);
    assert_int_equal(pf.hull[6], 3);
    assert_int_equal(pf.hull[7], 4);
    assert_int_equal(pairfile_register_hulls(&pf, ctx), GJKB_ERR_ARGUMENT);
    gjkb_destroy(ctx);
    pairfile_free(&pf);

    /* an empty file and a file of comments hold no pairs */
    assert_int_equal(parse("", &pf, &err), PAIRFILE_OK);
    assert_int_equal(pf.pair_count, 0);
    pairfile_free(&pf);
    assert_int_equal(parse("# nothing\n\n   \n", &pf, &err), PAIRFILE_OK);
    assert_int_equal(pf.pair_count, 0);
    assert_int_equal(pf.hull_count, 0);
    pairfile_free(&pf);
}

typedef struct bad_case {
    const char *text;
    unsigned long line;
    const char *message;
} bad_case;

#define P "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n"

static const bad_case bad_cases[] = {
    { P "foo 1 2\n", 2, "unknown record 'foo' (expected pair, hull or a # comment)" },
    { "# c\n\n" P "pair blob 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 4,
      "shape A: unknown shape 'blob' (expected sphere, capsule, box, cylinder, cone or hull)" },
    { "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0\n", 1, "shape B: missing quaternion z" },
    { "pair sphere 1 0 0 0 1 0 0 0\n", 1, "shape B: missing shape" },
    { "pair\n", 1, "shape A: missing shape" },
    /* a box needs three sizes: the pose shifts and runs into the next shape */
    { "pair box 1 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1, "shape A: quaternion z: 'sphere' is not a number" },
    { "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0 7\n", 1, "extra field '7' after the pair" },
    { "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0 # comment\n", 1, "extra field '#' after the pair" },
    { "pair box 1 x 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1,
      "shape A: box half extent y: 'x' is not a number" },
    { "pair capsule 1 1e5x 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1,
      "shape A: capsule half length: '1e5x' is not a number" },
    { "pair sphere 1 0 0 0 1 0 0 0 cone 1 1 3 0 0 1 0 0 zero\n", 1, "shape B: quaternion z: 'zero' is not a number" },
    /* "margin" takes the next number, so the pose runs one field short */
    { "pair sphere 1 margin 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1,
      "shape A: quaternion z: 'sphere' is not a number" },
    { "pair sphere 1 margin m 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1, "shape A: margin: 'm' is not a number" },
    { "hull 1 0 0 0\n" P "pair hull 2 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 3,
      "shape A: hull 2 is not defined (define hulls before the pairs that use them)" },
    { P "pair sphere 1 0 0 0 1 0 0 0 hull 3 3 0 0 1 0 0 0\nhull 3 0 0 0\n", 2, "shape B: hull 3 is not defined" },
    { "pair hull x 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1, "shape A: hull: 'x' is not a hull ID" },
    { "hull 2 0 0 0\n# again\nhull 2 1 1 1\n", 3, "hull 2 is already defined on line 1" },
    { "hull 2 0 0 0 1\n", 1, "hull 2: 4 coordinates, not a multiple of 3" },
    { "hull 2 0 0 0 1 1 y\n", 1, "hull 2: coordinate 6: 'y' is not a number" },
    { "hull -1 0 0 0\n", 1, "hull: '-1' is not a hull ID (an integer from 0 to 4294967295)" },
    { "hull 4294967296 0 0 0\n", 1, "hull: '4294967296' is not a hull ID" },
    { "hull\n", 1, "hull: missing ID" },
    { "PAIR sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", 1, "unknown record 'PAIR'" },
    { P P P "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0 1\n", 4, "extra field '1' after the pair" },
    { "pair sphere 1 0 0 0 1 0 0 0 Sphere 1 3 0 0 1 0 0 0\n", 1, "shape B: unknown shape 'Sphere'" },
    { "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0 margin 1\n", 1, "extra field 'margin' after the pair" },
};

static void test_parse_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        pairfile pf;
        pairfile_error err;
        pairfile_status st = parse(bad_cases[i].text, &pf, &err);
        if (st != PAIRFILE_SYNTAX)
            fail_msg("case %zu: status %d, want a syntax error", i, (int)st);
        if (err.line != bad_cases[i].line || strncmp(err.message, bad_cases[i].message,
                                                     strlen(bad_cases[i].message)) != 0)
            fail_msg("case %zu: got %lu: %s\n  want %lu: %s", i, err.line, err.message, bad_cases[i].line,
                     bad_cases[i].message);
        /* nothing is left to free or to use */
        assert_null(pf.kind);
        assert_int_equal(pf.pair_count, 0);
        assert_int_equal(pf.hull_count, 0);
    }

    /* a NUL byte inside a line */
    pairfile pf;
    pairfile_error err;
    FILE *f = tmpfile();
    assert_non_null(f);
    static const char nul_line[] = P "pair sphere 1 0 0 0 1\0 0 0 0 sphere 1 3 0 0 1 0 0 0\n";
    assert_int_equal(fwrite(nul_line, 1, sizeof nul_line - 1, f), sizeof nul_line - 1);
    rewind(f);
    assert_int_equal(pairfile_read(f, &pf, &err), PAIRFILE_SYNTAX);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.message, "the line contains a NUL byte");
    fclose(f);

    /* a long token is cut short in the message */
    char text[400];
    snprintf(text, sizeof text, "pair sphere %0200d 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0 x%0100d\n", 1, 2);
    assert_int_equal(parse(text, &pf, &err), PAIRFILE_SYNTAX);
    assert_true(strlen(err.message) < 100);
    assert_non_null(strstr(err.message, "...'"));
}

/* Writes HULLS hulls (IDs spread out) and PAIRS pairs; the pair numbered
 * bad_pair, if any, gets an extra field. */
enum { HULLS = 3000, PAIRS = 120000 };

static FILE *large_file(uint32_t bad_pair)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    for (uint32_t h = 0; h < HULLS; h++)
        fprintf(f, "hull %u %u 0 0 0 1 0\n", h * 7919u, h);
    for (uint32_t i = 0; i < PAIRS; i++) {
        if (i % 3 == 0)
            fprintf(f, "pair hull %u %u 0 0 1 0 0 0 sphere %u.5 0 0 0 1 0 0 0", (i % HULLS) * 7919u, i, i % 10);
        else
            fprintf(f, "pair box 1 2 3 %u 1 2 1 0 0 0 capsule 1 1 0 0 0 1 0 0 0", i);
        fputs(i == bad_pair ? " 0\n" : "\n", f);
    }
    rewind(f);
    return f;
}

/* Many pairs and hulls: the arrays and the ID map keep growing right. */
static void test_parse_large(void **state)
{
    (void)state;
    pairfile pf;
    pairfile_error err;
    FILE *f = large_file(UINT32_MAX);
    assert_int_equal(pairfile_read(f, &pf, &err), PAIRFILE_OK);
    fclose(f);
    assert_int_equal(pf.pair_count, PAIRS);
    assert_int_equal(pf.hull_count, HULLS);
    for (uint32_t i = 0; i < PAIRS; i++) {
        if (i % 3 == 0) {
            assert_int_equal(pf.kind[2 * i], GJKB_HULL);
            assert_int_equal(pf.hull[2 * i], i % HULLS);
            assert_true(pf.sx[2 * i + 1] == (float)(i % 10) + 0.5f);
        } else {
            assert_int_equal(pf.kind[2 * i + 1], GJKB_CAPSULE);
        }
        assert_true(pf.px[2 * i] == (double)i);
    }
    for (uint32_t h = 0; h < HULLS; h++)
        assert_true(pf.hull_xyz[3 * pf.hull_first[h]] == (float)h);
    pairfile_free(&pf);

    /* an error deep in a large file names the right line */
    f = large_file(100000);
    assert_int_equal(pairfile_read(f, &pf, &err), PAIRFILE_SYNTAX);
    assert_int_equal(err.line, HULLS + 100000 + 1);
    assert_string_equal(err.message, "extra field '0' after the pair");
    fclose(f);
}

/* ---- line ends, byte-order marks, locale ------------------------------------- */

/* Every parsed array of a and b, bit for bit (hull definition lines too, so
 * the line count agrees). */
static void expect_same_pairs(const pairfile *a, const pairfile *b)
{
    assert_int_equal(a->pair_count, b->pair_count);
    assert_int_equal(a->body_count, b->body_count);
    assert_int_equal(a->hull_count, b->hull_count);
    assert_int_equal(a->point_count, b->point_count);
    size_t n = a->body_count, h = a->hull_count;
    assert_memory_equal(a->kind, b->kind, n);
    assert_memory_equal(a->px, b->px, n * sizeof *a->px);
    assert_memory_equal(a->py, b->py, n * sizeof *a->py);
    assert_memory_equal(a->pz, b->pz, n * sizeof *a->pz);
    const float *fa[8] = { a->qw, a->qx, a->qy, a->qz, a->sx, a->sy, a->sz, a->margin };
    const float *fb[8] = { b->qw, b->qx, b->qy, b->qz, b->sx, b->sy, b->sz, b->margin };
    for (int k = 0; k < 8; k++)
        assert_memory_equal(fa[k], fb[k], n * sizeof(float));
    assert_memory_equal(a->hull, b->hull, n * sizeof *a->hull);
    assert_memory_equal(a->hull_file_id, b->hull_file_id, h * sizeof *a->hull_file_id);
    assert_memory_equal(a->hull_line, b->hull_line, h * sizeof *a->hull_line);
    assert_memory_equal(a->hull_n, b->hull_n, h * sizeof *a->hull_n);
    assert_memory_equal(a->hull_xyz, b->hull_xyz, 3 * a->point_count * sizeof(float));
}

/* LF line ends, hulls on lines 2 and 6; respelled below. */
static const char line_end_file[] =
    "# line ends\n"
    "hull 5  0 0 0  1 0 0  0 1 0\n"
    "\n"
    "pair sphere 1  0 0 0  1 0 0 0   hull 5  2 0 0  1 0 0 0\n"
    "  # indented comment\n"
    "hull 6  1 1 1\n"
    "pair box 1 2 3  0 0 0  1 0 0 0   capsule 0.5 1  0 4 0  1 0 0 0\n"
    "pair hull 6  1 2 3  1 0 0 0   cone 1 1  0 0 5  1 0 0 0\n";

/* A bad line 9 after line_end_file. */
static const char line_end_bad[] = "pair sphere 1 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0\n";

#define UTF8_BOM "\xEF\xBB\xBF"

/* prefix, then text with each LF spelled eol (malloc'd). */
static char *respell(const char *prefix, const char *text, const char *eol)
{
    char *out = malloc(strlen(prefix) + 2 * strlen(text) + 1), *p = out;
    assert_non_null(out);
    p += sprintf(p, "%s", prefix);
    for (const char *t = text; *t; t++)
        p += *t == '\n' ? sprintf(p, "%s", eol) : sprintf(p, "%c", *t);
    return out;
}

/* CR LF, CR alone (old Mac) and a leading UTF-8 byte-order mark: the same
 * pairs as the LF file, and errors on the same line. */
static void test_parse_line_ends_and_bom(void **state)
{
    (void)state;
    static const struct { const char *prefix, *eol; } forms[] = {
        { "", "\r\n" }, { "", "\r" }, { UTF8_BOM, "\n" }, { UTF8_BOM, "\r\n" }, { UTF8_BOM, "\r" },
    };
    pairfile lf, pf;
    pairfile_error err;
    assert_int_equal(parse(line_end_file, &lf, &err), PAIRFILE_OK);
    assert_int_equal(lf.pair_count, 3);
    assert_int_equal(lf.hull_line[1], 6);
    char bad_lf[512];
    snprintf(bad_lf, sizeof bad_lf, "%s%s", line_end_file, line_end_bad);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char *text = respell(forms[i].prefix, line_end_file, forms[i].eol);
        pairfile_status st = parse(text, &pf, &err);
        if (st != PAIRFILE_OK)
            fail_msg("form %zu: line %lu: %s", i, err.line, err.message);
        expect_same_pairs(&lf, &pf);
        pairfile_free(&pf);
        free(text);

        text = respell(forms[i].prefix, bad_lf, forms[i].eol);
        assert_int_equal(parse(text, &pf, &err), PAIRFILE_SYNTAX);
        if (err.line != 9 || strcmp(err.message, "shape B: missing quaternion z") != 0)
            fail_msg("form %zu: got %lu: %s", i, err.line, err.message);
        free(text);
    }
    pairfile_free(&lf);

    /* a CR before CR LF ends an empty line; a mark alone is an empty file */
    assert_int_equal(parse("# a\r\r\n" P "\rpair\r", &pf, &err), PAIRFILE_SYNTAX);
    assert_int_equal(err.line, 5);
    assert_int_equal(parse(UTF8_BOM, &pf, &err), PAIRFILE_OK);
    assert_int_equal(pf.pair_count, 0);
    pairfile_free(&pf);
    /* only the first line may start with the mark */
    assert_int_equal(parse(P UTF8_BOM P, &pf, &err), PAIRFILE_SYNTAX);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "unknown record"));

    /* UTF-16 says so instead of tripping over its NUL bytes */
    static const char utf16[] = "\xFF\xFEp\0a\0i\0r\0\n\0";
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(utf16, 1, sizeof utf16 - 1, f), sizeof utf16 - 1);
    rewind(f);
    assert_int_equal(pairfile_read(f, &pf, &err), PAIRFILE_SYNTAX);
    fclose(f);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.message,
                        "the file is UTF-16 text (it starts with a UTF-16 byte-order mark): save it as UTF-8");
}

static int numeric_is_comma(void)
{
    return strcmp(localeconv()->decimal_point, ",") == 0;
}

/* Sets LC_ALL to a locale whose decimal point is a comma: an installed one,
 * else one that localedef builds from its LC_NUMERIC alone inside the test
 * folder (found through LOCPATH; nothing outside the folder is touched).
 * Returns its name, or NULL when neither works. */
static const char *set_comma_locale(void)
{
    static const char *const installed[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE" };
    for (size_t i = 0; i < sizeof installed / sizeof installed[0]; i++)
        if (setlocale(LC_ALL, installed[i]) && numeric_is_comma())
            return installed[i];
    char src[128], dir[128], out[160];
    tmp_path(src, sizeof src, "comma.src");
    tmp_path(dir, sizeof dir, "locales");
    snprintf(out, sizeof out, "%s/xx_comma", dir);
    write_file(src, "LC_NUMERIC\ndecimal_point \",\"\nthousands_sep \".\"\ngrouping 3\nEND LC_NUMERIC\n");
    mkdir(dir, 0755);
    /* -c: write it although the other categories are missing */
    run_quiet((const char *const[]){ "localedef", "-c", "-i", src, out, NULL });
    remove(src);
    setenv("LOCPATH", dir, 1);
    if (setlocale(LC_ALL, "xx_comma") && numeric_is_comma())
        return "xx_comma";
    return NULL;
}

static void restore_c_locale(void)
{
    char dir[128];
    setlocale(LC_ALL, "C");
    unsetenv("LOCPATH");
    tmp_path(dir, sizeof dir, "locales");
    remove_tree(dir);
}

/* A program in a comma-decimal locale still reads and writes the pair
 * file's numbers as the C locale does. */
static void test_parse_locale(void **state)
{
    (void)state;
    static const char text[] =
        "hull 3  1.5 -0.25 0x1.8p1  1e-3 .5 2.5E+2\n"
        "pair sphere 0.125 margin 1.5  1.5 -2.75 1e-300  0.5 0.5 0.5 0.5   hull 3  nan INF -0x1p-1074  1 0 0 0\n";
    pairfile c_pf, pf, comma_pf;
    pairfile_error err, comma_err;
    assert_int_equal(parse(text, &c_pf, &err), PAIRFILE_OK);

    const char *name = set_comma_locale();
    if (!name) {
        restore_c_locale();
        pairfile_free(&c_pf);
        print_message("no comma-decimal locale installed, and localedef could not make one: skipping\n");
        skip();
    }
    /* everything in the locale first, the checks after it is undone */
    pairfile_status st = parse(text, &pf, &err);
    pairfile_status comma_st = parse("pair sphere 1,5 0 0 0 1 0 0 0 sphere 1 3 0 0 1 0 0 0\n", &comma_pf, &comma_err);
    uint8_t status = GJKB_SEPARATED;
    double distance = 0.1;
    gjkb_results r;
    memset(&r, 0, sizeof r);
    r.status = &status;
    r.distance = &distance;
    FILE *f = tmpfile();
    assert_non_null(f);
    int werr = pairfile_write_csv(f, 1, &r);
    restore_c_locale();

    print_message("locale %s\n", name);
    if (st != PAIRFILE_OK)
        fail_msg("in locale %s: line %lu: %s", name, err.line, err.message);
    expect_same_pairs(&c_pf, &pf);
    assert_true(pf.px[0] == 1.5 && pf.py[0] == -2.75 && pf.pz[0] == 1e-300);
    assert_true(pf.sx[0] == 0.125f && pf.margin[0] == 1.5f && pf.qw[0] == 0.5f);
    static const float hull_xyz[6] = { 1.5f, -0.25f, 3.0f, 1e-3f, 0.5f, 250.0f };
    assert_memory_equal(pf.hull_xyz, hull_xyz, sizeof hull_xyz);
    assert_true(isnan(pf.px[1]) && pf.py[1] == INFINITY && pf.pz[1] == -0x1p-1074);
    pairfile_free(&pf);
    pairfile_free(&c_pf);
    /* the locale's own spelling is no number of the format */
    assert_int_equal(comma_st, PAIRFILE_SYNTAX);
    assert_string_equal(comma_err.message, "shape A: sphere radius: '1,5' is not a number");

    assert_int_equal(werr, 0);
    char *written = slurp(f);
    fclose(f);
    assert_string_equal(written, "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations\n"
                                 "0,separated,0.1,nan,nan,nan,nan,nan,nan,nan,nan,nan,0\n");
    free(written);
}

/* ---- CSV writer ------------------------------------------------------------- */

static void test_write_csv_format(void **state)
{
    (void)state;
    uint8_t status[3] = { GJKB_SEPARATED, GJKB_INVALID, GJKB_LIMIT };
    double dist[3] = { 0.1, NAN, -INFINITY };
    double ax[3] = { -0.0, -NAN, 1e-300 }, ay[3] = { 1.0 / 3, 2, 3 }, az[3] = { INFINITY, 4, 123456789012.0 };
    uint32_t iter[3] = { 7, 0, 4294967295u };
    gjkb_results r;
    memset(&r, 0, sizeof r);
    r.status = status;
    r.distance = dist;
    r.ax = ax;
    r.ay = ay;
    r.az = az;
    r.iterations = iter;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(pairfile_write_csv(f, 3, &r), 0);
    char *s = slurp(f);
    fclose(f);
    assert_string_equal(s,
                        "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations\n"
                        "0,separated,0.1,-0,0.333333333,inf,nan,nan,nan,nan,nan,nan,7\n"
                        "1,invalid,nan,nan,2,4,nan,nan,nan,nan,nan,nan,0\n"
                        "2,limit,-inf,1e-300,3,1.23456789e+11,nan,nan,nan,nan,nan,nan,4294967295\n");
    free(s);

    /* no iterations array: 0; no pairs: the header alone */
    r.iterations = NULL;
    f = tmpfile();
    assert_non_null(f);
    assert_int_equal(pairfile_write_csv(f, 1, &r), 0);
    assert_int_equal(pairfile_write_csv(f, 0, &r), 0);
    s = slurp(f);
    fclose(f);
    assert_string_equal(s,
                        "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations\n"
                        "0,separated,0.1,-0,0.333333333,inf,nan,nan,nan,nan,nan,nan,0\n"
                        "pair,status,distance,ax,ay,az,bx,by,bz,nx,ny,nz,iterations\n");
    free(s);
}

/* ---- the binary, end to end -------------------------------------------------- */

static const char *data_dir;     /* GJKBATCH_TEST_DATA */

static int cli_setup(void **state)
{
    (void)state;
    data_dir = getenv("GJKBATCH_TEST_DATA");
    return harness_setup();
}

static int cli_teardown(void **state)
{
    (void)state;
    static const char *const names[] = { "stdout", "stderr", "in.pairs", "out.csv", "bad.pairs", "scene.pairs" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", tmp_dir, names[i]);
        remove(p);
    }
    return rmdir(tmp_dir);
}

static void test_cli_query(void **state)
{
    (void)state;
    NEED_CLI();
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/in.pairs", tmp_dir);
    snprintf(out, sizeof out, "%s/out.csv", tmp_dir);
    write_file(in, round_trip_file);
    char *want = answer(round_trip_file, GJKB_BACKEND_REFERENCE, GJKB_DISTANCE);

    /* files; the reference backend, so the library call above is the oracle */
    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--backend", "reference", in, out, NULL }),
                     0);
    char *got = slurp_path(out);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    got = tool_output("stderr");
    assert_string_equal(got, "");
    free(got);

    /* stdin to stdout, options in --name=value form after the operands */
    assert_int_equal(run_tool(in, (const char *const[]){ "query", "-", "-", "--backend=reference",
                                                         "--mode=distance", "--max-iterations", "0", NULL }),
                     0);
    got = tool_output("stdout");
    assert_string_equal(got, want);
    free(got);
    free(want);

    /* hit mode on the default backend */
    want = answer(round_trip_file, GJKB_BACKEND_AUTO, GJKB_HIT);
    assert_int_equal(run_tool(in, (const char *const[]){ "query", "--mode", "hit", "-", "-", NULL }), 0);
    got = tool_output("stdout");
    assert_string_equal(got, want);
    free(got);
    free(want);

    /* the sample file shipped in tests/data answers cleanly */
    if (data_dir) {
        char sample[512];
        snprintf(sample, sizeof sample, "%s/sample.pairs", data_dir);
        assert_int_equal(run_tool(NULL, (const char *const[]){ "query", sample, "-", NULL }), 0);
        csv c;
        csv_split(&c, tool_output("stdout"));
        assert_true(c.rows > 0);
        for (int i = 0; i < c.rows; i++)
            assert_string_not_equal(c.f[i][C_STATUS], "limit");
        free(c.text);
    }
}

/* query --mode contact: the library's answer in the contact layout, on the
 * reference backend so that the library call is the oracle. */
static void test_cli_contact(void **state)
{
    (void)state;
    NEED_CLI();
    char in[128];
    snprintf(in, sizeof in, "%s/in.pairs", tmp_dir);
    write_file(in, contact_file);
    char *want = answer(contact_file, GJKB_BACKEND_REFERENCE, GJKB_CONTACT);
    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--mode", "contact", "--backend", "reference",
                                                           in, "-", NULL }),
                     0);
    char *got = tool_output("stdout");
    assert_string_equal(got, want);
    assert_true(strncmp(got, contact_header, strlen(contact_header)) == 0 && got[strlen(contact_header)] == '\n');
    free(got);
    free(want);
    csv c;
    /* the same on the default backend, within the tolerance */
    assert_int_equal(run_tool(in, (const char *const[]){ "query", "--mode=contact", "-", "-", NULL }), 0);
    csv_split_contact(&c, tool_output("stdout"));
    assert_int_equal(c.rows, 4);
    check_resting_box(&c, "auto");
    check_sphere_sphere(&c, "auto");
    free(c.text);
}

/* --max-distance: distance mode stops early beyond it, contact mode gives
 * separated pairs within it speculative points (positive separations). */
static void test_cli_max_distance(void **state)
{
    (void)state;
    NEED_CLI();
    char in[128];
    snprintf(in, sizeof in, "%s/in.pairs", tmp_dir);
    write_file(in, contact_file);
    static const char *const modes[2] = { "distance", "contact" };
    for (int m = 0; m < 2; m++) {
        gjkb_mode mode = m ? GJKB_CONTACT : GJKB_DISTANCE;
        char *want = answer_with(contact_file, GJKB_BACKEND_REFERENCE, mode, 2.0);
        assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--mode", modes[m], "--max-distance", "2",
                                                               "--backend", "reference", in, "-", NULL }),
                         0);
        char *got = tool_output("stdout");
        assert_string_equal(got, want);
        free(got);
        free(want);
    }
    /* the gap of 1 is within 2: speculative points, each 1 apart */
    csv c;
    csv_split_contact(&c, answer_with(contact_file, GJKB_BACKEND_REFERENCE, GJKB_CONTACT, 2.0));
    assert_string_equal(c.f[3][C_STATUS], "separated");
    int n = (int)field(&c, 3, C_CONTACTS);
    assert_true(n >= 1 && n <= 4);
    for (int j = 0; j < n; j++)
        check_contact_value("reference", "speculative sep", 3, field(&c, 3, C_SLOT(j, C_SSEP)), 1.0);
    free(c.text);
    /* ... and beyond 0.5: none */
    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--mode", "contact", "--max-distance=0.5",
                                                           "--backend", "reference", in, "-", NULL }),
                     0);
    csv_split_contact(&c, tool_output("stdout"));
    assert_string_equal(c.f[3][C_CONTACTS], "0");
    free(c.text);
}

static void test_cli_parse_error(void **state)
{
    (void)state;
    NEED_CLI();
    char bad[128], out[128], msg[1024];
    snprintf(bad, sizeof bad, "%s/bad.pairs", tmp_dir);
    snprintf(out, sizeof out, "%s/out.csv", tmp_dir);
    write_file(bad, "# fine so far\n" P "\n" P "pair sphere 1 0 0 0 1 0 0 0 box 1 1 0 0 0 1 0 0 0\n" P);
    remove(out);

    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", bad, out, NULL }), 2);
    char *err = tool_output("stderr");
    snprintf(msg, sizeof msg, "%s:5: shape B: missing quaternion z\n", bad);
    assert_string_equal(err, msg);
    free(err);
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0); /* no output file at all */

    /* from stdin: <stdin> names the file, stdout stays empty */
    assert_int_equal(run_tool(bad, (const char *const[]){ "query", "-", "-", NULL }), 2);
    err = tool_output("stderr");
    assert_string_equal(err, "<stdin>:5: shape B: missing quaternion z\n");
    free(err);
    char *o = tool_output("stdout");
    assert_string_equal(o, "");
    free(o);

    /* an existing output file is left as it was */
    write_file(out, "keep\n");
    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", bad, out, NULL }), 2);
    o = slurp_path(out);
    assert_string_equal(o, "keep\n");
    free(o);
    remove(out);

    /* a missing input is an I/O failure: exit 1, no output */
    snprintf(msg, sizeof msg, "%s/does-not-exist.pairs", tmp_dir);
    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", msg, out, NULL }), 1);
    assert_int_not_equal(stat(out, &st), 0);

    if (data_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/bad-hull.pairs", data_dir);
        assert_int_equal(run_tool(NULL, (const char *const[]){ "query", path, "-", NULL }), 2);
        err = tool_output("stderr");
        snprintf(msg, sizeof msg, "%s:4: hull 3: 8 coordinates, not a multiple of 3\n", path);
        assert_string_equal(err, msg);
        free(err);
        o = tool_output("stdout");
        assert_string_equal(o, "");
        free(o);
    }
}

/* ---- where the output goes ---------------------------------------------------- */

/* Whether a write to the device at path fails with ENOSPC, as on /dev/full. */
static int writes_fail_full(const char *path)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return 0;
    ssize_t n = write(fd, "x", 1);
    int e = errno;
    close(fd);
    return n < 0 && e == ENOSPC;
}

/* A device on which every write fails, into path: a node of the test's own
 * made like /dev/full where the system allows (a regressed tool once
 * deleted its OUTPUT after a failed write, and should then delete only the
 * copy), else /dev/full itself. -1 when there is no such device. */
static int full_device(char *path, size_t size)
{
    struct stat st;
    if (stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode) || !writes_fail_full("/dev/full"))
        return -1;
    tmp_path(path, size, "full");
    if (mknod(path, S_IFCHR | 0666, st.st_rdev) == 0 && writes_fail_full(path))
        return 0;
    remove(path);
    snprintf(path, size, "/dev/full");
    return 0;
}

/* The device at path is still there, still the same device. */
static void expect_device(const char *path, const struct stat *before)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_true(st.st_rdev == before->st_rdev);
}

/* The symbolic link at path is still a link to target. */
static void expect_link(const char *path, const char *target)
{
    struct stat st;
    char buf[256];
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    assert_true(n > 0);
    buf[n] = '\0';
    assert_string_equal(buf, target);
}

/* The file at path holds want. */
static void expect_content(const char *path, const char *want)
{
    char *got = slurp_path(path);
    if (!got)
        fail_msg("%s is gone", path);
    assert_string_equal(got, want);
    free(got);
}

static void expect_mode(const char *path, mode_t mode)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, mode);
}

/* A full device as OUTPUT, named or through a link: the write fails, the
 * device stays. So for batch --save and run --snapshot too. */
static void test_cli_output_full_device(void **state)
{
    (void)state;
    NEED_CLI();
    char dev[128], link[128], in[128], msg[512];
    if (full_device(dev, sizeof dev) != 0) {
        print_message("no /dev/full that fails writes: skipping\n");
        skip();
    }
    struct stat before;
    assert_int_equal(stat(dev, &before), 0);
    tmp_path(in, sizeof in, "in.pairs");
    write_file(in, round_trip_file);
    tmp_path(link, sizeof link, "full-link");
    assert_int_equal(symlink(dev, link), 0);

    const char *const outputs[2] = { dev, link };
    for (int i = 0; i < 2; i++) {
        assert_int_equal(run_tool(NULL, (const char *const[]){ "query", in, outputs[i], NULL }), 1);
        char *err = tool_output("stderr");
        snprintf(msg, sizeof msg, "gjkbatch: writing %s: %s\n", outputs[i], strerror(ENOSPC));
        assert_string_equal(err, msg);
        free(err);
        expect_device(dev, &before);
        expect_link(link, dev);
    }
    assert_int_equal(run_tool(NULL, (const char *const[]){ "batch", "--pairs", "20", "--repeat", "1", "--save", link,
                                                           NULL }),
                     1);
    expect_device(dev, &before);
    assert_int_equal(run_tool(NULL, (const char *const[]){ "run", "--bodies", "20", "--frames", "1", "--snapshot", dev,
                                                           NULL }),
                     1);
    char *err = tool_output("stderr");
    snprintf(msg, sizeof msg, "gjkbatch: writing %s: %s\n", dev, strerror(ENOSPC));
    assert_string_equal(err, msg);
    free(err);
    expect_device(dev, &before);
    expect_link(link, dev);
    expect_no_temp_files(tmp_dir);
    remove(link);
    if (strcmp(dev, "/dev/full") != 0)
        remove(dev);
}

/* run_tool under a file size limit of 256 bytes (the CSV header and two
 * rows) that the tool inherits, with SIGXFSZ ignored so that writing past
 * it fails with EFBIG instead of killing the tool: a write that fails half
 * way, on a regular file, even as root. */
static int run_tool_size_limited(const char *const *args)
{
    struct rlimit lim, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &lim), 0);
    small = lim;
    small.rlim_cur = 256;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = run_tool(NULL, args);
    setrlimit(RLIMIT_FSIZE, &lim);
    signal(SIGXFSZ, SIG_DFL);
    return rc;
}

/* A symbolic link as OUTPUT: a failed write leaves link and file as they
 * were; a complete one replaces the file it points to (its mode kept) and
 * the link stays; a dangling link gets its file made. */
static void test_cli_output_symlink(void **state)
{
    (void)state;
    NEED_CLI();
    char in[128], target[128], link[128], made[128], dangling[128];
    tmp_path(in, sizeof in, "in.pairs");
    tmp_path(target, sizeof target, "target.csv");
    tmp_path(link, sizeof link, "link.csv");
    tmp_path(made, sizeof made, "made.csv");
    tmp_path(dangling, sizeof dangling, "dangling.csv");
    write_file(in, round_trip_file);
    write_file(target, "old\n");
    assert_int_equal(chmod(target, 0640), 0);
    assert_int_equal(symlink("target.csv", link), 0);
    assert_int_equal(symlink("made.csv", dangling), 0);
    char *want = answer(round_trip_file, GJKB_BACKEND_REFERENCE, GJKB_DISTANCE);

    assert_int_equal(run_tool_size_limited((const char *const[]){ "query", in, link, NULL }), 1);
    expect_link(link, "target.csv");
    expect_content(target, "old\n");
    expect_no_temp_files(tmp_dir);

    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--backend", "reference", in, link, NULL }), 0);
    expect_link(link, "target.csv");
    expect_content(target, want);
    expect_mode(target, 0640);

    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--backend", "reference", in, dangling, NULL }),
                     0);
    expect_link(dangling, "made.csv");
    expect_content(made, want);
    mode_t mask = umask(0);
    umask(mask);
    expect_mode(made, 0666 & ~mask); /* as fopen would have made it */
    free(want);
    expect_no_temp_files(tmp_dir);
    remove(link);
    remove(dangling);
    remove(target);
    remove(made);
}

/* setpriv words that run the tool as nobody: root ignores permission
 * bits, so a tool run as root never meets a read-only folder. */
static const char *const as_nobody[] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", NULL };

/* Whether a folder made read-only binds the tool: yes for an ordinary user;
 * for root, once the tool runs as nobody (tool_prefix set; tmp_dir opened to
 * others so that nobody reaches the folder). */
static int read_only_binds(const char *dir)
{
    char probe[160];
    snprintf(probe, sizeof probe, "%s/probe", dir);
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return 1;
    close(fd);
    remove(probe);
    if (run_quiet((const char *const[]){ "setpriv", "--version", NULL }) != 0)
        return 0;
    tool_prefix = as_nobody;
    if (run_tool(NULL, (const char *const[]){ "--version", NULL }) != 0 || chmod(tmp_dir, 0711) != 0) {
        tool_prefix = NULL;
        return 0;
    }
    return 1;
}

/* Read-only places. In a read-only folder the tool fails cleanly, creates
 * nothing and leaves the file already there alone, even one anybody may
 * write; a read-only file in an open folder is not replaced either. */
static void test_cli_output_read_only(void **state)
{
    (void)state;
    NEED_CLI();
    char in[128], ro[128], open_dir[128], old[160], fresh[160], locked[160], msg[512];
    tmp_path(in, sizeof in, "in.pairs");
    tmp_path(ro, sizeof ro, "ro");
    tmp_path(open_dir, sizeof open_dir, "open");
    snprintf(old, sizeof old, "%s/old.csv", ro);
    snprintf(fresh, sizeof fresh, "%s/new.csv", ro);
    snprintf(locked, sizeof locked, "%s/locked.csv", open_dir);
    write_file(in, round_trip_file);
    assert_int_equal(mkdir(ro, 0755), 0);
    write_file(old, "keep\n");
    assert_int_equal(chmod(old, 0666), 0);
    assert_int_equal(chmod(ro, 0555), 0);
    assert_int_equal(mkdir(open_dir, 0755), 0);
    write_file(locked, "keep\n");
    assert_int_equal(chmod(locked, 0444), 0);
    assert_int_equal(chmod(open_dir, 0777), 0);
    if (!read_only_binds(ro)) {
        chmod(ro, 0755);
        remove_tree(ro);
        remove_tree(open_dir);
        print_message("root ignores permission bits and setpriv cannot run the tool as nobody: skipping\n");
        skip();
    }
    const char *const outputs[3] = { fresh, old, locked };
    int rc[3];
    char *err[3];
    for (int i = 0; i < 3; i++) {
        rc[i] = run_tool(in, (const char *const[]){ "query", "-", outputs[i], NULL });
        err[i] = tool_output("stderr");
    }
    tool_prefix = NULL;
    chmod(tmp_dir, 0700);
    for (int i = 0; i < 3; i++) {
        if (i < 2)
            snprintf(msg, sizeof msg, "gjkbatch: writing %s: cannot create a temporary file in %s: %s\n",
                     outputs[i], ro, strerror(EACCES));
        else
            snprintf(msg, sizeof msg, "gjkbatch: writing %s: %s\n", outputs[i], strerror(EACCES));
        assert_int_equal(rc[i], 1);
        assert_string_equal(err[i], msg);
        free(err[i]);
    }
    int dot;
    assert_int_equal(folder_entries(ro, &dot), 1); /* old.csv alone */
    assert_int_equal(folder_entries(open_dir, &dot), 1);
    assert_int_equal(dot, 0);
    expect_content(old, "keep\n");
    expect_content(locked, "keep\n");
    expect_mode(locked, 0444);
    assert_int_equal(chmod(ro, 0755), 0);
    remove_tree(ro);
    remove_tree(open_dir);
}

/* An existing OUTPUT survives a failed run: a bad input, and a write that
 * fails half way. A run that succeeds replaces it and keeps its mode. */
static void test_cli_output_kept_on_failure(void **state)
{
    (void)state;
    NEED_CLI();
    char in[128], bad[128], out[128], msg[512];
    tmp_path(in, sizeof in, "in.pairs");
    tmp_path(bad, sizeof bad, "bad.pairs");
    tmp_path(out, sizeof out, "out.csv");
    write_file(in, round_trip_file);
    write_file(bad, P "pair\n");
    write_file(out, "keep\n");
    assert_int_equal(chmod(out, 0600), 0);

    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", bad, out, NULL }), 2);
    expect_content(out, "keep\n");

    assert_int_equal(run_tool_size_limited((const char *const[]){ "query", in, out, NULL }), 1);
    char *err = tool_output("stderr");
    snprintf(msg, sizeof msg, "gjkbatch: writing %s: %s\n", out, strerror(EFBIG));
    assert_string_equal(err, msg);
    free(err);
    expect_content(out, "keep\n");
    expect_no_temp_files(tmp_dir);

    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--backend", "reference", in, out, NULL }), 0);
    char *want = answer(round_trip_file, GJKB_BACKEND_REFERENCE, GJKB_DISTANCE);
    expect_content(out, want);
    free(want);
    expect_mode(out, 0600);
    expect_no_temp_files(tmp_dir);
    remove(out);
}

/* ---- backends ------------------------------------------------------------------ */

/* A backend that GJKB_BACKEND names and this machine lacks: the message
 * names it and where it came from, not "auto". */
static void test_cli_backend_from_environment(void **state)
{
    (void)state;
    NEED_CLI();
    int missing = -1;
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT && missing < 0; b++)
        if (!gjkb_backend_available((gjkb_backend)b))
            missing = b;
    if (missing < 0) {
        print_message("every backend runs here: skipping\n");
        skip();
    }
    const char *name = gjkb_backend_name((gjkb_backend)missing);
    char in[128], msg[256];
    tmp_path(in, sizeof in, "in.pairs");
    write_file(in, round_trip_file);
    const char *saved = getenv("GJKB_BACKEND");
    char *keep = saved ? strdup(saved) : NULL;
    static const char *const values[3] = { NULL, "avx1024", "reference" };
    int rc[3];
    char *err[3];
    for (int i = 0; i < 3; i++) {
        setenv("GJKB_BACKEND", values[i] ? values[i] : name, 1);
        rc[i] = run_tool(NULL, (const char *const[]){ "query", in, "-", NULL });
        err[i] = tool_output("stderr");
    }
    /* named on the command line, GJKB_BACKEND plays no part */
    unsetenv("GJKB_BACKEND");
    int rc_option = run_tool(NULL, (const char *const[]){ "query", "--backend", name, in, "-", NULL });
    char *err_option = tool_output("stderr");
    if (keep)
        setenv("GJKB_BACKEND", keep, 1);
    free(keep);

    print_message("unavailable backend: %s\n", name);
    assert_int_equal(rc[0], 1);
    snprintf(msg, sizeof msg,
             "gjkbatch: backend '%s' (from the GJKB_BACKEND environment variable) is not available in this build "
             "or on this CPU\n",
             name);
    assert_string_equal(err[0], msg);
    assert_int_equal(rc[1], 1);
    assert_string_equal(err[1], "gjkbatch: the GJKB_BACKEND environment variable names no backend: 'avx1024'\n");
    assert_int_equal(rc[2], 0);
    assert_string_equal(err[2], "");
    assert_int_equal(rc_option, 1);
    snprintf(msg, sizeof msg, "gjkbatch: backend '%s' is not available in this build or on this CPU\n", name);
    assert_string_equal(err_option, msg);
    for (int i = 0; i < 3; i++)
        free(err[i]);
    free(err_option);
}

static void expect_usage_error(const char *const *args)
{
    assert_int_equal(run_tool(NULL, args), 2);
    char *err = tool_output("stderr");
    assert_non_null(strstr(err, "usage: gjkbatch"));
    free(err);
    char *out = tool_output("stdout");
    assert_string_equal(out, "");
    free(out);
}

static void test_cli_usage(void **state)
{
    (void)state;
    NEED_CLI();
    static const char *const help_forms[] = { "--help", "help", "-h" };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run_tool(NULL, (const char *const[]){ help_forms[i], NULL }), 0);
        char *out = tool_output("stdout");
        assert_non_null(strstr(out, "usage: gjkbatch query"));
        assert_non_null(strstr(out, "gjkbatch run"));
        free(out);
    }
    assert_int_equal(run_tool(NULL, (const char *const[]){ "--version", NULL }), 0);
    char *out = tool_output("stdout");
    char want[64];
    snprintf(want, sizeof want, "gjkbatch %d.%d.%d\n", GJKB_VERSION_MAJOR, GJKB_VERSION_MINOR, GJKB_VERSION_PATCH);
    assert_string_equal(out, want);
    free(out);

    expect_usage_error((const char *const[]){ NULL });
    expect_usage_error((const char *const[]){ "--frobnicate", NULL });
    expect_usage_error((const char *const[]){ "frobnicate", NULL });
    expect_usage_error((const char *const[]){ "query", "--frobnicate", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "--pairs", "5", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "-", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "--mode", "fast", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "--backend", "gpu", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "--max-iterations", "-1", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "-", "-", "--mode", NULL });
    expect_usage_error((const char *const[]){ "batch", "--pairs", "many", NULL });
    expect_usage_error((const char *const[]){ "batch", "--repeat", "0", NULL });
    expect_usage_error((const char *const[]){ "run", "extra", NULL });
    /* --max-distance: query only, distance or contact mode, a finite value >= 0 */
    static const char *const bad_distances[] = { "-1", "nan", "inf", "1x", "", "1e999" };
    for (size_t i = 0; i < sizeof bad_distances / sizeof bad_distances[0]; i++)
        expect_usage_error((const char *const[]){ "query", "--max-distance", bad_distances[i], "-", "-", NULL });
    expect_usage_error((const char *const[]){ "query", "--mode", "hit", "--max-distance", "1", "-", "-", NULL });
    expect_usage_error((const char *const[]){ "batch", "--max-distance", "1", NULL });
}

/* A bad --mode names the modes there are. */
static void test_cli_bad_mode(void **state)
{
    (void)state;
    NEED_CLI();
    static const char *const commands[3] = { "query", "batch", "run" };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run_tool(NULL, (const char *const[]){ commands[i], "--mode", "contacts", NULL }), 2);
        char *err = tool_output("stderr");
        if (!strstr(err, "gjkbatch: unknown mode 'contacts' (hit, distance or contact)\n"))
            fail_msg("%s --mode contacts:\n%s", commands[i], err);
        free(err);
    }
}

static void test_cli_run(void **state)
{
    (void)state;
    NEED_CLI();
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b);
    for (int i = 0; i < n; i++) {
        const char *name = gjkb_backend_name(b[i]);
        static const char *const modes[3] = { "hit", "distance", "contact" };
        for (int mode = 0; mode < 3; mode++) {
            int rc = run_tool(NULL, (const char *const[]){ "batch", "--backend", name, "--pairs", "3000", "--seed",
                                                           "7", "--repeat", "1", "--mode", modes[mode], NULL });
            char *out = tool_output("stdout");
            if (rc != 0) {
                char *err = tool_output("stderr");
                fail_msg("batch --backend %s: exit %d\n%s%s", name, rc, out, err);
            }
            char want[64];
            snprintf(want, sizeof want, "backend:              %s\n", name);
            assert_non_null(strstr(out, want));
            assert_non_null(strstr(out, "pairs:                3000\n"));
            assert_non_null(strstr(out, "verification:         ok\n"));
            /* the scene is meant to be about half overlapping */
            const char *h = strstr(out, "hits (overlap):");
            assert_non_null(h);
            long hits = strtol(h + strlen("hits (overlap):"), NULL, 10);
            assert_true(hits > 3000 * 3 / 10 && hits < 3000 * 7 / 10);
            assert_non_null(strstr(out, "invalid:              0\n"));
            if (mode == 2) {
                assert_non_null(strstr(out, "mode:                 contact\n"));
                assert_non_null(strstr(out, "\ncount mismatches:     0 "));
                assert_non_null(strstr(out, "\npoint mismatches:     0 "));
            }
            free(out);
        }
    }
}

/* --save writes the scene as a pair file that query answers the same way. */
static void test_cli_run_save(void **state)
{
    (void)state;
    NEED_CLI();
    char scene_path[128];
    snprintf(scene_path, sizeof scene_path, "%s/scene.pairs", tmp_dir);
    assert_int_equal(run_tool(NULL, (const char *const[]){ "batch", "--backend", "reference", "--pairs", "700",
                                                           "--seed", "11", "--repeat", "1", "--save", scene_path,
                                                           NULL }),
                     0);
    char *out = tool_output("stdout");
    const char *h = strstr(out, "hits (overlap):");
    assert_non_null(h);
    long hits = strtol(h + strlen("hits (overlap):"), NULL, 10);
    const char *sp = strstr(out, "separated:");
    assert_non_null(sp);
    long separated = strtol(sp + strlen("separated:"), NULL, 10);
    free(out);

    char *pairs = slurp_path(scene_path);
    assert_non_null(pairs);
    assert_int_equal(count_of(pairs, "\nhull "), 64);
    assert_int_equal(count_of(pairs, "\npair "), 700);
    assert_true(count_of(pairs, " margin ") > 700 * 2 / 8); /* about a quarter of the bodies */
    free(pairs);

    assert_int_equal(run_tool(NULL, (const char *const[]){ "query", "--backend", "reference", scene_path, "-",
                                                           NULL }),
                     0);
    out = tool_output("stdout");
    assert_int_equal(count_of(out, "\n"), 701);
    assert_int_equal(count_of(out, ",overlap,"), hits);
    assert_int_equal(count_of(out, ",separated,"), separated);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_values),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_large),
        cmocka_unit_test(test_parse_line_ends_and_bom),
        cmocka_unit_test(test_parse_locale),
        cmocka_unit_test(test_write_csv_format),
        cmocka_unit_test(test_contact_header),
        cmocka_unit_test(test_write_contact_csv_format),
        cmocka_unit_test(test_contact_closed_forms),
        cmocka_unit_test(test_round_trip_distance),
        cmocka_unit_test(test_hit_mode_prints_nan),
        cmocka_unit_test(test_invalid_pairs_isolated),
        cmocka_unit_test(test_cli_query),
        cmocka_unit_test(test_cli_contact),
        cmocka_unit_test(test_cli_max_distance),
        cmocka_unit_test(test_cli_parse_error),
        cmocka_unit_test(test_cli_output_full_device),
        cmocka_unit_test(test_cli_output_symlink),
        cmocka_unit_test(test_cli_output_read_only),
        cmocka_unit_test(test_cli_output_kept_on_failure),
        cmocka_unit_test(test_cli_backend_from_environment),
        cmocka_unit_test(test_cli_usage),
        cmocka_unit_test(test_cli_bad_mode),
        cmocka_unit_test(test_cli_run),
        cmocka_unit_test(test_cli_run_save),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
