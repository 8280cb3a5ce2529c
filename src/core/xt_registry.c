/* romio-xt: the registered layers, bottom first.  The stats layer is on top
 * so it sees the application's calls; each feature layer sits below it. */
#include "xt_layer.h"

extern const struct xt_layer nvc_layer, pf_layer, ads_layer, orth_layer, xts_layer;
extern const struct xt_layer xtt_layer;

const struct xt_layer *const xt_layers[] = {
    &nvc_layer,
    &pf_layer,
    &ads_layer,
    &orth_layer,
    &xts_layer,
    &xtt_layer,                 /* trace: on top, it records the application's calls */
};

const int xt_nlayers = sizeof(xt_layers) / sizeof(xt_layers[0]);
