// Who plays the current turn: the seat's player, or the computer for them.
//
// The rule pages promise (docs/rules.md 3.5, the site settings): a turn whose
// time limit passes is played by the CPU for the seat; a player who dropped out
// keeps the seat while the CPU plays for them, move after move, until they
// return. A seat is present while its player has an open WatchMatch stream
// or has called within the grace period.
// Pure functions; times in milliseconds since the Unix epoch.

#ifndef MANCALA_SERVICES_TURN_POLICY_H_
#define MANCALA_SERVICES_TURN_POLICY_H_

#include <cstdint>

#include "mancala/v1/match_service.pb.h"

namespace mancala::services {

struct SeatPresence {
  int open_streams = 0;      // WatchMatch streams carrying the player's token.
  int64_t last_seen_ms = 0;  // Last call (or stream close) by the player.
};

// Present while a stream is open, or until `grace_ms` after the last call.
bool IsPresent(const SeatPresence& seat, int64_t now_ms, int64_t grace_ms);

struct TurnFacts {
  bool cpu_seat = false;    // The seat to move is the computer's.
  bool present = true;      // Its player is present (IsPresent).
  int64_t deadline_ms = 0;  // 0 = no turn time limit.
};

// Who must move now: CPU_REASON_UNSPECIFIED means the seat's player (wait
// for them); otherwise the CPU moves for the given reason. A passed
// deadline wins over absence, so the history says the turn timed out.
v1::Move::CpuReason CpuMustMove(const TurnFacts& facts, int64_t now_ms);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_TURN_POLICY_H_
