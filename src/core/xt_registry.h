/* romio-xt: the registered layers, bottom first, one line each: L(p) for the
 * layer `const struct xt_layer p_layer` of a module (src/<module>/).  The stats
 * layer is above the feature layers so it sees the application's calls; the
 * trace layer is on top, it records them.  Each gets an id, XT_LAYER_p
 * (xt_layer.h: xt_slot_at). */
#ifndef XT_REGISTRY_H
#define XT_REGISTRY_H

#define XT_LAYERS(L) \
    L(nvc) \
    L(pf) \
    L(ads) \
    L(orth) \
    L(xts) \
    L(xtt) \
    L(null) \
    /* one line per layer above; the last is the top of the stack */

#define XT_LAYER_ID(p) XT_LAYER_##p,
enum xt_layer_id { XT_LAYERS(XT_LAYER_ID) XT_NLAYERS };
#undef XT_LAYER_ID

#endif
