// SqliteStore against a temporary database file: records round-trip, the
// conditional append refuses stale plies, and a reopened file restores
// everything exactly.

#include "storage/sqlite_store.h"

#include <filesystem>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "storage/schema.h"

namespace mancala::storage {
namespace {

class SqliteStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("mancala_store_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "test.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<SqliteStore> Open() {
    auto store = SqliteStore::Open(path_);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  static MatchRecord SampleMatch() {
    MatchRecord m;
    m.id = "m1";
    m.game = "kalah";
    m.options = {{"seeds", "5"}, {"end_rule", "any_side_empty"}};
    m.seats = {{SeatRecord::Kind::kPlayer, "p1", 0},
               {SeatRecord::Kind::kCpu, "", 3}};
    m.first_seat = 1;
    m.created_by = "p1";
    m.created_at_ms = m.updated_at_ms = 1000;
    return m;
  }

  static MoveRow Move(int64_t ply, int seat, int pit) {
    MoveRow r;
    r.match_id = "m1";
    r.ply = ply;
    r.seat = seat;
    r.pit = pit;
    r.by_cpu = seat == 1;
    r.played_at_ms = 1000 + ply;
    r.events = std::string("ev\0") + std::to_string(ply);  // Binary-safe.
    return r;
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(SqliteStoreTest, PlayerRoundTripsAndTokenHashIsUnique) {
  auto store = Open();
  PlayerRecord p{"p1", "Ada", false, "hash1", 42};
  ASSERT_TRUE(store->CreatePlayer(p).ok());
  auto got = store->FindPlayerByTokenHash("hash1");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->id, "p1");
  EXPECT_EQ(got->display_name, "Ada");
  EXPECT_EQ(got->created_at_ms, 42);
  PlayerRecord dup{"p2", "Bob", true, "hash1", 43};
  EXPECT_TRUE(absl::IsAlreadyExists(store->CreatePlayer(dup)));
  EXPECT_TRUE(absl::IsNotFound(store->GetPlayer("nobody").status()));
  EXPECT_TRUE(absl::IsNotFound(store->FindPlayerByTokenHash("x").status()));
}

TEST_F(SqliteStoreTest, AppendMoveIsConditionalOnThePly) {
  auto store = Open();
  ASSERT_TRUE(store->CreateMatch(SampleMatch()).ok());
  ASSERT_TRUE(store->AppendMove(Move(1, 1, 2), {}).ok());
  // The same ply again (a duplicate) and a ply from the future are refused.
  EXPECT_TRUE(absl::IsAborted(store->AppendMove(Move(1, 1, 3), {})));
  EXPECT_TRUE(absl::IsAborted(store->AppendMove(Move(3, 0, 0), {})));
  EXPECT_TRUE(absl::IsNotFound(
      store->AppendMove(MoveRow{"nope", 1, 0, 0, false, 0, ""}, {})));
  auto moves = store->ListMoves("m1", 1, 100);
  ASSERT_TRUE(moves.ok());
  ASSERT_EQ(moves->size(), 1u);
  EXPECT_EQ((*moves)[0].pit, 2);
  EXPECT_EQ(store->GetMatch("m1")->ply, 1);
}

TEST_F(SqliteStoreTest, ReopenedDatabaseRestoresTheMatchExactly) {
  MatchRecord m = SampleMatch();
  {
    auto store = Open();
    ASSERT_TRUE(store->CreateMatch(m).ok());
    ASSERT_TRUE(store->AppendMove(Move(1, 1, 2), {}).ok());
    ASSERT_TRUE(store->AppendMove(Move(2, 0, 5), {}).ok());
    MatchUpdate end{MatchStatus::kFinished, 5000, std::string("r\0s", 3)};
    ASSERT_TRUE(store->AppendMove(Move(3, 0, -1), end).ok());
  }
  auto store = Open();
  auto got = store->GetMatch("m1");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->game, "kalah");
  EXPECT_EQ(got->options, m.options);
  ASSERT_EQ(got->seats.size(), 2u);
  EXPECT_EQ(got->seats[0].player_id, "p1");
  EXPECT_EQ(got->seats[1].kind, SeatRecord::Kind::kCpu);
  EXPECT_EQ(got->seats[1].cpu_level, 3);
  EXPECT_EQ(got->first_seat, 1);
  EXPECT_EQ(got->ply, 3);
  EXPECT_EQ(got->status, MatchStatus::kFinished);
  EXPECT_EQ(got->ended_at_ms, 5000);
  EXPECT_EQ(got->result, std::string("r\0s", 3));
  auto moves = store->ListMoves("m1", 2, 100);
  ASSERT_TRUE(moves.ok());
  ASSERT_EQ(moves->size(), 2u);
  EXPECT_EQ((*moves)[0].ply, 2);
  EXPECT_EQ((*moves)[0].pit, 5);
  EXPECT_EQ((*moves)[0].events, Move(2, 0, 5).events);
  EXPECT_EQ((*moves)[1].pit, -1);
  EXPECT_TRUE(store->ListMatchIds(MatchStatus::kInProgress)->empty());
  EXPECT_EQ(*store->ListMatchIds(MatchStatus::kFinished),
            std::vector<std::string>{"m1"});
}

TEST_F(SqliteStoreTest, SchemaIsStampedAndWalIsOn) {
  Open();
  SQLite::Database db(path_);
  EXPECT_EQ(db.execAndGet("PRAGMA application_id").getInt(), kApplicationId);
  EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(), SchemaVersion());
  EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
}

TEST_F(SqliteStoreTest, NewerSchemaIsRefused) {
  Open();
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    db.exec("PRAGMA user_version = 999");
  }
  auto store = SqliteStore::Open(path_);
  EXPECT_TRUE(absl::IsFailedPrecondition(store.status())) << store.status();
}

TEST_F(SqliteStoreTest, ForeignDatabaseIsRefused) {
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE t (x); PRAGMA user_version = 3");
  }
  auto store = SqliteStore::Open(path_);
  EXPECT_TRUE(absl::IsFailedPrecondition(store.status())) << store.status();
}

}  // namespace
}  // namespace mancala::storage
