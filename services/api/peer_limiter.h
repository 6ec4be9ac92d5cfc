// Creation limits per client address: a token bucket per peer host (the
// address without its port), so one client cannot fill the database with
// players or matches (CreatePlayer needs no account). Beyond the bucket the
// call answers RESOURCE_EXHAUSTED (reason RATE_LIMITED) and creates nothing.
//
// A bucket holds `burst` tokens and refills `per_minute` tokens a minute;
// each creation takes one. Buckets are forgotten once full again, so memory
// stays bounded by the number of recently active hosts.
// Thread-safety: Allow() may be called from any thread.

#ifndef MANCALA_SERVICES_API_PEER_LIMITER_H_
#define MANCALA_SERVICES_API_PEER_LIMITER_H_

#include <grpcpp/grpcpp.h>

#include <mutex>
#include <string>
#include <unordered_map>

#include "services/base/clock.h"

namespace mancala::services {

class PeerLimiter {
 public:
  // burst <= 0 turns the limit off.
  PeerLimiter(const Clock& clock, int burst, double per_minute);

  // OK and one token taken, or RESOURCE_EXHAUSTED (reason RATE_LIMITED,
  // metadata "retry_after_ms") for `peer` as grpc::ServerContext::peer()
  // gives it ("ipv4:127.0.0.1:5000", "ipv6:[::1]:5000").
  grpc::Status Allow(const std::string& peer);

  // The host part of a peer string: "ipv4:127.0.0.1:5000" -> "127.0.0.1".
  static std::string Host(const std::string& peer);

 private:
  struct Bucket {
    double tokens = 0;
    int64_t at_ms = 0;  // When `tokens` was last brought up to date.
  };

  const Clock& clock_;
  const int burst_;
  const double per_ms_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_PEER_LIMITER_H_
