# the stats layer (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += stats/xts_layer.c stats/xts_report.c
