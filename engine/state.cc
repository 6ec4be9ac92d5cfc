// What every game shares: setting up a position, checking a move before the
// game's own rules play it (1.11), resignation (MB.13-MB.15; a loss with two
// players), ranks and the end-of-game bookkeeping (1.10), and the names of
// events, errors and end reasons.

#include "engine/state.h"

#include <string>

#include "engine/game_access.h"

namespace mancala::engine {

// --- Names --------------------------------------------------------------

std::string_view EventTypeName(EventType type) {
  switch (type) {
    case EventType::kPickUp:
      return "pick_up";
    case EventType::kDrop:
      return "drop";
    case EventType::kCapture:
      return "capture";
    case EventType::kGrandSlamNullified:
      return "grand_slam_nullified";
    case EventType::kExtraTurn:
      return "extra_turn";
    case EventType::kFinish:
      return "finish";
    case EventType::kResign:
      return "resign";
    case EventType::kSweep:
      return "sweep";
    case EventType::kGameOver:
      return "game_over";
  }
  return "";
}

std::string_view MoveErrorMessage(MoveError error) {
  switch (error) {
    case MoveError::kGameOver:
      return "the game is over";
    case MoveError::kPitOutOfRange:
      return "no such pit";
    case MoveError::kPitEmpty:
      return "the chosen pit is empty";
    case MoveError::kNotLegal:
      return "the move is not allowed here (must feed the opponent, or a "
             "forbidden grand slam)";
    case MoveError::kNotActive:
      return "the player is no longer playing";
  }
  return "";
}

std::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kNone:
      return "";
    case EndReason::kSideEmpty:
      return "side_empty";
    case EndReason::kMajority:
      return "majority";
    case EndReason::kNoLegalMove:
      return "no_legal_move";
    case EndReason::kRepetition:
      return "repetition";
    case EndReason::kMoveCap:
      return "move_cap";
    case EndReason::kEmptiedSide:
      return "emptied_side";
    case EndReason::kAllRanksDetermined:
      return "all_ranks_determined";
    case EndReason::kFirstFinisher:
      return "first_finisher";
    case EndReason::kResignation:
      return "resignation";
  }
  return "";
}

void MoveRecord::Clear() {
  player = -1;
  pit = -1;
  events.clear();
  sown = relays = captured = 0;
  extra_turn = finished = grand_slam_nullified = must_feed = false;
  swept = {};
}

// --- Shared helpers -----------------------------------------------------

bool GameAccess::RowEmpty(const State& s, int player) {
  const auto& row = s.board_.pits[player];
  int any = 0;
  for (int i = 0; i < s.rules_.pits; ++i) any |= row[i];  // Counts are >= 0.
  return any == 0;
}

int GameAccess::RowSum(const State& s, int player) {
  int sum = 0;
  for (int i = 0; i < s.rules_.pits; ++i) sum += s.board_.pits[player][i];
  return sum;
}

int GameAccess::NextActive(const State& s, int player) {
  const int n = s.rules_.players;
  int q = player;
  for (int k = 0; k < n; ++k) {
    q = q + 1 == n ? 0 : q + 1;
    if (s.active_[q]) return q;
  }
  return -1;
}

int GameAccess::ActiveCount(const State& s) {
  int count = 0;
  for (int p = 0; p < s.rules_.players; ++p) count += s.active_[p] ? 1 : 0;
  return count;
}

namespace {
bool RankTaken(const Outcome& o, int players, int rank) {
  for (int p = 0; p < players; ++p) {
    if (o.ranks[p] == rank) return true;
  }
  return false;
}
}  // namespace

int GameAccess::BestFreeRank(const State& s) {
  const int n = s.rules_.players;
  for (int r = 1; r <= n; ++r) {
    if (!RankTaken(s.outcome_, n, r)) return r;
  }
  return n;
}

int GameAccess::WorstFreeRank(const State& s) {
  const int n = s.rules_.players;
  for (int r = n; r >= 1; --r) {
    if (!RankTaken(s.outcome_, n, r)) return r;
  }
  return n;
}

