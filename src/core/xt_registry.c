/* romio-xt: the registered layers (xt_registry.h), bottom first. */
#include "xt_layer.h"

#define XT_LAYER_DECL(p) extern const struct xt_layer p##_layer;
XT_LAYERS(XT_LAYER_DECL)
#undef XT_LAYER_DECL

#define XT_LAYER_ENTRY(p) [XT_LAYER_##p] = &p##_layer,
const struct xt_layer *const xt_layers[] = { XT_LAYERS(XT_LAYER_ENTRY) };
#undef XT_LAYER_ENTRY

const int xt_nlayers = XT_NLAYERS;
