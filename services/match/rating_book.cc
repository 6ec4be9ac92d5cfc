#include "services/match/rating_book.h"

#include "ratings/glicko2.h"
#include "ratings/multiplayer.h"

namespace mancala::services {
namespace {

constexpr double kMsPerDay = 86'400'000.0;

ratings::Glicko2Rating ToGlicko(const storage::RatingValue& v) {
  return {v.rating, v.rd, v.volatility};
}
storage::RatingValue FromGlicko(const ratings::Glicko2Rating& g) {
  return {g.rating, g.rd, g.volatility};
}

}  // namespace

bool IsRatedMatch(const storage::MatchRecord& match) {
  if (!match.ranked) return false;
  for (const storage::SeatRecord& s : match.seats) {
    if (s.kind != storage::SeatRecord::Kind::kPlayer) return false;
  }
  return true;
}

void RateMatch(const std::string& match_id, const std::string& game,
               const std::vector<Participant>& players, int64_t rated_at_ms,
               std::map<std::string, storage::RatingRecord>* ratings,
               std::vector<storage::RatingChange>* changes) {
  std::vector<ratings::MatchPlayer> pool;
  std::vector<storage::RatingRecord> current;
  for (const Participant& p : players) {
    auto it = ratings->find(p.player_id);
    storage::RatingRecord r;
    if (it != ratings->end()) {
      r = it->second;
    } else {
      r.player_id = p.player_id;
      r.game = game;
      r.value = FromGlicko(ratings::kNewPlayer);
    }
    current.push_back(r);
    // RD grows with the time away; t = 0 for a first match.
    ratings::Glicko2Rating aged = ToGlicko(r.value);
    if (r.games > 0) {
      const double days = (rated_at_ms - r.last_rated_at_ms) / kMsPerDay;
      aged = ratings::AgeForTimeAway(
          aged, ratings::RatingPeriodsSince(std::max(0.0, days)));
    }
    pool.push_back({p.rank, aged});
  }
  const std::vector<ratings::Glicko2Rating> next =
      ratings::MultiplayerUpdate(pool, ratings::kServiceTau, 0.0);
  for (size_t i = 0; i < players.size(); ++i) {
    storage::RatingRecord after = current[i];
    after.value = FromGlicko(ratings::ClampForStorage(next[i]));
    after.games += 1;
    after.last_rated_at_ms = rated_at_ms;
    storage::RatingChange c;
    c.match_id = match_id;
    c.player_id = players[i].player_id;
    c.game = game;
    c.seat = players[i].seat;
    c.rank = players[i].rank;
    c.before = current[i].value;
    c.after = after.value;
    c.rated_at_ms = rated_at_ms;
    changes->push_back(std::move(c));
    (*ratings)[players[i].player_id] = std::move(after);
  }
}

void Recompute(const std::vector<storage::RatingChange>& history,
               const std::string& skip_match_id,
               std::vector<storage::RatingChange>* changes,
               std::vector<storage::RatingRecord>* out) {
  std::map<std::string, storage::RatingRecord> ratings;
  // `history` is in rating order, one run of rows per match.
  for (size_t i = 0; i < history.size();) {
    size_t j = i;
    std::vector<Participant> players;
    while (j < history.size() && history[j].match_id == history[i].match_id) {
      players.push_back(
          {history[j].player_id, history[j].seat, history[j].rank});
      ++j;
    }
    if (history[i].match_id != skip_match_id) {
      RateMatch(history[i].match_id, history[i].game, players,
                history[i].rated_at_ms, &ratings, changes);
    }
    i = j;
  }
  for (auto& [id, r] : ratings) out->push_back(std::move(r));
}

}  // namespace mancala::services