void GameAccess::EndGame(State& s, EndReason reason, bool sweep,
                         MoveRecord* rec) {
  Board& b = s.board_;
  Outcome& o = s.outcome_;
  const int players = s.rules_.players;
  const int n = s.rules_.pits;
  o.pre_sweep = b;
  if (sweep) {
    for (int p = 0; p < players; ++p) {
      for (int i = 0; i < n; ++i) {
        const int seeds = b.pits[p][i];
        if (seeds == 0) continue;
        b.pits[p][i] = 0;
        b.stores[p] += seeds;
        if (rec != nullptr) rec->swept[p] += seeds;
        Emit(rec, EventType::kSweep, p, {p, i}, seeds);
      }
    }
  }
  bool ranked = false;
  for (int p = 0; p < players; ++p) ranked = ranked || o.ranks[p] != 0;
  if (!ranked && players == 2) {  // K.10, O.13, C.11: higher store wins.
    const int s0 = b.stores[0];
    const int s1 = b.stores[1];
    o.ranks[0] = s0 >= s1 ? 1 : 2;
    o.ranks[1] = s1 >= s0 ? 1 : 2;
  }
  o.winner = -1;
  int firsts = 0;
  for (int p = 0; p < players; ++p) {
    if (o.ranks[p] == 1) {
      o.winner = p;
      ++firsts;
    }
    o.remaining[p] = RowSum(s, p);
  }
  if (firsts != 1) o.winner = -1;  // A draw.
  o.end_reason = reason;
  s.to_move_ = -1;
  Emit(rec, EventType::kGameOver, o.winner, {});
}

// --- State ----------------------------------------------------------------

State::State(const Rules& rules, int first_player) : rules_(rules) {
  board_.players = rules.players;
  board_.pits_per_player = rules.pits;
  for (int p = 0; p < rules.players; ++p) {
    active_[p] = true;
    for (int i = 0; i < rules.pits; ++i) board_.pits[p][i] = rules.seeds;
  }
  to_move_ =
      first_player >= 0 && first_player < rules.players ? first_player : 0;
  outcome_.pre_sweep = board_;
  if (rules.game == Game::kMancalaBasic) {
    outcome_.finish_order.reserve(kMaxPlayers);
  }
  if (rules.game == Game::kOware && rules.move_cap == 0) {
    GameAccess::OwareResetRepetition(*this);
  }
}

std::variant<State, RulesError> State::FromBoard(
    const Rules& rules, const Board& board, int to_move,
    const std::vector<int>& active, const std::array<int, kMaxPlayers>& ranks) {
  auto error = [](std::string m) { return RulesError{std::move(m)}; };
  if (board.players != rules.players || board.pits_per_player != rules.pits) {
    return error("board has " + std::to_string(board.players) + " x " +
                 std::to_string(board.pits_per_player) +
                 " pits; the rules want " + std::to_string(rules.players) +
                 " x " + std::to_string(rules.pits));
  }
  long total = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    const int store = board.stores[p];
    if (store < 0 || (p >= rules.players && store != 0)) {
      return error("bad store count for player " + std::to_string(p));
    }
    total += store;
    for (int i = 0; i < kMaxPits; ++i) {
      const int seeds = board.pits[p][i];
      const bool on_board = p < rules.players && i < rules.pits;
      if (seeds < 0 || (!on_board && seeds != 0)) {
        return error("bad seed count at player " + std::to_string(p) + " pit " +
                     std::to_string(i));
      }
      total += seeds;
    }
  }
  // Oware positions are encoded one byte per count (O.11).
  const long max_total = rules.game == Game::kOware ? 255 : 100000;
  if (total > max_total) return error("too many seeds on the board");

  State s(rules, 0);
  s.board_ = board;
  if (!active.empty()) {
    if (rules.game != Game::kMancalaBasic &&
        static_cast<int>(active.size()) != rules.players) {
      return error("only Mancala Basic removes players from the ring");
    }
    s.active_ = {};
    for (int p : active) {
      if (p < 0 || p >= rules.players) return error("bad active player");
      s.active_[p] = true;
    }
  }
  if (GameAccess::ActiveCount(s) < 2) {
    return error("at least two players must still be playing");
  }
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (ranks[p] < 0 || ranks[p] > rules.players ||
        (p >= rules.players && ranks[p] != 0)) {
      return error("bad rank for player " + std::to_string(p));
    }
  }
  s.outcome_.ranks = ranks;
  s.outcome_.pre_sweep = board;
  if (to_move < 0 || to_move >= rules.players || !s.active_[to_move]) {
    return error("the player to move must be an active player");
  }
  s.to_move_ = to_move;
  if (rules.game == Game::kOware && rules.move_cap == 0) {
    GameAccess::OwareResetRepetition(s);
  }
  if (s.LegalMask() == 0) {
    return error("the player to move has no legal move");
  }
  return s;
}

