#include "services/live_matches.h"

#include <google/protobuf/util/time_util.h>

#include "engine/cpu/cpu_player.h"
#include "services/auth.h"
#include "services/convert.h"
#include "services/errors.h"

namespace mancala::services {

using google::protobuf::util::TimeUtil;
using storage::SeatRecord;

struct LiveMatches::Live {
  std::mutex mu;
  storage::MatchRecord record;
  engine::State state;
  std::vector<std::string> display_names;  // Per seat.

  Live(storage::MatchRecord r, engine::State s)
      : record(std::move(r)), state(std::move(s)) {}
};

namespace {

std::string MatchName(const std::string& id) { return "matches/" + id; }

// The engine rules of a stored or requested match.
grpc::Status ParseMatchRules(const std::string& game,
                             const engine::OptionMap& options, int seats,
                             engine::Rules* rules) {
  auto parsed = engine::ParseRules(game, options, seats);
  if (auto* err = std::get_if<engine::RulesError>(&parsed)) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_OPTION",
                 err->message);
  }
  *rules = std::get<engine::Rules>(parsed);
  return grpc::Status::OK;
}

grpc::Status MoveErrorStatus(engine::MoveError error, int pit, int pits,
                             const std::vector<int>& legal) {
  std::string legal_list;
  for (int p : legal) {
    legal_list += (legal_list.empty() ? "" : ", ") + std::to_string(p);
  }
  const std::map<std::string, std::string> md = {{"legal_pits", legal_list}};
  switch (error) {
    case engine::MoveError::kPitOutOfRange:
      return Error(grpc::StatusCode::INVALID_ARGUMENT, "PIT_OUT_OF_RANGE",
                   "pit " + std::to_string(pit) + " is out of range: pits "
                   "are numbered 0.." + std::to_string(pits - 1) +
                   " on your own side", md);
    case engine::MoveError::kPitEmpty:
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "PIT_EMPTY",
                   "pit " + std::to_string(pit) + " is empty; legal pits: " +
                   legal_list, md);
    case engine::MoveError::kNotLegal:
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "PIT_NOT_LEGAL",
                   "pit " + std::to_string(pit) + " is not allowed here (" +
                   std::string(engine::MoveErrorMessage(error)) +
                   "); legal pits: " + legal_list, md);
    case engine::MoveError::kGameOver:
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "MATCH_OVER",
                   "the match is over");
    case engine::MoveError::kNotActive:
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "NOT_ACTIVE",
                   "your seat is no longer in play (finished or resigned)");
  }
  return Error(grpc::StatusCode::INTERNAL, "INTERNAL", "unknown move error");
}

void MoveToProto(const storage::MoveRow& row, v1::Move* out) {
  out->ParseFromString(row.events);  // Holds the events.
  out->set_ply(row.ply);
  out->set_seat(row.seat);
  out->set_pit(row.pit);
  out->set_by_cpu(row.by_cpu);
  *out->mutable_time() = TimeUtil::MillisecondsToTimestamp(row.played_at_ms);
}

}  // namespace

LiveMatches::LiveMatches(storage::Store& store, const Clock& clock)
    : store_(store), clock_(clock) {}

void LiveMatches::SetCpuTurnListener(std::function<void(CpuTurn)> listener) {
  on_cpu_turn_ = std::move(listener);
}

absl::Status LiveMatches::LoadInProgress() {
  auto ids = store_.ListMatchIds(storage::MatchStatus::kInProgress);
  if (!ids.ok()) return ids.status();
  for (const std::string& id : *ids) {
    std::shared_ptr<Live> live;
    grpc::Status s = Find(id, &live);
    if (!s.ok()) {
      return absl::DataLossError("cannot restore match " + id + ": " +
                                 s.error_message());
    }
    std::optional<CpuTurn> turn;
    {
      std::lock_guard lock(live->mu);
      turn = DueCpuTurn(*live);
    }
    Announce(std::move(turn));
  }
  return absl::OkStatus();
}

