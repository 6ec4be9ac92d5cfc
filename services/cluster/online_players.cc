#include "services/cluster/online_players.h"

#include <algorithm>

namespace mancala::services {

OnlinePlayers::OnlinePlayers(const Clock& clock, int64_t grace_ms)
    : clock_(clock), grace_ms_(grace_ms) {}

void OnlinePlayers::Seen(const std::string& player_id) {
  const int64_t now = clock_.NowMs();
  MutexLock lock(&mu_);
  players_[player_id].seen_ms = now;
}

void OnlinePlayers::Hold(const std::string& player_id) {
  const int64_t now = clock_.NowMs();
  MutexLock lock(&mu_);
  Player& p = players_[player_id];
  ++p.streams;
  p.seen_ms = now;
}

void OnlinePlayers::Release(const std::string& player_id) {
  const int64_t now = clock_.NowMs();
  MutexLock lock(&mu_);
  auto it = players_.find(player_id);
  if (it == players_.end()) return;  // Held players are never purged.
  if (it->second.streams > 0) --it->second.streams;
  it->second.seen_ms = now;
}

void OnlinePlayers::PurgeLocked(int64_t now_ms) {
  if (now_ms - purged_ms_ < 1000) return;
  purged_ms_ = now_ms;
  std::erase_if(players_, [&](const auto& entry) {
    const Player& p = entry.second;
    return p.streams == 0 && now_ms - p.seen_ms > grace_ms_;
  });
}

int OnlinePlayers::Count() {
  const int64_t now = clock_.NowMs();
  MutexLock lock(&mu_);
  PurgeLocked(now);
  const int local = static_cast<int>(players_.size());
  return site_count_ ? std::max(*site_count_, local) : local;
}

std::vector<std::string> OnlinePlayers::TakeMarks() {
  const int64_t now = clock_.NowMs();
  std::vector<std::string> marks;
  MutexLock lock(&mu_);
  PurgeLocked(now);
  for (auto& [id, p] : players_) {
    const int64_t last = p.streams > 0 ? now : p.seen_ms;
    if (now - last > grace_ms_) continue;  // Offline; purged later.
    if (p.written_ms < 0 || last - p.written_ms > grace_ms_ / 4) {
      marks.push_back(id);
      p.written_ms = now;
    }
  }
  return marks;
}

void OnlinePlayers::Unwritten(const std::vector<std::string>& player_ids) {
  MutexLock lock(&mu_);
  for (const std::string& id : player_ids) {
    if (auto it = players_.find(id); it != players_.end()) {
      it->second.written_ms = -1;
    }
  }
}

void OnlinePlayers::SetSiteCount(int online) {
  MutexLock lock(&mu_);
  site_count_ = online;
}

}  // namespace mancala::services
