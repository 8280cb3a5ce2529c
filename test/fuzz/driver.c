/* Runs a fuzz harness's LLVMFuzzerTestOneInput over files, without libFuzzer
 * (make check replays the regression inputs with the project's compiler).
 * usage: HARNESS FILE...; prints one line per file; exits non-zero on none. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        if (!f) {
            perror(argv[a]);
            return 1;
        }
        size_t cap = 1 << 16, n = 0, got;
        uint8_t *buf = malloc(cap);
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
            if ((n += got) == cap && !(buf = realloc(buf, cap *= 2)))
                break;
        fclose(f);
        if (!buf)
            return 1;
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
        printf("replayed %s (%zu bytes)\n", argv[a], n);
    }
    return argc < 2;
}
