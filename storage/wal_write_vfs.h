// A SQLite VFS that writes each run of contiguous write-ahead-log writes
// with one pwrite(2) instead of one per piece.
//
// Why: SQLite writes a WAL frame as two writes (its 24-byte header, then
// the page), so a commit of F frames made 2F system calls. On the 2-core
// VM of issue 28 a system call cost about 5 us and these were 5.2 of the
// 16.5 system calls per durable move. Here the WAL file's writes are kept
// in a buffer while each starts where the previous one ended, and written
// at once by the next call on that file of any other kind (xSync first of
// all: a commit's frames go out in one write just before their sync).
//
// Why this is safe: a WAL frame is only visible to readers once the
// wal-index header says so, and with synchronous=FULL (the store's
// setting) SQLite syncs the log, which writes the buffer, before it
// updates that header; SQLite's own later reads of the log (a spilled
// page, a checkpoint) write the buffer first. A crash loses what was
// buffered, as it would lose written but unsynced pages. A failed write
// is answered by the call that wrote the buffer (the sync of a commit,
// which then fails as for any I/O error). Only files opened as a WAL
// (SQLITE_OPEN_WAL) are buffered; the others pass straight through to the
// default VFS, whose locking and shared memory are used unchanged.
// Not for synchronous=OFF or NORMAL, where a commit publishes frames
// without a sync.
//
// Thread safety: RegisterWalWriteVfs() from any thread (registers once);
// a file is used as SQLite uses it (one connection at a time).

#ifndef MANCALA_STORAGE_WAL_WRITE_VFS_H_
#define MANCALA_STORAGE_WAL_WRITE_VFS_H_

#include <cstdint>

namespace mancala::storage {

// Registers the VFS (not as the default) and returns its name, for
// sqlite3_open_v2 (SQLiteCpp's Database `vfs` argument).
const char* RegisterWalWriteVfs();

// Writes asked of WAL files through the VFS, and pwrite(2) calls made for
// them, since the process started (tests, benchmarks).
struct WalWriteStats {
  int64_t asked = 0;
  int64_t written = 0;
};
WalWriteStats GetWalWriteStats();

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_WAL_WRITE_VFS_H_
