// The signal side of the sampling profiler. Only the handler (`on_signal` and what it calls)
// runs in signal context; it uses nothing but atomics, plain loads and stores, libunwind's
// local unwinder (warmed up per thread beforehand), clock_gettime and gettid.
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "CSampler.h"

#include <dlfcn.h>
#include <errno.h>
#include <libunwind.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_THREADS 512
#define MAX_DEPTH_LIMIT 1024
#define WARMUP_DEPTH 128

/// Per-thread state. initial-exec TLS: the handler's accesses are plain %fs-relative loads,
/// never `__tls_get_addr` (which may allocate on a thread's first access).
typedef struct {
    int32_t tid;
    uint32_t generation;      // == g.generation while registered
    uintptr_t stack_lo, stack_hi;
    volatile sig_atomic_t in_handler;
    volatile sig_atomic_t paused;
    volatile sig_atomic_t warming;
    /// Depth of dl_iterate_phdr calls on this thread (see the interposer below).
    volatile sig_atomic_t in_loader;
    int registry_index;
} thread_state;

static __thread thread_state t_state __attribute__((tls_model("initial-exec")));

typedef struct {
    int32_t tid;
    int active;
    timer_t timer;
} thread_entry;

static struct {
    _Atomic int enabled;
    _Atomic int in_flight;
    _Atomic uint64_t head;
    _Atomic uint64_t tail;
    uint8_t *ring;
    size_t ring_bytes;
    size_t slot_size;
    uint64_t capacity;
    uint32_t max_depth;
    csampler_config config;
    uint64_t period_ns;
    _Atomic uint32_t generation;
    int timer_in_use;
    int process_timer_armed;
    int installed_prof, installed_alrm;

    _Atomic uint64_t signals, samples, dropped_full, dropped_reentrant, paused, overruns;
    _Atomic uint64_t unwind_failures, truncated, contended, in_loader;
    /// One user of libunwind at a time (see `gate_try`).
    _Atomic int unwind_gate;

    pthread_mutex_t lock;          // registry, start/stop
    pthread_mutex_t drain_lock;    // one consumer
    thread_entry threads[MAX_THREADS];
    uint32_t thread_count;
} g = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .drain_lock = PTHREAD_MUTEX_INITIALIZER,
};

// MARK: clocks

static inline uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t csampler_now_ns(void) { return mono_ns(); }

uint64_t csampler_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int32_t csampler_gettid(void) { return (int32_t)syscall(SYS_gettid); }

// MARK: the libunwind gate
//
// libunwind's caches sit behind a mutex (Debian's build has no thread-local cache, so
// UNW_CACHE_PER_THREAD is the global cache) that is held across dl_iterate_phdr, which waits
// for the dynamic loader's lock. A thread interrupted inside dlopen/dlclose holds that loader
// lock; if its handler then waited for libunwind's mutex while another thread's handler held
// the mutex and waited for the loader lock, neither would return. So libunwind has one user
// at a time: a handler that cannot take the gate within GATE_SPIN_NS walks frame pointers
// instead (counted as `contended`), and never blocks on a holder that may be waiting for it.

#define GATE_SPIN_NS 25000u

static int gate_try(uint64_t budget_ns) {
    uint64_t start = 0;
    for (unsigned spins = 0;; spins++) {
        int expected = 0;
        if (atomic_load_explicit(&g.unwind_gate, memory_order_relaxed) == 0
            && atomic_compare_exchange_weak_explicit(&g.unwind_gate, &expected, 1,
                                                     memory_order_acquire, memory_order_relaxed))
            return 1;
        if (budget_ns == 0) return 0;
        __builtin_ia32_pause();
        if ((spins & 63) == 0) {
            uint64_t now = mono_ns();
            if (start == 0) start = now;
            else if (now - start > budget_ns) return 0;
        }
    }
}

static void gate_release(void) { atomic_store_explicit(&g.unwind_gate, 0, memory_order_release); }

/// Outside handlers: wait as long as it takes (a holder never waits for us).
static void gate_acquire(void) {
    while (!gate_try(GATE_SPIN_NS)) sched_yield();
}

