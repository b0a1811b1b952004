// SIGINT and SIGTERM as a request to stop: a long profiling run checks the request between
// iterations and writes what it finished. The handler only stores the signal's number
// (async-signal-safe); SA_RESETHAND gives the signal its default action back, so a second
// Ctrl-C ends the process at once.
#define _GNU_SOURCE 1
#include "CSampler.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) { stop_signal = sig; }

int csampler_catch_stop_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    stop_signal = 0;
    if (sigaction(SIGINT, &sa, NULL) != 0) return -1;
    if (sigaction(SIGTERM, &sa, NULL) != 0) return -1;
    return 0;
}

int csampler_stop_signal(void) { return stop_signal; }

void csampler_release_stop_signals(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

#include <malloc.h>

int csampler_malloc_trim(void) { return malloc_trim(0); }
