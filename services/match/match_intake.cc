// MatchLifecycle: the checks a new match passes before it is stored: a
// CreateMatch request id (AIP-155) already used by the creator returns the
// match the first request made, and a creator holds at most
// options.max_waiting_per_player WAITING matches. Both read the store (the
// request id and the waiting count are stored, so they hold across a
// restart and on PostgreSQL); creating_ makes each creator's creations one
// at a time on this server, and the store's unique (creator, request id)
// index covers another server on the same PostgreSQL database.

#include <functional>

#include "services/base/text.h"
#include "services/match/match_lifecycle.h"
#include "services/model/domain_error.h"
#include "services/model/names.h"

namespace mancala::services {
namespace {

using storage::SeatRecord;

bool HasOpenSeat(const NewMatch& request) {
  for (const SeatRecord& s : request.seats) {
    if (s.kind == SeatRecord::Kind::kOpen) return true;
  }
  return false;
}

// The first match of a request id: the same request gets it again.
absl::Status Retried(const NewMatch& request, const storage::MatchRecord& first,
                     std::string* id) {
  if (first.request_hash != request.request_hash) {
    return DomainError(absl::StatusCode::kInvalidArgument, "REQUEST_ID_REUSED",
                       "request_id " + Quote(request.request_id) + " made " +
                           MatchName(first.id) +
                           " from a different request; use a new id for a new "
                           "match");
  }
  *id = first.id;
  return absl::OkStatus();
}

}  // namespace

absl::Status MatchLifecycle::Admit(const NewMatch& request, std::string* id) {
  MutexLock lock(&creating_[std::hash<std::string>{}(request.creator_id) %
                            creating_.size()]);
  const bool with_id = !request.request_id.empty();
  if (with_id) {
    auto first = context_.store.FindMatchByRequestId(request.creator_id,
                                                     request.request_id);
    if (first.ok()) return Retried(request, *first, id);
    if (!absl::IsNotFound(first.status()))
      return StorageFailure(first.status());
  }
  const int cap = context_.options.max_waiting_per_player;
  if (cap > 0 && HasOpenSeat(request)) {
    auto waiting = context_.store.CountWaitingMatches(request.creator_id);
    if (!waiting.ok()) return StorageFailure(waiting.status());
    if (*waiting >= cap) {
      return DomainError(
          absl::StatusCode::kResourceExhausted, "TOO_MANY_WAITING_MATCHES",
          "you have " + std::to_string(*waiting) +
              " matches waiting for players (the limit is " +
              std::to_string(cap) + "); cancel one or wait for one to start",
          {{"limit", std::to_string(cap)}});
    }
  }
  absl::Status s = Insert(request, id);
  if (absl::IsAlreadyExists(s) && with_id) {
    // Another server on the same database stored this id first.
    auto first = context_.store.FindMatchByRequestId(request.creator_id,
                                                     request.request_id);
    if (!first.ok()) return StorageFailure(first.status());
    return Retried(request, *first, id);
  }
  if (!s.ok()) return StorageFailure(s);
  return absl::OkStatus();
}

}  // namespace mancala::services
