/* test_run.c - `gjkbatch run` end to end: the moving world through
 * gjkb_step on every available backend and thread count, verified against
 * the reference backend by the tool itself, the table it prints, the
 * density of the default world, the SVG snapshot and the usage errors. The
 * binary's path comes from the GJKBATCH_CLI environment variable that
 * CTest sets. Nothing here depends on timing. */
#define _POSIX_C_SOURCE 200809L /* posix_spawn, mkdtemp */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gjkbatch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"


/* ---- running the tool ---------------------------------------------------- */





/* Runs the tool and fails with its output unless it exits 0; returns
 * stdout. */
static char *run_ok(const char *const *args)
{
    int rc = run_tool(NULL, args);
    char *out = tool_output("stdout");
    if (rc != 0) {
        char *err = tool_output("stderr");
        char cmd[512] = "";
        for (int i = 0; args[i]; i++)
            snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s", args[i]);
        fail_msg("gjkbatch%s: exit %d\n%s%s", cmd, rc, out, err);
    }
    return out;
}

/* The number after "label" at the start of a line of text. */
static double value_of(const char *text, const char *label)
{
    char key[64];
    snprintf(key, sizeof key, "\n%s", label);
    const char *p = strncmp(text, label, strlen(label)) == 0 ? text : strstr(text, key);
    if (!p)
        fail_msg("no line '%s' in:\n%s", label, text);
    p = strstr(p, label) + strlen(label);
    char *end;
    double v = strtod(p, &end);
    assert_true(end != p);
    return v;
}

/* Backends this build and CPU run (reference first). */

/* Whether the tool can run more than one thread: the build has OpenMP
 * (the tool links the same library), and no emulator runs it. Under
 * qemu-user (qemu-aarch64 7.2 here) creating any thread hangs, even a bare
 * pthread_create, so cross builds test one thread only. */
static int have_threads(void)
{
    if (emulator && *emulator)
        return 0;
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    int ok = gjkb_set_threads(ctx, 2) == GJKB_OK;
    gjkb_destroy(ctx);
    return ok;
}

static int cli_setup(void **state)
{
    (void)state;
    return harness_setup();
}

static int cli_teardown(void **state)
{
    (void)state;
    static const char *const names[] = { "stdout", "stderr", "snap.svg", "never.svg" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[128];
        tmp_path(p, sizeof p, names[i]);
        remove(p);
    }
    return rmdir(tmp_dir);
}

/* ---- the runs --------------------------------------------------------------- */

/* The table of a verified run of `bodies` bodies and `frames` frames:
 * every stage, the counts, a clean verification; returns the candidate
 * pairs per frame. */
static double check_table(const char *out, const char *backend, const char *threads, const char *mode, double bodies,
                          double frames)
{
    static const char *const rows[] = { "\n  bounds ", "\n  sort ", "\n  sweep ", "\n  narrowphase ",
                                        "\n  pair cache ", "\n  frame (gjkb_step) ", "\ntime per frame (ms) " };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strstr(out, rows[i]))
            fail_msg("no row '%s' in:\n%s", rows[i] + 1, out);
    char want[96];
    snprintf(want, sizeof want, "\nbackend:                 %s\n", backend);
    assert_non_null(strstr(out, want));
    snprintf(want, sizeof want, "\nthreads:                 %s\n", threads);
    assert_non_null(strstr(out, want));
    snprintf(want, sizeof want, "\nmode:                    %s\n", mode);
    assert_non_null(strstr(out, want));
    assert_true(value_of(out, "bodies:") == bodies);
    assert_true(value_of(out, "frames:") == frames);
    assert_true(value_of(out, "status mismatches:") == 0);
    assert_true(fabs(value_of(out, "pairs verified:") - frames * value_of(out, "candidate pairs/frame:")) < 0.5);
    assert_non_null(strstr(out, "\nverification:            ok\n"));
    /* the default density: at least two candidate pairs per body */
    double per_body = value_of(out, "pairs per body:");
    if (!(per_body >= 2.0))
        fail_msg("%s: %.3f candidate pairs per body, want at least 2", backend, per_body);
    double hits = value_of(out, "hits per frame:");
    assert_true(hits > 0.0 && hits < value_of(out, "candidate pairs/frame:"));
    return value_of(out, "candidate pairs/frame:");
}

