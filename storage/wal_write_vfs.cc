#include "storage/wal_write_vfs.h"

#include <sqlite3.h>

#include <atomic>
#include <cstring>
#include <new>
#include <string>

namespace mancala::storage {
namespace {

constexpr char kName[] = "mancala-wal-write";
// A buffer this large is written out before it grows further: a large
// transaction still goes out in few writes, and each stays below what the
// unix VFS's xWrite takes at once (it masks a write's length to 17 bits, so
// one of 128 KiB or more comes out short, as SQLITE_FULL).
constexpr size_t kMaxPending = size_t{64} << 10;

sqlite3_vfs* real_vfs = nullptr;  // The default VFS, set once.
std::atomic<int64_t> asked{0};
std::atomic<int64_t> written{0};

// Our file: the default VFS's file follows it in the same allocation
// (szOsFile). `pending` is heap-held so the struct stays a plain C one.
struct File {
  sqlite3_file base;
  sqlite3_file* real;
  bool wal;
  std::string* pending;  // Contiguous bytes not yet written.
  sqlite3_int64 pending_at;
};

File* Of(sqlite3_file* f) { return reinterpret_cast<File*>(f); }
const sqlite3_io_methods* Real(File* f) { return f->real->pMethods; }

// Writes the buffer; its status (SQLITE_OK when empty).
int Flush(File* f) {
  if (f->pending == nullptr || f->pending->empty()) return SQLITE_OK;
  const int rc = Real(f)->xWrite(f->real, f->pending->data(),
                                 static_cast<int>(f->pending->size()),
                                 f->pending_at);
  written.fetch_add(1, std::memory_order_relaxed);
  f->pending->clear();
  return rc;
}

int Close(sqlite3_file* file) {
  File* f = Of(file);
  const int flushed = Flush(f);
  const int rc = Real(f)->xClose(f->real);
  delete f->pending;
  f->pending = nullptr;
  return flushed != SQLITE_OK ? flushed : rc;
}

int Write(sqlite3_file* file, const void* data, int amount,
          sqlite3_int64 offset) {
  File* f = Of(file);
  if (!f->wal) return Real(f)->xWrite(f->real, data, amount, offset);
  asked.fetch_add(1, std::memory_order_relaxed);
  std::string& pending = *f->pending;
  const bool follows =
      !pending.empty() &&
      offset == f->pending_at + static_cast<sqlite3_int64>(pending.size()) &&
      pending.size() + static_cast<size_t>(amount) <= kMaxPending;
  if (!follows) {
    if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
    f->pending_at = offset;
  }
  pending.append(static_cast<const char*>(data), static_cast<size_t>(amount));
  return SQLITE_OK;
}

// Every other call on the file sees it as written: the buffer goes first.
#define MANCALA_FLUSHED(call)                               \
  do {                                                      \
    File* f = Of(file);                                     \
    if (const int rc = Flush(f); rc != SQLITE_OK) return rc; \
    return Real(f)->call;                                   \
  } while (0)

int Read(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
  MANCALA_FLUSHED(xRead(f->real, data, amount, offset));
}
int Truncate(sqlite3_file* file, sqlite3_int64 size) {
  MANCALA_FLUSHED(xTruncate(f->real, size));
}
int Sync(sqlite3_file* file, int flags) {
  MANCALA_FLUSHED(xSync(f->real, flags));
}
int FileSize(sqlite3_file* file, sqlite3_int64* size) {
  MANCALA_FLUSHED(xFileSize(f->real, size));
}
int Lock(sqlite3_file* file, int level) {
  MANCALA_FLUSHED(xLock(f->real, level));
}
int Unlock(sqlite3_file* file, int level) {
  MANCALA_FLUSHED(xUnlock(f->real, level));
}
int CheckReservedLock(sqlite3_file* file, int* out) {
  MANCALA_FLUSHED(xCheckReservedLock(f->real, out));
}
int FileControl(sqlite3_file* file, int op, void* arg) {
  MANCALA_FLUSHED(xFileControl(f->real, op, arg));
}
int SectorSize(sqlite3_file* file) {
  File* f = Of(file);
  return Real(f)->xSectorSize(f->real);
}
int DeviceCharacteristics(sqlite3_file* file) {
  File* f = Of(file);
  return Real(f)->xDeviceCharacteristics(f->real);
}
int ShmMap(sqlite3_file* file, int region, int size, int extend,
           void volatile** out) {
  MANCALA_FLUSHED(xShmMap(f->real, region, size, extend, out));
}
int ShmLock(sqlite3_file* file, int offset, int n, int flags) {
  MANCALA_FLUSHED(xShmLock(f->real, offset, n, flags));
}
void ShmBarrier(sqlite3_file* file) {
  File* f = Of(file);
  Flush(f);  // Nothing to answer here; a failed write fails the next call.
  Real(f)->xShmBarrier(f->real);
}
int ShmUnmap(sqlite3_file* file, int delete_flag) {
  MANCALA_FLUSHED(xShmUnmap(f->real, delete_flag));
}
int Fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  MANCALA_FLUSHED(xFetch(f->real, offset, amount, out));
}
int Unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  MANCALA_FLUSHED(xUnfetch(f->real, offset, page));
}

#undef MANCALA_FLUSHED

// Version 3 (shared memory, memory-mapped reads), as the unix VFS's files;
// a real file of an older version leaves the newer entries unused.
const sqlite3_io_methods kMethods = {
    3,        Close,    Read,    Write,      Truncate,  Sync,
    FileSize, Lock,     Unlock,  CheckReservedLock,     FileControl,
    SectorSize,         DeviceCharacteristics,          ShmMap,
    ShmLock,  ShmBarrier, ShmUnmap, Fetch,   Unfetch};

int Open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags,
         int* out_flags) {
  File* f = Of(file);
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  f->wal = (flags & SQLITE_OPEN_WAL) != 0;
  f->pending = nullptr;
  f->pending_at = 0;
  f->base.pMethods = nullptr;
  const int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
  // SQLite calls xClose exactly when pMethods is set, failed open or not.
  if (f->real->pMethods != nullptr) {
    f->pending = new (std::nothrow) std::string();
    if (f->pending == nullptr) {
      f->real->pMethods->xClose(f->real);
      return SQLITE_NOMEM;
    }
    f->base.pMethods = &kMethods;
  }
  return rc;
}

sqlite3_vfs vfs;

}  // namespace

const char* RegisterWalWriteVfs() {
  static const bool registered = [] {
    real_vfs = sqlite3_vfs_find(nullptr);
    // Everything but opening a file is the default VFS's own (they read
    // nothing of the struct but its copied fields).
    vfs = *real_vfs;
    vfs.pNext = nullptr;
    vfs.zName = kName;
    vfs.szOsFile = static_cast<int>(sizeof(File)) + real_vfs->szOsFile;
    vfs.xOpen = Open;
    return sqlite3_vfs_register(&vfs, /*makeDflt=*/0) == SQLITE_OK;
  }();
  return registered ? kName : nullptr;
}

WalWriteStats GetWalWriteStats() {
  return {asked.load(std::memory_order_relaxed),
          written.load(std::memory_order_relaxed)};
}

}  // namespace mancala::storage
