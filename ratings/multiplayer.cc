// Glicko-2 by pairs for 2-4 players. See multiplayer.h.

#include "ratings/multiplayer.h"

#include <stdexcept>

namespace mancala::ratings {
namespace {

void CheckPlayers(std::span<const MatchPlayer> players) {
  if (players.size() < kMinMatchPlayers || players.size() > kMaxMatchPlayers) {
    throw std::invalid_argument("Multiplayer: a match has 2 to 4 players");
  }
  for (const MatchPlayer& p : players) {
    if (p.rank < 1)
      throw std::invalid_argument("Multiplayer: rank must be >= 1");
  }
}

std::vector<Glicko2Game> GamesOf(std::span<const MatchPlayer> players,
                                 std::size_t index) {
  std::vector<Glicko2Game> games;
  games.reserve(players.size() - 1);
  for (std::size_t j = 0; j < players.size(); ++j) {
    if (j == index) continue;
    games.push_back({players[j].before.rating, players[j].before.rd,
                     PairScore(players[index].rank, players[j].rank)});
  }
  return games;
}

}  // namespace

double PairScore(int rank, int opp_rank) {
  if (rank < opp_rank) return 1.0;
  if (rank == opp_rank) return 0.5;
  return 0.0;
}

std::vector<Glicko2Game> VirtualGames(std::span<const MatchPlayer> players,
                                      std::size_t index) {
  CheckPlayers(players);
  if (index >= players.size()) {
    throw std::invalid_argument("Multiplayer: index out of range");
  }
  return GamesOf(players, index);
}

std::vector<Glicko2Rating> MultiplayerUpdate(
    std::span<const MatchPlayer> players, double tau,
    double elapsed_rating_periods) {
  CheckPlayers(players);
  // Every game is built from `players` (the "before" values), so no update
  // of this match can feed another.
  std::vector<Glicko2Rating> after;
  after.reserve(players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    after.push_back(Glicko2Update(players[i].before, GamesOf(players, i), tau,
                                  elapsed_rating_periods));
  }
  return after;
}

}  // namespace mancala::ratings
