/* Whole reads and writes (src/core/xt_io.c): short counts, EINTR, end of
 * file, errors; through a mock call, a real file and a pipe under signals. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "unit.h"
#include "xt_io.h"

/* the mock: a 64-byte "file"; each call moves at most `most` bytes, every
 * other call fails with EINTR first, a call at or past `fail_at` fails with
 * EIO, a write call past `full_at` moves nothing */
static struct {
    char data[64];
    int64_t size, most, fail_at, full_at;
    int calls, interrupted, is_write;
} m;

static void mock_reset(int64_t size, int64_t most)
{
    memset(&m, 0, sizeof(m));
    for (int k = 0; k < 64; k++)
        m.data[k] = (char) ('a' + k % 26);
    m.size = size;
    m.most = most;
    m.fail_at = m.full_at = INT64_MAX;
}

static ssize_t mock_op(int fd, void *buf, size_t n, off_t off)
{
    (void) fd;
    if (m.calls++ % 2 == 0) {
        m.interrupted++;
        errno = EINTR;
        return -1;
    }
    if (off >= m.fail_at) {
        errno = EIO;
        return -1;
    }
    int64_t end = m.is_write ? (m.full_at < 64 ? m.full_at : 64) : m.size;
    int64_t k = off >= end ? 0 : end - off;
    k = k < (int64_t) n ? k : (int64_t) n;
    k = k < m.most ? k : m.most;
    if (m.is_write)
        memcpy(m.data + off, buf, (size_t) k);
    else
        memcpy(buf, m.data + off, (size_t) k);
    return (ssize_t) k;
}

START_TEST(read_retries_short_counts_and_eintr)
{
    char buf[40] = { 0 };
    mock_reset(64, 3);
    ck_assert_int_eq(xt_rw_full(mock_op, 0, -1, buf, 40, 10), 40);
    ck_assert_mem_eq(buf, m.data + 10, 40);
    ck_assert_int_eq(m.interrupted, 14);    /* ceil(40 / 3) reads, each interrupted once */
}
END_TEST

START_TEST(read_stops_at_end_of_file)
{
    char buf[40] = { 0 };
    mock_reset(30, 7);
    ck_assert_int_eq(xt_rw_full(mock_op, 0, -1, buf, 40, 10), 20);
    ck_assert_mem_eq(buf, m.data + 10, 20);
    ck_assert_int_eq(xt_rw_full(mock_op, 0, -1, buf, 40, 30), 0);
    ck_assert_int_eq(xt_rw_full(mock_op, 0, -1, buf, 0, 0), 0);
}
END_TEST

/* the mock's call fails: -1 with errno err */
static void fails_with(int is_write, int err)
{
    char buf[50] = { 0 };
    errno = 0;
    ck_assert_int_eq(xt_rw_full(mock_op, is_write, -1, buf, 50, 0), -1);
    ck_assert_int_eq(errno, err);
}

START_TEST(read_error_is_minus_one_with_errno)
{
    mock_reset(64, 4);
    m.fail_at = 20;
    fails_with(0, EIO);
}
END_TEST

START_TEST(write_retries_short_counts_and_eintr)
{
    char src[50];
    for (int k = 0; k < 50; k++)
        src[k] = (char) k;
    mock_reset(0, 5);
    m.is_write = 1;
    ck_assert_int_eq(xt_rw_full(mock_op, 1, -1, src, 50, 7), 50);
    ck_assert_mem_eq(m.data + 7, src, 50);
    ck_assert_int_eq(m.interrupted, 10);
}
END_TEST

START_TEST(write_that_moves_nothing_is_enospc)
{
    mock_reset(0, 5);
    m.is_write = 1;
    m.full_at = 20;
    fails_with(1, ENOSPC);
}
END_TEST

START_TEST(real_file_round_trip_and_eof)
{
    char path[] = "/tmp/xt_io_unit_XXXXXX", in[300], out[400];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    for (int k = 0; k < 300; k++)
        in[k] = (char) (k * 7);
    ck_assert_int_eq(xt_pwrite_full(fd, in, 300, 100), 300);
    ck_assert_int_eq(xt_pread_full(fd, out, 400, 100), 300);      /* the file ends at 400 */
    ck_assert_mem_eq(out, in, 300);
    ck_assert_int_eq(xt_pread_full(fd, out, 10, 400), 0);
    ck_assert_int_eq(xt_write_full(fd, in, 5), 5);  /* at the position: 0 */
    ck_assert_int_eq(xt_pread_full(fd, out, 5, 0), 5);
    ck_assert_mem_eq(out, in, 5);
    close(fd);
    errno = 0;
    ck_assert_int_eq(xt_pread_full(fd, out, 5, 0), -1);
    ck_assert_int_eq(errno, EBADF);
}
END_TEST

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
    (void) sig;
    alarms++;
}

/* a pipe a slow reader drains while interval-timer signals (no SA_RESTART)
 * interrupt the writer: every byte arrives, in order */
START_TEST(pipe_write_under_signals)
{
    enum { LEN = 2 << 20 };
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char b[4096];
        int64_t got = 0;
        ssize_t n;
        close(p[1]);
        while ((n = read(p[0], b, sizeof(b))) > 0) {
            for (ssize_t k = 0; k < n; k++)
                if (b[k] != (char) ((got + k) % 251))
                    _exit(2);
            got += n;
            usleep(20);
        }
        _exit(got == LEN ? 0 : 3);
    }
    close(p[0]);
    char *src = malloc(LEN);
    ck_assert_ptr_nonnull(src);
    for (int64_t k = 0; k < LEN; k++)
        src[k] = (char) (k % 251);
    struct sigaction sa = {.sa_handler = on_alarm };   /* sa_flags 0: no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
    struct itimerval iv = {.it_interval = {0, 200},.it_value = {0, 200} };
    setitimer(ITIMER_REAL, &iv, NULL);
    int64_t w = xt_write_full(p[1], src, LEN);
    memset(&iv, 0, sizeof(iv));
    setitimer(ITIMER_REAL, &iv, NULL);
    close(p[1]);
    int status = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    free(src);
    ck_assert_int_eq(w, LEN);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    ck_assert_int_gt(alarms, 0);
}
END_TEST

Suite *io_suite(void)
{
    Suite *s = suite_create("io");
    TCase *t = tcase_create("full");
    tcase_add_test(t, read_retries_short_counts_and_eintr);
    tcase_add_test(t, read_stops_at_end_of_file);
    tcase_add_test(t, read_error_is_minus_one_with_errno);
    tcase_add_test(t, write_retries_short_counts_and_eintr);
    tcase_add_test(t, write_that_moves_nothing_is_enospc);
    tcase_add_test(t, real_file_round_trip_and_eof);
    tcase_add_test(t, pipe_write_under_signals);
    suite_add_tcase(s, t);
    return s;
}

UNIT_SUITE(io_suite)
