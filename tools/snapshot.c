/* snapshot.c - an SVG picture of one frame of `gjkbatch run`. */
#include "snapshot.h"

#include <math.h>
#include <stdlib.h>

/* Outlines are the support points along this many directions of the x-y
 * plane: the projection of a convex body is convex, and its support along
 * an in-plane direction is the body's own, so these points lie on the
 * outline. Repeats (a box's corner serves several directions) are dropped. */
#define OUTLINE_DIRS 16
/* Coordinates are written with two decimals: a hundredth of a unit is
 * well below the smallest body (0.25). */
#define SAME_POINT 0.005

/* Contact mode: a contact point is a dot of this radius, midway between
 * its points on A and B, and the normal a line of this length from the
 * deepest point (its x-y projection: a steep normal draws short). */
#define CONTACT_DOT 0.05
#define NORMAL_LENGTH 0.5

/* SVG's y axis points down: the world's y is written negated. */
static void write_outline(FILE *out, const world *w, uint32_t i)
{
    if (w->kind[i] == GJKB_SPHERE) {
        fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.3f\"/>\n", w->px[i], -w->py[i],
                (double)w->sx[i] + w->margin[i]);
        return;
    }
    fputs("<polygon points=\"", out);
    double last[2] = { INFINITY, INFINITY }, first[2] = { INFINITY, INFINITY };
    for (int k = 0; k < OUTLINE_DIRS; k++) {
        double t = 2.0 * 3.14159265358979323846 * k / OUTLINE_DIRS;
        double d[3] = { cos(t), sin(t), 0.0 }, p[3];
        world_support(w, i, d, p);
        if (fabs(p[0] - last[0]) < SAME_POINT && fabs(p[1] - last[1]) < SAME_POINT)
            continue;
        if (k > 0 && fabs(p[0] - first[0]) < SAME_POINT && fabs(p[1] - first[1]) < SAME_POINT)
            continue;
        if (k == 0) {
            first[0] = p[0];
            first[1] = p[1];
        }
        fprintf(out, "%s%.2f,%.2f", k ? " " : "", p[0], -p[1]);
        last[0] = p[0];
        last[1] = p[1];
    }
    fputs("\"/>\n", out);
}

/* Hit and distance modes: a line joining the centres of each overlapping
 * pair, as one path. */
static void write_centre_lines(FILE *out, const world *w, const gjkb_pairs *pairs, const uint8_t *status)
{
    fputs("<path class=\"contact\" fill=\"none\" stroke=\"#05c\" stroke-width=\"0.06\" d=\"", out);
    for (uint32_t i = 0; i < pairs->count; i++)
        if (status[i] == GJKB_OVERLAP) {
            uint32_t a = pairs->a[i], b = pairs->b[i];
            fprintf(out, "M%.2f %.2fL%.2f %.2f", w->px[a], -w->py[a], w->px[b], -w->py[b]);
        }
    fputs("\"/>\n", out);
}

/* Contact mode: every contact point as a dot (two half-circle arcs) and
 * every manifold's normal as a line, one path each. */
static void write_contacts(FILE *out, const gjkb_pairs *pairs, const gjkb_results *res)
{
    const gjkb_manifolds *m = &res->manifold;
    fputs("<path class=\"contact-points\" fill=\"#05c\" stroke=\"none\" d=\"", out);
    for (uint32_t i = 0; i < pairs->count; i++)
        for (uint32_t k = 0; k < m->count[i] && k < GJKB_MAX_CONTACTS; k++) {
            size_t s = (size_t)i * GJKB_MAX_CONTACTS + k;
            double x = 0.5 * (m->ax[s] + m->bx[s]), y = 0.5 * (m->ay[s] + m->by[s]);
            fprintf(out, "M%.3f %.3fa%g %g 0 1 0 %g 0a%g %g 0 1 0 %g 0", x - CONTACT_DOT, -y, CONTACT_DOT,
                    CONTACT_DOT, 2 * CONTACT_DOT, CONTACT_DOT, CONTACT_DOT, -2 * CONTACT_DOT);
        }
    fputs("\"/>\n<path class=\"normals\" fill=\"none\" stroke=\"#0a0\" stroke-width=\"0.04\" d=\"", out);
    for (uint32_t i = 0; i < pairs->count; i++)
        if (m->count[i] > 0) {
            size_t s = (size_t)i * GJKB_MAX_CONTACTS;
            double x = 0.5 * (m->ax[s] + m->bx[s]), y = 0.5 * (m->ay[s] + m->by[s]);
            fprintf(out, "M%.3f %.3fl%.3f %.3f", x, -y, NORMAL_LENGTH * res->nx[i], -NORMAL_LENGTH * res->ny[i]);
        }
    fputs("\"/>\n", out);
}

