# romio-xt: Open MPI's io component mca_io_romioxt.la, linked from Open MPI's
# glue (../src, renamed romioxt), ROMIO 3.2.1 (libromio_dist.la) and romio-xt
# (xt/libromioxt.la, build/xt.mk), all compiled with ROMIO's flags.
# Run from the component's romio/ build directory (scripts/build-openmpi.sh):
#   make -f openmpi.mk mca_io_romioxt.la
include Makefile

GLUE_SRCS = $(wildcard $(srcdir)/../src/*.c)
GLUE_OBJS = $(patsubst $(srcdir)/../src/%.c,glue/%.lo,$(GLUE_SRCS))
# the glue includes "romio/adio/include/romioconf.h" (made by configure) and
# "romio/include/mpio.h", seen from the component's folder;
# Open MPI's configure would define these two in opal_config.h
GLUE_CPPFLAGS = -I$(abs_builddir)/.. -I$(srcdir)/.. -DMCA_io_romioxt_USER_CONFIGURE_FLAGS='""' \
	-DMCA_io_romioxt_COMPLETE_CONFIGURE_FLAGS='"romio-xt: scripts/build-openmpi.sh"'

glue/%.lo: $(srcdir)/../src/%.c $(srcdir)/../src/io_romioxt.h
	@mkdir -p glue
	$(AM_V_CC)$(LTCOMPILE) $(GLUE_CPPFLAGS) -c -o $@ $<

mca_io_romioxt.la: $(GLUE_OBJS) libromio_dist.la xt/libromioxt.la
	$(AM_V_CCLD)$(LINK) -module -avoid-version -rpath /nowhere $(GLUE_OBJS) \
	    libromio_dist.la xt/libromioxt.la
