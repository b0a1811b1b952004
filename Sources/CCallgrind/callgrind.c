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
