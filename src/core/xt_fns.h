/* romio-xt: the members of ROMIO's ADIOI_Fns, for stacking tables. */
#ifndef XT_FNS_H
#define XT_FNS_H

#include "xt_romio.h"

#define XT_FNS_MEMBERS(X) \
    X(ADIOI_xxx_Open) X(ADIOI_xxx_OpenColl) X(ADIOI_xxx_ReadContig) \
    X(ADIOI_xxx_WriteContig) X(ADIOI_xxx_ReadStridedColl) X(ADIOI_xxx_WriteStridedColl) \
    X(ADIOI_xxx_SeekIndividual) X(ADIOI_xxx_Fcntl) X(ADIOI_xxx_SetInfo) \
    X(ADIOI_xxx_ReadStrided) X(ADIOI_xxx_WriteStrided) X(ADIOI_xxx_Close) \
    X(ADIOI_xxx_IreadContig) X(ADIOI_xxx_IwriteContig) X(ADIOI_xxx_ReadDone) \
    X(ADIOI_xxx_WriteDone) X(ADIOI_xxx_ReadComplete) X(ADIOI_xxx_WriteComplete) \
    X(ADIOI_xxx_IreadStrided) X(ADIOI_xxx_IwriteStrided) X(ADIOI_xxx_Flush) \
    X(ADIOI_xxx_Resize) X(ADIOI_xxx_Delete) X(ADIOI_xxx_Feature) \
    X(ADIOI_xxx_IreadStridedColl) X(ADIOI_xxx_IwriteStridedColl) XT_FNS_SETLOCK(X)

/* 27 function pointers and fsname (4.0.2; ROMIO 3.2.1 has no SetLock): a new
 * member upstream must be listed here */
#if XT_ROMIO >= 40000
#define XT_FNS_SETLOCK(X) X(ADIOI_xxx_SetLock)
#define XT_FNS_COUNT 28
#else
#define XT_FNS_SETLOCK(X)
#define XT_FNS_COUNT 27
#endif

#endif