/* Every backend, both modes, one and two threads: verified, and the same
 * candidate pairs every time (the broadphase does not depend on either). */
static void test_run_verified(void **state)
{
    (void)state;
    NEED_CLI();
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b), threads = have_threads();
    double pairs = -1.0;
    for (int i = 0; i < n; i++) {
        const char *name = gjkb_backend_name(b[i]);
        for (int variant = 0; variant < 3; variant++) {
            const char *mode = variant == 1 ? "distance" : "hit";
            const char *nthreads = variant == 2 ? "2" : "1";
            if (variant == 2 && !threads)
                continue;
            char *out = run_ok((const char *const[]){ "run", "--bodies", "2000", "--frames", "5", "--verify",
                                                      "--backend", name, "--mode", mode, "--threads", nthreads,
                                                      NULL });
            double p = check_table(out, name, nthreads, mode, 2000, 5);
            if (variant == 1)
                assert_true(value_of(out, "distance mismatches:") == 0);
            if (pairs < 0.0)
                pairs = p;
            else if (p != pairs)
                fail_msg("%s %s threads %s: %.1f candidate pairs per frame, earlier runs %.1f", name, mode, nthreads,
                         p, pairs);
            free(out);
            /* stderr is a file here: no progress bar, nothing at all */
            char *err = tool_output("stderr");
            assert_string_equal(err, "");
            free(err);
        }
    }
}

/* Contact mode, every backend: every pair's contacts verified against the
 * reference (no mismatch of any kind), at least one point per overlapping
 * pair, a positive mean depth. */
static void test_run_contact_verified(void **state)
{
    (void)state;
    NEED_CLI();
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b);
    static const char *const zero[] = { "distance mismatches:", "count mismatches:", "depth mismatches:",
                                        "normal mismatches:", "point mismatches:" };
    /* under an emulator every backend's contacts cost the reference's
     * time many times over: a smaller scene there */
    const int small = emulator && *emulator;
    const char *bodies = small ? "1000" : "2000", *frames = small ? "2" : "5";
    for (int i = 0; i < n; i++) {
        const char *name = gjkb_backend_name(b[i]);
        char *out = run_ok((const char *const[]){ "run", "--bodies", bodies, "--frames", frames, "--verify", "--backend",
                                                  name, "--mode", "contact", NULL });
        check_table(out, name, "1", "contact", atof(bodies), atof(frames));
        for (size_t k = 0; k < sizeof zero / sizeof zero[0]; k++)
            if (value_of(out, zero[k]) != 0)
                fail_msg("%s: %s not 0:\n%s", name, zero[k], out);
        double hits = value_of(out, "hits per frame:"), points = value_of(out, "contact points/frame:");
        if (!(points >= hits && points <= 4 * hits))
            fail_msg("%s: %.1f contact points per frame for %.1f hits", name, points, hits);
        assert_true(value_of(out, "mean depth:") > 0.0);
        /* every overlapping pair of the checked pass was checked */
        assert_true(value_of(out, "contacts checked:") >= atof(frames) * hits - 0.5);
        free(out);
        char *err = tool_output("stderr");
        assert_string_equal(err, "");
        free(err);
    }
}

/* The 16 hex digits after "results hash:" in out, into hash[17]. */
static void hash_of(const char *out, char hash[17])
{
    const char *p = strstr(out, "\nresults hash:");
    if (!p)
        fail_msg("no results hash in:\n%s", out);
    p += strlen("\nresults hash:");
    while (*p == ' ')
        p++;
    memcpy(hash, p, 16);
    hash[16] = '\0';
}

/* The pair cache (on by default): the same bits on every wide backend at
 * one and two threads, most pairs warm; --cold starts none warm and
 * checks the same pairs. */
