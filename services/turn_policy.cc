#include "services/turn_policy.h"

namespace mancala::services {

bool IsPresent(const SeatPresence& seat, int64_t now_ms, int64_t grace_ms) {
  return seat.open_streams > 0 || now_ms - seat.last_seen_ms < grace_ms;
}

v1::Move::CpuReason CpuMustMove(const TurnFacts& facts, int64_t now_ms) {
  if (facts.cpu_seat) return v1::Move::CPU_SEAT;
  if (facts.deadline_ms > 0 && now_ms >= facts.deadline_ms) {
    return v1::Move::TURN_TIMEOUT;
  }
  if (!facts.present) return v1::Move::STAND_IN;
  return v1::Move::CPU_REASON_UNSPECIFIED;
}

}  // namespace mancala::services
