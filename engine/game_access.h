// Internal to the engine: the per-game rule code's access to State.
//
// State declares `friend struct GameAccess`; every rule of docs/rules.md is
// implemented by a static member below, defined in the game's own source
// file (kalah.cc, congkak.cc, oware.cc, mancala_basic.cc) or, when shared by
// several games, in state.cc. Nothing outside engine/*.cc includes this.
//
// Contract of the Apply* functions: the caller (State::Apply) has checked
// that the game is not over and `pit` is legal for the player to move, has
// cleared `rec` (may be null) and counted the ply. They play the move, pass
// the turn and end the game when a rule says so.

#ifndef MANCALA_ENGINE_GAME_ACCESS_H_
#define MANCALA_ENGINE_GAME_ACCESS_H_

#include <cstdint>

#include "engine/events.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {

// Appends one event when a record is wanted (a no-op for playouts).
inline void Emit(MoveRecord* rec, EventType type, int player, Place place,
                 int count = 0, int rank = 0) {
  if (rec != nullptr) rec->events.push_back({type, player, place, count, rank});
}

struct GameAccess {
  // --- Shared (state.cc) ---------------------------------------------------

  // True if all of `player`'s pits are empty.
  static bool RowEmpty(const State& s, int player);
  // Seeds in `player`'s pits.
  static int RowSum(const State& s, int player);
  // Next active player after `player` in ring (= turn) order (1.1, MB.4).
  static int NextActive(const State& s, int player);
  static int ActiveCount(const State& s);
  // Best / worst rank not yet given (MB.11, MB.13).
  static int BestFreeRank(const State& s);
  static int WorstFreeRank(const State& s);
  // Ends the game: saves Outcome::pre_sweep, then, if `sweep`, moves every
  // seed left in a pit to its owner's store (K.9, C.10, O.8, O.11), emitting
  // kSweep events and MoveRecord::swept. Ranks two-player games that are
  // not ranked yet by their stores (K.10, O.13, C.11; draw = [1, 1]); sets
  // winner (the unique rank-1 player, else -1), remaining, end_reason,
  // to_move = -1; emits kGameOver.
  static void EndGame(State& s, EndReason reason, bool sweep, MoveRecord* rec);

  // --- Kalah (kalah.cc), shared with Congkak
  // ----------------------------------

  static void ApplyKalah(State& s, int pit, MoveRecord* rec);
  // K.5/K.6 and C.7a/C.7b: the mover's last seed fell into own pit `pit`,
  // which was empty. Captures the opposite pit plus that seed if the
  // opposite pit is non-empty; else the seed stays, or goes to the store
  // under `seed_to_store`. Returns the seeds moved to the store.
  static int CaptureOpposite(State& s, int mover, int pit,
                             EmptyOpposite if_opposite_empty, MoveRecord* rec);
  // K.4/K.8/K.8'/K.9 and C.5/C.10: passes the turn (or keeps it after an
  // extra turn) and ends the game under the end rule.
  static void EndTurnWithStores(State& s, int mover, bool extra_turn,
                                MoveRecord* rec);

  // --- Congkak (congkak.cc) -------------------------------------------------

  static void ApplyCongkak(State& s, int pit, MoveRecord* rec);

  // --- Oware (oware.cc) -----------------------------------------------------

  // O.3/O.4/O.6: legal houses of `player` as a bit set.
  static std::uint32_t OwareLegalMask(const State& s, int player);
  // OwareLegalMask(s, player) != 0, stopping at the first legal house.
  static bool OwareHasLegalMove(const State& s, int player);
  // One house of the player to move (State::Apply's check).
  static bool OwareMoveLegal(const State& s, int pit);
  static void ApplyOware(State& s, int pit, MoveRecord* rec);
  // O.11: forgets the positions seen and records the current one.
  static void OwareResetRepetition(State& s);

  // --- Mancala Basic (mancala_basic.cc) -------------------------------------

  static void ApplyBasic(State& s, int pit, MoveRecord* rec);
};

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_GAME_ACCESS_H_
