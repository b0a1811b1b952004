// Debian's libsqlite3-dev (installed by scripts/setup): the benchmark history store.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift does not import:
// bound text is copied by SQLite before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
