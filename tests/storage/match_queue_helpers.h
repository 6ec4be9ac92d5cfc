// Helpers for the matchmaking queue tests (storage/match_queue.h).

#ifndef MANCALA_TESTS_STORAGE_MATCH_QUEUE_HELPERS_H_
#define MANCALA_TESTS_STORAGE_MATCH_QUEUE_HELPERS_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/match_queue.h"

namespace mancala::storage {

// A search of `player` held by `node`, id "s-<player>".
inline QueueEntry Search(const std::string& player, const std::string& node,
                         const std::string& key = "kalah|casual") {
  QueueEntry e;
  e.search_id = "s-" + player;
  e.player_id = player;
  e.node_id = node;
  e.queue_key = key;
  e.queue_info = "{\"game\":\"" + key + "\"}";
  e.rating = 1500;
  return e;
}

// A former that pairs searches in arrival order.
inline MatchQueue::Former Pairs(std::vector<std::vector<QueueEntry>>* groups) {
  return [groups](const std::vector<QueueEntry>& s, int64_t) {
    std::vector<size_t> claimed;
    for (size_t i = 0; i + 1 < s.size(); i += 2) {
      groups->push_back({s[i], s[i + 1]});
      claimed.push_back(i);
      claimed.push_back(i + 1);
    }
    return claimed;
  };
}

// The searching count of `key` (0 if it has none).
inline int Searching(MatchQueue& q, const std::string& key = "kalah|casual") {
  auto counts = q.Counts();
  EXPECT_TRUE(counts.ok()) << counts.status();
  if (!counts.ok()) return -1;
  for (const QueueCount& c : *counts) {
    if (c.queue_key == key) return c.searching;
  }
  return 0;
}

}  // namespace mancala::storage

#endif  // MANCALA_TESTS_STORAGE_MATCH_QUEUE_HELPERS_H_