void csampler_libunwind_lock(void) { gate_acquire(); }
void csampler_libunwind_unlock(void) { gate_release(); }

// MARK: unwinders (signal context)

static int walk_backtrace(uintptr_t *pcs, int max, uintptr_t rip, uint16_t *flags) {
    int n = unw_backtrace((void **)pcs, max);
    // The walk starts in this handler: drop its frames and the sigreturn trampoline, up to
    // the interrupted PC (exact, from the signal context).
    int start = -1;
    for (int i = 0; i < n && i < 16; i++) {
        if (pcs[i] == rip) { start = i; break; }
    }
    if (start < 0) {
        *flags |= CSAMPLER_SAMPLE_NO_SIGNAL_FRAME | CSAMPLER_SAMPLE_UNWIND_FAILED;
        pcs[0] = rip;
        return 1;
    }
    int depth = n - start;
    for (int i = 0; i < depth; i++) pcs[i] = pcs[i + start];
    if (n == max) *flags |= CSAMPLER_SAMPLE_TRUNCATED;
    return depth;
}

static int walk_dwarf(uintptr_t *pcs, int max, ucontext_t *uc, uint16_t *flags) {
    unw_cursor_t cursor;
    // The signal's context is the interrupted frame's: the walk starts there, not in here,
    // and UNW_INIT_SIGNAL_FRAME says its IP is exact (no `ip - 1` for the first lookup).
    if (unw_init_local2(&cursor, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) < 0) {
        *flags |= CSAMPLER_SAMPLE_UNWIND_FAILED;
        pcs[0] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
        return 1;
    }
    int n = 0;
    for (;;) {
        unw_word_t ip = 0;
        if (unw_get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
        pcs[n++] = (uintptr_t)ip;
        if (n == max) { *flags |= CSAMPLER_SAMPLE_TRUNCATED; break; }
        int r = unw_step(&cursor);
        if (r <= 0) break;
    }
    if (n == 0) {
        *flags |= CSAMPLER_SAMPLE_UNWIND_FAILED;
        pcs[n++] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    }
    return n;
}

static int walk_frame_pointers(uintptr_t *pcs, int max, ucontext_t *uc, uint16_t *flags) {
    uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
    uintptr_t lo = t_state.stack_lo, hi = t_state.stack_hi;
    int n = 0;
    pcs[n++] = rip;
    // Every read is of [fp, fp + 16) inside this thread's stack, and frames only go up: a
    // function that uses RBP as a general register ends the walk instead of faulting.
    while (n < max) {
        if (fp < lo || fp + 2 * sizeof(uintptr_t) > hi || (fp & (sizeof(uintptr_t) - 1)) != 0) break;
        const uintptr_t *frame = (const uintptr_t *)fp;
        uintptr_t next = frame[0], ret = frame[1];
        if (ret == 0) break;
        pcs[n++] = ret;
        if (next <= fp) break;
        fp = next;
    }
    if (n == max) *flags |= CSAMPLER_SAMPLE_TRUNCATED;
    return n;
}

// MARK: the dynamic loader
//
// libunwind finds unwind tables with dl_iterate_phdr, which takes the loader's lock. A thread
// interrupted while it takes, holds or releases that lock (inside dlopen, dlclose or
// dl_iterate_phdr) would wait for itself in its own handler (the lock is recursive, but not
// between setting the lock word and recording its owner). Those samples are walked by frame
// pointers instead (CSAMPLER_SAMPLE_IN_LOADER). The three functions are interposed here --
// this definition in the executable is what libgcc_s, libstdc++, libunwind, Foundation and
// the Swift runtime bind to -- and count the depth per thread. One consequence: glibc takes
// dlopen's caller to be this wrapper, in the executable, when it expands $ORIGIN or searches
// the caller's RUNPATH (the Swift runtime directory for Swift executables). dlopen calls
// inside glibc do not pass through here; `_r_debug.r_state`, which the loader sets while it
// changes the list of objects, covers part of them.

typedef int (*iterate_phdr_fn)(int (*)(struct dl_phdr_info *, size_t, void *), void *);
typedef void *(*dlopen_fn)(const char *, int);
typedef int (*dlclose_fn)(void *);
static _Atomic(iterate_phdr_fn) real_iterate_phdr;
static _Atomic(dlopen_fn) real_dlopen;
static _Atomic(dlclose_fn) real_dlclose;

#define RESOLVE(var, type, name)                                               \
    type f = atomic_load_explicit(&var, memory_order_acquire);                 \
    if (!f) {                                                                  \
        f = (type)dlsym(RTLD_NEXT, name);                                      \
        atomic_store_explicit(&var, f, memory_order_release);                  \
    }

static void resolve_loader_functions(void) {
    { RESOLVE(real_iterate_phdr, iterate_phdr_fn, "dl_iterate_phdr") (void)f; }
    { RESOLVE(real_dlopen, dlopen_fn, "dlopen") (void)f; }
    { RESOLVE(real_dlclose, dlclose_fn, "dlclose") (void)f; }
}

/* Under AddressSanitizer or ThreadSanitizer the sanitizer runtime calls dl_iterate_phdr
 * while it initialises, before anything here may run instrumented: no interposers then
 * (the profiler still works; a sample taken inside the loader is caught only by
 * `_r_debug.r_state`). The profiler's tests are not part of the sanitizer runs. */
#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define CSAMPLER_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define CSAMPLER_SANITIZED 1
#endif

#ifndef CSAMPLER_SANITIZED
int dl_iterate_phdr(int (*callback)(struct dl_phdr_info *, size_t, void *), void *data) {
    RESOLVE(real_iterate_phdr, iterate_phdr_fn, "dl_iterate_phdr")
    if (!f) return 0;
    t_state.in_loader++;
    int r = f(callback, data);
    t_state.in_loader--;
    return r;
}

void *dlopen(const char *file, int mode) {
    RESOLVE(real_dlopen, dlopen_fn, "dlopen")
    if (!f) return NULL;
    t_state.in_loader++;
    void *r = f(file, mode);
    t_state.in_loader--;
    return r;
}

int dlclose(void *handle) {
    RESOLVE(real_dlclose, dlclose_fn, "dlclose")
    if (!f) return -1;
    t_state.in_loader++;
    int r = f(handle);
    t_state.in_loader--;
    return r;
}

#endif /* CSAMPLER_SANITIZED */

static int loader_busy(void) {
    return t_state.in_loader > 0 || *(volatile int *)&_r_debug.r_state != RT_CONSISTENT;
}

static int walk(uint32_t unwinder, uintptr_t *pcs, int max, ucontext_t *uc, uint16_t *flags) {
    if (unwinder == CSAMPLER_UNWIND_FRAME_POINTERS) return walk_frame_pointers(pcs, max, uc, flags);
    if (loader_busy()) {
        *flags |= CSAMPLER_SAMPLE_IN_LOADER;
        return walk_frame_pointers(pcs, max, uc, flags);
    }
    if (!gate_try(GATE_SPIN_NS)) {
        *flags |= CSAMPLER_SAMPLE_CONTENDED;
        return walk_frame_pointers(pcs, max, uc, flags);
    }
    int n = unwinder == CSAMPLER_UNWIND_DWARF
        ? walk_dwarf(pcs, max, uc, flags)
        : walk_backtrace(pcs, max, (uintptr_t)uc->uc_mcontext.gregs[REG_RIP], flags);
    gate_release();
    return n;
}

// MARK: the handler

static void on_signal(int signo, siginfo_t *info, void *context) {
    (void)signo;
    int saved_errno = errno;
    uint64_t entered = mono_ns();
    ucontext_t *uc = (ucontext_t *)context;

    if (t_state.warming) {
        // Registration's synchronous self-signal: run the configured walk once on this
        // thread so libunwind's per-thread caches exist before a real sample needs them.
        uintptr_t scratch[WARMUP_DEPTH];
        uint16_t flags = 0;
        walk(g.config.unwinder, scratch, WARMUP_DEPTH, uc, &flags);
        t_state.warming = 0;
        errno = saved_errno;
        return;
    }

    atomic_fetch_add(&g.in_flight, 1);
    if (!atomic_load(&g.enabled)) goto out;
    atomic_fetch_add_explicit(&g.signals, 1, memory_order_relaxed);
    if (t_state.in_handler) {
        atomic_fetch_add_explicit(&g.dropped_reentrant, 1, memory_order_relaxed);
        goto out;
    }
    if (t_state.paused) {
        atomic_fetch_add_explicit(&g.paused, 1, memory_order_relaxed);
        goto out;
    }
    t_state.in_handler = 1;

    uint32_t overrun = 0;
    if (info && info->si_code == SI_TIMER && info->si_overrun > 0) overrun = (uint32_t)info->si_overrun;

    // Claim a slot: the ticket is free while fewer than `capacity` tickets are unconsumed.
    uint64_t ticket = atomic_load_explicit(&g.head, memory_order_relaxed);
    for (;;) {
        uint64_t tail = atomic_load_explicit(&g.tail, memory_order_acquire);
        if (ticket - tail >= g.capacity) {
            atomic_fetch_add_explicit(&g.dropped_full, 1, memory_order_relaxed);
            goto done;
        }
        if (atomic_compare_exchange_weak_explicit(&g.head, &ticket, ticket + 1,
                                                  memory_order_acq_rel, memory_order_relaxed)) break;
    }
    csampler_sample *s = (csampler_sample *)(g.ring + (ticket & (g.capacity - 1)) * g.slot_size);
    uint16_t flags = 0;
    int registered = t_state.generation == atomic_load_explicit(&g.generation, memory_order_relaxed);
    if (!registered) flags |= CSAMPLER_SAMPLE_UNREGISTERED;

    uint64_t t0 = mono_ns();
    int depth = walk(g.config.unwinder, s->pcs, (int)g.max_depth, uc, &flags);
    uint64_t t1 = mono_ns();

    s->timestamp_ns = entered;
    s->unwind_ns = t1 - t0;
    s->tid = registered && t_state.tid ? t_state.tid : (int32_t)syscall(SYS_gettid);
    s->weight = 1 + overrun;
    s->depth = (uint16_t)depth;
    s->flags = flags;
    s->reserved = 0;
    if (flags & CSAMPLER_SAMPLE_UNWIND_FAILED)
        atomic_fetch_add_explicit(&g.unwind_failures, 1, memory_order_relaxed);
    if (flags & CSAMPLER_SAMPLE_TRUNCATED)
        atomic_fetch_add_explicit(&g.truncated, 1, memory_order_relaxed);
    if (flags & CSAMPLER_SAMPLE_CONTENDED)
        atomic_fetch_add_explicit(&g.contended, 1, memory_order_relaxed);
    if (flags & CSAMPLER_SAMPLE_IN_LOADER)
        atomic_fetch_add_explicit(&g.in_loader, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&g.overruns, overrun, memory_order_relaxed);
    atomic_fetch_add_explicit(&g.samples, 1, memory_order_relaxed);
    s->handler_ns = mono_ns() - entered;
    // Publish: the consumer reads the slot only after it sees this sequence (acquire).
    atomic_store_explicit((_Atomic uint64_t *)&s->sequence, ticket + 1, memory_order_release);

done:
    t_state.in_handler = 0;
out:
    atomic_fetch_sub(&g.in_flight, 1);
    errno = saved_errno;
}

// MARK: set-up (normal context)

static int install(int signo, int *installed) {
    if (*installed) return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    // SIGPROF and SIGALRM never nest inside each other's handler.
    sigaddset(&sa.sa_mask, SIGPROF);
    sigaddset(&sa.sa_mask, SIGALRM);
    if (sigaction(signo, &sa, NULL) != 0) return -errno;
    // Stays installed after stop: a signal still queued when the timers go would otherwise
    // meet SIG_DFL, which ends the process for SIGPROF and SIGALRM.
    *installed = 1;
    return 0;
}

static uint64_t xorshift(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return *s = x;
}

static struct timespec to_timespec(uint64_t ns) {
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    return ts;
}

static int arm_process_timer(void) {
    int wall = g.config.clock == CSAMPLER_CLOCK_WALL;
    int r = install(wall ? SIGALRM : SIGPROF, wall ? &g.installed_alrm : &g.installed_prof);
    if (r) return r;
    struct itimerval it;
    uint64_t us = g.period_ns / 1000u;
    if (us == 0) us = 1;
    it.it_interval.tv_sec = (time_t)(us / 1000000u);
    it.it_interval.tv_usec = (suseconds_t)(us % 1000000u);
    it.it_value = it.it_interval;
    if (setitimer(wall ? ITIMER_REAL : ITIMER_PROF, &it, NULL) != 0) return -errno;
    g.process_timer_armed = 1;
    g.timer_in_use = CSAMPLER_TIMER_PROCESS;
    return 0;
}

static void disarm_process_timer(void) {
    if (!g.process_timer_armed) return;
    struct itimerval zero;
    memset(&zero, 0, sizeof zero);
    setitimer(g.config.clock == CSAMPLER_CLOCK_WALL ? ITIMER_REAL : ITIMER_PROF, &zero, NULL);
    g.process_timer_armed = 0;
}

/// libunwind's set-up on the calling thread, outside any handler: the first unw_backtrace
/// creates the thread's trace cache (pthread_once, pthread_setspecific, mmap), the first
/// DWARF walk fills the per-thread unwind-info cache.
static void warm_up_libunwind(void) {
    gate_acquire();
    void *buf[WARMUP_DEPTH];
    unw_backtrace(buf, WARMUP_DEPTH);
    unw_context_t uc;
    unw_cursor_t cursor;
    if (unw_getcontext(&uc) == 0 && unw_init_local(&cursor, &uc) == 0) {
        int n = 0;
        while (n++ < WARMUP_DEPTH && unw_step(&cursor) > 0) {}
    }
    gate_release();
}

int csampler_start(const csampler_config *config) {
    pthread_mutex_lock(&g.lock);
    if (atomic_load(&g.enabled)) { pthread_mutex_unlock(&g.lock); return -EBUSY; }
    if (g.ring) { munmap(g.ring, g.ring_bytes); g.ring = NULL; }

    csampler_config c = config ? *config : (csampler_config){0};
    if (c.hz == 0) c.hz = 1000;
    if (c.capacity == 0) c.capacity = 8192;
    if (c.max_depth == 0) c.max_depth = 128;
    if (c.max_depth > MAX_DEPTH_LIMIT) c.max_depth = MAX_DEPTH_LIMIT;
    if (c.unwinder > CSAMPLER_UNWIND_FRAME_POINTERS) { pthread_mutex_unlock(&g.lock); return -EINVAL; }
    if (c.clock > CSAMPLER_CLOCK_WALL || c.timer > CSAMPLER_TIMER_PROCESS || c.caching > CSAMPLER_CACHE_NONE) { pthread_mutex_unlock(&g.lock); return -EINVAL; }
    uint64_t capacity = 1;
    while (capacity < c.capacity) capacity <<= 1;
    c.capacity = (uint32_t)capacity;

    size_t slot = sizeof(csampler_sample) + (size_t)c.max_depth * sizeof(uintptr_t);
    slot = (slot + 63) & ~(size_t)63;
    size_t bytes = slot * capacity;
    // Pre-faulted: the handler never takes a first-touch page fault into its timing.
    void *ring = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (ring == MAP_FAILED) { pthread_mutex_unlock(&g.lock); return -errno; }

    g.ring = ring;
    g.ring_bytes = bytes;
    g.slot_size = slot;
    g.capacity = capacity;
    g.max_depth = c.max_depth;
    g.config = c;
    g.period_ns = 1000000000u / c.hz;
    if (g.period_ns == 0) g.period_ns = 1;
    atomic_store(&g.head, 0);
    atomic_store(&g.tail, 0);
    atomic_store(&g.signals, 0);
    atomic_store(&g.samples, 0);
    atomic_store(&g.dropped_full, 0);
    atomic_store(&g.dropped_reentrant, 0);
    atomic_store(&g.paused, 0);
    atomic_store(&g.overruns, 0);
    atomic_store(&g.unwind_failures, 0);
    atomic_store(&g.truncated, 0);
    atomic_store(&g.contended, 0);
    atomic_store(&g.in_loader, 0);
    resolve_loader_functions();   // never dlsym inside a handler
    g.thread_count = 0;
    memset(g.threads, 0, sizeof g.threads);
    // A new generation unregisters every thread of the previous run at once.
    atomic_fetch_add(&g.generation, 1);
    g.timer_in_use = (int)c.timer;

    // The caching policy is set here, never in the handler (see csampler_caching).
    gate_acquire();
    unw_set_caching_policy(unw_local_addr_space,
                           c.caching == CSAMPLER_CACHE_NONE     ? UNW_CACHE_NONE
                           : c.caching == CSAMPLER_CACHE_GLOBAL ? UNW_CACHE_GLOBAL
                                                                : UNW_CACHE_PER_THREAD);
    gate_release();
    warm_up_libunwind();

    int r = install(SIGPROF, &g.installed_prof);
    if (r) { munmap(g.ring, g.ring_bytes); g.ring = NULL; pthread_mutex_unlock(&g.lock); return r; }
    atomic_store(&g.enabled, 1);
    if (c.timer == CSAMPLER_TIMER_PROCESS) {
        r = arm_process_timer();
        if (r) {
            atomic_store(&g.enabled, 0);
            munmap(g.ring, g.ring_bytes); g.ring = NULL;
            pthread_mutex_unlock(&g.lock);
            return r;
        }
    }
    pthread_mutex_unlock(&g.lock);
    return 0;
}

int csampler_register_thread(void) {
    pthread_mutex_lock(&g.lock);
    if (!atomic_load(&g.enabled)) { pthread_mutex_unlock(&g.lock); return -ESRCH; }
    uint32_t generation = atomic_load(&g.generation);
    if (t_state.generation == generation) { pthread_mutex_unlock(&g.lock); return 0; }
    if (g.thread_count >= MAX_THREADS) { pthread_mutex_unlock(&g.lock); return -ENOSPC; }

    t_state.tid = (int32_t)syscall(SYS_gettid);
    t_state.in_handler = 0;
    t_state.paused = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr = NULL;
        size_t size = 0;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            t_state.stack_lo = (uintptr_t)addr;
            t_state.stack_hi = (uintptr_t)addr + size;
        }
        pthread_attr_destroy(&attr);
    }
    warm_up_libunwind();
    // Once more through the real handler path (signal frame, sigreturn trampoline).
    t_state.warming = 1;
    pthread_kill(pthread_self(), SIGPROF);
    t_state.warming = 0;

    int index = -1;
    for (int i = 0; i < MAX_THREADS; i++) if (!g.threads[i].active) { index = i; break; }
    thread_entry *e = &g.threads[index];
    e->tid = t_state.tid;
    t_state.registry_index = index;
    t_state.generation = generation;

    int r = 0;
    if (g.timer_in_use == CSAMPLER_TIMER_PER_THREAD) {
        struct sigevent sev;
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev.sigev_signo = SIGPROF;
        sev._sigev_un._tid = t_state.tid;
        clockid_t clock = g.config.clock == CSAMPLER_CLOCK_WALL ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
        if (timer_create(clock, &sev, &e->timer) == 0) {
            // Random first expiry: threads registered together do not fire in lock-step,
            // and the phase is independent of the caller's loop.
            uint64_t seed = ((uint64_t)(uint32_t)t_state.tid << 32) ^ mono_ns() ^ 0x9E3779B97F4A7C15ull;
            uint64_t first = 1 + xorshift(&seed) % g.period_ns;
            struct itimerspec its = {to_timespec(g.period_ns), to_timespec(first)};
            if (timer_settime(e->timer, 0, &its, NULL) != 0) {
                r = -errno;
                timer_delete(e->timer);
            } else {
                e->active = 1;
            }
        } else {
            r = -errno;
        }
        if (r != 0) {
            // The kernel refused per-thread timers: one process-wide timer instead.
            r = g.process_timer_armed ? 0 : arm_process_timer();
            if (r == 0) e->active = 2;
        }
    } else {
        e->active = 2;   // sampled by the process-wide timer
    }
    if (r != 0) {
        t_state.generation = 0;
        pthread_mutex_unlock(&g.lock);
        return r;
    }
    g.thread_count++;
    pthread_mutex_unlock(&g.lock);
    return 0;
}

