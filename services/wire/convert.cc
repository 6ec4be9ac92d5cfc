#include "services/wire/convert.h"

#include <google/protobuf/util/time_util.h>

#include "ratings/glicko2.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {

// A stored MoveRow::cpu_reason is the domain's CpuReason (match_views.h) and
// read back as the proto's.
static_assert(static_cast<int>(CpuReason::kNone) ==
              v1::Move::CPU_REASON_UNSPECIFIED);
static_assert(static_cast<int>(CpuReason::kCpuSeat) == v1::Move::CPU_SEAT);
static_assert(static_cast<int>(CpuReason::kTurnTimeout) ==
              v1::Move::TURN_TIMEOUT);
static_assert(static_cast<int>(CpuReason::kStandIn) == v1::Move::STAND_IN);

using google::protobuf::util::TimeUtil;
using storage::MatchStatus;

std::optional<std::string> GameName(v1::Game game) {
  switch (game) {
    case v1::KALAH:
      return "kalah";
    case v1::OWARE:
      return "oware";
    case v1::CONGKAK:
      return "congkak";
    case v1::MANCALA_BASIC:
      return "mancala_basic";
    default:
      return std::nullopt;
  }
}

v1::Game GameFromName(const std::string& name) {
  for (v1::Game g : {v1::KALAH, v1::OWARE, v1::CONGKAK, v1::MANCALA_BASIC}) {
    if (GameName(g) == name) return g;
  }
  return v1::GAME_UNSPECIFIED;
}

void ToProto(const engine::Board& board, v1::Board* out) {
  out->Clear();
  for (int p = 0; p < board.players; ++p) {
    v1::Side* side = out->add_sides();
    for (int i = 0; i < board.pits_per_player; ++i) {
      side->add_pits(board.pits[p][i]);
    }
    side->set_store(board.stores[p]);
  }
}

namespace {
v1::MoveEvent::Type TypeToProto(engine::EventType t) {
  using engine::EventType;
  switch (t) {
    case EventType::kPickUp:
      return v1::MoveEvent::PICK_UP;
    case EventType::kDrop:
      return v1::MoveEvent::DROP;
    case EventType::kCapture:
      return v1::MoveEvent::CAPTURE;
    case EventType::kGrandSlamNullified:
      return v1::MoveEvent::GRAND_SLAM_NULLIFIED;
    case EventType::kExtraTurn:
      return v1::MoveEvent::EXTRA_TURN;
    case EventType::kFinish:
      return v1::MoveEvent::FINISH;
    case EventType::kResign:
      return v1::MoveEvent::RESIGN;
    case EventType::kSweep:
      return v1::MoveEvent::SWEEP;
    case EventType::kGameOver:
      return v1::MoveEvent::GAME_OVER;
  }
  return v1::MoveEvent::TYPE_UNSPECIFIED;
}
}  // namespace

void ToProto(const engine::Event& event, v1::MoveEvent* out) {
  out->set_type(TypeToProto(event.type));
  out->set_seat(event.player);
  switch (event.type) {
    case engine::EventType::kPickUp:
    case engine::EventType::kDrop:
    case engine::EventType::kCapture:
    case engine::EventType::kSweep:
      out->mutable_place()->set_seat(event.place.player);
      out->mutable_place()->set_pit(event.place.pit);
      break;
    default:
      break;
  }
  out->set_count(event.count);
  out->set_rank(event.rank);
}

bool FromProto(const v1::MoveEvent& in, engine::Event* out) {
  constexpr int kLast = static_cast<int>(engine::EventType::kGameOver);
  for (int t = 0; t <= kLast; ++t) {
    const auto type = static_cast<engine::EventType>(t);
    if (TypeToProto(type) != in.type()) continue;
    *out = engine::Event{};
    out->type = type;
    out->player = in.seat();
    if (in.has_place()) out->place = {in.place().seat(), in.place().pit()};
    out->count = in.count();
    out->rank = in.rank();
    return true;
  }
  return false;
}

