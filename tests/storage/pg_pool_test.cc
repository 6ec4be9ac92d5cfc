// The pool's deadlines (storage/pg_pool.h): a store call ends by its
// caller's deadline (storage/call_deadline.h) or the pool's bound, whether
// it waits for a free connection or for a statement the server does not
// answer, and the pool serves the next call as usual. The server here is
// slow (pg_sleep), not frozen: the e2e test
// e2e.PgStopAndFreezeUnderTwoNodesCostNobody freezes one (SIGSTOP).

#include "storage/pg_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <pqxx/pqxx>
#include <thread>
#include <vector>

#include "storage/call_deadline.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using PgPoolTest = testing::PostgresTest;

absl::Status Sleep(PgPool& pool, double seconds) {
  return pool.Run("sleep", [seconds](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec("SELECT pg_sleep(" + std::to_string(seconds) + ")");
    return absl::OkStatus();
  });
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The watchdog cuts the connection off at the deadline (the server would
// sleep on for 5 s), and the slot reconnects for the next call.
TEST_F(PgPoolTest, AStatementPastItsCallsDeadlineIsCutOffAndThePoolGoesOn) {
  auto pool = PgPool::Open(db_->url(), 1, nullptr);
  ASSERT_TRUE(pool.ok()) << pool.status();
  const Clock::time_point start = Clock::now();
  {
    const CallDeadline deadline(start + milliseconds(300));
    const absl::Status s = Sleep(**pool, 5);
    EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
    EXPECT_NE(s.message().find("may still be carried out"),
              absl::string_view::npos)
        << s;
  }
  EXPECT_LT(SecondsSince(start), 1.5);
  EXPECT_TRUE((*pool)->Ping().ok());
  // A call whose deadline has passed is not sent at all.
  const CallDeadline passed(Clock::now() - milliseconds(1));
  const absl::Status late = (*pool)->Ping();
  EXPECT_TRUE(absl::IsDeadlineExceeded(late)) << late;
  EXPECT_NE(late.message().find("nothing was sent"), absl::string_view::npos);
}

// Every connection busy: the wait for one ends at the deadline.
TEST_F(PgPoolTest, NoConnectionFreeWithinTheDeadlineIsDeadlineExceeded) {
  auto pool = PgPool::Open(db_->url(), 1, nullptr);
  ASSERT_TRUE(pool.ok()) << pool.status();
  std::atomic<bool> holding{false};
  absl::Status holder;
  std::thread hold([&] {
    holder = (*pool)->Run("hold", [&](pqxx::connection& c) {
      holding = true;  // The only connection is taken from here on.
      pqxx::nontransaction tx(c);
      tx.exec("SELECT pg_sleep(2)");
      return absl::OkStatus();
    });
  });
  while (!holding) std::this_thread::sleep_for(milliseconds(5));
  const Clock::time_point start = Clock::now();
  absl::Status s;
  {
    const CallDeadline deadline(start + milliseconds(300));
    s = (*pool)->Ping();
  }
  const double took = SecondsSince(start);
  hold.join();
  EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
  EXPECT_NE(s.message().find("no database connection came free"),
            absl::string_view::npos)
      << s;
  EXPECT_GE(took, 0.25);
  EXPECT_LT(took, 1.5);
  EXPECT_TRUE(holder.ok()) << holder;  // Its own call is untouched.
}

// Without a deadline the pool's bound ends a call: the server's
// statement_timeout (the same bound) or the watchdog, whichever is first.
TEST_F(PgPoolTest, TheBoundEndsACallWithoutADeadline) {
  auto pool = PgPool::Open(db_->url(), 1, nullptr,
                           PgPoolOptions{std::chrono::milliseconds(400)});
  ASSERT_TRUE(pool.ok()) << pool.status();
  const Clock::time_point start = Clock::now();
  const absl::Status s = Sleep(**pool, 5);
  EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
  EXPECT_LT(SecondsSince(start), 2.0);
  EXPECT_TRUE(Sleep(**pool, 0.01).ok());
}

// A freed connection wakes one waiter (pg_pool.cc Release): every release
// must reach a caller that can use it. Many callers on two connections,
// every other one with a deadline that passes while it waits: the others
// all finish, long before their own deadlines (20 s), which is where a
// lost wake-up would leave them. (The narrowest case, a waiter whose
// deadline passes just as it is woken, handing the wake-up on, is hit only
// now and then.)
TEST_F(PgPoolTest, CallersGivingUpInTheQueueLeaveNoOtherWaiting) {
  auto pool = PgPool::Open(db_->url(), 2, nullptr);
  ASSERT_TRUE(pool.ok()) << pool.status();
  for (int round = 0; round < 4; ++round) {
    constexpr int kCallers = 24;
    std::vector<absl::Status> got(kCallers);
    std::vector<std::thread> callers;
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < kCallers; ++i) {
      callers.emplace_back([&, i] {
        const CallDeadline deadline(i % 2 == 0
                                        ? start + milliseconds(5 + 5 * i)
                                        : start + std::chrono::seconds(20));
        got[i] = Sleep(**pool, 0.02);
      });
    }
    for (std::thread& t : callers) t.join();
    EXPECT_LT(SecondsSince(start), 5.0) << "round " << round;
    for (int i = 0; i < kCallers; ++i) {
      if (i % 2 == 1) {
        EXPECT_TRUE(got[i].ok()) << "caller " << i << ": " << got[i];
      } else {
        EXPECT_TRUE(got[i].ok() || absl::IsDeadlineExceeded(got[i]))
            << "caller " << i << ": " << got[i];
      }
    }
  }
}

}  // namespace
}  // namespace mancala::storage
