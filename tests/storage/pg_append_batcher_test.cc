// PostgreSQL's group commit (storage/pg_append_batcher.h), through the
// store: moves of several matches queued together go out as one statement
// yet keep their own results (stored, a stale ply refused with the ply the
// match is at, an unknown match NOT_FOUND, a request id stored already
// failing alone); bytes round-trip through the array literals; the sync
// AppendMove answers by its caller's deadline; with nothing queued and a
// slot free a move goes out alone on its caller's thread.
//
// To make a batch on purpose, an outside transaction holds the matches
// table (LOCK TABLE): one move per batcher thread (on matches of their
// own, "w0"...) waits in its statement, so every thread is busy while the
// moves under test queue; once the lock is released, the first thread
// free takes all of them at once.

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "storage/call_deadline.h"
#include "storage/pg_store.h"
#include "tests/storage/store_test_fixture.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

using PgAppendBatcherTest = testing::PostgresTest;
using std::chrono::milliseconds;

class Batch {
 public:
  // Makes the matches the threads' own moves go to.
  explicit Batch(PgStore& store) : store_(store) {
    for (int i = 0; i < PgStore::kAppendThreads; ++i) {
      EXPECT_TRUE(store_.CreateMatch(SampleMatch(Busy(i))).ok());
    }
  }
  // Appends `rows` from one thread each as one batch; returns their
  // statuses. The store's stats grow by kAppendThreads + 1 batches.
  std::vector<absl::Status> Run(const std::string& url,
                                const std::vector<MoveRow>& rows) {
    pqxx::connection outside(url);
    pqxx::work lock(outside);
    lock.exec("LOCK TABLE matches IN EXCLUSIVE MODE");
    std::vector<std::thread> callers;
    std::vector<absl::Status> busy(PgStore::kAppendThreads);
    for (int i = 0; i < PgStore::kAppendThreads; ++i) {
      callers.emplace_back([&, i] {
        busy[i] = store_.AppendMove(SampleMove(++plies_[i], 0, 1, Busy(i)), {});
      });
      // Each thread takes its one move before the next is queued.
      std::this_thread::sleep_for(milliseconds(100));
    }
    std::vector<absl::Status> results(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      callers.emplace_back(
          [&, i] { results[i] = store_.AppendMove(rows[i], {}); });
    }
    std::this_thread::sleep_for(milliseconds(200));
    lock.commit();
    for (auto& t : callers) t.join();
    for (const absl::Status& s : busy) EXPECT_TRUE(s.ok()) << s;
    return results;
  }

 private:
  static std::string Busy(int i) { return "w" + std::to_string(i); }
  PgStore& store_;
  int64_t plies_[PgStore::kAppendThreads] = {};
};

TEST_F(PgAppendBatcherTest, QueuedMovesGoOutTogetherEachWithItsOwnResult) {
  auto store = PgStore::Open(db_->url(), 4);
  ASSERT_TRUE(store.ok()) << store.status();
  for (const char* id : {"m0", "m1", "m2", "m3"}) {
    ASSERT_TRUE((*store)->CreateMatch(SampleMatch(id)).ok());
  }
  MoveRow unknown = SampleMove(1, 0, 0, "nope");
  MoveRow m1 = SampleMove(1, 1, 2, "m1");
  m1.events = std::string("\0\"\\{},x", 8);  // Array-literal specials.
  m1.request_id = "r\"1";
  const PgAppendBatcher::Stats before = (*store)->append_stats();
  const std::vector<absl::Status> results = Batch(**store).Run(
      db_->url(), {SampleMove(1, 0, 1, "m0"), m1, SampleMove(5, 0, 4, "m2"),
                   unknown, SampleMove(1, 0, 5, "m3")});
  const PgAppendBatcher::Stats after = (*store)->append_stats();
  // One per thread's own move, then the five together.
  EXPECT_EQ(after.batches - before.batches, PgStore::kAppendThreads + 1);
  EXPECT_EQ(after.moves - before.moves, PgStore::kAppendThreads + 5);
  EXPECT_TRUE(results[0].ok()) << results[0];
  EXPECT_TRUE(results[1].ok()) << results[1];
  ASSERT_TRUE(absl::IsAborted(results[2])) << results[2];
  EXPECT_NE(results[2].message().find("is at ply 0, not 4"), std::string::npos)
      << results[2];
  EXPECT_TRUE(absl::IsNotFound(results[3])) << results[3];
  EXPECT_TRUE(results[4].ok()) << results[4];
  EXPECT_EQ((*store)->GetMatch("m2")->ply, 0);
  auto stored = (*store)->ListMoves("m1", 1, 10);
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_EQ((*stored)[0].events, m1.events);
  EXPECT_EQ((*stored)[0].request_id, "r\"1");
  EXPECT_EQ((*stored)[0].pit, 2);
  EXPECT_EQ((*store)->ListMoves("m3", 1, 10)->size(), 1u);
}