int csampler_unregister_thread(void) {
    pthread_mutex_lock(&g.lock);
    if (t_state.generation != atomic_load(&g.generation)) { pthread_mutex_unlock(&g.lock); return 0; }
    thread_entry *e = &g.threads[t_state.registry_index];
    if (e->active == 1) timer_delete(e->timer);
    e->active = 0;
    g.thread_count--;
    t_state.generation = 0;
    pthread_mutex_unlock(&g.lock);
    return 0;
}

void csampler_pause_thread(int paused) { t_state.paused = paused; }

void csampler_stop(void) {
    pthread_mutex_lock(&g.lock);
    if (!atomic_load(&g.enabled)) { pthread_mutex_unlock(&g.lock); return; }
    atomic_store(&g.enabled, 0);
    for (int i = 0; i < MAX_THREADS; i++) {
        if (g.threads[i].active == 1) timer_delete(g.threads[i].timer);
        g.threads[i].active = 0;
    }
    g.thread_count = 0;
    disarm_process_timer();
    atomic_fetch_add(&g.generation, 1);
    // A handler that entered before `enabled` went to 0 finishes its slot; one that enters
    // later sees 0 and leaves without touching the ring.
    while (atomic_load(&g.in_flight) != 0) sched_yield();
    pthread_mutex_unlock(&g.lock);
}

