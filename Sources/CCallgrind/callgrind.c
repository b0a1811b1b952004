#include "CCallgrind.h"
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>
int strata_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void strata_callgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
void strata_callgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void strata_callgrind_dump_stats_at(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
#else
int strata_running_on_valgrind(void) { return -1; }
void strata_callgrind_toggle_collect(void) {}
void strata_callgrind_zero_stats(void) {}
void strata_callgrind_dump_stats_at(const char *name) { (void)name; }
#endif
