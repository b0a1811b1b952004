// Checks of the link order's consequence: C++ exceptions must unwind through libgcc_s's
// `_Unwind_*`, not libunwind's (which `-lunwind` exports too and would win if linked first).
#include "CSampler.h"

#include <dlfcn.h>
#include <stdexcept>

namespace {
[[gnu::noinline]] void raise_at(int depth, int value) {
    if (depth == 0) throw std::runtime_error("csampler unwind check");
    raise_at(depth - 1, value);
    asm volatile("" ::: "memory");   // not a tail call: a real frame to unwind through
}
}

extern "C" int csampler_cxx_throw_catch(int count) {
    int caught = 0;
    for (int i = 0; i < count; i++) {
        try {
            raise_at(3 + (i & 3), i);
        } catch (const std::runtime_error &) {
            caught++;
        }
    }
    return caught;
}

extern "C" const char *csampler_unwind_raise_provider(void) {
    void *p = dlsym(RTLD_DEFAULT, "_Unwind_RaiseException");
    if (!p) return nullptr;
    Dl_info info;
    if (dladdr(p, &info) == 0 || !info.dli_fname) return nullptr;
    return info.dli_fname;
}
