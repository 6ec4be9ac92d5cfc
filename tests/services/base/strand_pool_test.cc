// StrandPool: each strand's tasks run in order, one at a time, off the
// posting thread; nothing posted is lost at destruction.

#include "services/base/strand_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace mancala::services {
namespace {

TEST(StrandPoolTest, EachStrandKeepsItsOrderAcrossThreads) {
  constexpr int kStrands = 8, kTasks = 2000;
  std::vector<std::vector<int>> seen(kStrands);
  std::vector<std::atomic<int>> running(kStrands);
  std::atomic<bool> overlapped{false};
  {
    StrandPool pool(3);
    std::vector<std::shared_ptr<StrandPool::Strand>> strands;
    for (int s = 0; s < kStrands; ++s) strands.push_back(pool.NewStrand());
    std::vector<std::thread> posters;
    for (int s = 0; s < kStrands; ++s) {
      posters.emplace_back([&, s] {
        for (int i = 0; i < kTasks; ++i) {
          strands[s]->Post([&, s, i] {
            if (running[s]++ != 0) overlapped = true;
            seen[s].push_back(i);
            running[s]--;
          });
        }
      });
    }
    for (std::thread& t : posters) t.join();
  }  // The pool runs what is queued before it goes.
  EXPECT_FALSE(overlapped) << "two tasks of one strand ran at once";
  for (int s = 0; s < kStrands; ++s) {
    ASSERT_EQ(seen[s].size(), static_cast<size_t>(kTasks)) << "strand " << s;
    for (int i = 0; i < kTasks; ++i) ASSERT_EQ(seen[s][i], i);
  }
}

TEST(StrandPoolTest, TasksRunOffThePostingThread) {
  StrandPool pool(1);
  auto strand = pool.NewStrand();
  std::atomic<bool> other_thread{false};
  std::atomic<bool> done{false};
  const std::thread::id me = std::this_thread::get_id();
  strand->Post([&] {
    other_thread = std::this_thread::get_id() != me;
    done = true;
  });
  for (int i = 0; i < 5000 && !done; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(done);
  EXPECT_TRUE(other_thread);
}

}  // namespace
}  // namespace mancala::services
