// The path of a move (move_path.h).

#include "services/match/move_path.h"

#include "services/base/text.h"
#include "services/match/rating_book.h"
#include "services/model/domain_error.h"
#include "services/model/match_errors.h"
#include "services/model/names.h"
#include "services/model/watch_events.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

namespace {

// Request ids are scoped to (match, player): the store keys them per match,
// so the player's id goes in front.
std::string RequestKey(const MoveRequest& move) {
  return move.request_id.empty() ? "" : move.player_id + "/" + move.request_id;
}

}  // namespace

MovePath::MovePath(MatchContext& context, MatchRegistry& registry,
                   MatchWatchers& watchers, CpuTurns& cpu_turns)
    : context_(context),
      registry_(registry),
      watchers_(watchers),
      cpu_turns_(cpu_turns) {}

absl::Status MovePath::Play(const std::string& id, const MoveRequest& move,
                            MoveReply* out) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  absl::Status answer = RetryLostRace(*live, [&]() -> absl::Status {
    MutexLock lock(&live->mu);
    // A client ahead of the cache saw a move made on another node.
    if (move.expected_ply.has_value() &&
        *move.expected_ply > live->record.ply) {
      if (absl::Status s = context_.replication->Refresh(*live); !s.ok())
        return s;
    }
    storage::MatchRecord& rec = live->record;
    bool seated = false;
    for (size_t i = 0; i < rec.seats.size(); ++i) {
      seated |= live->HoldsSeat(move.player_id, i);
    }
    if (!seated) {
      return DomainError(absl::StatusCode::kPermissionDenied, "NOT_A_SEAT",
                         "you hold no seat in " + MatchName(id));
    }
    watchers_.Touch(*live, move.player_id);
    if (!move.request_id.empty()) {
      // A repeat of a request gets the first answer, whatever happened
      // since; the move is never applied twice.
      auto first = context_.store.FindMoveByRequestId(id, RequestKey(move));
      if (first.ok()) {
        if (first->pit != move.pit) {
          return DomainError(
              absl::StatusCode::kInvalidArgument, "REQUEST_ID_REUSED",
              "request_id " + Quote(move.request_id) + " was used for pit " +
                  std::to_string(first->pit));
        }
        *out = MoveReply{};
        out->stored = std::move(first->reply);  // Parsed by the edge.
        return absl::OkStatus();
      }
      if (!absl::IsNotFound(first.status())) {
        return StorageFailure(first.status());
      }
    }
    engine::State& state = live->state;
    const int pits = state.rules().pits;
    if (move.pit < 0 || move.pit >= pits) {
      return MoveErrorStatus(engine::MoveError::kPitOutOfRange, move.pit, pits,
                             rec.status == MatchStatus::kInProgress
                                 ? state.LegalMoves()
                                 : std::vector<int>{});
    }
    if (rec.status != MatchStatus::kInProgress) return NotStarted(rec);
    if (move.expected_ply.has_value() && *move.expected_ply != rec.ply) {
      return DomainError(absl::StatusCode::kAborted, "STALE_PLY",
                         "the match is at ply " + std::to_string(rec.ply) +
                             ", not " + std::to_string(*move.expected_ply),
                         {{"ply", std::to_string(rec.ply)}});
    }
    const int seat = state.to_move();
    if (!live->HoldsSeat(move.player_id, seat)) {
      return DomainError(absl::StatusCode::kFailedPrecondition, "NOT_YOUR_TURN",
                         "it is seat " + std::to_string(seat) + "'s turn (" +
                             DisplayName(live->record.seats[seat]) + ")",
                         {{"to_move", std::to_string(seat)}});
    }
    if (absl::Status s = ApplyAndStore(*live, seat, move.pit, CpuReason::kNone,
                                       RequestKey(move), out);
        !s.ok()) {
      return s;
    }
    turn = cpu_turns_.Due(*live);
    return absl::OkStatus();
  });
  cpu_turns_.Announce(std::move(turn));
  return answer;
}

