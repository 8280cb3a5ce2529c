#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){ size_t sizes[]={4096,8192,16384,65536,262144,1<<20,4<<20}; char *s,*d; posix_memalign((void**)&s,4096,(4<<20)+8192); posix_memalign((void**)&d,4096,(4<<20)+8192); memset(s,1,(4<<20)+8192); memset(d,1,(4<<20)+8192);
 for(int i=0;i<7;i++){ size_t n=sizes[i]; double b0=1e9,b16=1e9; for(int r=0;r<20;r++){double t0=now(); memcpy(d+4096,s+4096,n); double t=now()-t0; if(t<b0)b0=t; t0=now(); memcpy(d+4096+16,s+4096,n); t=now()-t0; if(t<b16)b16=t;} printf("n=%zu skew0 %.2f us skew16 %.2f us\n",n,b0*1e6,b16*1e6);} }
