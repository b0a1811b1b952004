// Symbolization helpers, called after the run (never from the handler).
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "CSampler.h"

#include <dlfcn.h>
#include <libunwind.h>
#include <string.h>

static void copy(char *dst, size_t size, const char *src) {
    if (!dst || size == 0) return;
    if (!src) { dst[0] = 0; return; }
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

int csampler_dladdr(uintptr_t address, char *name, size_t name_size, char *path, size_t path_size,
                    uintptr_t *object_base, uintptr_t *symbol_address) {
    Dl_info info;
    memset(&info, 0, sizeof info);
    if (dladdr((void *)address, &info) == 0) {
        copy(name, name_size, NULL);
        copy(path, path_size, NULL);
        return 0;
    }
    copy(name, name_size, info.dli_sname);
    copy(path, path_size, info.dli_fname);
    if (object_base) *object_base = (uintptr_t)info.dli_fbase;
    if (symbol_address) *symbol_address = (uintptr_t)info.dli_saddr;
    return 1;
}

int csampler_proc_name(uintptr_t address, char *name, size_t name_size, uintptr_t *offset,
                       uintptr_t *function_start) {
    // The local address space's accessor reads the ELF file that maps `address` (found
    // through /proc/self/maps) and searches .symtab as well as .dynsym.
    unw_accessors_t *a = unw_get_accessors(unw_local_addr_space);
    if (!a || !a->get_proc_name || !name || name_size == 0) return 0;
    unw_word_t off = 0;
    name[0] = 0;
    csampler_libunwind_lock();
    int r = a->get_proc_name(unw_local_addr_space, (unw_word_t)address, name, name_size, &off, NULL);
    // -UNW_ENOMEM: the name was truncated to fit; still the right symbol.
    if (r != 0 && r != -UNW_ENOMEM) { csampler_libunwind_unlock(); return 0; }
    if (name[0] == 0) { csampler_libunwind_unlock(); return 0; }
    if (offset) *offset = (uintptr_t)off;
    // get_proc_name answers with the nearest symbol *below* the address, whatever its size:
    // in a stripped object, a local function takes its predecessor's name. The unwind info's
    // procedure range tells: when the procedure containing the address does not start at
    // that symbol, the name is not this function's.
    unw_proc_info_t pi;
    memset(&pi, 0, sizeof pi);
    if (function_start) *function_start = 0;
    int found = unw_get_proc_info_by_ip(unw_local_addr_space, (unw_word_t)address, &pi, NULL) == 0;
    csampler_libunwind_unlock();
    if (found && pi.start_ip != 0
        && pi.start_ip <= address && address < pi.end_ip && pi.start_ip != (unw_word_t)(address - off)) {
        if (function_start) *function_start = (uintptr_t)pi.start_ip;
        return 2;
    }
    return 1;
}