static void test_run_cache(void **state)
{
    (void)state;
    NEED_CLI();
    gjkb_backend b[GJKB_BACKEND_COUNT];
    int n = available_backends(b), threads = have_threads();
    static const char *const modes[] = { "distance", "contact" };
    /* under an emulator, a smaller world (as test_run_contact_verified) */
    const char *bodies = emulator && *emulator ? "300" : "800";
    for (int m = 0; m < 2; m++) {
        char first[17] = "";
        for (int i = 0; i < n; i++) {
            if (b[i] == GJKB_BACKEND_REFERENCE)
                continue;
            for (int t = 1; t <= 1 + threads; t++) {
                const char *nt = t == 1 ? "1" : "2";
                char *out = run_ok((const char *const[]){ "run", "--bodies", bodies, "--frames", "3", "--mode",
                                                          modes[m], "--backend", gjkb_backend_name(b[i]), "--threads",
                                                          nt, NULL });
                assert_non_null(strstr(out, "\npair cache:              on\n"));
                assert_true(value_of(out, "warm-started:") > 50.0);
                char h[17];
                hash_of(out, h);
                if (!first[0])
                    memcpy(first, h, sizeof h);
                else if (strcmp(first, h) != 0)
                    fail_msg("%s %s threads %s: results hash %s, earlier %s", modes[m], gjkb_backend_name(b[i]), nt,
                             h, first);
                free(out);
            }
        }
        char *cold = run_ok((const char *const[]){ "run", "--bodies", bodies, "--frames", "3", "--mode", modes[m],
                                                   "--cold", "--verify", NULL });
        assert_non_null(strstr(cold, "\npair cache:              off (--cold)\n"));
        assert_true(value_of(cold, "warm-started:") == 0.0);
        assert_null(strstr(cold, "\nwarm vs cold:"));
        assert_non_null(strstr(cold, "\nverification:            ok\n"));
        free(cold);
    }
}

/* --compare bullet on a small world: gjkbatch sides with the reference on
 * every disagreement; a build without Bullet says so. */
static void test_run_compare(void **state)
{
    (void)state;
    NEED_CLI();
    int rc = run_tool(NULL, (const char *const[]){ "run", "--bodies", "400", "--frames", "3", "--mode", "contact",
                                                   "--compare", "bullet", "--quiet", NULL });
    char *out = tool_output("stdout"), *err = tool_output("stderr");
    if (rc != 0) {
        if (!strstr(err, "built without Bullet"))
            fail_msg("exit %d\n%s%s", rc, out, err);
    } else {
        assert_non_null(strstr(out, "btDbvtBroadphase against gjkbatch"));
        assert_non_null(strstr(out, "btAxisSweep3 against gjkbatch"));
        assert_non_null(strstr(out, "\ngjkbatch vs reference:   ok\n"));
        assert_true(value_of(out, "  touching pairs/frame:") > 0.0);
    }
    free(out);
    free(err);
}

/* The same seed gives the same world; another seed another one. */
static void test_run_seed(void **state)
{
    (void)state;
    NEED_CLI();
    const char *const a[] = { "run", "--bodies", "3000", "--frames", "2", "--seed", "9", NULL };
    const char *const b[] = { "run", "--bodies=3000", "--frames=2", "--seed=10", "--quiet", NULL };
    char *first = run_ok(a), *again = run_ok(a), *other = run_ok(b);
    double p = value_of(first, "candidate pairs/frame:");
    assert_true(p == value_of(again, "candidate pairs/frame:"));
    assert_true(value_of(first, "hits per frame:") == value_of(again, "hits per frame:"));
    assert_true(p != value_of(other, "candidate pairs/frame:"));
    assert_true(value_of(first, "pairs per body:") >= 2.0 && value_of(other, "pairs per body:") >= 2.0);
    assert_non_null(strstr(first, "\nverification:            off"));
    free(first);
    free(again);
    free(other);
}

