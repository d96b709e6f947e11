// The system SQLite from Debian's libsqlite3-dev (no vendored source).
#include <sqlite3.h>
