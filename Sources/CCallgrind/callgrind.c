#include "CCallgrind.h"
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>
int strata_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void strata_callgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
void strata_callgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void strata_callgrind_dump_stats_at(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
void strata_callgrind_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void strata_callgrind_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
#else
int strata_running_on_valgrind(void) { return -1; }
void strata_callgrind_toggle_collect(void) {}
void strata_callgrind_zero_stats(void) {}
void strata_callgrind_dump_stats_at(const char *name) { (void)name; }
void strata_callgrind_start_instrumentation(void) {}
void strata_callgrind_stop_instrumentation(void) {}
#endif

/* Appends the decimal digits of v at p; returns the end. */
static char *put_number(char *p, unsigned long v) {
    char digits[24];
    int n = 0;
    do { digits[n++] = (char)('0' + v % 10); v /= 10; } while (v != 0);
    while (n > 0) *p++ = digits[--n];
    return p;
}

void strata_callgrind_dump_frame_phase(unsigned long run, unsigned long layout, unsigned long frame, unsigned long phase) {
    /* "scene-frame RUN LAYOUT FRAME PHASE", built on the stack: no allocation. */
    char name[96];
    static const char prefix[] = "scene-frame ";
    char *p = name;
    for (const char *q = prefix; *q; q++) *p++ = *q;
    p = put_number(p, run); *p++ = ' ';
    p = put_number(p, layout); *p++ = ' ';
    p = put_number(p, frame); *p++ = ' ';
    p = put_number(p, phase);
    *p = 0;
    strata_callgrind_dump_stats_at(name);
}

#include <fcntl.h>
#include <unistd.h>

unsigned long long strata_callgrind_dump_instructions(const char *base, unsigned long n) {
    /* "BASE.N" and the first 8 KiB of it on the stack: no allocation, so reading a dump back
       does not move the counted process's heap. */
    char path[4096];
    size_t k = 0;
    while (base[k] && k < sizeof path - 32) { path[k] = base[k]; k++; }
    path[k++] = '.';
    char *end = put_number(path + k, n);
    *end = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    char text[8193];
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0) return 0;
    text[got] = 0;
    static const char key[] = "\nsummary: ";
    for (ssize_t i = 0; i + (ssize_t)sizeof key - 1 <= got; i++) {
        size_t j = 0;
        while (key[j] && text[i + j] == key[j]) j++;
        if (key[j] == 0) {
            unsigned long long v = 0;
            for (const char *p = text + i + j; *p >= '0' && *p <= '9'; p++) v = v * 10 + (unsigned long long)(*p - '0');
            return v;
        }
    }
    return 0;
}

unsigned long long strata_spin(unsigned long long n) {
    /* A fixed cost per iteration: the volatile keeps the compiler from unrolling or folding it. */
    volatile unsigned long long s = 0x9E3779B97F4A7C15ull;
    for (unsigned long long i = 0; i < n; i++) s = s * 6364136223846793005ull + i;
    return s;
}
