// Ranked-match bookkeeping: which matches are rated, and the rating
// changes they make (docs/ratings.md).
//
// Policy, from docs/ratings.md "What is rated": only ranked matches whose every
// seat is a distinct person are rated; a ranked match in which some seat
// never made a move of its own is aborted instead (not rated). One rating
// per player per game; before a match each player's RD grows with the time
// since their last rated match (t = days x 0.21436 rating periods,
// ratings/glicko2.h AgeForTimeAway); then Glicko-2 by pairs from
// the final ranks (ratings/multiplayer.h), tau 0.5; the stored RD
// is clamped to [30, 350].
//
// RateMatch() is a pure function, used both when a match ends and when an
// admin voids a match and the game's ratings are recomputed from the
// stored history (Recompute()).

#ifndef MANCALA_SERVICES_MATCH_RATING_BOOK_H_
#define MANCALA_SERVICES_MATCH_RATING_BOOK_H_

#include <map>
#include <string>
#include <vector>

#include "storage/store.h"

namespace mancala::services {

struct Participant {
  std::string player_id;
  int seat = 0;
  int rank = 0;  // Final rank, 1 = best; ties share a rank.
};

// Rates one match played at `rated_at_ms`. `ratings` maps player id to the
// current record (players missing start at 1500 / 350 / 0.06) and is updated
// in place; the changes are appended to `changes`.
void RateMatch(const std::string& match_id, const std::string& game,
               const std::vector<Participant>& players, int64_t rated_at_ms,
               std::map<std::string, storage::RatingRecord>* ratings,
               std::vector<storage::RatingChange>* changes);

// Recomputes a game's whole rating record from its stored changes (which
// give each rated match's players, seats, ranks and time), leaving out
// `skip_match_id`. Returns the new changes and ratings.
void Recompute(const std::vector<storage::RatingChange>& history,
               const std::string& skip_match_id,
               std::vector<storage::RatingChange>* changes,
               std::vector<storage::RatingRecord>* ratings);

// True if the match is rated when it ends (ranked, every seat a person).
bool IsRatedMatch(const storage::MatchRecord& match);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_RATING_BOOK_H_