grpc::Status LiveMatches::Find(const std::string& id,
                               std::shared_ptr<Live>* out) {
  {
    std::lock_guard lock(mu_);
    auto it = matches_.find(id);
    if (it != matches_.end()) {
      *out = it->second;
      return grpc::Status::OK;
    }
  }
  auto record = store_.GetMatch(id);
  if (absl::IsNotFound(record.status())) {
    return Error(grpc::StatusCode::NOT_FOUND, "MATCH_NOT_FOUND",
                 "no match named " + MatchName(id));
  }
  if (!record.ok()) return FromStorage(record.status());
  engine::Rules rules;
  if (grpc::Status s = ParseMatchRules(record->game, record->options,
                                       record->seats.size(), &rules);
      !s.ok()) {
    return s;
  }
  auto live = std::make_shared<Live>(*record,
                                     engine::State(rules, record->first_seat));
  // Replay the stored moves: the engine is deterministic, so this rebuilds
  // exactly the state every client saw.
  for (int64_t from = 1;;) {
    auto rows = store_.ListMoves(id, from, 1000);
    if (!rows.ok()) return FromStorage(rows.status());
    for (const storage::MoveRow& row : *rows) {
      auto err = row.pit < 0 ? live->state.Resign(row.seat)
                             : live->state.Apply(row.pit);
      if (err.has_value()) {
        return Error(grpc::StatusCode::DATA_LOSS, "REPLAY_FAILED",
                     "stored move at ply " + std::to_string(row.ply) +
                         " of " + MatchName(id) + " does not replay: " +
                         std::string(engine::MoveErrorMessage(*err)));
      }
    }
    if (rows->size() < 1000) break;
    from += 1000;
  }
  for (const SeatRecord& seat : record->seats) {
    if (seat.kind == SeatRecord::Kind::kCpu) {
      live->display_names.push_back("CPU (level " +
                                    std::to_string(seat.cpu_level) + ")");
      continue;
    }
    auto player = store_.GetPlayer(seat.player_id);
    live->display_names.push_back(player.ok() ? player->display_name : "");
  }
  std::lock_guard lock(mu_);
  auto [it, inserted] = matches_.emplace(id, live);
  *out = it->second;  // Another thread may have loaded it first.
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Create(const NewMatch& request, v1::Match* out) {
  engine::Rules rules;
  if (grpc::Status s = ParseMatchRules(request.game, request.options,
                                       request.seats.size(), &rules);
      !s.ok()) {
    return s;
  }
  storage::MatchRecord record;
  record.id = NewId();
  record.game = request.game;
  record.options = rules.Options();
  record.seats = request.seats;
  record.first_seat = request.first_seat;
  record.created_by = request.creator_id;
  record.created_at_ms = record.updated_at_ms = clock_.NowMs();
  if (absl::Status s = store_.CreateMatch(record); !s.ok()) {
    return FromStorage(s);
  }
  std::shared_ptr<Live> live;
  if (grpc::Status s = Find(record.id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    std::lock_guard lock(live->mu);
    Snapshot(*live, out);
    turn = DueCpuTurn(*live);
  }
  Announce(std::move(turn));
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Get(const std::string& id, v1::Match* out) {
  std::shared_ptr<Live> live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  std::lock_guard lock(live->mu);
  Snapshot(*live, out);
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Play(const std::string& id,
                               const std::string& player_id, int pit,
                               bool by_cpu, int64_t expected_ply,
                               v1::Match* match, v1::Move* move) {
  std::shared_ptr<Live> live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    std::lock_guard lock(live->mu);
    const engine::State& state = live->state;
    const int pits = state.rules().pits;
    if (pit < 0 || pit >= pits) {
      return MoveErrorStatus(engine::MoveError::kPitOutOfRange, pit, pits,
                             state.LegalMoves());
    }
    if (state.is_over()) {
      return MoveErrorStatus(engine::MoveError::kGameOver, pit, pits, {});
    }
    const int seat = state.to_move();
    if (!by_cpu) {
      bool holds_any = false;
      for (const SeatRecord& s : live->record.seats) {
        holds_any |= s.kind == SeatRecord::Kind::kPlayer &&
                     s.player_id == player_id;
      }
      if (!holds_any) {
        return Error(grpc::StatusCode::PERMISSION_DENIED, "NOT_A_SEAT",
                     "you hold no seat in " + MatchName(id));
      }
      const SeatRecord& mover = live->record.seats[seat];
      if (mover.kind != SeatRecord::Kind::kPlayer ||
          mover.player_id != player_id) {
        return Error(grpc::StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN",
                     "it is seat " + std::to_string(seat) + "'s turn (" +
                         live->display_names[seat] + ")",
                     {{"to_move", std::to_string(seat)}});
      }
    }
    if (expected_ply >= 0 && expected_ply != live->record.ply) {
      return Error(grpc::StatusCode::ABORTED, "STALE_PLY",
                   "the match is at ply " + std::to_string(live->record.ply) +
                       ", not " + std::to_string(expected_ply),
                   {{"ply", std::to_string(live->record.ply)}});
    }
    if (grpc::Status s = Record(*live, seat, pit, by_cpu, move); !s.ok()) {
      return s;
    }
    if (match != nullptr) Snapshot(*live, match);
    turn = DueCpuTurn(*live);
  }
  Announce(std::move(turn));
  return grpc::Status::OK;
}

grpc::Status LiveMatches::PlayCpu(const CpuTurn& turn, int pit) {
  v1::Move move;
  return Play(turn.match_id, "", pit, /*by_cpu=*/true, turn.ply, nullptr,
              &move);
}

grpc::Status LiveMatches::Resign(const std::string& id,
                                 const std::string& player_id,
                                 v1::Match* out) {
  std::shared_ptr<Live> live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  std::optional<CpuTurn> turn;
  {
    std::lock_guard lock(live->mu);
    int seat = -1;
    for (size_t i = 0; i < live->record.seats.size(); ++i) {
      const SeatRecord& s = live->record.seats[i];
      if (s.kind == SeatRecord::Kind::kPlayer && s.player_id == player_id &&
          live->state.is_active(i)) {
        seat = static_cast<int>(i);
        break;
      }
    }
    if (live->state.is_over()) {
      return MoveErrorStatus(engine::MoveError::kGameOver, 0, 0, {});
    }
    if (seat < 0) {
      return Error(grpc::StatusCode::PERMISSION_DENIED, "NOT_A_SEAT",
                   "you hold no seat still in play in " + MatchName(id));
    }
    v1::Move move;
    if (grpc::Status s = Record(*live, seat, -1, false, &move); !s.ok()) {
      return s;
    }
    Snapshot(*live, out);
    turn = DueCpuTurn(*live);
  }
  Announce(std::move(turn));
  return grpc::Status::OK;
}

grpc::Status LiveMatches::Record(Live& live, int seat, int pit, bool by_cpu,
                                 v1::Move* move) {
  engine::State next = live.state;
  engine::MoveRecord record;
  auto err = pit < 0 ? next.Resign(seat, &record) : next.Apply(pit, &record);
  if (err.has_value()) {
    return MoveErrorStatus(*err, pit, next.rules().pits,
                           live.state.LegalMoves());
  }
  move->Clear();
  for (const engine::Event& e : record.events) {
    ToProto(e, move->add_events());
  }
  storage::MoveRow row;
  row.match_id = live.record.id;
  row.ply = live.record.ply + 1;
  row.seat = seat;
  row.pit = pit;
  row.by_cpu = by_cpu;
  row.played_at_ms = clock_.NowMs();
  row.events = move->SerializeAsString();
  storage::MatchUpdate update;
  if (next.is_over()) {
    update.status = storage::MatchStatus::kFinished;
    update.ended_at_ms = row.played_at_ms;
    v1::Result result;
    ResultToProto(next, &result);
    update.result = result.SerializeAsString();
  }
  if (absl::Status s = store_.AppendMove(row, update); !s.ok()) {
    return FromStorage(s);
  }
  live.state = std::move(next);
  live.record.ply = row.ply;
  live.record.status = update.status;
  live.record.updated_at_ms = row.played_at_ms;
  live.record.ended_at_ms = update.ended_at_ms;
  live.record.result = update.result;
  MoveToProto(row, move);
  return grpc::Status::OK;
}

void LiveMatches::Snapshot(const Live& live, v1::Match* out) const {
  const engine::State& state = live.state;
  out->Clear();
  out->set_name(MatchName(live.record.id));
  out->set_game(GameFromName(live.record.game));
  for (const auto& [k, v] : live.record.options) (*out->mutable_options())[k] = v;
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    const SeatRecord& s = live.record.seats[i];
    v1::Seat* seat = out->add_seats();
    if (s.kind == SeatRecord::Kind::kCpu) {
      seat->set_kind(v1::Seat::CPU);
      seat->set_cpu_level(s.cpu_level);
    } else {
      seat->set_kind(v1::Seat::PLAYER);
      seat->set_player("players/" + s.player_id);
    }
    seat->set_display_name(live.display_names[i]);
  }
  out->set_state(state.is_over() ? v1::Match::FINISHED
                                 : v1::Match::IN_PROGRESS);
  ToProto(state.board(), out->mutable_board());
  out->set_to_move(state.to_move());
  out->set_ply(live.record.ply);
  for (int p : state.LegalMoves()) out->add_legal_pits(p);
  if (state.is_over()) ResultToProto(state, out->mutable_result());
  out->set_first_seat(live.record.first_seat);
  *out->mutable_create_time() =
      TimeUtil::MillisecondsToTimestamp(live.record.created_at_ms);
  *out->mutable_update_time() =
      TimeUtil::MillisecondsToTimestamp(live.record.updated_at_ms);
}

std::optional<CpuTurn> LiveMatches::DueCpuTurn(const Live& live) const {
  const engine::State& state = live.state;
  if (state.is_over()) return std::nullopt;
  const SeatRecord& seat = live.record.seats[state.to_move()];
  if (seat.kind != SeatRecord::Kind::kCpu) return std::nullopt;
  return CpuTurn{live.record.id, live.record.ply, state, seat.cpu_level};
}

void LiveMatches::Announce(std::optional<CpuTurn> turn) {
  if (turn.has_value() && on_cpu_turn_) on_cpu_turn_(std::move(*turn));
}

grpc::Status LiveMatches::ListMoves(const std::string& id, int64_t from_ply,
                                    int limit, std::vector<v1::Move>* out) {
  std::shared_ptr<Live> live;
  if (grpc::Status s = Find(id, &live); !s.ok()) return s;
  auto rows = store_.ListMoves(id, from_ply, limit);
  if (!rows.ok()) return FromStorage(rows.status());
  out->clear();
  for (const storage::MoveRow& row : *rows) MoveToProto(row, &out->emplace_back());
  return grpc::Status::OK;
}

}  // namespace mancala::services
