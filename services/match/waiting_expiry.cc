#include "services/match/waiting_expiry.h"

namespace mancala::services {

void WaitingExpiry::Add(const std::string& id, int64_t expires_at_ms) {
  MutexLock lock(&mu_);
  due_.emplace(expires_at_ms, id);
}

std::vector<std::string> WaitingExpiry::TakeDue(int64_t now_ms) {
  std::vector<std::string> out;
  MutexLock lock(&mu_);
  auto it = due_.begin();
  while (it != due_.end() && it->first <= now_ms) {
    out.push_back(it->second);
    it = due_.erase(it);
  }
  return out;
}

size_t WaitingExpiry::size() const {
  MutexLock lock(&mu_);
  return due_.size();
}

}  // namespace mancala::services
