#include "services/convert.h"

namespace mancala::services {

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
  const engine::Outcome& o = state.outcome();
  const int n = state.rules().players;
  out->Clear();
  out->set_end_reason(EndReasonToProto(o.end_reason));
  int winner = -1;
  for (int p = 0; p < n; ++p) {
    out->add_ranks(o.ranks[p]);
    out->add_scores(state.store(p));
    out->add_remaining_stones(o.remaining[p]);
    if (o.ranks[p] == 1) winner = (winner == -1) ? p : -2;
  }
  out->set_winner(winner >= 0 ? winner : -1);
  for (int p : o.finish_order) out->add_finish_order(p);
}

}  // namespace mancala::services
