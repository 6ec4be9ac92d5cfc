#include "storage/call_deadline.h"

#include <algorithm>

namespace mancala::storage {
namespace {

thread_local std::optional<CallDeadline::Clock::time_point> current;

}  // namespace

CallDeadline::CallDeadline(Clock::time_point deadline) : previous_(current) {
  current = previous_ ? std::min(*previous_, deadline) : deadline;
}

CallDeadline::~CallDeadline() { current = previous_; }

std::optional<CallDeadline::Clock::time_point> CallDeadline::Current() {
  return current;
}

}  // namespace mancala::storage