absl::Status MovePath::PlayCpu(const CpuTurn& turn, int pit) {
  LivePtr live;
  if (absl::Status s = registry_.Find(turn.match_id, &live); !s.ok()) return s;
  std::optional<CpuTurn> next;
  {
    MutexLock lock(&live->mu);
    live->clock.CpuTurnReturned(turn.ply);
    // The turn must still be due for the same reason: the match has not
    // moved on, and an absent player has not come back.
    const bool due = live->record.status == MatchStatus::kInProgress &&
                     live->record.ply == turn.ply &&
                     !(turn.stop && turn.stop->load());
    if (!due) {
      return DomainError(absl::StatusCode::kAborted, "STALE_PLY",
                         "the CPU turn at ply " + std::to_string(turn.ply) +
                             " is no longer due");
    }
    const int seat = live->state.to_move();
    if (absl::Status s =
            ApplyAndStore(*live, seat, pit, turn.reason, "", nullptr);
        !s.ok()) {
      // Another node took the ply: the cache catches up, so the next
      // request starts from the stored match.
      if (absl::IsAborted(s)) {
        static_cast<void>(
            context_.replication->Refresh(*live));  // A failed read waits.
      }
      return s;
    }
    // A stand-in begins with its first move stored when this node's view
    // of presence is partial (turn_clock.h rule 7); otherwise it began when
    // it was decided, and nothing changes here.
    if (turn.reason == CpuReason::kStandIn && live->clock.BeginStandIn(seat)) {
      watchers_.BroadcastPresence(*live, seat, context_.clock.NowMs());
    }
    next = cpu_turns_.Due(*live);
  }
  cpu_turns_.Announce(std::move(next));
  return absl::OkStatus();
}

absl::Status MovePath::Resign(const std::string& id,
                              const std::string& player_id, MatchView* out) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  absl::Status answer = RetryLostRace(*live, [&]() -> absl::Status {
    MutexLock lock(&live->mu);
    int seat = -1;
    bool seated = false;
    for (size_t i = 0; i < live->record.seats.size(); ++i) {
      if (!live->HoldsSeat(player_id, i)) continue;
      seated = true;
      if (seat < 0 && live->state.is_active(i)) seat = static_cast<int>(i);
    }
    if (!seated) {
      return DomainError(absl::StatusCode::kPermissionDenied, "NOT_A_SEAT",
                         "you hold no seat in " + MatchName(id));
    }
    watchers_.Touch(*live, player_id);
    if (live->record.status != MatchStatus::kInProgress) {
      return NotStarted(live->record);
    }
    if (seat < 0) {
      return MoveErrorStatus(engine::MoveError::kNotActive, 0, 0, {});
    }
    MoveReply reply;
    if (absl::Status s =
            ApplyAndStore(*live, seat, -1, CpuReason::kNone, "", &reply);
        !s.ok()) {
      return s;
    }
    *out = std::move(reply.match);
    turn = cpu_turns_.Due(*live);
    return absl::OkStatus();
  });
  cpu_turns_.Announce(std::move(turn));
  return answer;
}