void csampler_release(void) {
    pthread_mutex_lock(&g.lock);
    pthread_mutex_lock(&g.drain_lock);
    if (!atomic_load(&g.enabled) && g.ring) {
        munmap(g.ring, g.ring_bytes);
        g.ring = NULL;
    }
    pthread_mutex_unlock(&g.drain_lock);
    pthread_mutex_unlock(&g.lock);
}

size_t csampler_drain(csampler_visitor visit, void *context) {
    pthread_mutex_lock(&g.drain_lock);
    size_t visited = 0;
    if (g.ring) {
        uint64_t tail = atomic_load_explicit(&g.tail, memory_order_relaxed);
        uint64_t head = atomic_load_explicit(&g.head, memory_order_acquire);
        while (tail < head) {
            csampler_sample *s = (csampler_sample *)(g.ring + (tail & (g.capacity - 1)) * g.slot_size);
            // Claimed but still being written (its handler is running): later slots wait.
            if (atomic_load_explicit((_Atomic uint64_t *)&s->sequence, memory_order_acquire) != tail + 1) break;
            visit(s, context);
            visited++;
            tail++;
            atomic_store_explicit(&g.tail, tail, memory_order_release);
        }
    }
    pthread_mutex_unlock(&g.drain_lock);
    return visited;
}

csampler_stats csampler_get_stats(void) {
    csampler_stats s;
    s.signals = atomic_load(&g.signals);
    s.samples = atomic_load(&g.samples);
    s.dropped_full = atomic_load(&g.dropped_full);
    s.dropped_reentrant = atomic_load(&g.dropped_reentrant);
    s.paused = atomic_load(&g.paused);
    s.overruns = atomic_load(&g.overruns);
    s.unwind_failures = atomic_load(&g.unwind_failures);
    s.truncated = atomic_load(&g.truncated);
    s.contended = atomic_load(&g.contended);
    s.in_loader = atomic_load(&g.in_loader);
    s.threads = g.thread_count;
    s.timer = (uint32_t)g.timer_in_use;
    return s;
}

csampler_config csampler_get_config(void) { return g.config; }

uint64_t csampler_period_ns(void) { return g.period_ns; }
