// A thread's call deadline (storage/call_deadline.h).

#include "storage/call_deadline.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace mancala::storage {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A nested scope is held to the earlier deadline; each scope ends with its
// block, and another thread has its own.
TEST(CallDeadline, ANestedScopeNeverExtendsItsCallersDeadline) {
  EXPECT_FALSE(CallDeadline::Current().has_value());
  const Clock::time_point soon = Clock::now() + milliseconds(100);
  {
    const CallDeadline outer(soon);
    {
      const CallDeadline inner(soon + std::chrono::hours(1));
      EXPECT_EQ(CallDeadline::Current(), soon);
    }
    {
      const CallDeadline inner(soon - milliseconds(50));
      EXPECT_EQ(CallDeadline::Current(), soon - milliseconds(50));
    }
    EXPECT_EQ(CallDeadline::Current(), soon);
    std::thread([] {
      EXPECT_FALSE(CallDeadline::Current().has_value());
    }).join();
  }
  EXPECT_FALSE(CallDeadline::Current().has_value());
}

}  // namespace
}  // namespace mancala::storage
