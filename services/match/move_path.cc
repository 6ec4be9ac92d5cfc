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
                   MatchWatchers& watchers, CpuTurns& cpu_turns,
                   StrandPool& strands)
    : context_(context),
      registry_(registry),
      watchers_(watchers),
      cpu_turns_(cpu_turns),
      strands_(strands) {}

absl::Status MovePath::CheckMove(CachedMatch& live, const MoveRequest& move,
                                 int* seat, MoveReply* out, bool* answered) {
  *answered = false;
  const std::string& id = live.record.id;
  // A client ahead of the cache saw a move made on another node.
  if (move.expected_ply.has_value() && *move.expected_ply > live.record.ply) {
    if (absl::Status s = context_.replication->Refresh(live); !s.ok()) return s;
  }
  storage::MatchRecord& rec = live.record;
  bool seated = false;
  for (size_t i = 0; i < rec.seats.size(); ++i) {
    seated |= live.HoldsSeat(move.player_id, i);
  }
  if (!seated) {
    return DomainError(absl::StatusCode::kPermissionDenied, "NOT_A_SEAT",
                       "you hold no seat in " + MatchName(id));
  }
  watchers_.Touch(live, move.player_id);
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
      // Stored by another node the cache has not heard from yet: the
      // client goes on from that move, so the cache does too.
      if (first->ply > live.record.ply) {
        if (absl::Status s = context_.replication->Refresh(live); !s.ok()) {
          return s;
        }
      }
      *out = MoveReply{};
      out->stored = std::move(first->reply);  // Parsed by the edge.
      *answered = true;
      return absl::OkStatus();
    }
    if (!absl::IsNotFound(first.status())) {
      return StorageFailure(first.status());
    }
  }
  // live.state, not a local reference to it: clang's thread-safety
  // analysis loses live.mu on the alias.
  const int pits = live.state.rules().pits;
  if (move.pit < 0 || move.pit >= pits) {
    return MoveErrorStatus(engine::MoveError::kPitOutOfRange, move.pit, pits,
                           rec.status == MatchStatus::kInProgress
                               ? live.state.LegalMoves()
                               : std::vector<int>{});
  }
  if (rec.status != MatchStatus::kInProgress) return NotStarted(rec);
  if (move.expected_ply.has_value() && *move.expected_ply != rec.ply) {
    return DomainError(absl::StatusCode::kAborted, "STALE_PLY",
                       "the match is at ply " + std::to_string(rec.ply) +
                           ", not " + std::to_string(*move.expected_ply),
                       {{"ply", std::to_string(rec.ply)}});
  }
  *seat = live.state.to_move();
  if (!live.HoldsSeat(move.player_id, *seat)) {
    return DomainError(absl::StatusCode::kFailedPrecondition, "NOT_YOUR_TURN",
                       "it is seat " + std::to_string(*seat) + "'s turn (" +
                           DisplayName(live.record.seats[*seat]) + ")",
                       {{"to_move", std::to_string(*seat)}});
  }
  return absl::OkStatus();
}

