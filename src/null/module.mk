# the template layer (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += null/null_layer.c
