// SQLite 3, the studio's run history (Debian: libsqlite3-dev).
#include <sqlite3.h>