std::uint32_t State::LegalMask() const {
  if (is_over()) return 0;
  if (rules_.game == Game::kOware) {
    return GameAccess::OwareLegalMask(*this, to_move_);
  }
  // K.2, C.2, MB.5: the mover's non-empty pits.
  std::uint32_t mask = 0;
  const auto& row = board_.pits[to_move_];
  for (int i = 0; i < rules_.pits; ++i) {
    mask |= static_cast<std::uint32_t>(row[i] != 0) << i;
  }
  return mask;
}

std::vector<int> State::LegalMoves() const {
  std::vector<int> moves;
  const std::uint32_t mask = LegalMask();
  for (int i = 0; i < rules_.pits; ++i) {
    if (mask >> i & 1u) moves.push_back(i);
  }
  return moves;
}

bool State::IsLegal(int pit) const {
  return pit >= 0 && pit < rules_.pits && (LegalMask() >> pit & 1u);
}

std::optional<MoveError> State::Apply(int pit, MoveRecord* record) {
  // 1.11: illegal input is rejected and changes nothing.
  if (is_over()) return MoveError::kGameOver;
  if (pit < 0 || pit >= rules_.pits) return MoveError::kPitOutOfRange;
  if (board_.pits[to_move_][pit] == 0) return MoveError::kPitEmpty;
  if (rules_.game == Game::kOware && !GameAccess::OwareMoveLegal(*this, pit)) {
    return MoveError::kNotLegal;  // O.4 must feed, O.6 grand_slam = illegal.
  }
  if (record != nullptr) {
    record->Clear();
    record->player = to_move_;
    record->pit = pit;
  }
  ++ply_;
  switch (rules_.game) {
    case Game::kKalah:
      GameAccess::ApplyKalah(*this, pit, record);
      break;
    case Game::kCongkak:
      GameAccess::ApplyCongkak(*this, pit, record);
      break;
    case Game::kOware:
      GameAccess::ApplyOware(*this, pit, record);
      break;
    case Game::kMancalaBasic:
      GameAccess::ApplyBasic(*this, pit, record);
      break;
  }
  return std::nullopt;
}

std::optional<MoveError> State::Resign(int player, MoveRecord* record) {
  if (is_over()) return MoveError::kGameOver;
  if (player < 0 || player >= rules_.players || !active_[player]) {
    return MoveError::kNotActive;
  }
  if (record != nullptr) {
    record->Clear();
    record->player = player;
  }
  // MB.13: the resigner gets the worst rank not yet given.
  const int rank = GameAccess::WorstFreeRank(*this);
  outcome_.ranks[player] = rank;
  active_[player] = false;
  Emit(record, EventType::kResign, player, {}, 0, rank);
  if (rules_.players == 2) {
    // MB.14 (and every two-player game): the other player wins.
    outcome_.ranks[1 - player] = 1;
    GameAccess::EndGame(*this, EndReason::kResignation, false, record);
    return std::nullopt;
  }
  // MB.15: the resigner leaves the ring like a finisher (MB.11b).
  if (GameAccess::ActiveCount(*this) == 1) {
    const int last = GameAccess::NextActive(*this, player);
    outcome_.ranks[last] = GameAccess::BestFreeRank(*this);
    GameAccess::EndGame(*this, EndReason::kResignation, false, record);
    return std::nullopt;
  }
  if (to_move_ == player) to_move_ = GameAccess::NextActive(*this, player);
  return std::nullopt;
}

}  // namespace mancala::engine
