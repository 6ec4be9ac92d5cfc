// What only the SQLite backend promises (the shared contract is in
// store_contract_test.cc): the file is stamped as ours and runs in WAL mode,
// its WAL writes go out together and every commit is visible to another
// connection, and ":memory:" works on its single connection.

#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "storage/schema.h"
#include "storage/sqlite_connection.h"
#include "storage/store_metrics.h"
#include "storage/wal_write_vfs.h"
#include "tests/storage/store_test_fixture.h"

namespace mancala::storage {
namespace {

using SqliteStoreTest = StoreFileTest;

TEST_F(SqliteStoreTest, SchemaIsStampedAndWalIsOn) {
  Open();
  SQLite::Database db(path_);
  EXPECT_EQ(db.execAndGet("PRAGMA application_id").getInt(), kApplicationId);
  EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(), SchemaVersion());
  EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
}

// The writer's WAL goes through wal_write_vfs.h: a commit's frames (each a
// header and a page, two writes asked) go out in one write, and a
// connection of another VFS (as sqlite3 or a read-pool connection) sees
// each move as soon as its append has returned.
TEST_F(SqliteStoreTest, WalWritesGoOutTogetherAndEveryCommitIsVisible) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->CreateMatch(SampleMatch()).ok());
  SQLite::Database reader(path_, SQLite::OPEN_READONLY);
  const WalWriteStats before = GetWalWriteStats();
  constexpr int kMoves = 20;
  for (int ply = 1; ply <= kMoves; ++ply) {
    ASSERT_TRUE(store->AppendMove(Move(ply, (ply - 1) % 2, ply % 6), {}).ok());
    EXPECT_EQ(reader.execAndGet("SELECT ply FROM matches WHERE id = 'm1'")
                  .getInt64(),
              ply);
    EXPECT_EQ(reader.execAndGet("SELECT count(*) FROM moves WHERE "
                                "match_id = 'm1'")
                  .getInt64(),
              ply);
  }
  const WalWriteStats after = GetWalWriteStats();
  const int64_t asked = after.asked - before.asked;
  const int64_t written = after.written - before.written;
  EXPECT_GE(asked, 2 * kMoves);  // At least one frame per commit.
  EXPECT_LE(written, asked / 2) << asked << " writes asked";
  EXPECT_GE(written, kMoves);    // At least one write per commit.
  // One commit of far more WAL than one write may carry (the unix VFS
  // cuts a write of 128 KiB or more short): stored whole.
  MoveRow big = Move(kMoves + 1, kMoves % 2, 1);
  big.events.assign(300 * 1024, 'e');
  ASSERT_TRUE(store->AppendMove(big, {}).ok());
  store.reset();
  auto reopened = Open();
  ASSERT_NE(reopened, nullptr);
  EXPECT_EQ(reopened->GetMatch("m1")->ply, kMoves + 1);
  auto moves = reopened->ListMoves("m1", 1, 100);
  ASSERT_TRUE(moves.ok()) << moves.status();
  ASSERT_EQ(moves->size(), size_t{kMoves + 1});
  EXPECT_EQ(moves->back().events, big.events);
}

// ":memory:" has one connection: reads share the writer's.
TEST_F(SqliteStoreTest, InMemoryDatabaseWorksWithOneConnection) {
  auto store = SqliteStore::Open(":memory:");
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->CreateMatch(SampleMatch()).ok());
  ASSERT_TRUE((*store)->AppendMove(Move(1, 1, 2), {}).ok());
  EXPECT_TRUE(absl::IsAborted((*store)->AppendMove(Move(1, 1, 3), {})));
  EXPECT_EQ((*store)->GetMatch("m1")->ply, 1);
  EXPECT_EQ((*store)->ListMoves("m1", 1, 10)->at(0).pit, 2);
}

// SQLite's result codes as the store's statuses (sqlite_connection.h): a
// full disk is RESOURCE_EXHAUSTED, a lock held past the busy timeout
// UNAVAILABLE, a constraint ALREADY_EXISTS, the rest INTERNAL.
TEST(SqliteErrors, AFullDiskIsResourceExhaustedNotUnavailable) {
  const absl::Status full = FromException(
      SQLite::Exception("database or disk is full", SQLITE_FULL), "commit");
  EXPECT_TRUE(absl::IsResourceExhausted(full)) << full;
  EXPECT_EQ(std::string(FailureReason(full)), "full");
  EXPECT_TRUE(absl::IsUnavailable(FromException(
      SQLite::Exception("database is locked", SQLITE_BUSY), "write")));
  EXPECT_TRUE(absl::IsAlreadyExists(FromException(
      SQLite::Exception("UNIQUE constraint failed", SQLITE_CONSTRAINT),
      "write")));
  const absl::Status io =
      FromException(SQLite::Exception("disk I/O error", SQLITE_IOERR), "read");
  EXPECT_TRUE(absl::IsInternal(io)) << io;
  EXPECT_EQ(std::string(FailureReason(io)), "internal");
}

}  // namespace
}  // namespace mancala::storage
