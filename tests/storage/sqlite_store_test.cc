// What only the SQLite backend promises (the shared contract is in
// store_contract_test.cc): the file is stamped as ours and runs in WAL mode,
// and ":memory:" works on its single connection.

#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "storage/schema.h"
#include "storage/sqlite_connection.h"
#include "storage/store_metrics.h"
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
