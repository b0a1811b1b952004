#ifndef STRATA_C_ALLOCATION_COUNTER_H
#define STRATA_C_ALLOCATION_COUNTER_H

/*
 * Counts malloc-family calls made by one thread, for tests that pin "no allocation per
 * frame". Linking this target into a process interposes malloc, calloc, realloc, free,
 * reallocarray, posix_memalign, aligned_alloc, memalign, valloc and pvalloc; they forward to glibc's
 * allocator. Counting is off until strata_alloc_counting_begin() and applies only to the
 * thread that called it (the counters and the switch are thread-local, no locks).
 *
 *     strata_alloc_counting_begin();
 *     work();
 *     strata_alloc_counting_end();
 *     unsigned long long n = strata_alloc_count();   // allocations made by work()
 */

#ifdef __cplusplus
extern "C" {
#endif

/// Zeroes this thread's counters and starts counting this thread's allocations.
void strata_alloc_counting_begin(void);

/// Stops counting this thread's allocations; the counters keep their values.
void strata_alloc_counting_end(void);

/// Allocation calls (malloc, calloc, realloc, memalign family) counted on this thread.
unsigned long long strata_alloc_count(void);

/// free calls with a non-null pointer counted on this thread.
unsigned long long strata_free_count(void);

/// Bytes requested by the counted allocation calls on this thread.
unsigned long long strata_alloc_bytes(void);

/// Whether the allocator is interposed in this process (1) or not (0): it allocates one
/// byte while counting and checks that the count moved.
int strata_alloc_counting_is_active(void);

/// Starts spacing this thread's allocations: before about one allocation in two, a held chunk
/// of 16 to 256 bytes (chosen by a generator seeded with `seed`), so what follows is laid out
/// otherwise in the heap. No effect under the sanitizers (no interposer).
void strata_alloc_spacing_begin(unsigned long long seed);

/// Stops spacing; the spacers stay allocated.
void strata_alloc_spacing_end(void);

/// Spacers this thread holds.
unsigned long long strata_alloc_spacer_count(void);

/// Frees this thread's spacers.
void strata_alloc_spacing_release(void);

#ifdef __cplusplus
}
#endif

#endif
