// LiveMatches: the registry, loading, and the match lifecycle (create, join,
// cancel, rematch, watch, tick). Moves are in match_play.cc.

#include "services/live_matches.h"

#include <algorithm>

#include "services/auth.h"
#include "services/convert.h"
#include "services/errors.h"
#include "services/field_limits.h"
#include "services/resource_names.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

namespace {

// OUT_OF_RANGE for a position after the match's ply: plies only grow, so
// the same request may succeed later (WatchMatch, ListMoves).
grpc::Status PlyAhead(int64_t after_ply, int64_t ply) {
  return Error(grpc::StatusCode::OUT_OF_RANGE, "PLY_AHEAD",
               "after_ply " + std::to_string(after_ply) +
                   " is ahead of the match, which is at ply " +
                   std::to_string(ply),
               {{"ply", std::to_string(ply)}});
}

v1::WatchEvent MatchEvent(const v1::Match& match, bool finished) {
  v1::WatchEvent e;
  *(finished ? e.mutable_finished() : e.mutable_match()) = match;
  return e;
}

}  // namespace

LiveMatches::Live::Live(storage::MatchRecord r, engine::State s,
                        int64_t grace_ms)
    : record(std::move(r)),
      state(std::move(s)),
      clock(static_cast<int>(record.seats.size()), record.turn_limit_s,
            grace_ms) {}

bool LiveMatches::Live::ended() const {
  return record.status == MatchStatus::kFinished ||
         record.status == MatchStatus::kCancelled ||
         record.status == MatchStatus::kAborted;
}

bool LiveMatches::Live::HoldsSeat(const std::string& player_id,
                                  size_t seat) const {
  const SeatRecord& s = record.seats[seat];
  return !player_id.empty() && s.kind == SeatRecord::Kind::kPlayer &&
         s.player_id == player_id;
}

LiveMatches::LiveMatches(storage::Store& store, const Clock& clock,
                         LiveMatchesOptions options)
    : store_(store),
      clock_(clock),
      options_(options),
      fanout_(options.fanout_threads) {}

LiveMatches::~LiveMatches() { CloseWatchers(); }

void LiveMatches::CloseWatchers() {
  closed_ = true;  // Before the snapshot: a later Watch() sees it.
  std::vector<LivePtr> all;
  {
    MutexLock lock(&mu_);
    for (auto& [id, live] : matches_) all.push_back(live);
  }
  for (LivePtr& live : all) {
    std::vector<std::shared_ptr<WatchSink>> sinks;
    {
      MutexLock lock(&live->mu);
      live->clock.CancelCpuTurn();
      sinks = live->watchers;
    }
    for (auto& sink : sinks) {
      sink->Close(ShuttingDown("watch again"));
    }
  }
}

void LiveMatches::SetCpuTurnListener(std::function<void(CpuTurn)> listener) {
  on_cpu_turn_ = std::move(listener);
}

absl::Status LiveMatches::LoadActive() {
  for (MatchStatus status : {MatchStatus::kInProgress, MatchStatus::kWaiting}) {
    auto ids = store_.ListMatchIds(status);
    if (!ids.ok()) return ids.status();
    for (const std::string& id : *ids) {
      LivePtr live;
      grpc::Status s = Find(id, &live);
      if (!s.ok()) {
        return absl::DataLossError("cannot restore match " + id + ": " +
                                   s.error_message());
      }
    }
  }
  Tick();  // Announces the CPU turns that were pending at shutdown.
  return absl::OkStatus();
}