absl::Status MovePath::Play(const std::string& id, const MoveRequest& move,
                            MoveReply* out) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  absl::Status answer = RetryLostRace(*live, [&]() -> absl::Status {
    SettledLock lock(*live);
    int seat = 0;
    bool answered = false;
    if (absl::Status s = CheckMove(*live, move, &seat, out, &answered);
        !s.ok() || answered) {
      return s;
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
    SettledLock lock(*live);
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
    SettledLock lock(*live);
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

absl::StatusOr<MovePath::PendingMove> MovePath::Prepare(
    const CachedMatch& live, int seat, int pit, CpuReason cpu_reason,
    const std::string& request_id) {
  PendingMove out{live.state, {}, nullptr, {}};
  engine::State& next = out.next;
  engine::MoveRecord record;
  auto err = pit < 0 ? next.Resign(seat, &record) : next.Apply(pit, &record);
  if (err.has_value()) {
    return MoveErrorStatus(*err, pit, next.rules().pits,
                           live.state.LegalMoves());
  }
  storage::MoveRow& row = out.row;
  row.match_id = live.record.id;
  row.ply = live.record.ply + 1;
  row.seat = seat;
  row.pit = pit;
  row.by_cpu = cpu_reason != CpuReason::kNone;
  row.cpu_reason = static_cast<int>(cpu_reason);
  row.played_at_ms = context_.clock.NowMs();
  row.events = context_.encodings.EncodeEvents(record.events);
  out.played = std::make_shared<const std::vector<engine::Event>>(
      std::move(record.events));
  row.request_id = request_id;
  storage::MatchUpdate& update = out.update;
  context_.replication->SetDue(live, next, &update);
  if (next.is_over()) {
    update.status = MatchStatus::kFinished;
    update.ended_at_ms = row.played_at_ms;
    update.result = context_.encodings.EncodeResult(next);
  }
  return out;
}

absl::Status MovePath::ApplyAndStore(CachedMatch& live, int seat, int pit,
                                     CpuReason cpu_reason,
                                     const std::string& request_id,
                                     MoveReply* reply) {
  absl::StatusOr<PendingMove> prepared =
      Prepare(live, seat, pit, cpu_reason, request_id);
  if (!prepared.ok()) return prepared.status();
  PendingMove& move = *prepared;
  if (!move.next.is_over() || !IsRatedMatch(live.record)) {
    return Commit(live, std::move(move), reply);
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
    PendingMove rated = move;
    rated.update.check_before = context_.replication->RatingsShared();
    if (absl::Status s = RateEnd(live, rated.next, rated.row, &rated.update);
        !s.ok()) {
      return s;
    }
    bool ratings_moved = false;
    absl::Status s = Commit(live, std::move(rated), reply, &ratings_moved);
    if (!ratings_moved || tries == kAttempts) return s;
  }
}

absl::Status MovePath::Answer(const CachedMatch& live, PendingMove& move,
                              MoveReply* answer) {
  const bool over = move.next.is_over();
  const CachedMatch::Progress after{
      move.next,
      {move.update.status, move.row.ply, move.row.played_at_ms,
       move.update.ended_at_ms},
      live.clock.DeadlineOfTurn(move.row.played_at_ms, over)};
  live.View(after, context_.clock.NowMs(), &answer->match);
  answer->move = MoveOf(move.row, move.played);
  if (move.row.request_id.empty()) return absl::OkStatus();
  return context_.encodings.EncodeReply(*answer, &move.row.reply);
}

absl::Status MovePath::Commit(CachedMatch& live, PendingMove move,
                              MoveReply* reply, bool* ratings_moved) {
  // The reply is part of the stored row (idempotent requests), so it is
  // built first, from the state the move leaves; the live match moves on
  // only once the store took the move, so a refused move changes nothing.
  MoveReply answer;
  if (absl::Status s = Answer(live, move, &answer); !s.ok()) return s;
  if (absl::Status s = context_.store.AppendMove(move.row, move.update);
      !s.ok()) {
    if (ratings_moved != nullptr) {
      *ratings_moved = absl::IsFailedPrecondition(s);
    }
    // ABORTED: another node took the ply. The caller catches the cache up
    // (RetryLostRace, PlayCpu), once.
    return StorageFailure(s);
  }
  Settle(live, std::move(move), answer);
  if (reply != nullptr) *reply = std::move(answer);
  return absl::OkStatus();
}

void MovePath::Settle(CachedMatch& live, PendingMove move,
                      const MoveReply& answer) {
  const storage::MoveRow& row = move.row;
  const storage::MatchUpdate& update = move.update;
  const bool over = move.next.is_over();
  storage::MatchRecord& rec = live.record;
  live.state = std::move(move.next);
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
}

// A move of PlayAsync() between its checks and the store's answer.
struct MovePath::AsyncMove {
  LivePtr live;
  MoveRequest request;  // For Play() when another node took the ply.
  // Its row without the events and reply once sent to the store.
  std::optional<PendingMove> move;
  MoveReply answer;
  MoveDone done;
};

void MovePath::PlayAsync(const std::string& id, MoveRequest request,
                         MoveDone done) {
  auto job = std::make_shared<AsyncMove>();
  if (absl::Status s = registry_.Find(id, &job->live); !s.ok()) {
    done(s, MoveReply{});
    return;
  }
  CachedMatch& live = *job->live;
  absl::Status checked;
  bool answered = false;
  bool rated_end = false;
  storage::MoveRow row;
  storage::MatchUpdate update;
  {
    SettledLock lock(live);
    int seat = 0;
    checked = CheckMove(live, request, &seat, &job->answer, &answered);
    if (checked.ok() && !answered) {
      absl::StatusOr<PendingMove> prepared =
          Prepare(live, seat, request.pit, CpuReason::kNone,
                  RequestKey(request));
      if (prepared.ok()) {
        job->move.emplace(*std::move(prepared));
      } else {
        checked = prepared.status();
      }
    }
    // A rated end holds the ratings lock across its write: Play()'s path.
    rated_end = checked.ok() && !answered && job->move->next.is_over() &&
                IsRatedMatch(live.record);
    if (checked.ok() && !answered && !rated_end) {
      checked = Answer(live, *job->move, &job->answer);
    }
    if (checked.ok() && !answered && !rated_end) {
      // The store gets the row's text; Settle() needs only its numbers.
      row = job->move->row;
      job->move->row.events.clear();
      job->move->row.reply.clear();
      update = job->move->update;
      live.settled = false;
    }
  }
  if (!checked.ok() || answered) {
    done(std::move(checked), std::move(job->answer));
    return;
  }
  if (rated_end) {
    MoveReply reply;
    absl::Status s = Play(id, request, &reply);
    done(std::move(s), std::move(reply));
    return;
  }
  job->request = std::move(request);
  job->done = std::move(done);
  context_.store.AppendMoveAsync(
      std::move(row), std::move(update),
      [this, job](absl::Status stored) { Landed(job, std::move(stored)); });
}

void MovePath::Landed(const std::shared_ptr<AsyncMove>& job,
                      absl::Status stored) {
  CachedMatch& live = *job->live;
  std::optional<CpuTurn> turn;
  {
    MutexLock lock(&live.mu);
    live.settled = true;
    if (stored.ok()) {
      Settle(live, *std::move(job->move), job->answer);
      turn = cpu_turns_.Due(live);
    }
  }
  if (stored.ok()) {
    cpu_turns_.Announce(std::move(turn));
    job->done(absl::OkStatus(), std::move(job->answer));
    return;
  }
  if (absl::IsAborted(stored) && context_.replication->MoveAttempts() > 1) {
    // Another node took the ply: the match is caught up and the request
    // answered again on it (as RetryLostRace does), reading the store,
    // which this thread (the store's) must not.
    strands_.NewStrand()->Post([this, job] {
      {
        SettledLock lock(*job->live);
        // A failed read leaves the cache behind: Play() answers on it.
        static_cast<void>(context_.replication->Refresh(*job->live));
      }
      MoveReply reply;
      absl::Status s = Play(job->move->row.match_id, job->request, &reply);
      job->done(std::move(s), std::move(reply));
    });
    return;
  }
  job->done(StorageFailure(stored), MoveReply{});
}

absl::Status MovePath::RetryLostRace(
    CachedMatch& live, const std::function<absl::Status()>& attempt) {
  const int attempts = context_.replication->MoveAttempts();
  for (int tries = 1;; ++tries) {
    int64_t ply = 0;
    MatchStatus status;
    {
      SettledLock lock(live);
      ply = live.record.ply;
      status = live.record.status;
    }
    absl::Status s = attempt();
    if (s.ok() || tries >= attempts) return s;
    // Refused: answer on the stored match if it differs from the cached
    // one the attempt started from.
    SettledLock lock(live);
    if (!context_.replication->Refresh(live).ok()) return s;
    if (live.record.ply == ply && live.record.status == status) return s;
  }
}

}  // namespace mancala::services
