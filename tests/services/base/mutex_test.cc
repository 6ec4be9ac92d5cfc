// services/base/mutex.h: the lock the services use instead of absl::Mutex.
// Waits have deadlines; nothing sleeps for a fixed time.

#include "services/base/mutex.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace mancala::services {
namespace {

using std::chrono::seconds;

struct Counter {
  Mutex mu;
  int value ABSL_GUARDED_BY(mu) = 0;
  bool ready ABSL_GUARDED_BY(mu) = false;
};

TEST(MutexTest, MutexLockExcludesOtherThreads) {
  Counter c;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&c] {
      for (int i = 0; i < 10000; ++i) {
        MutexLock lock(&c.mu);
        c.value = c.value + 1;  // Read, then write: lost without the lock.
      }
    });
  }
  for (std::thread& t : threads) t.join();
  MutexLock lock(&c.mu);
  EXPECT_EQ(c.value, 40000);
}

TEST(MutexTest, AwaitReturnsOnceAnotherHolderSetsTheFlag) {
  Counter c;
  auto waiter = std::async(std::launch::async, [&c] {
    MutexLock lock(&c.mu);
    c.mu.Await(Condition(&c.ready));
    return c.value;
  });
  {
    MutexLock lock(&c.mu);
    c.value = 7;
    c.ready = true;
  }
  ASSERT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_EQ(waiter.get(), 7);  // It saw what was written before the flag.
}

// Three threads and the test await flags on one mutex at once: each wakes
// when its flag is set by another holder.
TEST(MutexTest, EveryAwaiterWakes) {
  Counter c;
  int arrived = 0;           // Guarded by c.mu.
  bool all_arrived = false;  // Guarded by c.mu.
  std::vector<std::future<void>> waiters;
  for (int i = 0; i < 3; ++i) {
    waiters.push_back(std::async(std::launch::async, [&] {
      MutexLock lock(&c.mu);
      all_arrived = ++arrived == 3;
      c.mu.Await(Condition(&c.ready));  // Releases c.mu only in here.
      ++c.value;
    }));
  }
  {
    MutexLock lock(&c.mu);
    ASSERT_TRUE(
        c.mu.AwaitWithTimeout(Condition(&all_arrived), absl::Seconds(10)));
    c.ready = true;  // All three are in Await() now.
  }
  for (auto& w : waiters) {
    ASSERT_EQ(w.wait_for(seconds(10)), std::future_status::ready);
  }
  MutexLock lock(&c.mu);
  EXPECT_EQ(c.value, 3);
}

TEST(MutexTest, AwaitWithTimeoutSaysWhetherTheFlagWasSet) {
  Counter c;
  MutexLock lock(&c.mu);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(
      c.mu.AwaitWithTimeout(Condition(&c.ready), absl::Milliseconds(20)));
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(20));
  c.ready = true;
  EXPECT_TRUE(c.mu.AwaitWithTimeout(Condition(&c.ready), absl::Seconds(10)));
}

TEST(MutexTest, AwaitWithTimeoutWakesWhenSetBeforeTheTimeout) {
  Counter c;
  auto waiter = std::async(std::launch::async, [&c] {
    MutexLock lock(&c.mu);
    return c.mu.AwaitWithTimeout(Condition(&c.ready), absl::Seconds(60));
  });
  {
    MutexLock lock(&c.mu);
    c.ready = true;
  }
  // Well before the 60 s timeout.
  ASSERT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_TRUE(waiter.get());
}

TEST(MutexTest, CondVarSignalWakesAWaiterThatSeesTheChange) {
  Counter c;
  CondVar cv;
  auto waiter = std::async(std::launch::async, [&] {
    MutexLock lock(&c.mu);
    while (!c.ready) cv.Wait(&c.mu);
    return c.value;
  });
  {
    MutexLock lock(&c.mu);
    c.value = 42;
    c.ready = true;
  }
  cv.Signal();
  ASSERT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_EQ(waiter.get(), 42);
}

}  // namespace
}  // namespace mancala::services
