// What happened during one move, in order, so a client can animate it.
//
// State::Apply() and State::Resign() append events to a MoveRecord. Events are
// facts in the order they occurred: every seed dropped, every pick-up (the
// chosen pit, then each relay), every capture, an extra turn, a player
// finishing or resigning, the end-of-game sweep and the end of the game.
// MoveRecord also carries per-move totals, the numbers the conformance traces
// annotate (`sown`, `captured`, `relays`, `swept`, ...).
//
// Order within a move: kPickUp of the chosen pit, its kDrops in ring order
// (Congkak: then each relay's kPickUp and kDrops), then the captures (Kalah
// and Congkak: the opposite pit, then the capturing seed's pit; Oware: from
// the last house backwards) or kGrandSlamNullified, kExtraTurn, kFinish,
// then at the end of the game the kSweeps (player 0's pits first, in pit
// order) and kGameOver (player = the winner, -1 for a draw). Applying the
// events to the board before the move gives the board after it.

#ifndef MANCALA_ENGINE_EVENTS_H_
#define MANCALA_ENGINE_EVENTS_H_

#include <array>
#include <string_view>
#include <vector>

#include "engine/rules.h"

namespace mancala::engine {

// A position on the board: pit `pit` (0..n-1, sowing order, docs/rules.md 1.2)
// of `player`, or that player's store when pit == kStore.
struct Place {
  static constexpr int kStore = -1;
  int player = 0;
  int pit = 0;
  bool is_store() const { return pit == kStore; }
  friend bool operator==(const Place&, const Place&) = default;
};

enum class EventType {
  kPickUp,   // `count` seeds lifted from `place` (the chosen pit; a relay).
  kDrop,     // One seed dropped at `place`.
  kCapture,  // `count` seeds moved from `place` into `player`'s store.
  kGrandSlamNullified,  // Oware O.6 no_capture: the capture was forfeited.
  kExtraTurn,           // `player` moves again (K.4, C.5, MB.10).
  kFinish,              // `player` emptied their side and got `rank` (MB.11).
  kResign,    // `player` resigned and got `rank` (MB.13, two players: loss).
  kSweep,     // `count` seeds moved from pit `place` into its owner's store
              // at the end of the game (K.9, C.10, O.8, O.11).
  kGameOver,  // The game ended; see State::outcome().end_reason.
};

struct Event {
  EventType type = EventType::kDrop;
  int player = -1;  // Who the event is about (mover, capturer, finisher).
  Place place;      // Where, for kPickUp, kDrop, kCapture, kSweep.
  int count = 0;    // Seeds, for kPickUp, kCapture, kSweep; 1 for kDrop.
  int rank = 0;     // For kFinish and kResign.

  friend bool operator==(const Event&, const Event&) = default;
};

// One move (or resignation) as it happened.
struct MoveRecord {
  int player = -1;  // Mover (or resigner).
  int pit = -1;     // Chosen pit; -1 for a resignation.
  std::vector<Event> events;

  // Totals, as the trace files in tests/data annotate them.
  int sown = 0;      // Seeds lifted: from the chosen pit, plus every
                     // Congkak relay pick-up (C.4), i.e. seeds dropped.
  int relays = 0;    // Congkak relay pick-ups (C.4).
  int captured = 0;  // Seeds moved to the mover's store by captures,
                     // including the capturing seed (Kalah K.5, Congkak
                     // C.7a/C.7b); Oware: seeds taken by O.5.
  bool extra_turn = false;
  bool finished = false;                 // Mancala Basic: the mover finished.
  bool grand_slam_nullified = false;     // Oware.
  bool must_feed = false;                // Oware: the move was made under O.4.
  std::array<int, kMaxPlayers> swept{};  // End-of-game sweep per player.

  // Empties the record for reuse, keeping the events' capacity.
  void Clear();
};

// "pick_up", "drop", "capture", "grand_slam_nullified", "extra_turn",
// "finish", "resign", "sweep", "game_over".
std::string_view EventTypeName(EventType type);

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_EVENTS_H_
