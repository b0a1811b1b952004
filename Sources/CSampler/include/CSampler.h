#ifndef CSAMPLER_H
#define CSAMPLER_H

/// CSampler: a SIGPROF sampling profiler's signal side. A per-thread POSIX timer (or, as a
/// fallback, the process-wide setitimer) sends a signal; the handler walks the interrupted
/// stack into a slot of a preallocated ring and publishes it with a release-store. Everything
/// that is not async-signal-safe (allocation, libunwind's per-thread set-up, reading stack
/// bounds, symbolization) happens outside the handler. StrataProfiler is the Swift API.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How the handler walks the stack.
typedef enum {
    /// libunwind's `unw_backtrace` (its cached fast trace, DWARF where the cache misses).
    CSAMPLER_UNWIND_BACKTRACE = 0,
    /// A full DWARF walk: `unw_init_local2(signal context, UNW_INIT_SIGNAL_FRAME)` + `unw_step`.
    CSAMPLER_UNWIND_DWARF = 1,
    /// Frame-pointer chain from the interrupted RBP, bounded by the thread's stack.
    CSAMPLER_UNWIND_FRAME_POINTERS = 2,
} csampler_unwinder;

/// What the timers count.
typedef enum {
    /// Thread CPU time (`CLOCK_THREAD_CPUTIME_ID`; `ITIMER_PROF` in the fallback). The kernel
    /// checks CPU-time timers at its tick, so rates above CONFIG_HZ arrive as fewer signals
    /// whose `si_overrun` carries the expiries merged into them.
    CSAMPLER_CLOCK_CPU = 0,
    /// Wall time (`CLOCK_MONOTONIC` high-resolution timers; `ITIMER_REAL` + SIGALRM in the
    /// fallback).
    CSAMPLER_CLOCK_WALL = 1,
} csampler_clock;

/// Which timer drives the signal.
typedef enum {
    /// One `timer_create` timer per registered thread (`SIGEV_THREAD_ID`), falling back to
    /// `setitimer` when the kernel refuses it.
    CSAMPLER_TIMER_PER_THREAD = 0,
    /// `setitimer` only: one process-wide timer; the kernel picks the thread.
    CSAMPLER_TIMER_PROCESS = 1,
} csampler_timer;

typedef struct {
    uint32_t hz;             ///< samples per second and thread (0 -> 1000)
    uint32_t unwinder;       ///< csampler_unwinder
    uint32_t clock;          ///< csampler_clock
    uint32_t timer;          ///< csampler_timer
    uint32_t capacity;       ///< ring slots (0 -> 8192); rounded up to a power of two
    uint32_t max_depth;      ///< frames per sample (0 -> 128, at most 1024)
    uint32_t caching;        ///< csampler_caching
} csampler_config;

/// libunwind's register-state cache policy (set outside the handler).
typedef enum {
    /// UNW_CACHE_PER_THREAD (the default). Debian's libunwind has no thread-local cache and
    /// uses the global cache and its mutex instead; the sampler's gate keeps that mutex
    /// uncontended (see sampler.c).
    CSAMPLER_CACHE_PER_THREAD = 0,
    /// UNW_CACHE_GLOBAL.
    CSAMPLER_CACHE_GLOBAL = 1,
    /// UNW_CACHE_NONE: every step re-reads the unwind tables (10-20x slower walks).
    CSAMPLER_CACHE_NONE = 2,
} csampler_caching;

/// Sample flags.
enum {
    /// The walk stopped at `max_depth`.
    CSAMPLER_SAMPLE_TRUNCATED = 1u << 0,
    /// The unwinder failed; the sample holds the interrupted PC only.
    CSAMPLER_SAMPLE_UNWIND_FAILED = 1u << 1,
    /// `unw_backtrace` did not reach the interrupted PC; the frames after the handler are
    /// kept as they came.
    CSAMPLER_SAMPLE_NO_SIGNAL_FRAME = 1u << 2,
    /// Taken on a thread that never registered (process-wide timer).
    CSAMPLER_SAMPLE_UNREGISTERED = 1u << 3,
    /// Another thread was inside libunwind: this stack was walked by frame pointers.
    CSAMPLER_SAMPLE_CONTENDED = 1u << 4,
    /// The thread was inside the dynamic loader (dlopen, dlclose, dl_iterate_phdr), where
    /// libunwind could wait for the thread itself: walked by frame pointers.
    CSAMPLER_SAMPLE_IN_LOADER = 1u << 5,
};

/// One sample as the handler wrote it. `pcs[0]` is the interrupted PC (exact); every later
/// entry is a return address (symbolize `pc - 1`).
typedef struct {
    uint64_t sequence;       ///< ticket + 1 once published (release)
    uint64_t timestamp_ns;   ///< CLOCK_MONOTONIC at the signal
    uint64_t unwind_ns;      ///< time spent walking the stack
    uint64_t handler_ns;     ///< time from handler entry to publication
    int32_t tid;             ///< kernel thread id
    uint32_t weight;         ///< 1 + timer overrun (expiries this signal stands for)
    uint16_t depth;          ///< valid entries in pcs
    uint16_t flags;          ///< CSAMPLER_SAMPLE_*
    uint32_t reserved;
    uintptr_t pcs[];         ///< max_depth entries
} csampler_sample;