absl::Status MovePath::ApplyAndStore(CachedMatch& live, int seat, int pit,
                                     CpuReason cpu_reason,
                                     const std::string& request_id,
                                     MoveReply* reply) {
  engine::State next = live.state;
  engine::MoveRecord record;
  auto err = pit < 0 ? next.Resign(seat, &record) : next.Apply(pit, &record);
  if (err.has_value()) {
    return MoveErrorStatus(*err, pit, next.rules().pits,
                           live.state.LegalMoves());
  }
  storage::MoveRow row;
  row.match_id = live.record.id;
  row.ply = live.record.ply + 1;
  row.seat = seat;
  row.pit = pit;
  row.by_cpu = cpu_reason != CpuReason::kNone;
  row.cpu_reason = static_cast<int>(cpu_reason);
  row.played_at_ms = context_.clock.NowMs();
  row.events = context_.encodings.EncodeEvents(record.events);
  // The engine's events, shared by the reply and the watchers: neither
  // decodes row.events back.
  const std::shared_ptr<const std::vector<engine::Event>> played =
      std::make_shared<const std::vector<engine::Event>>(
          std::move(record.events));
  row.request_id = request_id;
  storage::MatchUpdate update;
  context_.replication->SetDue(live, next, &update);
  if (!next.is_over()) {
    return Commit(live, std::move(next), std::move(row), played, update, reply);
  }
  update.status = MatchStatus::kFinished;
  update.ended_at_ms = row.played_at_ms;
  update.result = context_.encodings.EncodeResult(next);
  if (!IsRatedMatch(live.record)) {
    return Commit(live, std::move(next), std::move(row), played, update, reply);
  }
  // Held from reading the ratings until the move is stored: the rating
  // updates of matches sharing a player never interleave (docs/ratings.md).
  // Lock order: the match lock (held), then this one.
  // Another node may rate the same players meanwhile (this lock is one
  // process's): with notices (PostgreSQL) the store writes only over the
  // ratings this end was computed from, and a refusal is recomputed.
  MutexLock ratings_lock(&context_.ratings_mu);
  constexpr int kAttempts = 5;
  for (int tries = 1;; ++tries) {
    storage::MatchUpdate rated = update;
    rated.check_before = context_.replication->RatingsShared();
    if (absl::Status s = RateEnd(live, next, row, &rated); !s.ok()) return s;
    bool ratings_moved = false;
    absl::Status s =
        Commit(live, next, row, played, rated, reply, &ratings_moved);
    if (!ratings_moved || tries == kAttempts) return s;
  }
}

absl::Status MovePath::Commit(
    CachedMatch& live, engine::State next, storage::MoveRow row,
    std::shared_ptr<const std::vector<engine::Event>> played,
    const storage::MatchUpdate& update, MoveReply* reply, bool* ratings_moved) {
  // The reply is part of the stored row (idempotent requests), so it is
  // built first, from the state the move leaves; the live match moves on
  // only once the store took the move, so a refused move changes nothing.
  const bool over = next.is_over();
  const CachedMatch::Progress after{
      next,
      {update.status, row.ply, row.played_at_ms, update.ended_at_ms},
      live.clock.DeadlineOfTurn(row.played_at_ms, over)};
  MoveReply answer;
  live.View(after, context_.clock.NowMs(), &answer.match);
  answer.move = MoveOf(row, std::move(played));
  if (!row.request_id.empty()) {
    if (absl::Status s = context_.encodings.EncodeReply(answer, &row.reply);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = context_.store.AppendMove(row, update); !s.ok()) {
    if (ratings_moved != nullptr) {
      *ratings_moved = absl::IsFailedPrecondition(s);
    }
    // ABORTED: another node took the ply. The caller catches the cache up
    // (RetryLostRace, PlayCpu), once.
    return StorageFailure(s);
  }
  storage::MatchRecord& rec = live.record;
  live.state = std::move(next);
  rec.ply = row.ply;
  rec.status = update.status;
  rec.updated_at_ms = row.played_at_ms;
  rec.ended_at_ms = update.ended_at_ms;
  rec.result = update.result;
  if (!row.by_cpu) live.moved_self[row.seat] = true;
  live.clock.StartTurn(row.played_at_ms, over);
  context_.replication->Changed(live);
  live.clock.CancelCpuTurn();  // Any search for the previous ply is moot.
  if (live.audience) {         // Events are built only for someone to watch.
    watchers_.Broadcast(live, MoveEvent(answer.move));
  }
  watchers_.TellTurn(live, answer.match);
  if (reply != nullptr) *reply = std::move(answer);
  return absl::OkStatus();
}

absl::Status MovePath::RetryLostRace(
    CachedMatch& live, const std::function<absl::Status()>& attempt) {
  const int attempts = context_.replication->MoveAttempts();
  for (int tries = 1;; ++tries) {
    int64_t ply = 0;
    MatchStatus status;
    {
      MutexLock lock(&live.mu);
      ply = live.record.ply;
      status = live.record.status;
    }
    absl::Status s = attempt();
    if (s.ok() || tries >= attempts) return s;
    // Refused: answer on the stored match if it differs from the cached
    // one the attempt started from.
    MutexLock lock(&live.mu);
    if (!context_.replication->Refresh(live).ok()) return s;
    if (live.record.ply == ply && live.record.status == status) return s;
  }
}

}  // namespace mancala::services
