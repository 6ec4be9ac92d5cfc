// The registry of live matches: each match's engine state, kept in step
// with the store.
//
// The path of a move (DESIGN.md): Play() takes the match lock, applies the
// move to a copy of the engine state, appends it to the store conditionally
// on the expected ply, and only then makes the copy current. So a move is
// durable before anyone hears of it, and a move the store refused never
// happened. After a move, if the next seat is the computer's, the
// `on_cpu_turn` callback is told the match id (the CPU worker plays it
// through the same Play()).
//
// Matches not in memory (finished ones after a restart) are loaded on
// demand by replaying their stored moves through the engine.
// Thread-safety: every method may be called from any thread; one mutex per
// match, and never held while waiting on anything but the store.

#ifndef MANCALA_SERVICES_LIVE_MATCHES_H_
#define MANCALA_SERVICES_LIVE_MATCHES_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "engine/state.h"
#include "mancala/v1/match_service.pb.h"
#include "services/clock.h"
#include "storage/store.h"

namespace mancala::services {

// A request to start a match, already checked for shape by the service.
struct NewMatch {
  std::string creator_id;
  std::string game;                    // Engine wire name.
  engine::OptionMap options;
  std::vector<storage::SeatRecord> seats;
  int first_seat = 0;
};

// A CPU turn to play: the match and the ply it was computed for.
struct CpuTurn {
  std::string match_id;
  int64_t ply = 0;
  engine::State state;
  int level = 0;
};

class LiveMatches {
 public:
  LiveMatches(storage::Store& store, const Clock& clock);

  // Called (outside any lock) whenever a CPU seat is to move.
  void SetCpuTurnListener(std::function<void(CpuTurn)> listener);

  // Loads every match in progress from the store, replaying its moves, and
  // announces the CPU turns among them. Call once at start-up.
  absl::Status LoadInProgress();

  // Validates rules and seats, stores the match, starts it.
  // INVALID_ARGUMENT for bad options (reason INVALID_OPTION).
  grpc::Status Create(const NewMatch& request, v1::Match* out);

  // NOT_FOUND for an unknown id.
  grpc::Status Get(const std::string& id, v1::Match* out);

  // Plays `pit` for `seat`. `player_id` must hold that seat unless `by_cpu`.
  // `expected_ply` >= 0 makes the move conditional (ABORTED, reason
  // STALE_PLY, if the match has moved on). Statuses as in
  // match_service.proto's SubmitMove.
  grpc::Status Play(const std::string& id, const std::string& player_id,
                    int pit, bool by_cpu, int64_t expected_ply,
                    v1::Match* match, v1::Move* move);

  // The seat to move's pit chosen by the CPU for `turn` (by_cpu = true).
  grpc::Status PlayCpu(const CpuTurn& turn, int pit);

  // `player_id`'s seat resigns.
  grpc::Status Resign(const std::string& id, const std::string& player_id,
                      v1::Match* out);

  // Stored moves from `from_ply` (1-based), at most `limit`.
  grpc::Status ListMoves(const std::string& id, int64_t from_ply, int limit,
                         std::vector<v1::Move>* out);

 private:
  struct Live;

  // The live match, loading it from the store if needed.
  grpc::Status Find(const std::string& id, std::shared_ptr<Live>* out);
  // Applies and records one action (pit >= 0 a move, pit < 0 resignation)
  // for `seat`. Requires live->mu.
  grpc::Status Record(Live& live, int seat, int pit, bool by_cpu,
                      v1::Move* move);
  void Snapshot(const Live& live, v1::Match* out) const;
  // Announces a CPU turn if one is due. Requires live->mu; returns it for
  // the caller to announce after unlocking.
  std::optional<CpuTurn> DueCpuTurn(const Live& live) const;
  void Announce(std::optional<CpuTurn> turn);

  storage::Store& store_;
  const Clock& clock_;
  std::function<void(CpuTurn)> on_cpu_turn_;

  std::mutex mu_;  // Guards matches_.
  std::unordered_map<std::string, std::shared_ptr<Live>> matches_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_LIVE_MATCHES_H_
