#include "engine/cpu/search_limits.h"

namespace mancala::engine::cpu {

bool LimitReached(const SearchLimits& limits, std::uint64_t nodes,
                  std::uint64_t& next_check) {
  if (limits.node_limit > 0 && nodes >= limits.node_limit) return true;
  if (nodes < next_check) return false;
  next_check = nodes + kLimitCheckInterval;
  if (limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed)) {
    return true;
  }
  return limits.deadline != std::chrono::steady_clock::time_point::max() &&
         std::chrono::steady_clock::now() >= limits.deadline;
}

void NodeCounter::Expand(const State& s, int pit, State& child) {
  child = s;
  child.Apply(pit);
  Count();
}

}  // namespace mancala::engine::cpu
