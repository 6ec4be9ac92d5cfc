// How many store reads the move path costs a node that shares its database
// with others (PostgreSQL: every read is a round trip). The node here is a
// LiveMatches with move notices (none ever come), reading through a store
// that counts every read; it runs on either backend (test_database.h).
//
// The counts are the contract of the one-way move path (live_matches.h):
//   a move (no request id)            0 reads: the cache is the match;
//   a move with a request id          1 (the request id's earlier move);
//   a rated end (a resignation here)  1 (the players' ratings): who moved
//                                       themselves is kept in the cache;
//   a CPU turn                        0: the turn carries what the worker
//                                       needs (its creator).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "services/match/cpu_worker.h"
#include "services/match/live_matches.h"
#include "services/model/match_shape.h"
#include "tests/services/match/node_fixture.h"
#include "tests/support/forwarding_store.h"

namespace mancala::services {
namespace {

using storage::MatchStatus;
using storage::SeatRecord;

// Counts every read call (thread-safe: the CPU worker reads from its own
// threads).
class CountingStore final : public storage::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  int reads() const { return reads_.load(); }

  absl::StatusOr<storage::PlayerRecord> GetPlayer(
      const std::string& id) override {
    ++reads_;
    return ForwardingStore::GetPlayer(id);
  }
  absl::StatusOr<storage::MatchRecord> GetMatch(
      const std::string& id) override {
    ++reads_;
    return ForwardingStore::GetMatch(id);
  }
  absl::StatusOr<std::string> FindMatchByInviteCode(
      const std::string& code) override {
    ++reads_;
    return ForwardingStore::FindMatchByInviteCode(code);
  }
  absl::StatusOr<storage::MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) override {
    ++reads_;
    return ForwardingStore::FindMoveByRequestId(match_id, request_id);
  }
  absl::StatusOr<std::vector<storage::MoveRow>> ListMoves(
      const std::string& match_id, int64_t from_ply, int limit) override {
    ++reads_;
    return ForwardingStore::ListMoves(match_id, from_ply, limit);
  }
  absl::StatusOr<std::vector<storage::RatingRecord>> GetRatings(
      const std::string& game, const std::vector<std::string>& ids) override {
    ++reads_;
    return ForwardingStore::GetRatings(game, ids);
  }

 private:
  std::atomic<int> reads_{0};
};

class StoreReadsTest : public NodeTest {
 protected:
  void SetUp() override {
    NodeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    counting_ = std::make_unique<CountingStore>(*store_);
    matches_ = Node(*counting_, true);
  }

  // A Kalah match of p1 (seat 0, to move first) against `second`.
  MatchView Create(SeatRecord second, bool ranked) {
    NewMatch m;
    m.creator_id = "p1";
    m.ranked = ranked;
    EXPECT_TRUE(ShapeFromRequest("kalah", 2, "seats", {}, 0, &m.shape).ok());
    m.seats = {{SeatRecord::Kind::kPlayer, "p1", 0}, second};
    MatchView view;
    absl::Status s = matches_->Create(m, &view);
    EXPECT_TRUE(s.ok()) << s;
    return view;
  }

  // The seat to move plays its first legal pit; the reads it cost.
  int Move(MatchView& match, const std::string& request_id = "") {
    MoveRequest move;
    move.player_id = match.seats[match.to_move].seat.player_id;
    move.pit = match.legal_pits.at(0);
    move.expected_ply = match.ply;
    move.request_id = request_id;
    MoveReply reply;
    const int before = counting_->reads();
    absl::Status s = matches_->Play(match.id, move, &reply);
    EXPECT_TRUE(s.ok()) << s;
    match = reply.match;
    return counting_->reads() - before;
  }

  std::unique_ptr<CountingStore> counting_;
  std::unique_ptr<LiveMatches> matches_;  // After the stores.
};

TEST_F(StoreReadsTest, AMoveReadsNothingButItsRequestId) {
  MatchView match = Create({SeatRecord::Kind::kPlayer, "p2", 0}, false);
  EXPECT_EQ(Move(match), 0);
  EXPECT_EQ(Move(match, "r1"), 1);
  EXPECT_EQ(match.ply, 2);
}

TEST_F(StoreReadsTest, ARatedEndReadsOnlyTheRatings) {
  MatchView match = Create({SeatRecord::Kind::kPlayer, "p2", 0}, true);
  // Both players move themselves (Kalah pit 0 with 4 seeds never ends in
  // the store, so the turn passes each time).
  while (match.ply < 2 || match.to_move != 0) Move(match);
  const int before = counting_->reads();
  MatchView ended;
  ASSERT_TRUE(matches_->Resign(match.id, "p1", &ended).ok());
  EXPECT_EQ(counting_->reads() - before, 1);
  EXPECT_EQ(ended.status, MatchStatus::kFinished);  // Rated, not aborted.
  auto ratings = store_->GetRatings("kalah", {"p1", "p2"});
  ASSERT_TRUE(ratings.ok());
  ASSERT_EQ(ratings->size(), 2u);
  for (const storage::RatingRecord& r : *ratings) {
    EXPECT_EQ(r.games, 1) << r.player_id;
  }
}

TEST_F(StoreReadsTest, ARatedEndWithASeatThatNeverMovedItselfIsAborted) {
  MatchView match = Create({SeatRecord::Kind::kPlayer, "p2", 0}, true);
  Move(match);  // Pit 0: its 4 seeds end in pit 4, the turn passes.
  ASSERT_EQ(match.to_move, 1);
  MatchView ended;
  ASSERT_TRUE(matches_->Resign(match.id, "p1", &ended).ok());
  EXPECT_EQ(ended.status, MatchStatus::kAborted);  // p2 never moved.
}

TEST_F(StoreReadsTest, ACpuTurnReadsNothing) {
  MatchView match = Create({SeatRecord::Kind::kCpu, "", 1}, false);
  CpuWorker worker(*matches_, 1, {20, 20, 20, 20});
  matches_->SetCpuTurnListener(
      [&worker](CpuTurn turn) { worker.Enqueue(std::move(turn)); });
  const int before = counting_->reads();
  MoveRequest move;
  move.player_id = "p1";
  move.pit = 1;  // 4 seeds from pit 1 end in pit 5: the CPU's turn.
  MoveReply reply;
  ASSERT_TRUE(matches_->Play(match.id, move, &reply).ok());
  ASSERT_EQ(reply.match.to_move, 1);
  // Until the turn is back with p1, through Get(), whose own reads (a
  // catch-up each) are not the CPU turn's.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int get_reads = 0;
  MatchView now;
  for (;;) {
    const int at = counting_->reads();
    ASSERT_TRUE(matches_->Get(match.id, "", &now).ok());
    get_reads += counting_->reads() - at;
    if (now.ply > 1 && now.to_move == 0) break;
    ASSERT_LT(std::chrono::steady_clock::now(), end) << "no CPU move";
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(counting_->reads() - before - get_reads, 0)
      << "CPU plies: " << now.ply - 1;
  worker.Stop();
}

}  // namespace
}  // namespace mancala::services
