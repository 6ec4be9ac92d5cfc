// The matchmaking queue of a single node, in memory (SQLite mode: one server
// per database). Nothing expires (the node and its searches live and die
// together), so Refresh only reports. Arrival order is the order of Add.
// Thread-safety: all methods from any thread (one mutex; Claim runs the
// former under it).

#ifndef MANCALA_STORAGE_MEMORY_MATCH_QUEUE_H_
#define MANCALA_STORAGE_MEMORY_MATCH_QUEUE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "storage/match_queue.h"

namespace mancala::storage {

class MemoryMatchQueue final : public MatchQueue {
 public:
  // `now_ms`: the queue's clock (the server's, injectable in tests).
  MemoryMatchQueue(std::string node_id, std::function<int64_t()> now_ms);

  const std::string& node_id() const override { return node_id_; }
  absl::Status Add(const QueueEntry& entry) override;
  absl::StatusOr<bool> Cancel(const std::string& player_id) override;
  absl::Status Remove(const std::string& search_id) override;
  absl::Status Claim(const std::string& queue_key, const Former& form) override;
  absl::Status Assign(const std::string& search_id, const std::string& match_id,
                      int seat) override;
  absl::Status Release(const std::vector<std::string>& search_ids) override;
  absl::StatusOr<std::vector<OwnSearch>> Refresh() override;
  absl::StatusOr<std::vector<QueueCount>> Counts() override;

 private:
  struct Search {
    QueueEntry entry;
    uint64_t arrival = 0;  // Add order.
    bool claimed = false;
    std::string match_id;
    int seat = -1;
  };
  struct Key {
    std::string info;
    std::map<uint64_t, std::string> searching;  // Arrival -> search id.
  };
  // Call with mu_ held.
  void EraseLocked(std::map<std::string, Search>::iterator it);

  const std::string node_id_;
  const std::function<int64_t()> now_ms_;
  std::mutex mu_;  // Guards every field below.
  uint64_t next_arrival_ = 0;
  std::map<std::string, Search> searches_;  // By id.
  std::map<std::string, std::string> by_player_;
  std::map<std::string, Key> keys_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_MEMORY_MATCH_QUEUE_H_
