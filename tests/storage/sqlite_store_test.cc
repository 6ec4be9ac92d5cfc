// What only the SQLite backend promises (the shared contract is in
// store_contract_test.cc): the file is stamped as ours and runs in WAL mode.

#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "storage/schema.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

class SqliteStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = testing::TestDatabase::Create(testing::Backend::kSqlite,
                                            "sqlite_store_test");
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    path_ = db_->url();
  }
  void Open() { ASSERT_TRUE(SqliteStore::Open(path_).ok()); }

  std::unique_ptr<testing::TestDatabase> db_;
  std::string path_;
};

TEST_F(SqliteStoreTest, SchemaIsStampedAndWalIsOn) {
  Open();
  SQLite::Database db(path_);
  EXPECT_EQ(db.execAndGet("PRAGMA application_id").getInt(), kApplicationId);
  EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(), SchemaVersion());
  EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
}

}  // namespace
}  // namespace mancala::storage
