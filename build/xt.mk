# romio-xt: compiles our modules with ROMIO's own flags and libtool.
# Run from ROMIO's build directory:  make -f xt.mk XT_SRCS="core/a.c ..." xt/libromioxt.la
# (XT_LIBS from the environment: the libraries it needs, e.g. hwloc's)
include Makefile

XT_OBJS = $(patsubst %.c,xt/%.lo,$(XT_SRCS))
AM_CPPFLAGS += -I$(srcdir)/xt/core
AM_CFLAGS += -Wall -Wno-unused-parameter -Wno-missing-field-initializers $(XT_CFLAGS)

xt/%.lo: $(srcdir)/xt/%.c
	@mkdir -p $(@D)/$(DEPDIR)
	$(AM_V_CC)$(LTCOMPILE) -MT $@ -MD -MP -MF $(@D)/$(DEPDIR)/$(*F).Tpo -c -o $@ $< && \
	  mv -f $(@D)/$(DEPDIR)/$(*F).Tpo $(@D)/$(DEPDIR)/$(*F).Plo

xt/libromioxt.la: $(XT_OBJS) $(XT_MK)
	$(AM_V_CCLD)$(LINK) $(XT_OBJS) $(XT_LIBS)

-include $(patsubst %.lo,%.Plo,$(join $(dir $(XT_OBJS)),$(addprefix $(DEPDIR)/,$(notdir $(XT_OBJS)))))