namespace {
v1::EndReason EndReasonToProto(engine::EndReason r) {
  using engine::EndReason;
  switch (r) {
    case EndReason::kNone:
      return v1::END_REASON_UNSPECIFIED;
    case EndReason::kSideEmpty:
      return v1::SIDE_EMPTY;
    case EndReason::kMajority:
      return v1::MAJORITY;
    case EndReason::kNoLegalMove:
      return v1::NO_LEGAL_MOVE;
    case EndReason::kRepetition:
      return v1::REPETITION;
    case EndReason::kMoveCap:
      return v1::MOVE_CAP;
    case EndReason::kEmptiedSide:
      return v1::EMPTIED_SIDE;
    case EndReason::kAllRanksDetermined:
      return v1::ALL_RANKS_DETERMINED;
    case EndReason::kFirstFinisher:
      return v1::FIRST_FINISHER;
    case EndReason::kResignation:
      return v1::RESIGNATION;
  }
  return v1::END_REASON_UNSPECIFIED;
}
}  // namespace

void ResultToProto(const engine::State& state, v1::Result* out) {
  ToProto(ResultOf(state), out);
}

void ToProto(const ResultView& result, v1::Result* out) {
  const engine::Outcome& o = result.outcome;
  const int n = static_cast<int>(result.scores.size());
  out->Clear();
  out->set_end_reason(EndReasonToProto(o.end_reason));
  int winner = -1;
  for (int p = 0; p < n; ++p) {
    out->add_ranks(o.ranks[p]);
    out->add_scores(result.scores[p]);
    out->add_remaining_stones(o.remaining[p]);
    if (o.ranks[p] == 1) winner = (winner == -1) ? p : -2;
  }
  out->set_winner(winner >= 0 ? winner : -1);
  for (int p : o.finish_order) out->add_finish_order(p);
}

void ToProto(const MatchView& m, v1::Match* out) {
  out->Clear();
  out->set_name(MatchName(m.id));
  out->set_game(GameFromName(m.game));
  for (const auto& [k, v] : m.options) (*out->mutable_options())[k] = v;
  // Only the game's own options: rotate_first_player is one for Mancala
  // Basic (MB.4) alone; every game shows it as Match.rotate_first_player.
  if (out->game() == v1::MANCALA_BASIC) {
    (*out->mutable_options())["rotate_first_player"] =
        std::string(engine::OnOff(m.rotate_first_player));
  }
  for (const SeatView& s : m.seats) {
    v1::Seat* seat = out->add_seats();
    ToProto(s.seat, seat);
    if (s.seat.kind == storage::SeatRecord::Kind::kPlayer) {
      seat->set_present(s.present);
      seat->set_cpu_standing_in(s.cpu_standing_in);
    }
    seat->set_display_name(s.display_name);
  }
  out->set_state(StateToProto(m.status));
  if (m.board.has_value()) ToProto(*m.board, out->mutable_board());
  out->set_to_move(m.to_move);
  out->set_ply(m.ply);
  for (int p : m.legal_pits) out->add_legal_pits(p);
  if (m.result.has_value()) ToProto(*m.result, out->mutable_result());
  // A listed match's result as stored; an unreadable one shows as far as
  // it parses, as VerifyMatch shows it.
  if (!m.stored_result.empty()) {
    (void)out->mutable_result()->ParseFromString(m.stored_result);
  }
  out->set_first_seat(m.first_seat);
  *out->mutable_create_time() =
      TimeUtil::MillisecondsToTimestamp(m.created_at_ms);
  *out->mutable_update_time() =
      TimeUtil::MillisecondsToTimestamp(m.updated_at_ms);
  if (m.ended_at_ms.has_value()) {
    *out->mutable_end_time() =
        TimeUtil::MillisecondsToTimestamp(*m.ended_at_ms);
  }
  out->set_ranked(m.ranked);
  out->set_turn_time_limit_seconds(m.turn_limit_s);
  if (m.turn_deadline_ms.has_value()) {
    *out->mutable_turn_deadline() =
        TimeUtil::MillisecondsToTimestamp(*m.turn_deadline_ms);
  }
  if (!m.invite_code.empty()) out->set_invite_code(m.invite_code);
  out->set_creator(PlayerName(m.creator_id));
  out->set_rotate_first_player(m.rotate_first_player);
  if (!m.rematch_id.empty()) out->set_rematch(MatchName(m.rematch_id));
  out->set_voided(m.voided);
  if (m.status == MatchStatus::kCancelled) {
    // Rows from before the reason was stored ("") were cancelled by their
    // creator: nothing else cancelled a match then.
    out->set_cancel_reason(m.cancel_reason == kCancelledExpired
                               ? v1::Match::EXPIRED
                               : v1::Match::CREATOR_CANCELLED);
  }
}

