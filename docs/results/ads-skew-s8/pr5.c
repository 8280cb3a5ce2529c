#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static double rd(int fd, char*b, size_t n, off_t o){ double best=1e9; for(int r=0;r<20;r++){double t0=now(); pread(fd,b,n,o); double t=now()-t0; if(t<best)best=t;} return best*1e6;}
int main(int c,char**v){
  size_t n=256<<10; char *a; posix_memalign((void**)&a,4096,n+8192); memset(a,1,n+8192);
  int f=open(v[1],O_RDONLY);
  int offs[]={0,16,32,100,4096,8192}, bufs[]={0,16,32,100,2048,4095};
  printf("off\\buf"); for(int j=0;j<6;j++) printf("%8d",bufs[j]); printf("\n");
  for(int i=0;i<6;i++){ printf("%7d",offs[i]); for(int j=0;j<6;j++) printf("%8.1f", rd(f,a+bufs[j],n,offs[i])); printf("\n");}
}
