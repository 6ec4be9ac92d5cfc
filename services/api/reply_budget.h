// Replies whose size grows with stored data stay far below gRPC's 4 MiB
// message limit: listings are paged by count (page_size) and each page also
// stops before its items pass kMaxPageBytes. The largest move seen in
// seeded Congkak 9x9 games is about 7.4 KB, so 1000 of them (the largest
// page_size) would be 7.4 MB unbounded; with the budget a page is at most
// kMaxPageBytes plus one item.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_API_REPLY_BUDGET_H_
#define MANCALA_SERVICES_API_REPLY_BUDGET_H_

#include <cstddef>
#include <vector>

namespace mancala::services {

inline constexpr size_t kMaxPageBytes = size_t{1} << 20;

// How many of `items`, from the front, a page takes: every item while their
// serialized sizes add up to at most `budget`, and at least one.
template <class Message>
size_t ItemsWithinBudget(const std::vector<Message>& items,
                         size_t budget = kMaxPageBytes) {
  size_t bytes = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    bytes += items[i].ByteSizeLong();
    if (bytes > budget && i > 0) return i;
  }
  return items.size();
}

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_REPLY_BUDGET_H_
