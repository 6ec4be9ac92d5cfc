// The admin operations on stored matches (match_admin.h).

#include "services/match/match_admin.h"

#include "services/match/rating_book.h"
#include "services/model/domain_error.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::MatchStatus;

MatchAdmin::MatchAdmin(MatchContext& context, MatchRegistry& registry)
    : context_(context), registry_(registry) {}

absl::Status MatchAdmin::VoidMatch(const std::string& id,
                                   const std::string& reason,
                                   const std::string& actor, MatchView* out,
                                   int* recomputed) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  // Lock order: the match lock, then the ratings lock (live_matches.h),
  // both held to the end: the check, the recomputation and the record agree.
  SettledLock lock(*live);
  if (live->record.status != MatchStatus::kFinished) {
    return DomainError(absl::StatusCode::kFailedPrecondition, "NOT_RATED",
                       MatchName(id) + " is not a finished match");
  }
  if (live->record.voided) {
    return DomainError(absl::StatusCode::kFailedPrecondition, "ALREADY_VOID",
                       MatchName(id) + " is void already");
  }
  const std::string game = live->record.game;
  // Same lock as a match end's rating update: no rating write interleaves.
  MutexLock ratings_lock(&context_.ratings_mu);
  auto own = context_.store.ListMatchRatingChanges(id);
  if (!own.ok()) return StorageFailure(own.status());
  if (own->empty()) {
    return DomainError(
        absl::StatusCode::kFailedPrecondition, "NOT_RATED",
        MatchName(id) + " was not rated; there is nothing to void");
  }
  auto history = context_.store.ListGameRatingChanges(game);
  if (!history.ok()) return StorageFailure(history.status());
  std::vector<storage::RatingChange> changes;
  std::vector<storage::RatingRecord> ratings;
  Recompute(*history, id, &changes, &ratings);
  storage::AuditRecord audit;
  audit.at_ms = context_.clock.NowMs();
  audit.actor = actor.empty() ? "admin" : actor;
  audit.action = "void_match";
  audit.target = MatchName(id);
  audit.reason = reason;
  if (absl::Status s =
          context_.store.VoidMatch(id, reason, game, changes, ratings, audit);
      !s.ok()) {
    if (absl::IsFailedPrecondition(s)) {
      return DomainError(absl::StatusCode::kFailedPrecondition, "ALREADY_VOID",
                         std::string(s.message()));
    }
    return StorageFailure(s);
  }
  // Changes that differ from the stored ones: the voided match's own, and
  // every later one the recomputation moved.
  std::map<std::pair<std::string, std::string>, storage::RatingValue> was;
  for (const storage::RatingChange& h : *history) {
    was[{h.match_id, h.player_id}] = h.after;
  }
  int moved = static_cast<int>(own->size());
  for (const storage::RatingChange& c : changes) {
    const storage::RatingValue& before = was[{c.match_id, c.player_id}];
    if (before.rating != c.after.rating || before.rd != c.after.rd) ++moved;
  }
  *recomputed = moved;
  live->record.voided = true;
  live->record.void_reason = reason;
  live->View(context_.clock.NowMs(), out);
  return absl::OkStatus();
}

absl::Status MatchAdmin::Verify(const std::string& id, VerifyReport* out) {
  const int64_t read_at_ms = context_.clock.NowMs();
  storage::MatchRecord stored;
  if (absl::Status s = registry_.ReadRecord(id, &stored); !s.ok()) return s;
  *out = VerifyReport{};
  out->stored_result = stored.result;
  // A fresh replay of the stored moves, not the live copy.
  LivePtr replayed;
  absl::Status s = registry_.Replay(stored, read_at_ms, &replayed);
  if (!s.ok()) {
    out->detail = std::string(s.message());
    return absl::OkStatus();
  }
  MutexLock lock(&replayed->mu);  // Not shared; for the analysis.
  engine::State& state = replayed->state;
  const bool stored_over = stored.status == MatchStatus::kFinished ||
                           stored.status == MatchStatus::kAborted;
  if (state.is_over()) out->replayed_result = ResultOf(state);
  if (stored_over != state.is_over()) {
    out->detail = stored_over ? "stored as ended, but the replay is not over"
                              : "the replay ended, but the match is stored "
                                "as not ended";
    return absl::OkStatus();
  }
  if (!context_.encodings.SameResult(out->stored_result,
                                     out->replayed_result)) {
    out->detail = "stored result differs from the replayed one";
    return absl::OkStatus();
  }
  out->consistent = true;
  return absl::OkStatus();
}

}  // namespace mancala::services
