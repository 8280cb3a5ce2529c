/* romio-xt Orthrus: the description cache (orth_desc.h). */
#include "orth_desc.h"

#include <string.h>

int orth_desc_place(const struct orth_geom *g, int indiv, int64_t fp_ind, int64_t off,
                    int64_t *phase, int64_t *base)
{
    int64_t n;
    if (g->ft_size <= 0 || g->ft_extent <= 0 || g->etype <= 0)
        return 0;
    if (indiv) {
        /* as ADIOI_Calc_my_off_len: n = (fp_ind - disp - first) / extent */
        int64_t r = fp_ind - g->disp - g->first;
        if (r < 0)
            return 0;
        n = r / g->ft_extent;
        *phase = r - n * g->ft_extent;
    } else {
        /* n = off / etypes per filetype, the phase in etypes */
        int64_t per = g->ft_size / g->etype;
        if (off < 0 || per <= 0 || per * g->etype != g->ft_size)
            return 0;
        n = off / per;
        *phase = off - n * per;
    }
    *base = n * g->ft_extent;
    return 1;
}

static int same_key(const struct orth_desc *a, const struct orth_desc *b)
{
    return a->gen == b->gen && a->indiv == b->indiv && a->phase == b->phase &&
        a->size == b->size && memcmp(&a->geom, &b->geom, sizeof(a->geom)) == 0;
}

const struct orth_desc *orth_desc_find(const struct orth_desc_cache *c,
                                       const struct orth_desc *key)
{
    for (int i = 0; i < c->n; i++)
        if (same_key(&c->d[i], key))
            return &c->d[i];
    return NULL;
}

void orth_desc_put(struct orth_desc_cache *c, const struct orth_desc *d)
{
    if (c->n < ORTH_DESC_N) {
        c->d[c->n++] = *d;
        return;
    }
    c->d[c->next] = *d;
    c->next = (c->next + 1) % ORTH_DESC_N;
}