// A request id stored already makes the batch statement fail as a whole
// (a unique violation): each move is then appended alone, so only that one
// fails.
TEST_F(PgAppendBatcherTest, AMoveThatBreaksTheBatchFailsAlone) {
  auto store = PgStore::Open(db_->url(), 4);
  ASSERT_TRUE(store.ok()) << store.status();
  for (const char* id : {"m0", "m1", "m2"}) {
    ASSERT_TRUE((*store)->CreateMatch(SampleMatch(id)).ok());
  }
  MoveRow first = SampleMove(1, 0, 1, "m0");
  first.request_id = "again";
  ASSERT_TRUE((*store)->AppendMove(first, {}).ok());
  MoveRow repeat = SampleMove(2, 1, 3, "m0");
  repeat.request_id = "again";  // Same match, same request id: unique.
  const std::vector<absl::Status> results = Batch(**store).Run(
      db_->url(),
      {SampleMove(1, 0, 2, "m2"), repeat, SampleMove(1, 0, 4, "m1")});
  EXPECT_TRUE(results[0].ok()) << results[0];
  EXPECT_TRUE(absl::IsAlreadyExists(results[1])) << results[1];
  EXPECT_TRUE(results[2].ok()) << results[2];
  EXPECT_EQ((*store)->GetMatch("m0")->ply, 1);
  EXPECT_EQ((*store)->GetMatch("m1")->ply, 1);
}

// With nothing queued a move goes out on its caller's own thread, no
// hand-off; a second move of a match in flight, or any move once every
// slot is busy, is refused by TryAlone (nothing sent: the caller queues it).
TEST_F(PgAppendBatcherTest,
       ALoneMoveGoesOutOnItsCallersThreadWhileASlotIsFree) {
  auto pool = PgPool::Open(db_->url(), 1, nullptr);
  ASSERT_TRUE(pool.ok()) << pool.status();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> a_started;
  std::thread::id ran_on;
  PgAppendBatcher batcher(
      **pool, 16, /*threads=*/2,
      [&](const MoveRow& mv, const MatchUpdate&) {
        if (mv.match_id == "a") {
          a_started.set_value();
          released.wait();
        }
        if (mv.match_id == "c") ran_on = std::this_thread::get_id();
        return absl::AbortedError("sent " + mv.match_id);
      },
      [](const MoveRow&, absl::Status s) { return s; });
  const MatchUpdate update;
  std::optional<absl::Status> a;
  std::thread in_flight(
      [&] { a = batcher.TryAlone(SampleMove(1, 0, 1, "a"), update); });
  a_started.get_future().wait();
  // "a" holds one of the two slots.
  EXPECT_EQ(batcher.TryAlone(SampleMove(2, 0, 1, "a"), update), std::nullopt);
  std::optional<absl::Status> b;
  std::thread second([&] {
    // Takes the second slot; "b" does not block.
    b = batcher.TryAlone(SampleMove(1, 0, 1, "b"), update);
  });
  second.join();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->message(), "sent b");
  release.set_value();
  in_flight.join();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->message(), "sent a");
  const std::optional<absl::Status> c =
      batcher.TryAlone(SampleMove(1, 0, 1, "c"), update);
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(absl::IsAborted(*c)) << *c;
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_EQ(batcher.stats().batches, 3);
  EXPECT_EQ(batcher.stats().moves, 3);
}

// Every slot busy: TryAlone refuses even a match of its own.
TEST_F(PgAppendBatcherTest, NoMoveGoesAloneWhileEverySlotIsBusy) {
  auto pool = PgPool::Open(db_->url(), 1, nullptr);
  ASSERT_TRUE(pool.ok()) << pool.status();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> started;
  PgAppendBatcher batcher(
      **pool, 16, /*threads=*/1,
      [&](const MoveRow&, const MatchUpdate&) {
        started.set_value();
        released.wait();
        return absl::OkStatus();
      },
      [](const MoveRow&, absl::Status s) { return s; });
  const MatchUpdate update;
  std::thread busy(
      [&] { EXPECT_TRUE(batcher.TryAlone(SampleMove(1, 0, 1, "a"), update)); });
  started.get_future().wait();
  EXPECT_EQ(batcher.TryAlone(SampleMove(1, 0, 1, "b"), update), std::nullopt);
  release.set_value();
  busy.join();
  EXPECT_EQ(batcher.stats().moves, 1);
}

// The caller's deadline bounds the sync append even while the database
// holds its statement: DEADLINE_EXCEEDED by the deadline (the move may
// still be stored, store.h), and the store goes on.
TEST_F(PgAppendBatcherTest, AnAppendAnswersByItsCallersDeadline) {
  auto store = PgStore::Open(db_->url(), 2);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->CreateMatch(SampleMatch("m0")).ok());
  pqxx::connection outside(db_->url());
  pqxx::work lock(outside);
  lock.exec("LOCK TABLE matches IN EXCLUSIVE MODE");
  const auto start = std::chrono::steady_clock::now();
  absl::Status s;
  {
    const CallDeadline deadline(start + milliseconds(300));
    s = (*store)->AppendMove(SampleMove(1, 0, 1, "m0"), {});
  }
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
  EXPECT_LT(took, 1.5);
  lock.abort();
  // Its connection was cut off at the deadline; the server may still have
  // run the statement once the lock was free. Either way the store goes on
  // from the ply the database has.
  std::this_thread::sleep_for(milliseconds(200));
  auto match = (*store)->GetMatch("m0");
  ASSERT_TRUE(match.ok()) << match.status();
  ASSERT_LE(match->ply, 1);
  EXPECT_TRUE(
      (*store)->AppendMove(SampleMove(match->ply + 1, 0, 2, "m0"), {}).ok());
}

}  // namespace
}  // namespace mancala::storage
