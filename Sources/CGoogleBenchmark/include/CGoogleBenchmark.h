// A C face for Google Benchmark (Debian's libbenchmark-dev), so Swift registers benchmarks
// whose bodies are C callbacks and runs them with the user's --benchmark_* flags. Google
// Benchmark keeps the timing loop, repetitions, aggregates, counters and filters.
#ifndef STRATA_CGOOGLEBENCHMARK_H
#define STRATA_CGOOGLEBENCHMARK_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// Untimed: called before the timing loop of every invocation of the benchmark function
/// (Google Benchmark calls it several times: iteration estimation, then each repetition).
/// Returns NULL, or a message (owned by the callee, alive until the next call) that skips the
/// benchmark with an error (Google Benchmark's SkipWithError): a failed precondition.
typedef const char *(*strata_gb_setup_fn)(void *context);
/// Timed: one iteration, which processes `items_per_iteration` items.
typedef void (*strata_gb_run_fn)(void *context);
/// Untimed (timer paused) before each iteration; NULL when the body needs no reset.
typedef void (*strata_gb_reset_fn)(void *context);

enum strata_gb_time_unit { STRATA_GB_NS = 0, STRATA_GB_US = 1, STRATA_GB_MS = 2, STRATA_GB_S = 3 };

typedef struct strata_gb_benchmark {
    const char *name;
    void *context;
    strata_gb_setup_fn setup;
    strata_gb_run_fn run;
    strata_gb_reset_fn reset;     // may be NULL
    double items_per_iteration;   // the per_item counter = time / items (kIsIterationInvariantRate | kInvert)
    int time_unit;                // strata_gb_time_unit
    int64_t iterations;           // >0: fixed iteration count (overrides min time)
} strata_gb_benchmark;

/// Registers one benchmark (copies the name). Must be called before strata_gb_run.
void strata_gb_register(const strata_gb_benchmark *benchmark);

/// Adds a key/value to the JSON "context" block (benchmark::AddCustomContext).
void strata_gb_add_context(const char *key, const char *value);

/// Parses argv (Google Benchmark's --benchmark_* flags; the rest are reported in *unknown as a
/// space-separated list, caller frees), runs the registered benchmarks that match the filter,
/// prints the console table to stdout as each finishes, and returns the JSON reporter's
/// output (caller frees) in *json. Returns the number of benchmarks run, or -1 on error
/// (message in *json).
int64_t strata_gb_run(int argc, const char **argv, char **json, char **unknown);

/// Google Benchmark's DoNotOptimize and ClobberMemory, for benchmark bodies.
void strata_gb_do_not_optimize_double(double value);
void strata_gb_clobber_memory(void);

#ifdef __cplusplus
}
#endif
#endif
