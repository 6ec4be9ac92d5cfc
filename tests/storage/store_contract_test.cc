// The Store contract (storage/store.h), run against every backend: SQLite
// always, PostgreSQL when MANCALA_TEST_PG_DSN names a server (a failure under
// CI=true if it does not). Records round-trip, the conditional append refuses
// stale plies, a reopened store restores everything exactly, foreign and
// newer schemas are refused, and two writers on one database (two
// processes, on PostgreSQL) never both win the same ply.

#include <gtest/gtest.h>

#include <barrier>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "storage/open_store.h"
#include "tests/storage/store_test_fixture.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

using ::mancala::testing::Backend;

class StoreContract : public testing::BackendTest {
 protected:
  absl::StatusOr<std::unique_ptr<Store>> TryOpen() {
    StoreOptions options;
    options.pool_size = 4;
    auto opened = OpenStore(db_->url(), options);
    if (!opened.ok()) return opened.status();
    return std::move(opened->store);
  }
  std::unique_ptr<Store> Open() {
    auto store = TryOpen();
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  // A second writer on the same database, as another mancalad would be. On
  // PostgreSQL a second store of its own (own connections); SQLite allows
  // one server per database, so there a second store is refused and the
  // writers are two threads on `first`.
  Store* SecondWriter(Store* first) {
    auto second = TryOpen();
    if (GetParam() == Backend::kSqlite) {
      EXPECT_TRUE(absl::IsFailedPrecondition(second.status()))
          << second.status();
      return first;
    }
    EXPECT_TRUE(second.ok()) << second.status();
    if (!second.ok()) return first;
    second_ = *std::move(second);
    return second_.get();
  }

  static MatchRecord SampleMatch(const std::string& id = "m1") {
    return storage::SampleMatch(id);
  }
  static MoveRow Move(int64_t ply, int seat, int pit,
                      const std::string& match = "m1") {
    return SampleMove(ply, seat, pit, match);
  }

  std::unique_ptr<Store> second_;
};

TEST_P(StoreContract, PlayerRoundTripsAndTokenHashIsUnique) {
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

TEST_P(StoreContract, AppendMoveIsConditionalOnThePly) {
  auto store = Open();
  ASSERT_TRUE(store->CreateMatch(SampleMatch()).ok());
  ASSERT_TRUE(store->AppendMove(Move(1, 1, 2), {}).ok());
  // The same ply again (a duplicate) and a ply from the future are refused.
  const absl::Status again = store->AppendMove(Move(1, 1, 3), {});
  EXPECT_TRUE(absl::IsAborted(again)) << again;
  // The same words on every backend (append_refusal.h).
  EXPECT_EQ(again.message(), "match m1 is at ply 1, not 0");
  const absl::Status ahead = store->AppendMove(Move(3, 0, 0), {});
  EXPECT_TRUE(absl::IsAborted(ahead)) << ahead;
  EXPECT_EQ(ahead.message(), "match m1 is at ply 1, not 2");
  MoveRow unknown = Move(1, 0, 0);
  unknown.match_id = "nope";
  EXPECT_TRUE(absl::IsNotFound(store->AppendMove(unknown, {})));
  auto moves = store->ListMoves("m1", 1, 100);
  ASSERT_TRUE(moves.ok());
  ASSERT_EQ(moves->size(), 1u);
  EXPECT_EQ((*moves)[0].pit, 2);
  EXPECT_EQ(store->GetMatch("m1")->ply, 1);
}

// AppendMoveAsync answers what AppendMove would, once, and an OK means the
// move is stored: readable from the moment `done` runs.
TEST_P(StoreContract, AppendMoveAsyncAnswersAsAppendMoveOnce) {
  auto store = Open();
  ASSERT_TRUE(store->CreateMatch(SampleMatch()).ok());
  struct Answer {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<absl::Status> statuses;
    std::vector<size_t> moves_seen;
  } answer;
  auto append = [&](MoveRow row) {
    store->AppendMoveAsync(row, {}, [&](absl::Status s) {
      const size_t seen = store->ListMoves("m1", 1, 100)->size();
      std::lock_guard lock(answer.mu);
      answer.statuses.push_back(std::move(s));
      answer.moves_seen.push_back(seen);
      answer.cv.notify_all();
    });
    std::unique_lock lock(answer.mu);
    answer.cv.wait(lock, [&] { return !answer.statuses.empty(); });
    absl::Status s = answer.statuses.back();
    EXPECT_EQ(answer.statuses.size(), 1u);
    answer.statuses.clear();
    return s;
  };
  EXPECT_TRUE(append(Move(1, 1, 2)).ok());
  EXPECT_EQ(answer.moves_seen.back(), 1u);              // Stored before `done`.
  EXPECT_TRUE(absl::IsAborted(append(Move(1, 1, 3))));  // Ply 1 again.
  EXPECT_TRUE(absl::IsAborted(append(Move(3, 0, 0))));  // From the future.
  EXPECT_TRUE(append(Move(2, 0, 4)).ok());
  EXPECT_EQ(answer.moves_seen.back(), 2u);
  MoveRow unknown = Move(1, 0, 0);
  unknown.match_id = "nope";
  EXPECT_TRUE(absl::IsNotFound(append(unknown)));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::lock_guard lock(answer.mu);
  EXPECT_TRUE(answer.statuses.empty());  // No second answer came.
  EXPECT_EQ(store->GetMatch("m1")->ply, 2);
}

TEST_P(StoreContract, ReopenedDatabaseRestoresTheMatchExactly) {
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

TEST_P(StoreContract, ARatedEndIsWrittenWholeOrNotAtAll) {
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

TEST_P(StoreContract, ListMatchesPagesNewestFirstByPlayer) {
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

// Seats come with the match, in seat order, each player's with the name it
// has now (one query per listed page, not one per match).
TEST_P(StoreContract, MatchesAreReadWithTheirSeatsInOrderAndPlayersNames) {
  auto store = Open();
  ASSERT_TRUE(store->CreatePlayer({"p1", "Ada", false, "h1", 1}).ok());
  ASSERT_TRUE(store->CreatePlayer({"p2", "Bo", false, "h2", 1}).ok());
  MatchRecord m = SampleMatch();
  m.seats = {{SeatRecord::Kind::kPlayer, "p2", 0},
             {SeatRecord::Kind::kCpu, "", 3},
             {SeatRecord::Kind::kOpen, "", 0},
             {SeatRecord::Kind::kPlayer, "p1", 0}};
  ASSERT_TRUE(store->CreateMatch(m).ok());
  auto listed = store->ListMatches(MatchFilter{}, std::nullopt, 10);
  ASSERT_TRUE(listed.ok()) << listed.status();
  ASSERT_EQ(listed->size(), 1u);
  auto got = store->GetMatch("m1");
  ASSERT_TRUE(got.ok()) << got.status();
  for (const MatchRecord& r : {listed->front(), *got}) {
    ASSERT_EQ(r.seats.size(), 4u);
    EXPECT_EQ(r.seats[0].player_id, "p2");
    EXPECT_EQ(r.seats[0].display_name, "Bo");
    EXPECT_EQ(r.seats[1].kind, SeatRecord::Kind::kCpu);
    EXPECT_EQ(r.seats[1].cpu_level, 3);
    EXPECT_EQ(r.seats[2].kind, SeatRecord::Kind::kOpen);
    EXPECT_EQ(r.seats[2].display_name, "");
    EXPECT_EQ(r.seats[3].player_id, "p1");
    EXPECT_EQ(r.seats[3].display_name, "Ada");
  }
}

TEST_P(StoreContract, NewerSchemaIsRefused) {
  Open();
  ASSERT_TRUE(db_->MarkNewerSchema().ok());
  auto store = TryOpen();
  EXPECT_TRUE(absl::IsFailedPrecondition(store.status())) << store.status();
}

TEST_P(StoreContract, ForeignDatabaseIsRefused) {
  ASSERT_TRUE(db_->AddForeignTable().ok());
  auto store = TryOpen();
  EXPECT_TRUE(absl::IsFailedPrecondition(store.status())) << store.status();
}

// CreateMatch request ids: one match per (creator, id), found again after
// a reopen with its fingerprint; another creator's equal id is its own.
TEST_P(StoreContract, ARequestIdMakesOneMatchPerCreator) {
  MatchRecord m = SampleMatch("m1");
  m.request_id = "r-1";
  m.request_hash = "hash-a";
  {
    auto store = Open();
    ASSERT_TRUE(store->CreateMatch(m).ok());
    MatchRecord again = SampleMatch("m2");
    again.request_id = "r-1";
    again.request_hash = "hash-b";
    absl::Status dup = store->CreateMatch(again);
    EXPECT_TRUE(absl::IsAlreadyExists(dup)) << dup;
    EXPECT_TRUE(absl::IsNotFound(store->GetMatch("m2").status()));
    MatchRecord other = SampleMatch("m3");
    other.created_by = "p2";
    other.seats[0].player_id = "p2";
    other.request_id = "r-1";
    ASSERT_TRUE(store->CreateMatch(other).ok());
    // Matches without a request id never collide.
    ASSERT_TRUE(store->CreateMatch(SampleMatch("m4")).ok());
    ASSERT_TRUE(store->CreateMatch(SampleMatch("m5")).ok());
  }
  auto store = Open();
  auto found = store->FindMatchByRequestId("p1", "r-1");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->id, "m1");
  EXPECT_EQ(found->request_id, "r-1");
  EXPECT_EQ(found->request_hash, "hash-a");
  EXPECT_EQ(found->seats.size(), 2u);
  EXPECT_EQ(store->FindMatchByRequestId("p2", "r-1")->id, "m3");
  EXPECT_TRUE(
      absl::IsNotFound(store->FindMatchByRequestId("p1", "r-2").status()));
  EXPECT_TRUE(
      absl::IsNotFound(store->FindMatchByRequestId("p3", "r-1").status()));
}

// Only the creator's WAITING matches count; the cancel reason round-trips.
TEST_P(StoreContract, WaitingMatchesAreCountedPerCreator) {
  auto store = Open();
  for (const char* id : {"w1", "w2", "w3"}) {
    MatchRecord m = SampleMatch(id);
    m.status = MatchStatus::kWaiting;
    m.seats[1] = {SeatRecord::Kind::kOpen, "", 0};
    m.invite_code = std::string("CODE") + id;
    ASSERT_TRUE(store->CreateMatch(m).ok());
  }
  ASSERT_TRUE(store->CreateMatch(SampleMatch("live")).ok());
  MatchRecord theirs = SampleMatch("theirs");
  theirs.created_by = "p2";
  theirs.status = MatchStatus::kWaiting;
  ASSERT_TRUE(store->CreateMatch(theirs).ok());
  EXPECT_EQ(*store->CountWaitingMatches("p1"), 3);
  EXPECT_EQ(*store->CountWaitingMatches("p2"), 1);
  EXPECT_EQ(*store->CountWaitingMatches("nobody"), 0);

  MatchRecord expired = *store->GetMatch("w2");
  EXPECT_EQ(expired.cancel_reason, "");
  expired.status = MatchStatus::kCancelled;
  expired.invite_code.clear();
  expired.cancel_reason = "expired";
  ASSERT_TRUE(store->UpdateMatch(expired).ok());
  EXPECT_EQ(*store->CountWaitingMatches("p1"), 2);
  EXPECT_EQ(store->GetMatch("w2")->cancel_reason, "expired");
  EXPECT_TRUE(
      absl::IsNotFound(store->FindMatchByInviteCode("CODEw2").status()));
}

TEST_P(StoreContract, ReopeningAMigratedDatabaseKeepsItsRecords) {
  {
    auto store = Open();
    ASSERT_TRUE(store->CreatePlayer({"p1", "Ada", false, "h1", 1}).ok());
  }
  auto store = Open();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->GetPlayer("p1")->display_name, "Ada");
}

// Two writers on one database (two stores, as two mancalad processes would
// have, where the backend allows it) append at the same ply at the same
// moment: exactly one wins each round, the other gets ABORTED and writes
// nothing.
TEST_P(StoreContract, TwoStoresAppendingTheSamePlyExactlyOneWins) {
  auto a = Open();
  Store* b = SecondWriter(a.get());
  ASSERT_TRUE(a->CreateMatch(SampleMatch()).ok());
  constexpr int kRounds = 20;
  for (int ply = 1; ply <= kRounds; ++ply) {
    std::barrier start(2);
    absl::Status sa, sb;
    std::thread ta([&] {
      start.arrive_and_wait();
      sa = a->AppendMove(Move(ply, 0, 1), {});
    });
    std::thread tb([&] {
      start.arrive_and_wait();
      sb = b->AppendMove(Move(ply, 0, 4), {});
    });
    ta.join();
    tb.join();
    ASSERT_NE(sa.ok(), sb.ok()) << "ply " << ply << ": " << sa << " / " << sb;
    const absl::Status& loser = sa.ok() ? sb : sa;
    EXPECT_TRUE(absl::IsAborted(loser)) << loser;
    auto stored = b->ListMoves("m1", ply, 10);
    ASSERT_TRUE(stored.ok()) << stored.status();
    ASSERT_EQ(stored->size(), 1u);
    EXPECT_EQ((*stored)[0].pit, sa.ok() ? 1 : 4) << "the loser wrote";
  }
  EXPECT_EQ(a->GetMatch("m1")->ply, kRounds);
  EXPECT_EQ(b->ListMoves("m1", 1, 100)->size(), static_cast<size_t>(kRounds));
}

// A client retrying one request against two servers (two writers): one
// move is stored, and both find it by the request id.
TEST_P(StoreContract, OneRequestIdSentToTwoStoresStoresOneMove) {
  auto a = Open();
  Store* b = SecondWriter(a.get());
  ASSERT_TRUE(a->CreateMatch(SampleMatch()).ok());
  MoveRow move = Move(1, 0, 2);
  move.request_id = "req-1";
  move.reply = std::string("first\0answer", 12);
  std::barrier start(2);
  absl::Status sa, sb;
  std::thread ta([&] {
    start.arrive_and_wait();
    sa = a->AppendMove(move, {});
  });
  std::thread tb([&] {
    start.arrive_and_wait();
    sb = b->AppendMove(move, {});
  });
  ta.join();
  tb.join();
  EXPECT_NE(sa.ok(), sb.ok()) << sa << " / " << sb;
  EXPECT_TRUE(absl::IsAborted(sa.ok() ? sb : sa));
  for (Store* store : {a.get(), b}) {
    auto found = store->FindMoveByRequestId("m1", "req-1");
    ASSERT_TRUE(found.ok()) << found.status();
    EXPECT_EQ(found->ply, 1);
    EXPECT_EQ(found->reply, move.reply);
  }
  EXPECT_EQ(a->ListMoves("m1", 1, 10)->size(), 1u);
  // The same id on a later ply is a different move: refused whole.
  MoveRow again = Move(2, 1, 3);
  again.request_id = "req-1";
  EXPECT_TRUE(absl::IsAlreadyExists(b->AppendMove(again, {})));
  EXPECT_EQ(a->GetMatch("m1")->ply, 1);
}

// One player ends two rated matches at the same moment on two writers: both
// ends are written (rating rows are taken in one order, so neither waits
// forever) and the rating holds one of the two results.
TEST_P(StoreContract, OnePlayerEndingTwoMatchesAtOnceBothCommit) {
  auto a = Open();
  Store* b = SecondWriter(a.get());
  for (int round = 0; round < 10; ++round) {
    const std::string m1 = "x" + std::to_string(round);
    const std::string m2 = "y" + std::to_string(round);
    ASSERT_TRUE(a->CreateMatch(SampleMatch(m1)).ok());
    ASSERT_TRUE(a->CreateMatch(SampleMatch(m2)).ok());
    auto end = [&](const std::string& match, const std::string& other,
                   double rating) {
      MatchUpdate u;
      u.status = MatchStatus::kFinished;
      u.ended_at_ms = 2000;
      for (const std::string& p : {std::string("shared"), other}) {
        RatingChange c;
        c.match_id = match;
        c.player_id = p;
        c.game = "kalah";
        c.after = {rating, 200, 0.06};
        u.rating_changes.push_back(c);
        u.new_ratings.push_back({p, "kalah", c.after, round + 1, 2000});
      }
      return u;
    };
    // Opposite player orders in the two updates.
    MatchUpdate u1 = end(m1, "zed", 1600), u2 = end(m2, "amy", 1400);
    std::reverse(u2.new_ratings.begin(), u2.new_ratings.end());
    std::barrier start(2);
    absl::Status s1, s2;
    std::thread t1([&] {
      start.arrive_and_wait();
      s1 = a->AppendMove(Move(1, 0, 1, m1), u1);
    });
    std::thread t2([&] {
      start.arrive_and_wait();
      s2 = b->AppendMove(Move(1, 0, 1, m2), u2);
    });
    t1.join();
    t2.join();
    ASSERT_TRUE(s1.ok()) << s1;
    ASSERT_TRUE(s2.ok()) << s2;
    auto shared = a->GetRatings("kalah", {"shared"});
    ASSERT_EQ(shared->size(), 1u);
    EXPECT_TRUE((*shared)[0].value.rating == 1600 ||
                (*shared)[0].value.rating == 1400);
  }
  EXPECT_EQ(a->ListMatchRatingChanges("x9")->size(), 2u);
  EXPECT_EQ(b->ListMatchRatingChanges("y9")->size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreContract,
                         ::testing::Values(Backend::kSqlite,
                                           Backend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace mancala::storage
