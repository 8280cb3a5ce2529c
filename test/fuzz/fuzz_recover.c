/* Fuzzes the e10_cache file reader of romio-xt-recover (nvc_file_replay):
 * the input is a cache file's records (after a header naming a scratch
 * global file); recovery replays valid records, reports and stops at a
 * corrupt one, and never writes outside the ranges of the records. */
#include "nvc_store.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], cache[96], global[96];

static void setup(void)
{
    snprintf(dir, sizeof(dir), "/dev/shm/xt-fuzz-recover.%ld", (long) getpid());
    mkdir(dir, 0700);
    snprintf(cache, sizeof(cache), "%s/cache", dir);
    snprintf(global, sizeof(global), "%s/global", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char hdr[NVC_HDR_SIZE];
    if (!dir[0])
        setup();
    if (size > (1 << 20))
        return 0;
    memset(hdr, 0, sizeof(hdr));
    memcpy(hdr, NVC_FILE_MAGIC, sizeof(NVC_FILE_MAGIC));
    strcpy(hdr + 16, global);
    unlink(global);
    int fd = open(cache, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, hdr, sizeof(hdr)) != sizeof(hdr) ||
        (size && write(fd, data, size) != (ssize_t) size))
        abort();
    close(fd);
    FILE *log = fopen("/dev/null", "w");
    nvc_file_replay(cache, 1, log);
    fclose(log);
    struct stat sb;
    /* every byte written came from a record inside the input */
    int64_t end = 0;
    for (size_t at = 0; at + NVC_REC_SIZE <= size;) {
        struct nvc_rec r;
        memcpy(&r, data + at, sizeof(r));
        if (r.magic != NVC_REC_MAGIC || r.len < 0 || r.len > (int64_t) (size - at - NVC_REC_SIZE)
            || r.off < 0 || r.off > INT64_MAX - r.len)
            break;
        if (!r.synced && r.off + r.len > end)
            end = r.off + r.len;
        at += NVC_REC_SIZE + r.len;
    }
    if (stat(global, &sb) == 0 && sb.st_size > end)
        abort();
    return 0;
}
