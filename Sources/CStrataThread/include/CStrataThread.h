// The calling thread's engine, as a C thread-local the engine's thread checks read inline.
// A pthread key (pthread_getspecific) costs a call into libc on every property change; this
// read is one load from the thread pointer in an executable (the linker relaxes the access).
// The engine keeps its pthread key too, for the destructor that runs when a thread ends.
#ifndef STRATA_CSTRATATHREAD_H
#define STRATA_CSTRATATHREAD_H
#ifdef __cplusplus
extern "C" {
#endif
extern __thread void *strata_thread_engine;

/// This thread's engine (an unretained EngineContext), or NULL before its first use.
static inline void *strata_current_engine(void) { return strata_thread_engine; }

/// Sets (or clears, with NULL) this thread's engine.
static inline void strata_set_current_engine(void *engine) { strata_thread_engine = engine; }
#ifdef __cplusplus
}
#endif
#endif
