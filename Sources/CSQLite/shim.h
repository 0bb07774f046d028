/* SQLite from Debian's libsqlite3-dev, linked dynamically. static inline shims: no symbols. */
#ifndef BLINKENGAGE_CSQLITE_SHIM_H
#define BLINKENGAGE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import: SQLite copies the text. */
static inline int be_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

/* sqlite3_db_config is variadic, which Swift cannot call: the one option the store sets through it. With `on`, the
 * last connection's close leaves the WAL for the next open instead of copying it into the file (two fsyncs). */
static inline int be_sqlite3_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
#endif
