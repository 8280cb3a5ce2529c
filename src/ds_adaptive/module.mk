# adaptive data sieving (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += ds_adaptive/ads_view.c ds_adaptive/ads_plan.c ds_adaptive/ads_methods.c \
	ds_adaptive/ads_calib.c ds_adaptive/ads_io.c ds_adaptive/ads_layer.c
ADS_PURE_SRCS = src/ds_adaptive/ads_view.c src/ds_adaptive/ads_plan.c \
	src/ds_adaptive/ads_methods.c src/ds_adaptive/ads_calib.c
test_unit_check_xt_SOURCES += test/unit/test_ads.c $(ADS_PURE_SRCS)
