#include "services/api/peer_limiter.h"

#include <algorithm>
#include <cmath>

#include "services/wire/errors.h"

namespace mancala::services {

PeerLimiter::PeerLimiter(const Clock& clock, int burst, double per_minute)
    : clock_(clock), burst_(burst), per_ms_(per_minute / 60'000.0) {}

std::string PeerLimiter::Host(const std::string& peer) {
  std::string host = peer.substr(peer.find(':') + 1);  // Drop "ipv4:".
  const size_t colon = host.rfind(':');  // "[::1]:5000" -> "[::1]".
  return colon == std::string::npos ? host : host.substr(0, colon);
}

grpc::Status PeerLimiter::Allow(const std::string& peer) {
  if (burst_ <= 0) return grpc::Status::OK;
  const int64_t now = clock_.NowMs();
  std::lock_guard lock(mu_);
  if (buckets_.size() > 10'000) {  // Forget the hosts that are full again.
    std::erase_if(buckets_, [&](const auto& entry) {
      const Bucket& b = entry.second;
      return b.tokens + (now - b.at_ms) * per_ms_ >= burst_;
    });
  }
  auto [it, fresh] =
      buckets_.try_emplace(Host(peer), Bucket{double(burst_), now});
  Bucket& b = it->second;
  b.tokens = std::min<double>(burst_, b.tokens + (now - b.at_ms) * per_ms_);
  b.at_ms = now;
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return grpc::Status::OK;
  }
  const int64_t wait_ms =
      per_ms_ > 0 ? static_cast<int64_t>(std::ceil((1 - b.tokens) / per_ms_))
                  : -1;
  return GrpcError(grpc::StatusCode::RESOURCE_EXHAUSTED, "RATE_LIMITED",
                   "too many players or matches created from your address; "
                   "try again later",
                   {{"retry_after_ms", std::to_string(wait_ms)}});
}

}  // namespace mancala::services