/* The smallest worlds: one body has no pairs at all, two may have one. */
static void test_run_tiny(void **state)
{
    (void)state;
    NEED_CLI();
    char path[128];
    tmp_path(path, sizeof path, "snap.svg");
    char *out = run_ok((const char *const[]){ "run", "--bodies", "1", "--frames", "2", "--verify", "--snapshot", path,
                                              NULL });
    assert_true(value_of(out, "candidate pairs/frame:") == 0);
    assert_true(value_of(out, "pairs verified:") == 0);
    assert_non_null(strstr(out, "\nverification:            ok\n"));
    free(out);
    char *svg = slurp_path(path);
    assert_non_null(svg);
    assert_true(strncmp(svg, "<svg", 4) == 0 && strstr(svg, "</svg>"));
    free(svg);
    out = run_ok((const char *const[]){ "run", "--bodies", "2", "--frames", "3", "--verify", "--mode", "distance",
                                        NULL });
    assert_non_null(strstr(out, "\nverification:            ok\n"));
    free(out);
}

/* --snapshot: a well-formed SVG of the chosen frame with every body and
 * the overlapping pairs highlighted. */
static void test_run_snapshot(void **state)
{
    (void)state;
    NEED_CLI();
    char path[128];
    tmp_path(path, sizeof path, "snap.svg");
    char *out = run_ok((const char *const[]){ "run", "--bodies", "2000", "--frames", "3", "--snapshot", path,
                                              "--snapshot-frame", "2", NULL });
    assert_non_null(strstr(out, "(frame 2)\n"));
    free(out);
    char *svg = slurp_path(path);
    assert_non_null(svg);
    size_t len = strlen(svg);
    while (len > 0 && (svg[len - 1] == '\n' || svg[len - 1] == ' '))
        len--;
    assert_true(strncmp(svg, "<svg", 4) == 0);
    assert_true(len >= 6 && strncmp(svg + len - 6, "</svg>", 6) == 0);
    assert_non_null(strstr(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(svg, " viewBox=\""));
    assert_non_null(strstr(svg, "frame 2 of 3"));
    /* every body once: circles for spheres, polygons for the rest */
    assert_int_equal(count_of(svg, "<circle ") + count_of(svg, "<polygon "), 2000);
    /* the highlighted group holds bodies, and the contact lines follow */
    const char *hit = strstr(svg, "<g class=\"hit\"");
    assert_non_null(hit);
    const char *end = strstr(hit, "</g>");
    assert_non_null(end);
    const char *first = strstr(hit, "<polygon ");
    const char *circle = strstr(hit, "<circle ");
    if (!first || (circle && circle < first))
        first = circle;
    assert_true(first && first < end);
    const char *contact = strstr(svg, "<path class=\"contact\"");
    assert_non_null(contact);
    assert_true(count_of(contact, "M") >= 1 && count_of(contact, "M") == count_of(contact, "L"));
    /* balanced groups, and nothing but whitespace outside the root */
    assert_int_equal(count_of(svg, "<g "), count_of(svg, "</g>"));
    assert_int_equal(count_of(svg, "<svg"), 1);
    free(svg);
}

/* Contact mode's snapshot: the bodies as ever, then every contact point as
 * a dot and every manifold's normal as a line, in two paths. */
static void test_run_snapshot_contact(void **state)
{
    (void)state;
    NEED_CLI();
    char path[128];
    tmp_path(path, sizeof path, "snap.svg");
    char *out = run_ok((const char *const[]){ "run", "--bodies", "2000", "--frames", "2", "--mode", "contact",
                                              "--snapshot", path, NULL });
    double points = value_of(out, "contact points/frame:"), hits = value_of(out, "hits per frame:");
    free(out);
    char *svg = slurp_path(path);
    assert_non_null(svg);
    assert_int_equal(count_of(svg, "<circle ") + count_of(svg, "<polygon "), 2000);
    assert_null(strstr(svg, "<path class=\"contact\""));
    const char *dots = strstr(svg, "<path class=\"contact-points\"");
    const char *normals = strstr(svg, "<path class=\"normals\"");
    assert_true(dots && normals && dots < normals);
    /* one M per point and per normal; the dots' path ends where the normals' begins */
    long dot_moves = count_of(dots, "M") - count_of(normals, "M");
    assert_true(dot_moves > 0 && count_of(normals, "M") > 0);
    /* frame 2's points and pairs against the mean of frames 1 and 2: the
     * same order of magnitude */
    assert_true(dot_moves >= count_of(normals, "M") && dot_moves <= 4 * count_of(normals, "M"));
    assert_true(dot_moves > points / 4 && count_of(normals, "M") > hits / 4);
    assert_non_null(strstr(svg, "contact points (blue) and normals (green)"));
    assert_int_equal(count_of(svg, "<g "), count_of(svg, "</g>"));
    free(svg);
}

static void expect_usage_error(const char *const *args)
{
    int rc = run_tool(NULL, args);
    char *err = tool_output("stderr");
    if (rc != 2 || !strstr(err, "usage: gjkbatch"))
        fail_msg("%s %s: exit %d, want 2 and the usage\n%s", args[0], args[1] ? args[1] : "", rc, err);
    free(err);
    char *out = tool_output("stdout");
    assert_string_equal(out, "");
    free(out);
}

static void test_run_usage(void **state)
{
    (void)state;
    NEED_CLI();
    char never[128];
    tmp_path(never, sizeof never, "never.svg");
    expect_usage_error((const char *const[]){ "run", "--bodies", "0", NULL });
    expect_usage_error((const char *const[]){ "run", "--bodies", "many", NULL });
    expect_usage_error((const char *const[]){ "run", "--frames", "0", NULL });
    expect_usage_error((const char *const[]){ "run", "--threads", "0", NULL });
    expect_usage_error((const char *const[]){ "run", "--threads", "-1", NULL });
    expect_usage_error((const char *const[]){ "run", "--mode", "fast", NULL });
    expect_usage_error((const char *const[]){ "run", "--max-distance", "1", NULL }); /* a query option */
    expect_usage_error((const char *const[]){ "run", "--verify=yes", NULL });
    expect_usage_error((const char *const[]){ "run", "--pairs", "10", NULL });     /* a batch option */
    expect_usage_error((const char *const[]){ "run", "--snapshot-frame", "2", NULL });
    expect_usage_error((const char *const[]){ "run", "--frames", "3", "--snapshot", never, "--snapshot-frame", "4",
                                              NULL });
    expect_usage_error((const char *const[]){ "run", "extra", NULL });
    expect_usage_error((const char *const[]){ "run", "--cold=yes", NULL });
    expect_usage_error((const char *const[]){ "run", "--compare", "ode", NULL });
    expect_usage_error((const char *const[]){ "run", "--compare", "bullet", "--verify", NULL });
    expect_usage_error((const char *const[]){ "batch", "--bodies", "10", NULL });  /* a run option */
    expect_usage_error((const char *const[]){ "batch", "--cold", NULL });          /* a run option */
    FILE *f = fopen(never, "r");
    assert_null(f); /* no snapshot from a refused command */

    /* an unwritable snapshot is a failure, not a usage error */
    assert_int_equal(run_tool(NULL, (const char *const[]){ "run", "--bodies", "100", "--frames", "1", "--snapshot",
                                                     "/nonexistent-dir/x.svg", NULL }),
                     1);
    char *err = tool_output("stderr");
    assert_non_null(strstr(err, "/nonexistent-dir/x.svg"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_verified),
        cmocka_unit_test(test_run_contact_verified),
        cmocka_unit_test(test_run_cache),
        cmocka_unit_test(test_run_compare),
        cmocka_unit_test(test_run_seed),
        cmocka_unit_test(test_run_tiny),
        cmocka_unit_test(test_run_snapshot),
        cmocka_unit_test(test_run_snapshot_contact),
        cmocka_unit_test(test_run_usage),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
