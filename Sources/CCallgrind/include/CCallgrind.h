// Callgrind client requests (valgrind/callgrind.h) as functions Swift can call: collection
// toggled around exactly the code whose instructions are counted. Outside valgrind each call
// is a few no-op instructions.
#ifndef STRATA_CCALLGRIND_H
#define STRATA_CCALLGRIND_H
#ifdef __cplusplus
extern "C" {
#endif
/// 1 under valgrind, 0 otherwise; -1 when built without valgrind's headers.
int strata_running_on_valgrind(void);
/// Starts / stops collecting instruction counts (run callgrind with --collect-atstart=no).
void strata_callgrind_toggle_collect(void);
/// Zeroes the counters collected so far.
void strata_callgrind_zero_stats(void);
/// Writes the counters collected since the last zero/dump to a new dump file, described by `name`.
void strata_callgrind_dump_stats_at(const char *name);
/// Starts / stops instrumenting (run callgrind with --instr-atstart=no): code runs several
/// times faster uninstrumented, and the cache simulation sees nothing of it.
void strata_callgrind_start_instrumentation(void);
void strata_callgrind_stop_instrumentation(void);
/// Dumps the counters as "scene-frame RUN LAYOUT FRAME PHASE" (a scene frame's phase),
/// naming the dump without allocating.
void strata_callgrind_dump_frame_phase(unsigned long run, unsigned long layout, unsigned long frame, unsigned long phase);
/// Instructions (the `summary:` line) of callgrind's dump file "BASE.N", 0 when unreadable;
/// reads into the stack, allocating nothing.
unsigned long long strata_callgrind_dump_instructions(const char *base, unsigned long n);
/// n iterations of a loop of fixed cost (the planted work of STRATA_BENCH_INJECT_SLOWDOWN).
unsigned long long strata_spin(unsigned long long n);
#ifdef __cplusplus
}
#endif
#endif
