#include "CStrataThread.h"

__thread void *strata_thread_engine = 0;