/// The sample's frames (`depth` of them). Swift does not import flexible array members.
static inline const uintptr_t *csampler_sample_pcs(const csampler_sample *sample) { return sample->pcs; }

/// Counters since `csampler_start`. Every signal that did not become a sample is counted
/// under one cause.
typedef struct {
    uint64_t signals;          ///< handler entries while running
    uint64_t samples;          ///< published samples
    uint64_t dropped_full;     ///< ring full (the consumer fell behind)
    uint64_t dropped_reentrant;///< a signal arrived while this thread was in the handler
    uint64_t paused;           ///< signals on a thread that paused sampling (not samples, not drops)
    uint64_t overruns;         ///< timer expiries merged into other signals (sum of si_overrun)
    uint64_t unwind_failures;  ///< samples with CSAMPLER_SAMPLE_UNWIND_FAILED
    uint64_t truncated;        ///< samples with CSAMPLER_SAMPLE_TRUNCATED
    uint64_t contended;        ///< samples with CSAMPLER_SAMPLE_CONTENDED (walked by frame pointers)
    uint64_t in_loader;        ///< samples with CSAMPLER_SAMPLE_IN_LOADER (walked by frame pointers)
    uint32_t threads;          ///< threads registered (now)
    uint32_t timer;            ///< csampler_timer actually in use
} csampler_stats;

/// Installs the handler, maps the ring (pre-faulted), sets libunwind's per-thread caching
/// policy and warms it up. Does not register any thread. 0, or -errno (-EBUSY when running).
int csampler_start(const csampler_config *config);

/// Starts sampling the calling thread: stack bounds, libunwind warm-up on this thread, then
/// its timer (random first expiry in (0, period]). 0, or -errno. Idempotent.
int csampler_register_thread(void);

/// Stops sampling the calling thread and deletes its timer.
int csampler_unregister_thread(void);

/// Samples on the calling thread are skipped (counted as `paused`) while paused != 0.
void csampler_pause_thread(int paused);

/// Disarms every timer, waits for handlers in flight; published samples stay readable
/// until `csampler_release`. The handler stays installed (it ignores late signals).
void csampler_stop(void);

/// Frees the ring. Call after the last `csampler_drain` following `csampler_stop`.
void csampler_release(void);

/// Hands every published sample, oldest first, to `visit` and frees its slot. One consumer
/// at a time (serialized by a mutex). Returns the number visited.
typedef void (*csampler_visitor)(const csampler_sample *sample, void *context);
size_t csampler_drain(csampler_visitor visit, void *context);

csampler_stats csampler_get_stats(void);

/// The configuration in use (defaults filled in).
csampler_config csampler_get_config(void);

/// Nanoseconds of one timer period at the configured rate.
uint64_t csampler_period_ns(void);

/// CLOCK_MONOTONIC in nanoseconds (the clock sample timestamps use).
uint64_t csampler_now_ns(void);

/// This thread's CPU time in nanoseconds.
uint64_t csampler_thread_cpu_ns(void);

/// Kernel thread id of the calling thread.
int32_t csampler_gettid(void);

/// Catches SIGINT and SIGTERM as a request to stop (`csampler_stop_signal`); each signal's
/// default action comes back after its first delivery. 0, or -1 when sigaction fails.
int csampler_catch_stop_signals(void);

/// The stop signal received since `csampler_catch_stop_signals` (SIGINT or SIGTERM), or 0.
int csampler_stop_signal(void);

/// Gives SIGINT and SIGTERM their default actions back.
void csampler_release_stop_signals(void);

/// glibc's malloc_trim(0): free pages of every arena back to the system. 1 when some were.
int csampler_malloc_trim(void);

// MARK: symbolization (outside the handler)

/// `dladdr` for `address`: writes the symbol name (dynamic symbol table only) and the
/// object's path, and the object's and symbol's start addresses. 1 when the object is known.
int csampler_dladdr(uintptr_t address, char *name, size_t name_size, char *path, size_t path_size,
                    uintptr_t *object_base, uintptr_t *symbol_address);

/// libunwind's local `get_proc_name` accessor: the ELF `.symtab` (and `.dynsym`) of the
/// object mapping `address`, so local symbols resolve too. 1 when found (`offset` from the
/// symbol's start); 2 when the nearest symbol is not the function containing `address`
/// (a stripped local function: `function_start` is its start from the unwind info); 0 when
/// no symbol precedes it.
int csampler_proc_name(uintptr_t address, char *name, size_t name_size, uintptr_t *offset,
                       uintptr_t *function_start);

/// Holds / releases the sampler's libunwind gate: call around any libunwind use outside the
/// handler while the sampler runs (csampler_proc_name does).
void csampler_libunwind_lock(void);
void csampler_libunwind_unlock(void);

// MARK: link-order checks

/// The object that provides `_Unwind_RaiseException` to the process (global scope lookup),
/// e.g. "/lib/x86_64-linux-gnu/libgcc_s.so.1"; NULL when it cannot be found.
const char *csampler_unwind_raise_provider(void);

/// Throws and catches `count` C++ exceptions through a few frames; returns how many were
/// caught (== count when C++ unwinding works).
int csampler_cxx_throw_catch(int count);

#ifdef __cplusplus
}
#endif

#endif
