// A match's life outside its moves (match_lifecycle.h).

#include "services/match/match_lifecycle.h"

#include "services/base/ids.h"
#include "services/base/text.h"
#include "services/model/domain_error.h"
#include "services/model/names.h"
#include "services/model/watch_events.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

MatchLifecycle::MatchLifecycle(MatchContext& context, MatchRegistry& registry,
                               MatchWatchers& watchers, CpuTurns& cpu_turns)
    : context_(context),
      registry_(registry),
      watchers_(watchers),
      cpu_turns_(cpu_turns) {}

absl::Status MatchLifecycle::Create(const NewMatch& request, MatchView* out) {
  std::string id;
  if (absl::Status s = Admit(request, &id); !s.ok()) return s;
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    SettledLock lock(*live);
    live->View(context_.clock.NowMs(), out);
    turn = cpu_turns_.Due(*live);
  }
  cpu_turns_.Announce(std::move(turn));
  return absl::OkStatus();
}

absl::Status MatchLifecycle::Join(const std::string& invite_code,
                                  std::optional<int> seat,
                                  const std::string& player_id,
                                  MatchView* out) {
  std::optional<std::string> code = NormalizeInviteCode(invite_code);
  if (!code.has_value()) {
    return DomainError(
        absl::StatusCode::kInvalidArgument, "INVALID_INVITE_CODE",
        "invite codes are made of 2-9 and A-Z without I, L, O; got " +
            Quote(invite_code));
  }
  auto id = context_.store.FindMatchByInviteCode(*code);
  if (absl::IsNotFound(id.status())) {
    return DomainError(absl::StatusCode::kNotFound, "INVITE_NOT_FOUND",
                       "no match has invite code " + Quote(*code));
  }
  if (!id.ok()) return StorageFailure(id.status());
  LivePtr live;
  if (absl::Status s = registry_.Find(*id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    SettledLock lock(*live);
    if (absl::Status s = context_.replication->Refresh(*live); !s.ok()) {
      return s;
    }
    storage::MatchRecord& rec = live->record;
    if (rec.status != MatchStatus::kWaiting) {
      return DomainError(absl::StatusCode::kFailedPrecondition, "MATCH_FULL",
                         MatchName(rec.id) + " has no open seat any more");
    }
    if (rec.ranked) {
      for (size_t i = 0; i < rec.seats.size(); ++i) {
        if (live->HoldsSeat(player_id, i)) {
          return DomainError(absl::StatusCode::kFailedPrecondition,
                             "ALREADY_SEATED",
                             "you already hold seat " + std::to_string(i) +
                                 "; nobody holds two seats in a ranked match");
        }
      }
    }
    int take = -1;
    if (seat.has_value()) {
      if (*seat < 0 || *seat >= static_cast<int>(rec.seats.size())) {
        return DomainError(
            absl::StatusCode::kInvalidArgument, "INVALID_ARGUMENT",
            "seat must be 0.." + std::to_string(rec.seats.size() - 1));
      }
      if (rec.seats[*seat].kind != SeatRecord::Kind::kOpen) {
        return DomainError(absl::StatusCode::kFailedPrecondition, "SEAT_TAKEN",
                           "seat " + std::to_string(*seat) + " is not open");
      }
      take = *seat;
    } else {
      for (size_t i = 0; i < rec.seats.size() && take < 0; ++i) {
        if (rec.seats[i].kind == SeatRecord::Kind::kOpen) take = i;
      }
    }
    auto player = context_.store.GetPlayer(player_id);
    if (!player.ok()) return StorageFailure(player.status());
    storage::MatchRecord next = rec;
    next.seats[take] = {SeatRecord::Kind::kPlayer, player_id, 0,
                        player->display_name};
    next.updated_at_ms = context_.clock.NowMs();
    bool still_open = false;
    for (const SeatRecord& s : next.seats) {
      still_open |= s.kind == SeatRecord::Kind::kOpen;
    }
    // The code stays stored once the last seat is taken, so a late joiner
    // learns the match is full (MATCH_FULL) rather than that the code is
    // unknown; Match.invite_code shows it only while seats are open.
    if (!still_open) next.status = MatchStatus::kInProgress;
    if (absl::Status s = context_.store.UpdateMatch(next); !s.ok()) {
      return StorageFailure(s);
    }
    rec = std::move(next);
    context_.replication->Changed(*live);
    if (!still_open) live->clock.StartMatch(context_.clock.NowMs());
    watchers_.Touch(*live, player_id);
    live->View(context_.clock.NowMs(), out);
    watchers_.Broadcast(*live, MatchEvent(*out, false));
    turn = cpu_turns_.Due(*live);
  }
  cpu_turns_.Announce(std::move(turn));
  return absl::OkStatus();
}

absl::Status MatchLifecycle::Cancel(const std::string& id,
                                    const std::string& player_id,
                                    MatchView* out) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  SettledLock lock(*live);
  if (absl::Status s = context_.replication->Refresh(*live); !s.ok()) return s;
  storage::MatchRecord& rec = live->record;
  if (rec.created_by != player_id) {
    return DomainError(
        absl::StatusCode::kPermissionDenied, "NOT_CREATOR",
        "only the creator of " + MatchName(id) + " may cancel it");
  }
  if (rec.status == MatchStatus::kCancelled) {
    live->View(context_.clock.NowMs(),
               out);  // Cancelling again is a no-op (a retry).
    return absl::OkStatus();
  }
  if (rec.status != MatchStatus::kWaiting) {
    return DomainError(absl::StatusCode::kFailedPrecondition, "MATCH_STARTED",
                       MatchName(id) + (rec.status == MatchStatus::kInProgress
                                            ? " has started; resign instead"
                                            : " has ended"));
  }
  return CancelWaiting(*live, kCancelledByCreator, out);
}

