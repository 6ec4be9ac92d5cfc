// Plain C++ values of matchmaking (matchmaker.h): what a player searches
// for, what a searcher is told, and the queues as GetQueueStats lists them.
// The gRPC edge converts them from and to the mancala.v1 messages
// (search_convert.h), so the matchmaker builds no protos.
// Values only: safe to keep and read on any thread once filled.

#ifndef MANCALA_SERVICES_MODEL_SEARCH_VIEWS_H_
#define MANCALA_SERVICES_MODEL_SEARCH_VIEWS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules.h"
#include "services/model/match_shape.h"

namespace mancala::services {

// A search (mancala.v1.FindMatchRequest), its shape already checked by the
// edge (match_shape.h ShapeFromRequest, as CreateMatch does).
struct SearchRequest {
  MatchShape shape;  // Game, seats, options, turn limit, rotation.
  bool ranked = false;
  // Casual only: a CPU opponent after MatchmakerOptions::cpu_fallback_ms.
  bool accept_cpu = false;
};

// What a searcher is told (mancala.v1.FindMatchUpdate): the queue's state
// while searching, then once the match found.
struct SearchUpdate {
  enum class Kind {
    kWaiting,  // mancala.v1.QueueState.
    kFound,    // mancala.v1.MatchFound: the stream's last update.
  };
  Kind kind = Kind::kWaiting;
  // kWaiting: players searching in this queue, on every node; whole
  // seconds waited; ranked queues only, the rating points accepted now.
  int searching = 0;
  int64_t waited_s = 0;
  std::optional<double> rating_window;
  // kFound: the match (its id, not its resource name), already started,
  // and the searcher's seat in it.
  std::string match_id;
  int seat = -1;
};

// One queue (mancala.v1.QueueStats.Queue): searches pair only within it.
struct QueueView {
  std::string game;           // Engine name, e.g. "kalah".
  engine::OptionMap options;  // Effective rule options (MatchShape).
  int seats = 2;
  bool ranked = false;
  int turn_limit_s = 0;  // 0: no limit.
  int searching = 0;     // On every node.
};

// The queues that have searchers (mancala.v1.QueueStats).
struct QueueStatsView {
  std::vector<QueueView> queues;
  int searching = 0;  // The sum over `queues`.
  // Players online on the whole site (services/cluster/online_players.h).
  int online = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_SEARCH_VIEWS_H_
