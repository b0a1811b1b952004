/*
 * Interposes the malloc family by defining the symbols in the test executable; the dynamic
 * linker then binds every caller (libswiftCore, Foundation, libc itself) to these. Each one
 * forwards to glibc's own entry points (__libc_malloc ...), which needs no dlsym and so has
 * no bootstrap problem (dlsym and TLS setup may call calloc before anything is resolved).
 *
 * The counters are initial-exec thread-locals: reading them never calls __tls_get_addr,
 * which could itself allocate and recurse.
 */
#define _GNU_SOURCE 1
#include "CAllocationCounter.h"

#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

#define STRATA_TLS __thread __attribute__((tls_model("initial-exec")))
#define STRATA_EXPORT __attribute__((visibility("default"), used))

/* Bit COUNTING: allocations are counted; bit SPACING: spacers are added (below). One flag
 * word, so the interposer's fast path tests one thread-local, as it did before spacing. */
enum { COUNTING = 1, SPACING = 2 };
static STRATA_TLS int counting;
static STRATA_TLS unsigned long long alloc_calls;
static STRATA_TLS unsigned long long free_calls;
static STRATA_TLS unsigned long long alloc_bytes;

/* Spacing (strata_alloc_spacing_begin): before an allocation, now and then a small chunk of
 * its own is allocated and held, so the chunks that follow land elsewhere and free chunks are
 * reused in another order. The spacers are kept in a list of their own (allocated with
 * __libc_malloc, never through the interposer) until strata_alloc_spacing_release. */
static STRATA_TLS unsigned long long spacing;   /* xorshift state */
static STRATA_TLS void **spacers;
static STRATA_TLS size_t spacer_count, spacer_capacity;

static void add_spacer(void) {
    unsigned long long x = spacing;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    spacing = x;
    if ((x & 1) == 0) return;                     /* one allocation in two gets a spacer */
    if (spacer_count == spacer_capacity) {
        size_t grown = spacer_capacity ? spacer_capacity * 2 : 4096;
        void **list = __libc_realloc(spacers, grown * sizeof(void *));
        if (list == NULL) return;
        spacers = list;
        spacer_capacity = grown;
    }
    void *spacer = __libc_malloc(16 * (1 + ((x >> 8) & 15)));   /* 16 to 256 bytes */
    if (spacer != NULL) spacers[spacer_count++] = spacer;
}

static inline void note_alloc(size_t size) {
    if (__builtin_expect(counting, 0)) {
        if (counting & SPACING) add_spacer();
        if (counting & COUNTING) {
            alloc_calls += 1;
            alloc_bytes += size;
        }
    }
}

void strata_alloc_spacing_begin(unsigned long long seed) {
    spacing = seed * 0x9E3779B97F4A7C15ull | 1;
    counting |= SPACING;
}

void strata_alloc_spacing_end(void) { counting &= ~SPACING; }

unsigned long long strata_alloc_spacer_count(void) { return spacer_count; }

void strata_alloc_spacing_release(void) {
    for (size_t i = 0; i < spacer_count; i++) __libc_free(spacers[i]);
    spacer_count = 0;
}

void strata_alloc_counting_begin(void) {
    alloc_calls = 0;
    free_calls = 0;
    alloc_bytes = 0;
    counting |= COUNTING;
}

void strata_alloc_counting_end(void) { counting &= ~COUNTING; }

unsigned long long strata_alloc_count(void) { return alloc_calls; }

unsigned long long strata_free_count(void) { return free_calls; }

unsigned long long strata_alloc_bytes(void) { return alloc_bytes; }

int strata_alloc_counting_is_active(void) {
    int was = counting;
    unsigned long long calls = alloc_calls, frees = free_calls, bytes = alloc_bytes;
    counting = COUNTING;
    unsigned long long before = alloc_calls;
    /* strdup allocates inside libc, so this sees whether other libraries reach our
     * malloc; a direct call from this file would bind here whether or not we interpose.
     * Called through a volatile pointer so the compiler cannot turn it into malloc+memcpy
     * and then drop the unused malloc/free pair. */
    char *(*volatile duplicate)(const char *) = strdup;
    char *probe = duplicate("x");
    int active = alloc_calls != before;
    free(probe);
    alloc_calls = calls; free_calls = frees; alloc_bytes = bytes;
    counting = was;
    return active;
}

/* Under AddressSanitizer or ThreadSanitizer the sanitizer's runtime owns the malloc family
 * (and calls malloc before it is initialised): no interposer then, and no counts
 * (strata_alloc_counting_is_active() says so; the allocation tests are not part of the
 * sanitizer runs, scripts/sanitize). */
#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define STRATA_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define STRATA_SANITIZED 1
#endif

#ifndef STRATA_SANITIZED
STRATA_EXPORT void *malloc(size_t size) {
    note_alloc(size);
    return __libc_malloc(size);
}

STRATA_EXPORT void *calloc(size_t count, size_t size) {
    note_alloc(count * size);
    return __libc_calloc(count, size);
}

STRATA_EXPORT void *realloc(void *pointer, size_t size) {
    note_alloc(size);
    return __libc_realloc(pointer, size);
}

STRATA_EXPORT void *reallocarray(void *pointer, size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(pointer, bytes);
}

STRATA_EXPORT void free(void *pointer) {
    if (pointer != NULL && __builtin_expect(counting & COUNTING, 0)) {
        free_calls += 1;
    }
    __libc_free(pointer);
}

STRATA_EXPORT void *memalign(size_t alignment, size_t size) {
    note_alloc(size);
    return __libc_memalign(alignment, size);
}

STRATA_EXPORT void *aligned_alloc(size_t alignment, size_t size) {
    note_alloc(size);
    return __libc_memalign(alignment, size);
}

STRATA_EXPORT int posix_memalign(void **result, size_t alignment, size_t size) {
    /* POSIX: a power of two and a multiple of sizeof(void *), else EINVAL. */
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) {
        return EINVAL;
    }
    note_alloc(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

STRATA_EXPORT void *valloc(size_t size) {
    note_alloc(size);
    return __libc_valloc(size);
}

STRATA_EXPORT void *pvalloc(size_t size) {
    note_alloc(size);
    return __libc_pvalloc(size);
}
#endif /* STRATA_SANITIZED */