grpc::Status LiveMatches::Find(const std::string& id, LivePtr* out) {
  {
    MutexLock lock(&mu_);
    auto it = matches_.find(id);
    if (it != matches_.end()) {
      *out = it->second;
      return grpc::Status::OK;
    }
  }
  LivePtr live;
  if (grpc::Status s = Load(id, &live); !s.ok()) return s;
  MutexLock lock(&mu_);
  auto [it, inserted] = matches_.emplace(id, live);
  *out = it->second;  // Another thread may have loaded it first.
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Load(const std::string& id, LivePtr* out) {
  auto record = store_.GetMatch(id);
  if (absl::IsNotFound(record.status())) {
    return Error(grpc::StatusCode::NOT_FOUND, "MATCH_NOT_FOUND",
                 "no match named " + Quote(MatchName(id)));
  }
  if (!record.ok()) return FromStorage(record.status());
  MatchShape shape;
  if (grpc::Status s = ShapeFromRecord(*record, &shape); !s.ok()) return s;
  const engine::Rules& rules = shape.rules;
  auto live = std::make_shared<Live>(
      *record, engine::State(rules, record->first_seat), options_.grace_ms);
  MutexLock setup(&live->mu);  // Not shared yet; for the analysis.
  // The engine is deterministic: replaying the stored moves rebuilds exactly
  // the state every client saw.
  constexpr int kPage = 1000;
  for (int64_t from = 1;; from += kPage) {
    auto rows = store_.ListMoves(id, from, kPage);
    if (!rows.ok()) return FromStorage(rows.status());
    for (const storage::MoveRow& row : *rows) {
      auto err = row.pit < 0 ? live->state.Resign(row.seat)
                             : live->state.Apply(row.pit);
      if (err.has_value()) {
        return Error(grpc::StatusCode::DATA_LOSS, "REPLAY_FAILED",
                     "stored move at ply " + std::to_string(row.ply) + " of " +
                         MatchName(id) + " does not replay: " +
                         std::string(engine::MoveErrorMessage(*err)));
      }
    }
    if (static_cast<int>(rows->size()) < kPage) break;
  }
  for (const SeatRecord& seat : record->seats) {
    switch (seat.kind) {
      case SeatRecord::Kind::kCpu:
        live->display_names.push_back("CPU (level " +
                                      std::to_string(seat.cpu_level) + ")");
        break;
      case SeatRecord::Kind::kOpen:
        live->display_names.push_back("(open)");
        break;
      case SeatRecord::Kind::kPlayer: {
        auto player = store_.GetPlayer(seat.player_id);
        live->display_names.push_back(player.ok() ? player->display_name : "");
        break;
      }
    }
  }
  if (live->record.status == MatchStatus::kInProgress) {
    live->clock.StartMatch(clock_.NowMs());
  }
  *out = std::move(live);
  return grpc::Status::OK;
}

absl::Status LiveMatches::Insert(const NewMatch& request, std::string* id) {
  storage::MatchRecord record;
  record.id = NewId();
  record.game = request.shape.game;
  record.options = request.shape.options;
  record.seats = request.seats;
  record.first_seat = request.first_seat;
  record.created_by = request.creator_id;
  record.created_at_ms = record.updated_at_ms = clock_.NowMs();
  record.ranked = request.ranked;
  record.turn_limit_s = request.shape.turn_limit_s;
  record.rotate_first_player = request.shape.rotate_first_player;
  record.rematch_of = request.rematch_of;
  bool open = false;
  for (const SeatRecord& s : record.seats)
    open |= s.kind == SeatRecord::Kind::kOpen;
  record.status = open ? MatchStatus::kWaiting : MatchStatus::kInProgress;
  if (open) record.invite_code = NewInviteCode();
  *id = record.id;
  return store_.CreateMatch(record);
}

grpc::Status LiveMatches::Create(const NewMatch& request, v1::Match* out) {
  std::string id;
  if (absl::Status s = Insert(request, &id); !s.ok()) return FromStorage(s);
  LivePtr live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    MutexLock lock(&live->mu);
    Snapshot(*live, out);
    turn = DueCpuTurn(*live);
  }
  Announce(std::move(turn));
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Get(const std::string& id,
                              const std::string& viewer_id, v1::Match* out) {
  LivePtr live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  Touch(*live, viewer_id);
  Snapshot(*live, out);
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Join(const std::string& invite_code,
                               std::optional<int> seat,
                               const std::string& player_id, v1::Match* out) {
  std::optional<std::string> code = NormalizeInviteCode(invite_code);
  if (!code.has_value()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_INVITE_CODE",
                 "invite codes are made of 2-9 and A-Z without I, L, O; got " +
                     Quote(invite_code));
  }
  auto id = store_.FindMatchByInviteCode(*code);
  if (absl::IsNotFound(id.status())) {
    return Error(grpc::StatusCode::NOT_FOUND, "INVITE_NOT_FOUND",
                 "no match has invite code " + Quote(*code));
  }
  if (!id.ok()) return FromStorage(id.status());
  LivePtr live;
  if (grpc::Status s = Find(*id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    MutexLock lock(&live->mu);
    storage::MatchRecord& rec = live->record;
    if (rec.status != MatchStatus::kWaiting) {
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "MATCH_FULL",
                   MatchName(rec.id) + " has no open seat any more");
    }
    if (rec.ranked) {
      for (size_t i = 0; i < rec.seats.size(); ++i) {
        if (live->HoldsSeat(player_id, i)) {
          return Error(grpc::StatusCode::FAILED_PRECONDITION, "ALREADY_SEATED",
                       "you already hold seat " + std::to_string(i) +
                           "; nobody holds two seats in a ranked match");
        }
      }
    }
    int take = -1;
    if (seat.has_value()) {
      if (*seat < 0 || *seat >= static_cast<int>(rec.seats.size())) {
        return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT",
                     "seat must be 0.." + std::to_string(rec.seats.size() - 1));
      }
      if (rec.seats[*seat].kind != SeatRecord::Kind::kOpen) {
        return Error(grpc::StatusCode::FAILED_PRECONDITION, "SEAT_TAKEN",
                     "seat " + std::to_string(*seat) + " is not open");
      }
      take = *seat;
    } else {
      for (size_t i = 0; i < rec.seats.size() && take < 0; ++i) {
        if (rec.seats[i].kind == SeatRecord::Kind::kOpen) take = i;
      }
    }
    auto player = store_.GetPlayer(player_id);
    if (!player.ok()) return FromStorage(player.status());
    storage::MatchRecord next = rec;
    next.seats[take] = {SeatRecord::Kind::kPlayer, player_id, 0};
    next.updated_at_ms = clock_.NowMs();
    bool still_open = false;
    for (const SeatRecord& s : next.seats) {
      still_open |= s.kind == SeatRecord::Kind::kOpen;
    }
    // The code stays stored once the last seat is taken, so a late joiner
    // learns the match is full (MATCH_FULL) rather than that the code is
    // unknown; Match.invite_code shows it only while seats are open.
    if (!still_open) next.status = MatchStatus::kInProgress;
    if (absl::Status s = store_.UpdateMatch(next); !s.ok()) {
      return FromStorage(s);
    }
    rec = std::move(next);
    live->display_names[take] = player->display_name;
    if (!still_open) live->clock.StartMatch(clock_.NowMs());
    Touch(*live, player_id);
    Snapshot(*live, out);
    Broadcast(*live, MatchEvent(*out, false));
    turn = DueCpuTurn(*live);
  }
  Announce(std::move(turn));
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Cancel(const std::string& id,
                                 const std::string& player_id, v1::Match* out) {
  LivePtr live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  storage::MatchRecord& rec = live->record;
  if (rec.created_by != player_id) {
    return Error(grpc::StatusCode::PERMISSION_DENIED, "NOT_CREATOR",
                 "only the creator of " + MatchName(id) + " may cancel it");
  }
  if (rec.status == MatchStatus::kCancelled) {
    Snapshot(*live, out);  // Cancelling again is a no-op (a retry).
    return grpc::Status::OK;
  }
  if (rec.status != MatchStatus::kWaiting) {
    return Error(grpc::StatusCode::FAILED_PRECONDITION, "MATCH_STARTED",
                 MatchName(id) + (rec.status == MatchStatus::kInProgress
                                      ? " has started; resign instead"
                                      : " has ended"));
  }
  storage::MatchRecord next = rec;
  next.status = MatchStatus::kCancelled;
  next.invite_code.clear();
  next.updated_at_ms = next.ended_at_ms = clock_.NowMs();
  if (absl::Status s = store_.UpdateMatch(next); !s.ok()) return FromStorage(s);
  rec = std::move(next);
  Snapshot(*live, out);
  Broadcast(*live, MatchEvent(*out, true), /*last=*/true);
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Rematch(const std::string& id,
                                  const std::string& player_id,
                                  v1::Match* out) {
  LivePtr live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  NewMatch again;
  std::string existing;
  {
    MutexLock lock(&live->mu);
    storage::MatchRecord& rec = live->record;
    bool seated = false;
    for (size_t i = 0; i < rec.seats.size(); ++i) {
      seated |= live->HoldsSeat(player_id, i);
    }
    if (!seated) {
      return Error(grpc::StatusCode::PERMISSION_DENIED, "NOT_A_SEAT",
                   "only a player of " + MatchName(id) + " may ask a rematch");
    }
    if (rec.status != MatchStatus::kFinished &&
        rec.status != MatchStatus::kAborted) {
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "MATCH_NOT_OVER",
                   MatchName(id) + " is not finished");
    }
    existing = rec.rematch_id;
    // Rechecked: a rematch is played under today's rules of shape.
    if (grpc::Status s = ShapeFromRecord(rec, &again.shape); !s.ok()) return s;
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
      auto original = store_.GetMatch(id);  // Someone else was first.
      if (!original.ok()) return FromStorage(original.status());
      existing = original->rematch_id;
    } else if (!s.ok()) {
      return FromStorage(s);
    }
    MutexLock lock(&live->mu);
    live->record.rematch_id = existing;
  }
  LivePtr next;
  if (grpc::Status s = Find(existing, &next); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    MutexLock lock(&next->mu);
    Touch(*next, player_id);
    Snapshot(*next, out);
    turn = DueCpuTurn(*next);
  }
  Announce(std::move(turn));
  return grpc::Status::OK;
}