absl::Status ToProto(const WatchEventView& event, v1::WatchEvent* out) {
  out->Clear();
  switch (event.kind) {
    case WatchEventView::Kind::kMatch:
      ToProto(event.match, out->mutable_match());
      break;
    case WatchEventView::Kind::kFinished:
      ToProto(event.match, out->mutable_finished());
      break;
    case WatchEventView::Kind::kMove:
      return ToProto(event.move, out->mutable_move());
    case WatchEventView::Kind::kPresence:
      out->mutable_presence()->set_seat(event.seat);
      out->mutable_presence()->set_present(event.present);
      out->mutable_presence()->set_cpu_standing_in(event.cpu_standing_in);
      break;
    case WatchEventView::Kind::kDeadline:
      out->mutable_deadline()->set_seat(event.seat);
      *out->mutable_deadline()->mutable_deadline() =
          TimeUtil::MillisecondsToTimestamp(event.deadline_ms);
      break;
  }
  return absl::OkStatus();
}

void ToProto(const VerifyReport& report, v1::VerifyMatchResponse* out) {
  out->Clear();
  out->set_consistent(report.consistent);
  out->set_detail(report.detail);
  // As before the domain split: an unreadable stored result shows as far
  // as it parses.
  if (!report.stored_result.empty()) {
    (void)out->mutable_stored_result()->ParseFromString(report.stored_result);
  }
  if (report.replayed_result.has_value()) {
    ToProto(*report.replayed_result, out->mutable_replayed_result());
  }
}

grpc::Status MatchAnswer(const absl::Status& status, const MatchView& match,
                         v1::Match* out) {
  if (status.ok()) ToProto(match, out);
  return ToGrpc(status);
}

v1::Match::State StateToProto(MatchStatus status) {
  switch (status) {
    case MatchStatus::kWaiting:
      return v1::Match::WAITING;
    case MatchStatus::kInProgress:
      return v1::Match::IN_PROGRESS;
    case MatchStatus::kFinished:
      return v1::Match::FINISHED;
    case MatchStatus::kCancelled:
      return v1::Match::CANCELLED;
    case MatchStatus::kAborted:
      return v1::Match::ABORTED;
  }
  return v1::Match::STATE_UNSPECIFIED;
}

bool StatusFromProto(v1::Match::State state, std::optional<MatchStatus>* out) {
  out->reset();
  switch (state) {
    case v1::Match::STATE_UNSPECIFIED:
      return true;
    case v1::Match::WAITING:
      *out = MatchStatus::kWaiting;
      return true;
    case v1::Match::IN_PROGRESS:
      *out = MatchStatus::kInProgress;
      return true;
    case v1::Match::FINISHED:
      *out = MatchStatus::kFinished;
      return true;
    case v1::Match::CANCELLED:
      *out = MatchStatus::kCancelled;
      return true;
    case v1::Match::ABORTED:
      *out = MatchStatus::kAborted;
      return true;
    default:
      return false;
  }
}

void ToProto(const storage::SeatRecord& seat, v1::Seat* out) {
  switch (seat.kind) {
    case storage::SeatRecord::Kind::kCpu:
      out->set_kind(v1::Seat::CPU);
      out->set_cpu_level(seat.cpu_level);
      break;
    case storage::SeatRecord::Kind::kOpen:
      out->set_kind(v1::Seat::OPEN);
      break;
    case storage::SeatRecord::Kind::kPlayer:
      out->set_kind(v1::Seat::PLAYER);
      out->set_player(PlayerName(seat.player_id));
      break;
  }
}

