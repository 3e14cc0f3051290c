/* consumer.c - links against an installed gjkbatch: one pair, one answer. */
#include <gjkbatch.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    gjkb_context *ctx;
    if (gjkb_create(NULL, &ctx) != GJKB_OK)
        return 1;
    gjkb_shape a = { GJKB_SPHERE, { 1, 0, 0 }, 0, 0, { 0, 0, 0 }, { 1, 0, 0, 0 } };
    gjkb_shape b = { GJKB_BOX, { 0.5f, 0.5f, 0.5f }, 0, 0, { 3, 0, 0 }, { 1, 0, 0, 0 } };
    gjkb_result r;
    if (gjkb_query_pair(ctx, &a, &b, NULL, &r) != GJKB_OK)
        return 1;
    printf("%s %g via %s\n", gjkb_status_name(r.status), r.distance, gjkb_backend_name(gjkb_context_backend(ctx)));
    gjkb_destroy(ctx);
    return r.status == GJKB_SEPARATED && fabs(r.distance - 1.5) < 1e-12 ? 0 : 1;
}