/* Contact points in the frame (contact mode). */
static uint64_t contact_points(const gjkb_pairs *pairs, const gjkb_results *res)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < pairs->count; i++)
        n += res->manifold.count[i];
    return n;
}

/* The root element, the title, the background, the walls and the caption
 * (contacts: the points are counted in it). */
static void write_frame_header(FILE *out, const world *w, const gjkb_pairs *pairs, const gjkb_results *res,
                               const snapshot_label *label, uint32_t hits, int contacts)
{
    /* The view: the box the centres move in, widened by the largest
     * body, and a band above it for the caption. */
    double hx = w->half[0] + w->max_radius, hy = w->half[1] + w->max_radius;
    double font = 2.0 * hx / 70.0, top = 2.0 * font;
    double px_width = 2000.0, px_height = px_width * (2.0 * hy + top) / (2.0 * hx);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"%.2f %.2f %.2f %.2f\">\n",
            px_width, px_height, -hx, -hy - top, 2.0 * hx, 2.0 * hy + top);
    fprintf(out,
            "<title>gjkbatch run: frame %lu of %lu, %lu bodies, %lu candidate pairs, %lu overlapping</title>\n",
            (unsigned long)label->frame, (unsigned long)label->frames, (unsigned long)w->count,
            (unsigned long)pairs->count, (unsigned long)hits);
    fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#fff\"/>\n", -hx, -hy - top,
            2.0 * hx, 2.0 * hy + top);
    /* the walls the centres bounce off */
    fprintf(out,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#999\" "
            "stroke-width=\"0.1\" stroke-dasharray=\"1 1\"/>\n",
            -w->half[0], -w->half[1], 2.0 * w->half[0], 2.0 * w->half[1]);
    fprintf(out,
            "<text x=\"%.2f\" y=\"%.2f\" font-family=\"sans-serif\" font-size=\"%.2f\">frame %lu of %lu: %lu "
            "bodies (%lu static, shaded), %lu candidate pairs, %lu overlapping (red)",
            -hx, -hy - 0.6 * font, font, (unsigned long)label->frame, (unsigned long)label->frames,
            (unsigned long)w->count, (unsigned long)w->static_count, (unsigned long)pairs->count,
            (unsigned long)hits);
    if (contacts)
        fprintf(out, ", %llu contact points (blue) and normals (green)",
                (unsigned long long)contact_points(pairs, res));
    fprintf(out, "%s%s</text>\n", label->backend ? ", backend " : "", label->backend ? label->backend : "");
}

int snapshot_write(FILE *out, const world *w, const gjkb_pairs *pairs, const gjkb_results *res,
                   const snapshot_label *label)
{
    const uint8_t *status = res->status;
    /* contacts need the manifold, the points and the normal */
    int contacts = label->contacts && res->manifold.count && res->manifold.ax && res->manifold.bx && res->nx;
    uint8_t *hit = calloc(w->count ? w->count : 1, 1);
    if (!hit)
        return -1;
    uint32_t hits = 0;
    for (uint32_t i = 0; i < pairs->count; i++)
        if (status[i] == GJKB_OVERLAP) {
            hit[pairs->a[i]] = hit[pairs->b[i]] = 1;
            hits++;
        }
    write_frame_header(out, w, pairs, res, label, hits, contacts);

    /* Quiet bodies first, so that the highlighted ones sit on top. */
    fputs("<g class=\"static\" fill=\"#e2e2e2\" stroke=\"#777\" stroke-width=\"0.04\">\n", out);
    for (uint32_t i = 0; i < w->count; i++)
        if (!hit[i] && (w->flags[i] & GJKB_BODY_STATIC))
            write_outline(out, w, i);
    fputs("</g>\n<g class=\"moving\" fill=\"none\" stroke=\"#345\" stroke-width=\"0.04\">\n", out);
    for (uint32_t i = 0; i < w->count; i++)
        if (!hit[i] && !(w->flags[i] & GJKB_BODY_STATIC))
            write_outline(out, w, i);
    fputs("</g>\n<g class=\"hit\" fill=\"none\" stroke=\"#e00\" stroke-width=\"0.06\">\n",
          out);
    for (uint32_t i = 0; i < w->count; i++)
        if (hit[i])
            write_outline(out, w, i);
    fputs("</g>\n", out);
    if (contacts)
        write_contacts(out, pairs, res);
    else if (hits > 0)
        write_centre_lines(out, w, pairs, status);
    fputs("</svg>\n", out);
    free(hit);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