absl::Status ToProto(const MoveView& row, v1::Move* out) {
  const std::string where = "stored move at ply " + std::to_string(row.ply) +
                            " of " + MatchName(row.match_id);
  if (row.played) {  // The engine's own: nothing to decode.
    out->Clear();
    for (const engine::Event& e : *row.played) ToProto(e, out->add_events());
  } else if (!out->ParseFromString(row.events)) {  // Holds the events.
    return StoredDataLoss(where + ": events unreadable");
  }
  if (!v1::Move::CpuReason_IsValid(row.cpu_reason)) {
    return StoredDataLoss(where + ": unknown CPU reason " +
                          std::to_string(row.cpu_reason));
  }
  out->set_ply(row.ply);
  out->set_seat(row.seat);
  out->set_pit(row.pit);
  out->set_by_cpu(row.by_cpu);
  out->set_cpu_reason(static_cast<v1::Move::CpuReason>(row.cpu_reason));
  *out->mutable_time() = TimeUtil::MillisecondsToTimestamp(row.played_at_ms);
  return absl::OkStatus();
}

absl::Status ToProto(const MoveReply& reply, v1::SubmitMoveResponse* out) {
  if (reply.stored.has_value()) {
    if (out->ParseFromString(*reply.stored)) return absl::OkStatus();
    return StorageFailure(absl::DataLossError("stored reply unreadable"));
  }
  if (absl::Status s = ToProto(reply.move, out->mutable_move()); !s.ok()) {
    return s;
  }
  ToProto(reply.match, out->mutable_match());
  return absl::OkStatus();
}

void ToProto(const storage::PlayerRecord& player, v1::Player* out) {
  out->set_name(PlayerName(player.id));
  out->set_display_name(player.display_name);
  out->set_guest(player.guest);
  *out->mutable_create_time() =
      TimeUtil::MillisecondsToTimestamp(player.created_at_ms);
  if (player.banned_at_ms > 0) {
    out->set_banned(true);
    *out->mutable_ban_time() =
        TimeUtil::MillisecondsToTimestamp(player.banned_at_ms);
  }
}

void ToProto(const storage::RatingRecord& rating, v1::Rating* out) {
  out->set_name(RatingName(rating.player_id, rating.game));
  out->set_player(PlayerName(rating.player_id));
  out->set_game(GameFromName(rating.game));
  out->set_rating(rating.value.rating);
  out->set_rating_deviation(rating.value.rd);
  out->set_volatility(rating.value.volatility);
  out->set_games_played(rating.games);
  out->set_provisional(ratings::IsProvisional(
      {rating.value.rating, rating.value.rd, rating.value.volatility}));
  if (rating.last_rated_at_ms > 0) {
    *out->mutable_last_rated_time() =
        TimeUtil::MillisecondsToTimestamp(rating.last_rated_at_ms);
  }
}

void ToProto(const storage::RatingChange& change, v1::RatingChange* out) {
  out->set_match(MatchName(change.match_id));
  out->set_seat(change.seat);
  out->set_rank(change.rank);
  out->set_rating_before(change.before.rating);
  out->set_rating_after(change.after.rating);
  out->set_rating_deviation_before(change.before.rd);
  out->set_rating_deviation_after(change.after.rd);
  out->set_volatility_before(change.before.volatility);
  out->set_volatility_after(change.after.volatility);
  *out->mutable_rate_time() =
      TimeUtil::MillisecondsToTimestamp(change.rated_at_ms);
}

void ToProto(const storage::AuditRecord& audit, v1::AuditEntry* out) {
  out->set_id(audit.id);
  *out->mutable_time() = TimeUtil::MillisecondsToTimestamp(audit.at_ms);
  out->set_actor(audit.actor);
  out->set_action(audit.action);
  out->set_target(audit.target);
  out->set_reason(audit.reason);
}

}  // namespace mancala::services
