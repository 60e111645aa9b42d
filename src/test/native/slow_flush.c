/*
 * A benchmark aid: makes every fsync and fdatasync of a process take COUNTERSIGN_FLUSH_DELAY_US microseconds
 * longer, as on a disk whose cache flush takes that long. The build machine's disk flushes in about 0.13 ms, so
 * there the commits' CPU, not their number, sets a pause's and a decision's time against a bare commit.
 *
 *   gcc -shared -fPIC -O2 -o /tmp/slow_flush.so src/test/native/slow_flush.c -ldl
 *   LD_PRELOAD=/tmp/slow_flush.so COUNTERSIGN_FLUSH_DELAY_US=5000 java ... CommitsBenchmark sqlite 1000
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static long delay_us(void) {
    const char *value = getenv("COUNTERSIGN_FLUSH_DELAY_US");
    return value == NULL ? 0 : atol(value);
}

static void wait_for_flush(void) {
    long us = delay_us();
    if (us > 0) {
        struct timespec pause = {us / 1000000, (us % 1000000) * 1000};
        nanosleep(&pause, NULL);
    }
}

/* Calls the C library's function of that name, looked up once, then waits as the slower disk would. */
static int flush_slowly(int (**real)(int), const char *name, int fd) {
    if (*real == NULL) {
        *real = (int (*)(int)) dlsym(RTLD_NEXT, name);
    }
    int result = (*real)(fd);
    wait_for_flush();
    return result;
}

int fsync(int fd) {
    static int (*real)(int);
    return flush_slowly(&real, "fsync", fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    return flush_slowly(&real, "fdatasync", fd);
}
