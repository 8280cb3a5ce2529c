# NVM write-behind (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += nvm_cache/nvc_layer.c nvm_cache/nvc_open.c nvm_cache/nvc_sync.c \
	nvm_cache/nvc_queue.c nvm_cache/nvc_file.c nvm_cache/nvc_gate.c
NVC_PURE_SRCS = src/nvm_cache/nvc_file.c src/nvm_cache/nvc_queue.c src/nvm_cache/nvc_store.h
test_unit_check_xt_SOURCES += test/unit/test_nvc.c $(NVC_PURE_SRCS) src/nvm_cache/nvc_gate.c
XT_UNIT_INCLUDES += -I$(srcdir)/src/nvm_cache

# romio-xt-recover: replays e10_cache files a crashed job left behind
bin_PROGRAMS += romio-xt-recover
romio_xt_recover_SOURCES = tools/romio_xt_recover.c $(NVC_PURE_SRCS) src/core/xt_io.c src/core/xt_io.h
romio_xt_recover_CFLAGS = -I$(srcdir)/src/nvm_cache -Wall