grpc::Status LiveMatches::ListMoves(const std::string& id, int64_t from_ply,
                                    int limit, std::vector<v1::Move>* out,
                                    bool* finished) {
  LivePtr live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  {
    MutexLock lock(&live->mu);
    *finished = live->ended();
    if (from_ply > live->record.ply + 1) {
      return PlyAhead(from_ply - 1, live->record.ply);
    }
  }
  auto rows = store_.ListMoves(id, from_ply, limit);
  if (!rows.ok()) return FromStorage(rows.status());
  out->clear();
  for (const storage::MoveRow& row : *rows) {
    if (grpc::Status s = ToProto(row, &out->emplace_back()); !s.ok()) {
      return s;
    }
  }
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Watch(const std::string& id,
                                const std::string& viewer_id, int64_t after_ply,
                                std::shared_ptr<WatchSink> sink) {
  LivePtr live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  if (closed_) return ShuttingDown("watch again");
  if (static_cast<int>(live->watchers.size()) >= options_.max_watchers) {
    return Error(grpc::StatusCode::RESOURCE_EXHAUSTED, "TOO_MANY_WATCHERS",
                 "this match has " + std::to_string(options_.max_watchers) +
                     " watchers already; try again later");
  }
  const int64_t ply = live->record.ply;
  if (after_ply > ply) return PlyAhead(after_ply, ply);
  // The order WatchMatchRequest.after_ply documents: the moves the client
  // lacks (none for 0: it has nothing to apply them to), then the match at
  // `ply`, then live events; each Move follows the state before it. All
  // under the match lock, so no move slips between stored and live ones.
  if (after_ply > 0 && after_ply < ply) {
    auto rows = store_.ListMoves(id, after_ply + 1, ply - after_ply);
    if (!rows.ok()) return FromStorage(rows.status());
    for (const storage::MoveRow& row : *rows) {
      v1::WatchEvent e;
      if (grpc::Status s = ToProto(row, e.mutable_move()); !s.ok()) return s;
      sink->Push(e);
    }
  }
  v1::Match snapshot;
  Touch(*live, viewer_id);
  Snapshot(*live, &snapshot);
  sink->Push(MatchEvent(snapshot, false));
  if (live->ended()) {
    sink->Push(MatchEvent(snapshot, true), /*last=*/true);
    return grpc::Status::OK;
  }
  for (size_t i = 0; i < live->record.seats.size(); ++i) {
    if (live->HoldsSeat(viewer_id, i)) {
      sink->seats.push_back(i);
      live->clock.StreamOpened(i);
    }
  }
  live->watchers.push_back(std::move(sink));
  live->WatchersChanged();
  if (!live->fanout) live->fanout = fanout_.NewStrand();
  return grpc::Status::OK;
}

int LiveMatches::WatcherCount(const std::string& id) {
  LivePtr live;
  if (!Find(id, &live).ok()) return 0;
  MutexLock lock(&live->mu);
  return static_cast<int>(live->watchers.size());
}

void LiveMatches::Unwatch(const std::string& id,
                          const std::shared_ptr<WatchSink>& sink) {
  LivePtr live;
  {
    MutexLock lock(&mu_);
    auto it = matches_.find(id);
    if (it == matches_.end()) return;
    live = it->second;
  }
  MutexLock lock(&live->mu);
  auto& w = live->watchers;
  auto it = std::find(w.begin(), w.end(), sink);
  if (it == w.end()) return;
  w.erase(it);
  live->WatchersChanged();
  // The grace period runs from the moment the stream dropped.
  const int64_t now = clock_.NowMs();
  for (int seat : sink->seats) live->clock.StreamClosed(seat, now);
}

void LiveMatches::Broadcast(Live& live, v1::WatchEvent event, bool last) {
  if (!live.audience) return;
  live.fanout->Post(
      [audience = live.audience,
       shared = std::make_shared<const v1::WatchEvent>(std::move(event)),
       last] {
        for (const auto& sink : *audience) sink->Push(shared, last);
      });
  if (last) {
    for (auto& sink : live.watchers) {
      for (int seat : sink->seats) live.clock.StreamClosed(seat, std::nullopt);
    }
    live.watchers.clear();
    live.WatchersChanged();
  }
}

void LiveMatches::Announce(std::optional<CpuTurn> turn) {
  if (turn.has_value() && on_cpu_turn_) on_cpu_turn_(std::move(*turn));
}

void LiveMatches::Tick() {
  std::vector<std::pair<std::string, LivePtr>> all;
  {
    MutexLock lock(&mu_);
    all.assign(matches_.begin(), matches_.end());
  }
  std::vector<std::string> evict;
  for (auto& [id, live] : all) {
    std::optional<CpuTurn> turn;
    {
      MutexLock lock(&live->mu);
      if (live->ended()) {
        if (live->watchers.empty()) evict.push_back(id);
        continue;
      }
      UpdatePresence(*live);
      turn = DueCpuTurn(*live);
    }
    Announce(std::move(turn));
  }
  MutexLock lock(&mu_);
  for (const std::string& id : evict) {
    auto it = matches_.find(id);
    // Loaded again from the store if anyone asks.
    if (it != matches_.end() && it->second.use_count() <= 2) {
      matches_.erase(it);
    }
  }
}

}  // namespace mancala::services
