#include "services/match/turn_clock.h"

namespace mancala::services {

TurnClock::TurnClock(int seats, int turn_limit_s, int64_t grace_ms,
                     bool partial_view)
    : turn_limit_s_(turn_limit_s),
      grace_ms_(grace_ms),
      partial_view_(partial_view),
      seats_(seats) {}

void TurnClock::StartMatch(int64_t now) {
  for (Seat& s : seats_) s.last_seen_ms = now;
  StartTurn(now, /*game_over=*/false);
}

int64_t TurnClock::DeadlineOfTurn(int64_t now, bool game_over) const {
  return !game_over && turn_limit_s_ > 0
             ? now + static_cast<int64_t>(turn_limit_s_) * 1000
             : 0;
}

bool TurnClock::Seen(int seat, int64_t now) {
  Seat& s = seats_[seat];
  s.last_seen_ms = now;
  const bool was_standing_in = s.standing_in;
  s.standing_in = false;
  return was_standing_in;
}

void TurnClock::StreamOpened(int seat) { seats_[seat].open_streams++; }

void TurnClock::StreamClosed(int seat, std::optional<int64_t> grace_from) {
  Seat& s = seats_[seat];
  s.open_streams--;
  if (grace_from.has_value()) s.last_seen_ms = *grace_from;
}

bool TurnClock::SeenHere(int seat, int64_t now) const {
  const Seat& s = seats_[seat];
  return s.open_streams > 0 || now - s.last_seen_ms < grace_ms_;
}

bool TurnClock::Present(int seat, int64_t now) const {
  if (partial_view_) return !seats_[seat].standing_in;  // Rule 7.
  return SeenHere(seat, now);
}

bool TurnClock::PresenceChanged(int seat, int64_t now) {
  const bool present = Present(seat, now);
  if (present == seats_[seat].announced_present) return false;
  seats_[seat].announced_present = present;
  return true;
}

CpuReason TurnClock::Due(int seat, bool cpu_seat, int64_t now,
                         bool* stand_in_began) {
  *stand_in_began = false;
  if (cpu_seat) return CpuReason::kCpuSeat;
  if (deadline_ms_ > 0 && now >= deadline_ms_) return CpuReason::kTurnTimeout;
  if (SeenHere(seat, now)) return CpuReason::kNone;
  // Rule 7: with a partial view only a claimed stand-in begins.
  if (!partial_view_) *stand_in_began = BeginStandIn(seat);
  return CpuReason::kStandIn;
}

bool TurnClock::BeginStandIn(int seat) {
  Seat& s = seats_[seat];
  if (s.standing_in) return false;
  s.standing_in = true;
  s.announced_present = false;
  return true;
}

bool TurnClock::EndStandIn(int seat) {
  Seat& s = seats_[seat];
  if (!s.standing_in) return false;
  s.standing_in = false;
  s.announced_present = true;
  return true;
}

std::shared_ptr<std::atomic<bool>> TurnClock::QueueCpuTurn(int64_t ply) {
  if (cpu_queued_ply_ == ply) return nullptr;
  cpu_queued_ply_ = ply;
  cpu_stop_ = std::make_shared<std::atomic<bool>>(false);
  return cpu_stop_;
}

void TurnClock::CpuTurnReturned(int64_t ply) {
  if (cpu_queued_ply_ == ply) cpu_queued_ply_ = -1;
}

void TurnClock::CancelCpuTurn() {
  if (cpu_stop_) cpu_stop_->store(true);
  cpu_stop_.reset();
  cpu_queued_ply_ = -1;
}

}  // namespace mancala::services
