// Two nodes' caches of one match (match_catch_up.cc): node B reads a match
// while node A appends a move between B's read of the match row and its
// read of the moves. B's cache must stay at the ply of the row it read
// (the move it also saw comes with the next catch-up), never fail with
// DATA_LOSS, never apply a move twice.
//
// Both nodes are LiveMatches on one store, in this process; B reads through
// a store that runs A's move just before B's next ListMoves, and has move
// notices (none ever come) so its reads catch up from the store as a
// PostgreSQL node's do. Runs on either backend (test_database.h).

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "services/match/live_matches.h"
#include "services/model/match_shape.h"
#include "tests/services/match/node_fixture.h"
#include "tests/support/forwarding_store.h"

namespace mancala::services {
namespace {

using storage::SeatRecord;

// Runs `before_list_moves` once, just before the next ListMoves; with
// `turn_time_left_ms` set, its match reads carry that time left to the
// turn, as a cluster's store does (storage::MatchRecord).
class InterleavingStore final : public storage::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  std::function<void()> before_list_moves;
  int64_t turn_time_left_ms = -1;

  absl::StatusOr<storage::MatchRecord> GetMatch(
      const std::string& id) override {
    auto m = ForwardingStore::GetMatch(id);
    if (m.ok() && turn_time_left_ms >= 0) {
      m->turn_time_left_ms = turn_time_left_ms;
    }
    return m;
  }

  absl::StatusOr<std::vector<storage::MoveRow>> ListMoves(
      const std::string& match_id, int64_t from_ply, int limit) override {
    if (before_list_moves) std::exchange(before_list_moves, nullptr)();
    return ForwardingStore::ListMoves(match_id, from_ply, limit);
  }
};

class CatchUpTest : public NodeTest {
 protected:
  void SetUp() override {
    NodeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    b_store_ = std::make_unique<InterleavingStore>(*store_);
    a_ = Node(*store_, false);
    b_ = Node(*b_store_, true);
    NewMatch m;
    m.creator_id = "p1";
    ASSERT_TRUE(ShapeFromRequest("kalah", 2, "seats", {}, 0, &m.shape).ok());
    for (const char* id : {"p1", "p2"}) {
      m.seats.push_back({SeatRecord::Kind::kPlayer, id, 0});
    }
    ASSERT_TRUE(a_->Create(m, &match_).ok());
  }

  // The player to move plays the first legal pit through node A.
  void MoveOnA() {
    MoveRequest move;
    move.player_id = match_.seats[match_.to_move].seat.player_id;
    move.pit = match_.legal_pits.at(0);
    move.expected_ply = match_.ply;
    MoveReply reply;
    absl::Status s = a_->Play(match_.id, move, &reply);
    ASSERT_TRUE(s.ok()) << s;
    match_ = reply.match;
  }

  MatchView GetOnB() {
    MatchView view;
    absl::Status s = b_->Get(match_.id, "", &view);
    EXPECT_TRUE(s.ok()) << s;
    return view;
  }

  std::unique_ptr<InterleavingStore> b_store_;
  std::unique_ptr<LiveMatches> a_, b_;  // After the stores: destroyed first.
  MatchView match_;                     // As node A last answered.
};

TEST_F(CatchUpTest, AMoveAppendedDuringACatchUpWaitsForTheNextOne) {
  MoveOnA();
  ASSERT_EQ(GetOnB().ply, 1);  // B holds the match at ply 1.
  MoveOnA();
  const MatchView at_2 = match_;
  b_store_->before_list_moves = [this] { MoveOnA(); };  // Ply 3, mid-read.
  const MatchView read = GetOnB();
  EXPECT_EQ(read.ply, 2);  // The ply of the match row B read.
  EXPECT_EQ(read.board, at_2.board);
  EXPECT_EQ(read.to_move, at_2.to_move);
  ASSERT_EQ(match_.ply, 3);
  const MatchView next = GetOnB();
  EXPECT_EQ(next.ply, 3);
  EXPECT_EQ(next.board, match_.board);
  EXPECT_EQ(next.legal_pits, match_.legal_pits);
}

TEST_F(CatchUpTest, AMoveAppendedDuringALoadIsAppliedOnce) {
  MoveOnA();
  MoveOnA();
  // B loads the match (row at ply 2) and reads its moves after A's ply 3.
  b_store_->before_list_moves = [this] { MoveOnA(); };
  const MatchView read = GetOnB();
  ASSERT_EQ(match_.ply, 3);
  EXPECT_EQ(read.ply, 3);
  EXPECT_EQ(read.board, match_.board);
  EXPECT_EQ(read.to_move, match_.to_move);
  EXPECT_EQ(read.legal_pits, match_.legal_pits);
}

// A node that loads a match, or catches up with its start, counts the
// running turn down from the store's time left, not from a full turn at
// its read (turn_clock.h rule 7): every node shows the instant the store's
// sweep times the turn out at.
TEST_F(CatchUpTest, ANodeCountsTheTurnItFindsFromTheStoresTimeLeft) {
  NewMatch m;
  m.creator_id = "p1";
  ASSERT_TRUE(ShapeFromRequest("kalah", 2, "seats", {}, 30, &m.shape).ok());
  m.seats = {{SeatRecord::Kind::kPlayer, "p1", 0},
             {SeatRecord::Kind::kOpen, "", 0}};
  MatchView waiting;
  ASSERT_TRUE(a_->Create(m, &waiting).ok());
  MatchView on_b;
  ASSERT_TRUE(b_->Get(waiting.id, "", &on_b).ok());  // Cached, waiting.
  EXPECT_FALSE(on_b.turn_deadline_ms.has_value());

  MatchView started;
  ASSERT_TRUE(a_->Join(waiting.invite_code, std::nullopt, "p2", &started).ok());
  ASSERT_EQ(started.turn_deadline_ms, clock_.NowMs() + 30'000);
  clock_.AdvanceMs(5'000);  // B catches up with the start 5 s into it.
  b_store_->turn_time_left_ms = 24'993;
  ASSERT_TRUE(b_->Get(waiting.id, "", &on_b).ok());
  EXPECT_EQ(on_b.turn_deadline_ms, clock_.NowMs() + 24'993);

  clock_.AdvanceMs(5'000);  // A third node loads it 10 s into the turn.
  InterleavingStore c_store(*store_);
  c_store.turn_time_left_ms = 19'991;
  auto c = Node(c_store, true);
  MatchView on_c;
  ASSERT_TRUE(c->Get(waiting.id, "", &on_c).ok());
  EXPECT_EQ(on_c.turn_deadline_ms, clock_.NowMs() + 19'991);
  // Without a time left from the store (one node alone): a full turn.
  auto d = Node(*store_, false);
  MatchView on_d;
  ASSERT_TRUE(d->Get(waiting.id, "", &on_d).ok());
  EXPECT_EQ(on_d.turn_deadline_ms, clock_.NowMs() + 30'000);
}

}  // namespace
}  // namespace mancala::services
