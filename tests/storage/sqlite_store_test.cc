// SqliteStore against a temporary database file: records round-trip, the
// conditional append refuses stale plies, and a reopened file restores
// everything exactly.

#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "storage/schema.h"
#include "tests/storage/store_test_fixture.h"

namespace mancala::storage {
namespace {

using SqliteStoreTest = StoreFileTest;

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
  MoveRow unknown = Move(1, 0, 0);
  unknown.match_id = "nope";
  EXPECT_TRUE(absl::IsNotFound(store->AppendMove(unknown, {})));
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
    MatchUpdate end;
    end.status = MatchStatus::kFinished;
    end.ended_at_ms = 5000;
    end.result = std::string("r\0s", 3);
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

TEST_F(SqliteStoreTest, ARatedEndIsWrittenWholeOrNotAtAll) {
  auto store = Open();
  ASSERT_TRUE(store->CreateMatch(SampleMatch()).ok());
  ASSERT_TRUE(store->AppendMove(Move(1, 1, 2), {}).ok());
  MatchUpdate end;
  end.status = MatchStatus::kFinished;
  end.ended_at_ms = 9000;
  RatingChange c;
  c.match_id = "m1";
  c.player_id = "p1";
  c.game = "kalah";
  c.before = {1500, 350, 0.06};
  c.after = {1662, 290, 0.06};
  end.rating_changes = {c, c};  // The second insert fails midway.
  end.new_ratings = {{"p1", "kalah", c.after, 1, 9000}};
  EXPECT_FALSE(store->AppendMove(Move(2, 0, 0), end).ok());
  // Nothing of it happened: no move, no end, no rating.
  EXPECT_EQ(store->GetMatch("m1")->ply, 1);
  EXPECT_EQ(store->GetMatch("m1")->status, MatchStatus::kInProgress);
  EXPECT_EQ(store->ListMoves("m1", 1, 10)->size(), 1u);
  EXPECT_TRUE(store->GetRatings("kalah", {"p1"})->empty());
  EXPECT_TRUE(store->ListMatchRatingChanges("m1")->empty());
  // The same end without the fault is written whole.
  end.rating_changes = {c};
  absl::Status retry = store->AppendMove(Move(2, 0, 0), end);
  ASSERT_TRUE(retry.ok()) << retry;
  auto ratings = store->GetRatings("kalah", {"p1"});
  ASSERT_EQ(ratings->size(), 1u);
  EXPECT_EQ((*ratings)[0].value.rating, 1662);
  EXPECT_EQ(store->ListMatchRatingChanges("m1")->size(), 1u);
  EXPECT_EQ(store->GetMatch("m1")->status, MatchStatus::kFinished);
}

TEST_F(SqliteStoreTest, ListMatchesPagesNewestFirstByPlayer) {
  auto store = Open();
  for (int i = 0; i < 7; ++i) {
    MatchRecord m = SampleMatch();
    m.id = "m" + std::to_string(i);
    m.created_at_ms = 1000 + i / 2;  // Pairs share a time: ids break ties.
    m.seats[0].player_id = i % 2 ? "p1" : "p2";
    ASSERT_TRUE(store->CreateMatch(m).ok());
  }
  MatchFilter f;
  f.player_id = "p1";
  auto page = store->ListMatches(f, std::nullopt, 2);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 2u);
  EXPECT_EQ((*page)[0].id, "m5");
  EXPECT_EQ((*page)[1].id, "m3");
  auto next = store->ListMatches(
      f, Cursor{(*page)[1].created_at_ms, (*page)[1].id}, 10);
  ASSERT_EQ(next->size(), 1u);
  EXPECT_EQ((*next)[0].id, "m1");
  MatchFilter all;
  auto everything = store->ListMatches(all, std::nullopt, 100);
  ASSERT_EQ(everything->size(), 7u);
  EXPECT_EQ((*everything)[0].id, "m6");
  EXPECT_EQ((*everything)[1].id, "m5");
  EXPECT_EQ((*everything)[2].id, "m4");
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

}  // namespace
}  // namespace mancala::storage
