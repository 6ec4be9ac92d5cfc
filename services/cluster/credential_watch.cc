#include "services/cluster/credential_watch.h"

#include <spdlog/spdlog.h>

#include <climits>
#include <string>

#include "absl/time/time.h"

namespace mancala::services {

CredentialWatch::CredentialWatch(storage::Store& store, OnChanged on_changed,
                                 CredentialWatchOptions options)
    : store_(store),
      on_changed_(std::move(on_changed)),
      options_(options),
      thread_([this] { Loop(); }) {}

CredentialWatch::~CredentialWatch() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

bool CredentialWatch::Wait() {
  MutexLock lock(&mu_);
  return !mu_.AwaitWithTimeout(Condition(&stopping_),
                               absl::FromChrono(options_.period));
}

void CredentialWatch::Loop() {
  // The first read asks for nothing (no change is that late: the last
  // millisecond of year 9999, the latest time both databases take) and
  // learns the database's clock: the cache starts empty, so older changes
  // do not matter.
  int64_t since_ms = 253'402'300'799'999;
  int64_t last_warned_ms = INT64_MIN / 2;
  do {
    auto changes = store_.ListCredentialChanges(since_ms);
    if (!changes.ok()) {
      const int64_t now = absl::ToUnixMillis(absl::Now());
      if (now - last_warned_ms >= 60'000) {
        last_warned_ms = now;
        spdlog::warn(
            "credential watch: reading changed credentials failed "
            "(tried again every {} ms): {}",
            options_.period.count(), std::string(changes.status().message()));
      }
      continue;
    }
    for (const std::string& id : changes->player_ids) on_changed_(id);
    since_ms = changes->as_of_ms - options_.overlap.count();
  } while (Wait());
}

}  // namespace mancala::services
