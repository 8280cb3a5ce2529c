# Orthrus (paths: XT_SRCS relative to src/, the rest to the top)
XT_SRCS += orthrus/orth_select.c orthrus/orth_cands.c orthrus/orth_agg.c \
	orthrus/orth_core.c orthrus/orth_disk.c orthrus/orth_layer.c \
	orthrus/orth_file.c orthrus/orth_table.c orthrus/orth_xchg.c \
	orthrus/orth_vb.c orthrus/orth_vb_view.c orthrus/orth_vb_cache.c orthrus/orth_vb_layer.c \
	orthrus/orth_vb_log.c orthrus/orth_vb_bg.c orthrus/orth_stock.c orthrus/orth_desc.c orthrus/orth_indep.c \
	orthrus/orth_memo.c orthrus/orth_piece.c orthrus/orth_guard.c orthrus/orth_two_layer.c
test_unit_check_xt_SOURCES += test/unit/test_orth.c src/orthrus/orth_select.c \
	src/orthrus/orth_select.h src/orthrus/orth_table.c \
	src/orthrus/orth_desc.c src/orthrus/orth_desc.h \
	src/orthrus/orth_memo.c
XT_UNIT_INCLUDES += -I$(srcdir)/src/orthrus