absl::Status MatchLifecycle::CancelWaiting(CachedMatch& live,
                                           const char* reason, MatchView* out) {
  storage::MatchRecord next = live.record;
  next.status = MatchStatus::kCancelled;
  next.invite_code.clear();  // Frees the code: JoinMatch no longer finds it.
  next.cancel_reason = reason;
  next.updated_at_ms = next.ended_at_ms = context_.clock.NowMs();
  if (absl::Status s = context_.store.UpdateMatch(next); !s.ok())
    return StorageFailure(s);
  live.record = std::move(next);
  context_.replication->Changed(live);
  live.View(context_.clock.NowMs(), out);
  watchers_.Broadcast(live, MatchEvent(*out, true), /*last=*/true);
  return absl::OkStatus();
}

absl::Status MatchLifecycle::Rematch(const std::string& id,
                                     const std::string& player_id,
                                     MatchView* out) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  NewMatch again;
  std::string existing;
  {
    SettledLock lock(*live);
    if (absl::Status s = context_.replication->Refresh(*live); !s.ok()) {
      return s;
    }
    storage::MatchRecord& rec = live->record;
    bool seated = false;
    for (size_t i = 0; i < rec.seats.size(); ++i) {
      seated |= live->HoldsSeat(player_id, i);
    }
    if (!seated) {
      return DomainError(
          absl::StatusCode::kPermissionDenied, "NOT_A_SEAT",
          "only a player of " + MatchName(id) + " may ask a rematch");
    }
    if (rec.status != MatchStatus::kFinished &&
        rec.status != MatchStatus::kAborted) {
      return DomainError(absl::StatusCode::kFailedPrecondition,
                         "MATCH_NOT_OVER", MatchName(id) + " is not finished");
    }
    existing = rec.rematch_id;
    // Rechecked: a rematch is played under today's rules of shape.
    if (absl::Status s = ShapeFromRecord(rec, &again.shape); !s.ok()) return s;
    again.creator_id = player_id;
    again.seats = rec.seats;
    const int n = static_cast<int>(rec.seats.size());
    // MB.4: the first player of game k+1 is the next after game k's.
    again.first_seat =
        rec.rotate_first_player ? (rec.first_seat + 1) % n : rec.first_seat;
    again.ranked = rec.ranked;
    again.rematch_of = id;
  }
  if (existing.empty()) {
    absl::Status s = Insert(again, &existing);
    if (absl::IsAlreadyExists(s)) {
      auto original = context_.store.GetMatch(id);  // Someone else was first.
      if (!original.ok()) return StorageFailure(original.status());
      existing = original->rematch_id;
    } else if (!s.ok()) {
      return StorageFailure(s);
    }
    SettledLock lock(*live);
    live->record.rematch_id = existing;
  }
  LivePtr next;
  if (absl::Status s = registry_.Find(existing, &next); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    MutexLock lock(&next->mu);
    watchers_.Touch(*next, player_id);
    next->View(context_.clock.NowMs(), out);
    turn = cpu_turns_.Due(*next);
  }
  cpu_turns_.Announce(std::move(turn));
  return absl::OkStatus();
}

absl::Status MatchLifecycle::Insert(const NewMatch& request, std::string* id) {
  storage::MatchRecord record;
  record.id = NewId();
  record.game = request.shape.game;
  record.options = request.shape.options;
  record.seats = request.seats;
  record.first_seat = request.first_seat;
  record.created_by = request.creator_id;
  record.created_at_ms = record.updated_at_ms = context_.clock.NowMs();
  record.ranked = request.ranked;
  record.turn_limit_s = request.shape.turn_limit_s;
  record.rotate_first_player = request.shape.rotate_first_player;
  record.rematch_of = request.rematch_of;
  record.request_id = request.request_id;
  record.request_hash = request.request_hash;
  bool open = false;
  for (const SeatRecord& s : record.seats)
    open |= s.kind == SeatRecord::Kind::kOpen;
  record.status = open ? MatchStatus::kWaiting : MatchStatus::kInProgress;
  if (open) record.invite_code = NewInviteCode();
  *id = record.id;
  return context_.store.CreateMatch(record);
}

// The deadline comes from the stored record (created_at + waiting_ttl_ms),
// so a match that was waiting before a restart expires on time after it:
// LoadActive loads every WAITING match, and the registry indexes each.
void MatchLifecycle::ExpireWaiting() {
  const int64_t now = context_.clock.NowMs();
  for (const std::string& id : registry_.TakeExpired(now)) {
    LivePtr live;
    if (!registry_.Find(id, &live).ok()) continue;
    SettledLock lock(*live);
    // Started or cancelled since it was indexed: nothing to do.
    if (live->record.status != MatchStatus::kWaiting) continue;
    MatchView out;
    if (!CancelWaiting(*live, kCancelledExpired, &out).ok()) {
      // The store refused (e.g. locked for longer than its busy timeout):
      // try again at the next tick.
      registry_.ExpireAgain(id, now);
    }
  }
}

}  // namespace mancala::services
