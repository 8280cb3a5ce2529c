# prefetch (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += prefetch/pf_window.c prefetch/pf_slots.c prefetch/pf_layer.c prefetch/pf_fadvise.c \
	prefetch/pf_buffer.c prefetch/pf_thread.c prefetch/pf_gate.c prefetch/pf_access.c \
	prefetch/pf_queue.c prefetch/pf_announce.c
test_unit_check_xt_SOURCES += test/unit/test_prefetch.c test/unit/test_pf_gate.c src/prefetch/pf_window.c \
	src/prefetch/pf_slots.c src/prefetch/pf_gate.c test/unit/test_pf_queue.c src/prefetch/pf_queue.c
XT_UNIT_INCLUDES += -I$(srcdir)/src/prefetch
