/* romio-xt: the ROMIO romio-xt is compiled into.  XT_ROMIO is 40002 for
 * MPICH 4.0.2's ROMIO (the default) or 30201 for ROMIO 3.2.1, Open MPI
 * 4.1's io component (scripts/build-openmpi.sh passes -DXT_ROMIO=30201;
 * docs/openmpi.md).  Code that differs between them tests XT_ROMIO here in
 * core, never in a module. */
#ifndef XT_ROMIO_H
#define XT_ROMIO_H

#ifndef XT_ROMIO
#define XT_ROMIO 40002
#endif

#if XT_ROMIO != 40002 && XT_ROMIO != 30201
#error "XT_ROMIO: romio-xt knows ROMIO 40002 (MPICH 4.0.2) and 30201 (ROMIO 3.2.1)"
#endif

#endif
