# the trace layer (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += trace/xtt_layer.c trace/xtt_writer.c
