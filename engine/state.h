// The state of one game: board, player to move, result.
//
// State is a value type with fixed-size arrays (no allocation on Apply when
// no MoveRecord is asked for, except Oware's repetition set): copy it to
// search. Every rule it applies is cited by its docs/rules.md id in the game's
// source file (kalah.cc, oware.cc, congkak.cc, mancala_basic.cc).
//
// Contract:
// - Apply(pit) plays the player to move's pit (0..n-1, own side, sowing
//   order). An illegal move returns a MoveError and changes nothing (1.11).
// - Resign(player) removes a player as docs/rules.md MB.13-MB.15 (all
//   games; with two players it is a loss).
// - Once is_over(), to_move() is -1 and outcome() is final.
// Thread-safety: const methods may be called concurrently; mutation needs
// external synchronisation.

#ifndef MANCALA_ENGINE_STATE_H_
#define MANCALA_ENGINE_STATE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/events.h"
#include "engine/rules.h"

namespace mancala::engine {

// Why a move or resignation was refused.
enum class MoveError {
  kGameOver,       // The game has ended.
  kPitOutOfRange,  // pit < 0 or pit >= pits per player.
  kPitEmpty,       // The chosen pit holds no seeds.
  kNotLegal,       // Non-empty but forbidden: Oware must-feed (O.4) or a
                   // grand slam under grand_slam = illegal (O.6).
  kNotActive,      // Resign: the player already finished or resigned.
};

std::string_view MoveErrorMessage(MoveError error);

enum class EndReason {
  kNone,
  kSideEmpty,           // Kalah K.9, Congkak C.10.
  kMajority,            // Oware O.9.
  kNoLegalMove,         // Oware O.8.
  kRepetition,          // Oware O.11 repetition_ends.
  kMoveCap,             // Oware O.11 move_cap.
  kEmptiedSide,         // Mancala Basic MB.11a.
  kAllRanksDetermined,  // Mancala Basic MB.11b.
  kFirstFinisher,       // Mancala Basic MB.11c.
  kResignation,         // MB.14/MB.15 and two-player resignation.
};

// "side_empty", "majority", "no_legal_move", "repetition", "move_cap",
// "emptied_side", "all_ranks_determined", "first_finisher", "resignation";
// "" for kNone.
std::string_view EndReasonName(EndReason reason);

// A board as players see it. pits[p][i] in sowing order; stores[p] is p's
// store (Oware: seeds captured).
struct Board {
  int players = 2;
  int pits_per_player = 6;
  std::array<std::array<int, kMaxPits>, kMaxPlayers> pits{};
  std::array<int, kMaxPlayers> stores{};
  friend bool operator==(const Board&, const Board&) = default;
};

struct Outcome {
  EndReason end_reason = EndReason::kNone;
  // 1 = best. 0 = not ranked yet. Ties share a rank (MB.11c, draws).
  std::array<int, kMaxPlayers> ranks{};
  // Two-player games: 0 or 1, or -1 for a draw (and while not over).
  // Mancala Basic with 3-4 players: the player ranked 1 once over.
  int winner = -1;
  // Mancala Basic: players in the order they finished (resigners excluded;
  // the last player left, ranked without finishing, is not listed). Starts
  // empty for a State::FromBoard position.
  std::vector<int> finish_order;
  // Mancala Basic MB.16: stones left in each player's pits at the end
  // (filled for every game once over: after a sweep they are 0).
  std::array<int, kMaxPlayers> remaining{};
  // The board just before the end-of-game sweep (equals board() when
  // nothing was swept).
  Board pre_sweep;
};

class State {
 public:
  // The starting position (MB.2, K.1, O.1, C.1) with `first_player` to move.
  explicit State(const Rules& rules, int first_player = 0);

  // A position set up by hand (edge cases, traces). `active` lists players
  // still in the ring (Mancala Basic); empty means all. `ranks` gives ranks
  // already awarded (0 = none). Returns an error if the shape does not match
  // the rules, a count is negative, or `to_move` is not an active player
  // with a legal move. No end rule is applied to the position itself. Oware
  // measures "more than half" (O.9) against the seeds on this board.
  static std::variant<State, RulesError> FromBoard(
      const Rules& rules, const Board& board, int to_move,
      const std::vector<int>& active = {},
      const std::array<int, kMaxPlayers>& ranks = {});

  const Rules& rules() const { return rules_; }
  const Board& board() const { return board_; }
  int pit(int player, int i) const { return board_.pits[player][i]; }
  int store(int player) const { return board_.stores[player]; }
  int to_move() const { return to_move_; }
  bool is_over() const { return to_move_ < 0; }
  bool is_active(int player) const { return active_[player]; }
  int ply() const { return ply_; }  // Moves applied (resignations excluded).

  // Legal pits of the player to move, ascending; empty once over.
  std::vector<int> LegalMoves() const;
  // The same as a bit set (bit i set = pit i legal); 0 once over. Never
  // allocates: prefer it in search and playout loops.
  std::uint32_t LegalMask() const;
  bool IsLegal(int pit) const;

  // Plays `pit` for the player to move. On success returns nullopt and, if
  // `record` is non-null, fills it. On error nothing changes.
  std::optional<MoveError> Apply(int pit, MoveRecord* record = nullptr);

  // `player` resigns (MB.13-MB.15; two players: the other wins).
  std::optional<MoveError> Resign(int player, MoveRecord* record = nullptr);

  const Outcome& outcome() const { return outcome_; }

 private:
  friend struct GameAccess;  // Per-game rule code in the .cc files.

  Rules rules_;
  Board board_;
  int to_move_ = 0;
  int ply_ = 0;
  std::array<bool, kMaxPlayers> active_{};
  Outcome outcome_;
  // Oware O.11: positions seen since the last capture (compact encoding).
  std::vector<std::array<std::uint8_t, 16>> seen_;
};

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_STATE_H_
