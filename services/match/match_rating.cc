// MovePath::RateEnd: the rating update of a rated match's end, computed
// inside the move's path so the move and the new ratings are stored in one
// write (docs/ratings.md).

#include "services/match/move_path.h"
#include "services/match/rating_book.h"
#include "services/model/domain_error.h"

namespace mancala::services {

using storage::MatchStatus;

absl::Status MovePath::RateEnd(const CachedMatch& live,
                               const engine::State& final_state,
                               const storage::MoveRow& last_move,
                               storage::MatchUpdate* update) {
  const storage::MatchRecord& rec = live.record;
  const size_t n = rec.seats.size();
  // A seat that never moved itself (only the CPU for it): the match is
  // aborted, not rated (docs/ratings.md "What is rated").
  for (size_t i = 0; i < n; ++i) {
    const bool last =
        !last_move.by_cpu && last_move.seat == static_cast<int>(i);
    if (!live.moved_self[i] && !last) {
      update->status = MatchStatus::kAborted;
      return absl::OkStatus();
    }
  }
  std::vector<std::string> ids;
  std::vector<Participant> players;
  for (size_t i = 0; i < n; ++i) {
    ids.push_back(rec.seats[i].player_id);
    players.push_back({rec.seats[i].player_id, static_cast<int>(i),
                       final_state.outcome().ranks[i]});
  }
  auto stored = context_.store.GetRatings(rec.game, ids);
  if (!stored.ok()) return StorageFailure(stored.status());
  std::map<std::string, storage::RatingRecord> ratings;
  for (storage::RatingRecord& r : *stored) ratings[r.player_id] = std::move(r);
  RateMatch(rec.id, rec.game, players, last_move.played_at_ms, &ratings,
            &update->rating_changes);
  for (const std::string& id : ids) update->new_ratings.push_back(ratings[id]);
  return absl::OkStatus();
}

}  // namespace mancala::services
