/* test_hull.c - hull topology (src/hull.c) through gjkb__hull_build and
 * gjkb_hull_add: exact answers on shapes whose hull is known (cube,
 * tetrahedron, square, segment, point), and on random clouds every
 * invariant a convex polyhedron has: each input point inside each face
 * plane, faces planar, convex and counter-clockwise around their normal,
 * each edge between exactly two faces, symmetric adjacency, Euler's
 * V - E + F = 2, and the vertices' support equal to the cloud's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "internal.h"
#include "testutil.h"

/* ---- clouds ---------------------------------------------------------------- */

typedef struct cloud {
    uint32_t n;
    float *xyz;
} cloud;

static cloud cloud_new(uint32_t n)
{
    cloud c = { n, tu_realloc(NULL, 3 * (size_t)(n ? n : 1) * sizeof(float)) };
    return c;
}

static void cloud_set(cloud *c, uint32_t i, double x, double y, double z)
{
    c->xyz[3 * i] = (float)x, c->xyz[3 * i + 1] = (float)y, c->xyz[3 * i + 2] = (float)z;
}

static tu_v3 cloud_p(const float *xyz, uint32_t i)
{
    return tu_v(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
}

static double gauss(tu_rng *r)
{
    double u = tu_range(r, 1e-300, 1.0), v = tu_unit(r);
    return sqrt(-2.0 * log(u)) * cos(2.0 * TU_PI * v);
}

enum { SPHERE, BOX, GAUSS };

static cloud random_cloud(int kind, uint32_t n, uint64_t seed)
{
    tu_rng r = tu_rng_make(seed);
    cloud c = cloud_new(n);
    for (uint32_t i = 0; i < n; i++) {
        tu_v3 p = tu_v(gauss(&r), gauss(&r), gauss(&r));
        if (kind == SPHERE)
            p = tu_scale(p, 1.0 / tu_len(p));
        if (kind == BOX)
            p = tu_v(tu_range(&r, -1, 1), tu_range(&r, -0.5, 0.5), tu_range(&r, -2, 2));
        cloud_set(&c, i, p.x, p.y, p.z);
    }
    return c;
}

static double extent(const float *xyz, uint32_t n)
{
    double e = 0.0;
    for (int k = 0; k < 3; k++) {
        double lo = xyz[k], hi = xyz[k];
        for (uint32_t i = 1; i < n; i++)
            lo = fmin(lo, xyz[3 * i + k]), hi = fmax(hi, xyz[3 * i + k]);
        e = fmax(e, hi - lo);
    }
    return e;
}

/* ---- invariants -------------------------------------------------------------- */

static tu_v3 vert(const gjkb__hull_topology *t, const float *xyz, uint32_t v)
{
    return cloud_p(xyz, t->source[v]);
}

static tu_v3 fnormal(const gjkb__hull_face *f)
{
    return tu_v(f->n[0], f->n[1], f->n[2]);
}

/* Face f: unit normal, loop from its smallest vertex, distinct vertices,
 * planar, convex and counter-clockwise around the normal. */
static void check_face(const gjkb__hull_topology *t, const float *xyz, uint32_t f, double tol)
{
    const gjkb__hull_face *fc = &t->face[f];
    const uint32_t *l = t->face_vertex + fc->first;
    uint32_t m = fc->count;
    tu_v3 n = fnormal(fc), area = tu_v(0, 0, 0);
    assert_true(m >= 3);
    assert_true(fabs(tu_len(n) - 1.0) < 1e-12);
    for (uint32_t j = 0; j < m; j++) {
        assert_true(l[j] < t->vertex_count);
        assert_true(l[j] >= l[0]);
        for (uint32_t k = j + 1; k < m; k++)
            assert_true(l[j] != l[k]);
        tu_v3 a = vert(t, xyz, l[j]), b = vert(t, xyz, l[(j + 1) % m]), c = vert(t, xyz, l[(j + 2) % m]);
        assert_true(fabs(tu_dot(n, a) - fc->d) <= tol);
        double turn = tu_dot(tu_cross(tu_sub(b, a), tu_sub(c, b)), n);
        assert_true(turn >= -tol * (tu_len(tu_sub(b, a)) + tu_len(tu_sub(c, b))));
        area = tu_add(area, tu_cross(tu_sub(a, vert(t, xyz, l[0])), tu_sub(b, vert(t, xyz, l[0]))));
    }
    assert_true(tu_dot(area, n) > 0.0);
}

/* Index of directed edge a -> b in the adjacency, or UINT32_MAX. */
static uint32_t adj_index(const gjkb__hull_topology *t, uint32_t a, uint32_t b)
{
    for (uint32_t k = t->adj_first[a]; k < t->adj_first[a + 1]; k++)
        if (t->adj[k] == b)
            return k;
    return UINT32_MAX;
}

/* Edges ascending, each between two faces that run it in opposite
 * directions; every loop edge is one of them (so each edge has exactly two
 * faces); adjacency symmetric and ascending. */
static void check_edges(const gjkb__hull_topology *t)
{
    uint32_t directed = 0;
    for (uint32_t f = 0; f < t->face_count; f++)
        for (uint32_t j = 0, m = t->face[f].count; j < m; j++) {
            const uint32_t *l = t->face_vertex + t->face[f].first;
            uint32_t k = adj_index(t, l[j], l[(j + 1) % m]);
            assert_true(k != UINT32_MAX);
            assert_int_equal(t->adj_face[k], f);
            directed++;
        }
    if (t->face_count > 0)
        assert_int_equal(directed, 2 * t->edge_count);
    assert_int_equal(t->adj_first[t->vertex_count], 2 * t->edge_count);
    for (uint32_t e = 0; e < t->edge_count; e++) {
        uint32_t a = t->edge[2 * e], b = t->edge[2 * e + 1];
        assert_true(a < b && b < t->vertex_count);
        if (e > 0)
            assert_true(t->edge[2 * e - 2] < a || (t->edge[2 * e - 2] == a && t->edge[2 * e - 1] < b));
        assert_int_equal(t->edge_face[2 * e], t->adj_face[adj_index(t, a, b)]);
        assert_int_equal(t->edge_face[2 * e + 1], t->adj_face[adj_index(t, b, a)]);
        if (t->face_count > 0)
            assert_true(t->edge_face[2 * e] != t->edge_face[2 * e + 1]);
    }
    for (uint32_t a = 0; a < t->vertex_count; a++)
        for (uint32_t k = t->adj_first[a]; k < t->adj_first[a + 1]; k++) {
            assert_true(k == t->adj_first[a] || t->adj[k - 1] < t->adj[k]);
            assert_true(adj_index(t, t->adj[k], a) != UINT32_MAX);
        }
}

/* Every input point inside every face plane within the tolerance; a
 * sample of faces and points when the full check would be too long. */
static void check_inside(const gjkb__hull_topology *t, const float *xyz, uint32_t n, double tol)
{
    bool full = (double)n * t->face_count <= 4e8;
    uint32_t fstep = full ? 1 : t->face_count / 500 + 1, pstep = full ? 1 : n / 500 + 1;
    for (uint32_t f = 0; f < t->face_count; f++) {
        tu_v3 nr = fnormal(&t->face[f]);
        for (uint32_t i = (f % fstep == 0) ? 0 : f % pstep; i < n; i += (f % fstep == 0) ? 1 : pstep)
            assert_true(tu_dot(nr, cloud_p(xyz, i)) - t->face[f].d <= tol);
    }
}

/* The vertices' support equals the cloud's within the tolerance. */
static void check_support(const gjkb__hull_topology *t, const float *xyz, uint32_t n, double tol)
{
    tu_rng r = tu_rng_make(99);
    for (int s = 0; s < 64; s++) {
        tu_v3 u = tu_v(gauss(&r), gauss(&r), gauss(&r));
        u = tu_scale(u, 1.0 / tu_len(u));
        double all = -INFINITY, verts = -INFINITY;
        for (uint32_t i = 0; i < n; i++)
            all = fmax(all, tu_dot(u, cloud_p(xyz, i)));
        for (uint32_t v = 0; v < t->vertex_count; v++)
            verts = fmax(verts, tu_dot(u, vert(t, xyz, v)));
        assert_true(verts <= all && verts >= all - tol);
    }
}

/* Every invariant of the topology of cloud (xyz, n). */
static void check_topology(const gjkb__hull_topology *t, const float *xyz, uint32_t n)
{
    double tol = GJKB__HULL_INSIDE_REL * extent(xyz, n);
    assert_true(t->vertex_count >= 1);
    for (uint32_t v = 0; v < t->vertex_count; v++)
        assert_true(t->source[v] < n && (v == 0 || t->source[v - 1] < t->source[v]));
    for (uint32_t f = 0; f < t->face_count; f++)
        check_face(t, xyz, f, tol);
    check_edges(t);
    check_inside(t, xyz, n, tol);
    check_support(t, xyz, n, tol);
    if (t->face_count > 2) { /* solid: a sphere's Euler characteristic, corners */
        assert_int_equal((int64_t)t->vertex_count - t->edge_count + t->face_count, 2);
        for (uint32_t v = 0; v < t->vertex_count; v++)
            assert_true(t->adj_first[v + 1] - t->adj_first[v] >= 3);
    }
    if (t->face_count == 2) { /* flat: one polygon, both sides */
        assert_int_equal(t->edge_count, t->vertex_count);
        assert_true(tu_dot(fnormal(&t->face[0]), fnormal(&t->face[1])) < -1.0 + 1e-12);
    }
}

static gjkb__hull_topology build_checked(const cloud *c)
{
    gjkb__hull_topology t;
    assert_int_equal(gjkb__hull_build(c->xyz, c->n, &t), GJKB_OK);
    check_topology(&t, c->xyz, c->n);
    return t;
}

/* Points 1e-6 of the extent apart against one 6.7e5 away (pair-file
 * fuzzer): flat within the merge tolerance, solid in exact arithmetic.
 * The merge closed one face over the whole hull, a face with no boundary,
 * and its empty loop took a zero offset on a NULL array (UBSan). Such a
 * face is no disk: the triangles stay unmerged. */
static void test_merge_closes_face(void **state)
{
    (void)state;
    cloud c = cloud_new(6);
    cloud_set(&c, 0, -0.0660, 0, 0);
    cloud_set(&c, 1, 1, 0, 0);
    cloud_set(&c, 2, 666665, 1, 0);
    cloud_set(&c, 3, 0, 66, 4e-324);
    cloud_set(&c, 4, -0.5, 0.5, -0.5);
    cloud_set(&c, 5, 0.5, 0.0, 0.75);
    gjkb__hull_topology t = build_checked(&c);
    assert_true(t.face_count >= 4);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* ---- known hulls ------------------------------------------------------------- */

/* Cube corners after interior, face-centre and edge-midpoint points. */
static void test_cube(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(5);
    cloud c = cloud_new(8 + 50 + 6 + 12);
    uint32_t k = 0;
    for (int i = 0; i < 50; i++)
        cloud_set(&c, k++, tu_range(&r, -1, 1), tu_range(&r, -1, 1), tu_range(&r, -1, 1));
    for (int a = 0; a < 3; a++)
        for (int s = -1; s <= 1; s += 2) {
            double p[3] = { 0, 0, 0 };
            p[a] = s;
            cloud_set(&c, k++, p[0], p[1], p[2]);
        }
    for (int i = 0; i < 8; i++)
        cloud_set(&c, k++, i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 4; i++) {
            double p[3];
            p[a] = 0, p[(a + 1) % 3] = i & 1 ? 1 : -1, p[(a + 2) % 3] = i & 2 ? 1 : -1;
            cloud_set(&c, k++, p[0], p[1], p[2]);
        }
    gjkb__hull_topology t = build_checked(&c);
    assert_int_equal(t.vertex_count, 8);
    assert_int_equal(t.face_count, 6);
    assert_int_equal(t.edge_count, 12);
    for (uint32_t v = 0; v < 8; v++)
        assert_int_equal(t.source[v], 56 + v);
    for (uint32_t f = 0; f < 6; f++) {
        assert_int_equal(t.face[f].count, 4);
        double big = fmax(fabs(t.face[f].n[0]), fmax(fabs(t.face[f].n[1]), fabs(t.face[f].n[2])));
        assert_true(big == 1.0 && fabs(t.face[f].d - 1.0) < 1e-15);
    }
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* The same cube rotated (float rounding puts the face and edge points an
 * ulp off their planes, in or out): still 8 corners and 6 quadrilaterals,
 * which takes merging within the tolerance and dropping points that are
 * on two faces only. */
static void test_rotated_cube(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(6);
    for (int rep = 0; rep < 20; rep++) {
        double q[4] = { gauss(&r), gauss(&r), gauss(&r), gauss(&r) }, l = 0;
        for (int k = 0; k < 4; k++)
            l += q[k] * q[k];
        for (int k = 0; k < 4; k++)
            q[k] /= sqrt(l);
        double m[3][3] = { { 1 - 2 * (q[2] * q[2] + q[3] * q[3]), 2 * (q[1] * q[2] - q[0] * q[3]), 2 * (q[1] * q[3] + q[0] * q[2]) },
                           { 2 * (q[1] * q[2] + q[0] * q[3]), 1 - 2 * (q[1] * q[1] + q[3] * q[3]), 2 * (q[2] * q[3] - q[0] * q[1]) },
                           { 2 * (q[1] * q[3] - q[0] * q[2]), 2 * (q[2] * q[3] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]) } };
        cloud c = cloud_new(8 + 6 * 9 + 12 * 3);
        uint32_t k = 0;
        for (int i = 0; i < 8; i++) /* corners first */
            cloud_set(&c, k++, i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
        for (int a = 0; a < 3; a++)
            for (int s = -1; s <= 1; s += 2)
                for (int i = 0; i < 9; i++) { /* a 3 x 3 grid on each face */
                    double p[3];
                    p[a] = s, p[(a + 1) % 3] = (i % 3 - 1) * 0.7, p[(a + 2) % 3] = (i / 3 - 1) * 0.7;
                    cloud_set(&c, k++, p[0], p[1], p[2]);
                }
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 4; e++)
                for (int j = 0; j < 3; j++) { /* 3 points on each edge along axis a */
                    double p[3];
                    p[a] = (j - 1) * 0.5, p[(a + 1) % 3] = e & 1 ? 1 : -1, p[(a + 2) % 3] = e & 2 ? 1 : -1;
                    cloud_set(&c, k++, p[0], p[1], p[2]);
                }
        assert_int_equal(k, c.n);
        for (uint32_t i = 0; i < c.n; i++) {
            double p[3] = { c.xyz[3 * i], c.xyz[3 * i + 1], c.xyz[3 * i + 2] };
            for (int j = 0; j < 3; j++)
                c.xyz[3 * i + j] = (float)(m[j][0] * p[0] + m[j][1] * p[1] + m[j][2] * p[2]);
        }
        gjkb__hull_topology t = build_checked(&c);
        assert_int_equal(t.vertex_count, 8);
        assert_int_equal(t.face_count, 6);
        for (uint32_t v = 0; v < 8; v++)
            assert_int_equal(t.source[v], v);
        for (uint32_t f = 0; f < 6; f++)
            assert_int_equal(t.face[f].count, 4);
        gjkb__hull_topology_free(&t);
        free(c.xyz);
    }
}

/* Near-duplicates (an ulp apart) merge into the first given. */
static void test_near_duplicates(void **state)
{
    (void)state;
    cloud c = cloud_new(24);
    for (uint32_t i = 0; i < 8; i++) {
        float p[3] = { i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f };
        cloud_set(&c, i, p[0], p[1], p[2]); /* the corner */
        cloud_set(&c, 8 + i, nextafterf(p[0], 2.0f * p[0]), p[1], nextafterf(p[2], 0.0f)); /* off by an ulp */
        cloud_set(&c, 16 + i, p[0], p[1], p[2]); /* an exact copy */
    }
    for (int order = 0; order < 2; order++) {
        gjkb__hull_topology t = build_checked(&c);
        assert_int_equal(t.vertex_count, 8);
        assert_int_equal(t.face_count, 6);
        for (uint32_t v = 0; v < 8; v++)
            assert_int_equal(t.source[v], v);
        gjkb__hull_topology_free(&t);
        for (uint32_t i = 0; i < 24; i++) /* the ulp-off copies first next time */
            if (i < 8) {
                float tmp[3];
                memcpy(tmp, c.xyz + 3 * i, sizeof tmp);
                memcpy(c.xyz + 3 * i, c.xyz + 3 * (i + 8), sizeof tmp);
                memcpy(c.xyz + 3 * (i + 8), tmp, sizeof tmp);
            }
    }
    free(c.xyz);
}

static void test_tetrahedron(void **state)
{
    (void)state;
    cloud c = cloud_new(7);
    cloud_set(&c, 0, 0.1, 0.1, 0.1); /* inside */
    cloud_set(&c, 1, 0, 0, 0);
    cloud_set(&c, 2, 1, 0, 0);
    cloud_set(&c, 3, 0, 1, 0);
    cloud_set(&c, 4, 0.25, 0.25, 0); /* on the bottom face */
    cloud_set(&c, 5, 0, 0, 1);
    cloud_set(&c, 6, 0.5, 0, 0.5); /* on an edge */
    gjkb__hull_topology t = build_checked(&c);
    assert_int_equal(t.vertex_count, 4);
    assert_int_equal(t.face_count, 4);
    assert_int_equal(t.edge_count, 6);
    const uint32_t want[4] = { 1, 2, 3, 5 };
    for (uint32_t v = 0; v < 4; v++)
        assert_int_equal(t.source[v], want[v]);
    for (uint32_t f = 0; f < 4; f++)
        assert_int_equal(t.face[f].count, 3);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* ---- random clouds ----------------------------------------------------------- */

static void random_clouds(int kind, uint64_t seed)
{
    const uint32_t sizes[] = { 10, 100, 1000, 10000, 100000 };
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        cloud c = random_cloud(kind, sizes[s], seed + s);
        gjkb__hull_topology t = build_checked(&c);
        assert_true(t.face_count >= 4);
        if (kind == SPHERE) /* points on a sphere are nearly all corners */
            assert_true(t.vertex_count >= sizes[s] * 9 / 10);
        gjkb__hull_topology_free(&t);
        free(c.xyz);
    }
}

static void test_random_sphere(void **state)
{
    (void)state;
    random_clouds(SPHERE, 100);
}

static void test_random_box(void **state)
{
    (void)state;
    random_clouds(BOX, 200);
}

static void test_random_gauss(void **state)
{
    (void)state;
    random_clouds(GAUSS, 300);
}

/* Clouds full of coplanar and collinear points: subsets of a small
 * lattice, half of them scaled flat or thin along an axis, a third
 * rotated. */
static void test_lattice(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(21);
    uint32_t kinds[4] = { 0, 0, 0, 0 };
    for (int rep = 0; rep < 2000; rep++) {
        cloud c = cloud_new(3 + tu_below(&r, 60));
        double sc[3] = { 1, 1, 1 };
        if (rep % 2)
            sc[tu_below(&r, 3)] = rep % 4 == 1 ? 0.0 : 1e-3;
        tu_v3 e1 = tu_v(1, 0, 0), e2 = tu_v(0, 1, 0), e3 = tu_v(0, 0, 1);
        if (rep % 3 == 2) { /* rotated: float rounding bends the planes */
            e1 = tu_scale(tu_v(1, 2, 2), 1.0 / 3.0), e2 = tu_scale(tu_v(2, 1, -2), 1.0 / 3.0);
            e3 = tu_cross(e1, e2);
        }
        for (uint32_t i = 0; i < c.n; i++) {
            tu_v3 p = tu_add(tu_add(tu_scale(e1, sc[0] * tu_below(&r, 4)), tu_scale(e2, sc[1] * tu_below(&r, 4))),
                             tu_scale(e3, sc[2] * tu_below(&r, 4)));
            cloud_set(&c, i, p.x, p.y, p.z);
        }
        gjkb__hull_topology t = build_checked(&c);
        kinds[t.face_count > 2 ? 3 : t.face_count == 2 ? 2 : t.vertex_count - 1]++;
        gjkb__hull_topology_free(&t);
        free(c.xyz);
    }
    for (int k = 1; k < 4; k++) /* segments, flat and solid hulls all came up */
        assert_true(kinds[k] > 0);
}

/* A tilted cylinder as a prism over a 64-gon with points inside its caps
 * and on its sides: two 64-gon caps and 64 quadrilateral sides. */
static void test_prism(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(31);
    cloud c = cloud_new(128 + 100);
    tu_v3 ax = tu_scale(tu_v(1, 2, 2), 1.0 / 3.0), e1 = tu_scale(tu_v(2, 1, -2), 1.0 / 3.0), e2 = tu_cross(ax, e1);
    for (uint32_t i = 0; i < c.n; i++) {
        double a = 2.0 * TU_PI * (i % 64) / 64.0, rad = 1.0, h = i < 64 ? -0.8 : 0.8;
        if (i >= 128) { /* inside a cap, or on a side */
            rad = i % 2 ? tu_range(&r, 0, 0.9) : cos(TU_PI / 64.0);
            a = i % 2 ? tu_range(&r, 0, 2 * TU_PI) : 2.0 * TU_PI * (i % 64 + 0.5) / 64.0;
            h = i % 2 ? (i % 4 == 1 ? -0.8 : 0.8) : tu_range(&r, -0.8, 0.8);
        }
        tu_v3 p = tu_add(tu_scale(ax, h), tu_add(tu_scale(e1, rad * cos(a)), tu_scale(e2, rad * sin(a))));
        cloud_set(&c, i, p.x, p.y, p.z);
    }
    gjkb__hull_topology t = build_checked(&c);
    assert_int_equal(t.vertex_count, 128);
    assert_int_equal(t.face_count, 66);
    uint32_t caps = 0;
    for (uint32_t f = 0; f < t.face_count; f++) {
        assert_true(t.face[f].count == 4 || t.face[f].count == 64);
        caps += t.face[f].count == 64;
    }
    assert_int_equal(caps, 2);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* Hull sizes the oracle's scenes use: 499 points in a box, 1,590 on a
 * sphere (all corners), through the context. */
static void test_oracle_sizes(void **state)
{
    (void)state;
    cloud c[2] = { random_cloud(BOX, 499, 7), random_cloud(SPHERE, 1590, 8) };
    gjkb_context *ctx;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    for (int i = 0; i < 2; i++) {
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, c[i].xyz, c[i].n, &id), GJKB_OK);
        const gjkb__hull_topology *t = gjkb__hull_topo(ctx, id);
        check_topology(t, c[i].xyz, c[i].n);
        gjkb_hull_info info;
        assert_int_equal(gjkb_hull_info_get(ctx, id, &info), GJKB_OK);
        assert_int_equal(info.points, c[i].n);
        assert_int_equal(info.vertices, t->vertex_count);
        assert_int_equal(ctx->hull_n[id], (int32_t)t->vertex_count);
        for (uint32_t v = 0; v < t->vertex_count; v++) { /* the kernels' points: the vertices, in order */
            uint32_t p = ctx->hull_first[id] + v;
            assert_true(ctx->hx[p] == c[i].xyz[3 * t->source[v]] && ctx->hz[p] == c[i].xyz[3 * t->source[v] + 2]);
        }
        if (i == 1)
            assert_true(t->vertex_count >= 1500);
    }
    gjkb_destroy(ctx);
    free(c[0].xyz), free(c[1].xyz);
}

/* ---- degenerate clouds ---------------------------------------------------- */

static void test_point(void **state)
{
    (void)state;
    cloud c = cloud_new(100);
    for (uint32_t i = 0; i < c.n; i++)
        cloud_set(&c, i, 1.5, -2.0, 3.25);
    for (uint32_t n = 1; n <= c.n; n += 99) { /* one point, then 100 copies */
        gjkb__hull_topology t;
        assert_int_equal(gjkb__hull_build(c.xyz, n, &t), GJKB_OK);
        assert_int_equal(t.vertex_count, 1);
        assert_int_equal(t.source[0], 0);
        assert_int_equal(t.face_count + t.edge_count, 0);
        gjkb__hull_topology_free(&t);
    }
    free(c.xyz);
}

/* Two points; then a tilted line of 60 points in shuffled order (float
 * rounding puts them off the line by an ulp): its two ends. */
static void test_segment(void **state)
{
    (void)state;
    cloud c = cloud_new(60);
    cloud_set(&c, 0, 1, 2, 3);
    cloud_set(&c, 1, -1, 0.5, 2);
    gjkb__hull_topology t;
    assert_int_equal(gjkb__hull_build(c.xyz, 2, &t), GJKB_OK);
    check_topology(&t, c.xyz, 2);
    assert_int_equal(t.vertex_count, 2);
    assert_int_equal(t.edge_count, 1);
    assert_int_equal(t.adj[0], 1);
    gjkb__hull_topology_free(&t);
    for (uint32_t i = 0; i < c.n; i++) {
        double s = (double)((i * 37) % c.n) / (c.n - 1); /* 0 at i = 0, 1 at i = 47 */
        cloud_set(&c, i, 0.3 + 1.7 * s, -0.2 + 0.9 * s, 5.0 - 2.3 * s);
    }
    t = build_checked(&c);
    assert_int_equal(t.vertex_count, 2);
    assert_int_equal(t.source[0], 0);
    assert_int_equal(t.source[1], 47);
    assert_int_equal(t.face_count, 0);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* A square with interior and edge points, rotated (float rounding bends it
 * by an ulp), plus a bump of `bump` times the side along its normal at an
 * interior point. */
static cloud square(double bump)
{
    tu_rng r = tu_rng_make(3);
    cloud c = cloud_new(4 + 40 + 8 + 1);
    tu_v3 e1 = tu_scale(tu_v(1, 2, 2), 1.0 / 3.0), e2 = tu_scale(tu_v(2, 1, -2), 1.0 / 3.0);
    tu_v3 nrm = tu_cross(e1, e2);
    for (uint32_t i = 0; i < c.n; i++) {
        double u = tu_range(&r, -1, 1), v = tu_range(&r, -1, 1), h = 0.0;
        if (i >= 40 && i < 44) /* corners */
            u = i & 1 ? 1 : -1, v = i & 2 ? 1 : -1;
        if (i >= 44 && i < 52) /* on the edges */
            u = i & 1 ? 1 : -1, v = i & 2 ? 0.5 : -0.25;
        if (i == c.n - 1)
            u = 0.1, v = 0.2, h = 2.0 * bump;
        tu_v3 p = tu_add(tu_add(tu_add(tu_v(10, -3, 7), tu_scale(e1, u)), tu_scale(e2, v)), tu_scale(nrm, h));
        cloud_set(&c, i, p.x, p.y, p.z);
    }
    return c;
}

static void test_flat(void **state)
{
    (void)state;
    const double bumps[] = { 0.0, 1e-9 };
    for (int b = 0; b < 2; b++) {
        cloud c = square(bumps[b]);
        gjkb__hull_topology t = build_checked(&c);
        assert_int_equal(t.vertex_count, 4);
        assert_int_equal(t.face_count, 2);
        assert_int_equal(t.face[0].count, 4);
        for (uint32_t v = 0; v < 4; v++)
            assert_int_equal(t.source[v], 40 + v);
        gjkb__hull_topology_free(&t);
        free(c.xyz);
    }
    /* a real bump is a solid: a pyramid */
    cloud c = square(1e-3);
    gjkb__hull_topology t = build_checked(&c);
    assert_int_equal(t.vertex_count, 5);
    assert_int_equal(t.face_count, 5);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* An axis-aligned grid square, one interior point bumped by 1e-9 (exact
 * in float at z = 0): the same. */
static void test_flat_exact(void **state)
{
    (void)state;
    cloud c = cloud_new(20);
    for (uint32_t i = 0; i < c.n; i++)
        cloud_set(&c, i, (double)(i % 5) / 4, (double)(i / 5) / 3, i == 7 ? 1e-9 : 0.0);
    gjkb__hull_topology t = build_checked(&c);
    assert_int_equal(t.vertex_count, 4);
    assert_int_equal(t.face_count, 2);
    const uint32_t want[4] = { 0, 4, 15, 19 };
    for (uint32_t v = 0; v < 4; v++)
        assert_int_equal(t.source[v], want[v]);
    assert_true(fabs(t.face[0].n[2]) == 1.0);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* ---- invariance and precision --------------------------------------------- */

static int cmp3(const void *pa, const void *pb)
{
    const float *a = pa, *b = pb;
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* The vertices' coordinates, sorted. */
static float *vertex_set(const gjkb__hull_topology *t, const float *xyz)
{
    float *v = tu_realloc(NULL, 3 * (size_t)t->vertex_count * sizeof(float));
    for (uint32_t i = 0; i < t->vertex_count; i++)
        memcpy(v + 3 * i, xyz + 3 * t->source[i], 3 * sizeof(float));
    qsort(v, t->vertex_count, 3 * sizeof(float), cmp3);
    return v;
}

static void test_permutation(void **state)
{
    (void)state;
    for (int kind = SPHERE; kind <= GAUSS; kind++) {
        cloud c = random_cloud(kind, 3000, 41 + kind), p = cloud_new(c.n);
        tu_rng r = tu_rng_make(9);
        memcpy(p.xyz, c.xyz, 3 * (size_t)c.n * sizeof(float));
        for (uint32_t i = c.n - 1; i > 0; i--) { /* Fisher-Yates */
            uint32_t j = tu_below(&r, i + 1);
            float tmp[3];
            memcpy(tmp, p.xyz + 3 * i, sizeof tmp);
            memcpy(p.xyz + 3 * i, p.xyz + 3 * j, sizeof tmp);
            memcpy(p.xyz + 3 * j, tmp, sizeof tmp);
        }
        gjkb__hull_topology a = build_checked(&c), b = build_checked(&p);
        assert_int_equal(a.vertex_count, b.vertex_count);
        assert_int_equal(a.face_count, b.face_count);
        float *va = vertex_set(&a, c.xyz), *vb = vertex_set(&b, p.xyz);
        assert_memory_equal(va, vb, 3 * (size_t)a.vertex_count * sizeof(float));
        free(va), free(vb);
        gjkb__hull_topology_free(&a), gjkb__hull_topology_free(&b);
        free(c.xyz), free(p.xyz);
    }
}

/* The same cloud twice: the same bytes. */
static void test_repeatable(void **state)
{
    (void)state;
    cloud c = random_cloud(BOX, 5000, 77);
    gjkb__hull_topology a = build_checked(&c), b = build_checked(&c);
    assert_int_equal(a.face_count, b.face_count);
    assert_int_equal(a.edge_count, b.edge_count);
    assert_memory_equal(a.face, b.face, a.face_count * sizeof *a.face);
    size_t words = (size_t)a.vertex_count * 2 + 1 + a.adj_first[a.vertex_count] * 3 + 4 * (size_t)a.edge_count;
    assert_memory_equal(a.source, b.source, words * sizeof(uint32_t)); /* the block after the faces */
    gjkb__hull_topology_free(&a), gjkb__hull_topology_free(&b);
    free(c.xyz);
}

/* Translated by 1e5 (float coordinates then step by 1/128). */
static void test_translated(void **state)
{
    (void)state;
    cloud c = random_cloud(SPHERE, 2000, 13);
    for (uint32_t i = 0; i < 3 * c.n; i++)
        c.xyz[i] = (float)((double)c.xyz[i] * 4.0 + 1e5);
    gjkb__hull_topology t = build_checked(&c);
    assert_true(t.vertex_count >= 100 && t.face_count >= 100);
    gjkb__hull_topology_free(&t);
    free(c.xyz);
}

/* ---- through the context ---------------------------------------------------- */

static void test_context(void **state)
{
    (void)state;
    gjkb_context *ctx;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    float pts[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1f, 0.1f, 0.1f, NAN, 0, 0 };
    uint32_t id[3];
    assert_int_equal(gjkb_hull_add(ctx, pts, 5, &id[0]), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, NULL, 0, &id[1]), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, pts, 6, &id[2]), GJKB_OK);
    gjkb_hull_info info;
    assert_int_equal(gjkb_hull_info_get(ctx, id[0], &info), GJKB_OK);
    assert_true(info.valid && info.points == 5 && info.vertices == 4 && info.faces == 4 && info.edges == 6);
    assert_int_equal(ctx->hull_n[id[0]], 4);
    for (int i = 1; i < 3; i++) { /* invalid stays invalid */
        assert_int_equal(gjkb_hull_info_get(ctx, id[i], &info), GJKB_OK);
        assert_true(!info.valid && info.vertices == 0 && info.faces == 0);
        assert_true(isnan(ctx->hull_radius[id[i]]));
    }
    assert_int_equal(gjkb_hull_info_get(ctx, 3, &info), GJKB_ERR_RANGE);
    assert_int_equal(gjkb_hull_info_get(ctx, 0, NULL), GJKB_ERR_NULL);
    gjkb_destroy(ctx);
}

/* The ball about a hull's origin that hit mode's early verdicts trust
 * (ctx->hull_inner): inside the hull, so no direction's support falls
 * short of it; not much smaller than the least support either (half of it
 * at the least); none (-inf) where the origin is outside the hull or the
 * hull is flat, a segment or a point. */
static void test_inner_ball(void **state)
{
    (void)state;
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    tu_rng r = tu_rng_make(0x1BA11);
    for (int kind = SPHERE; kind <= GAUSS; kind++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            cloud c = random_cloud(kind, 8 + 4 * (uint32_t)seed, seed);
            uint32_t id;
            assert_int_equal(gjkb_hull_add(ctx, c.xyz, c.n, &id), GJKB_OK);
            double inner = ctx->hull_inner[id], least = INFINITY;
            for (int k = 0; k < 4000; k++) {
                tu_v3 u = tu_v(gauss(&r), gauss(&r), gauss(&r));
                u = tu_scale(u, 1.0 / tu_len(u));
                double h = -INFINITY;
                for (uint32_t i = 0; i < c.n; i++) {
                    double d = tu_dot(cloud_p(c.xyz, i), u);
                    h = d > h ? d : h;
                }
                least = fmin(least, h);
            }
            if (least > 0.0) {
                assert_true(inner <= least);
                assert_true(inner >= 0.5 * least);
            } else {
                assert_true(isinf(inner) && inner < 0);
            }
            free(c.xyz);
        }
    static const float off[] = { 2, 0, 0, 3, 0, 0, 2, 1, 0, 2, 0, 1 };
    static const float flat[] = { -1, -1, 0, 1, -1, 0, 0, 1, 0 };
    static const float seg[] = { -1, 0, 0, 1, 0, 0 };
    static const float point[] = { 0, 0, 0 };
    const float *pts[] = { off, flat, seg, point };
    const uint32_t n[] = { 4, 3, 2, 1 };
    for (int i = 0; i < 4; i++) {
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, pts[i], n[i], &id), GJKB_OK);
        assert_true(isinf(ctx->hull_inner[id]) && ctx->hull_inner[id] < 0);
    }
    gjkb_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube),          cmocka_unit_test(test_rotated_cube),
        cmocka_unit_test(test_near_duplicates), cmocka_unit_test(test_tetrahedron),
        cmocka_unit_test(test_random_sphere), cmocka_unit_test(test_random_box),
        cmocka_unit_test(test_random_gauss),  cmocka_unit_test(test_lattice),
        cmocka_unit_test(test_prism),         cmocka_unit_test(test_merge_closes_face),
        cmocka_unit_test(test_oracle_sizes),
        cmocka_unit_test(test_point),         cmocka_unit_test(test_segment),
        cmocka_unit_test(test_flat),          cmocka_unit_test(test_flat_exact),
        cmocka_unit_test(test_permutation),   cmocka_unit_test(test_repeatable),
        cmocka_unit_test(test_translated),    cmocka_unit_test(test_context),
        cmocka_unit_test(test_inner_ball),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
