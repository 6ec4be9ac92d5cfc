#include "storage/memory_match_queue.h"

#include <utility>

namespace mancala::storage {

MemoryMatchQueue::MemoryMatchQueue(std::string node_id,
                                   std::function<int64_t()> now_ms)
    : node_id_(std::move(node_id)), now_ms_(std::move(now_ms)) {}

absl::Status MemoryMatchQueue::Add(const QueueEntry& entry) {
  std::lock_guard<std::mutex> lock(mu_);
  if (by_player_.count(entry.player_id) > 0) {
    return absl::AlreadyExistsError("player " + entry.player_id +
                                    " is already searching");
  }
  Search s;
  s.entry = entry;
  s.entry.enqueued_ms = now_ms_();
  s.arrival = next_arrival_++;
  Key& key = keys_[entry.queue_key];
  key.info = entry.queue_info;
  key.searching[s.arrival] = entry.search_id;
  by_player_[entry.player_id] = entry.search_id;
  searches_[entry.search_id] = std::move(s);
  return absl::OkStatus();
}

void MemoryMatchQueue::EraseLocked(std::map<std::string, Search>::iterator it) {
  const Search& s = it->second;
  auto key = keys_.find(s.entry.queue_key);
  if (key != keys_.end()) {
    key->second.searching.erase(s.arrival);
    if (key->second.searching.empty()) keys_.erase(key);
  }
  by_player_.erase(s.entry.player_id);
  searches_.erase(it);
}

absl::StatusOr<bool> MemoryMatchQueue::Cancel(const std::string& player_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto p = by_player_.find(player_id);
  if (p == by_player_.end()) return false;
  auto it = searches_.find(p->second);
  if (it->second.claimed) return false;
  EraseLocked(it);
  return true;
}

absl::Status MemoryMatchQueue::Remove(const std::string& search_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = searches_.find(search_id);
  if (it != searches_.end()) EraseLocked(it);
  return absl::OkStatus();
}

absl::Status MemoryMatchQueue::Claim(const std::string& queue_key,
                                     const Former& form) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = keys_.find(queue_key);
  if (key == keys_.end()) return absl::OkStatus();
  std::vector<QueueEntry> searching;
  std::vector<std::map<std::string, Search>::iterator> at;
  for (const auto& [arrival, id] : key->second.searching) {
    auto it = searches_.find(id);
    searching.push_back(it->second.entry);
    at.push_back(it);
  }
  for (size_t i : form(searching, now_ms_())) {
    at[i]->second.claimed = true;
    key->second.searching.erase(at[i]->second.arrival);
  }
  if (key->second.searching.empty()) keys_.erase(key);
  return absl::OkStatus();
}

absl::Status MemoryMatchQueue::Assign(const std::string& search_id,
                                      const std::string& match_id, int seat) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = searches_.find(search_id);
  if (it == searches_.end()) return absl::OkStatus();  // Its stream ended.
  it->second.match_id = match_id;
  it->second.seat = seat;
  return absl::OkStatus();
}

absl::Status MemoryMatchQueue::Release(
    const std::vector<std::string>& search_ids) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const std::string& id : search_ids) {
    auto it = searches_.find(id);
    if (it == searches_.end() || !it->second.claimed) continue;
    it->second.claimed = false;
    Key& key = keys_[it->second.entry.queue_key];
    key.info = it->second.entry.queue_info;
    key.searching[it->second.arrival] = id;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<OwnSearch>> MemoryMatchQueue::Refresh() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<OwnSearch> out;
  out.reserve(searches_.size());
  for (const auto& [id, s] : searches_) {
    out.push_back({id, s.entry.player_id, s.match_id, s.seat});
  }
  return out;
}

absl::StatusOr<std::vector<QueueCount>> MemoryMatchQueue::Counts() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<QueueCount> out;
  for (const auto& [name, key] : keys_) {
    out.push_back({name, key.info, static_cast<int>(key.searching.size())});
  }
  return out;
}

}  // namespace mancala::storage
