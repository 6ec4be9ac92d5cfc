// The registry of live matches: each match's engine state, seats, turn
// clock, presence and watchers, kept in step with the store.
//
// The path of a move (docs/design.md): Play() takes the match lock, applies the
// move to the engine state, appends it to the store conditionally on the
// ply, and only then answers and tells the watchers. A move the store
// refused never happened. Whenever the computer must move (a CPU seat, a
// turn past its deadline, an absent player's seat; turn_policy.h) a CpuTurn
// is announced to the listener (the CPU worker), which plays it through
// PlayCpu(): the same path, refused if the match moved on or the reason no
// longer holds.
//
// Time comes from the injected Clock; Tick() looks at deadlines and presence
// and is called by the server's ticker (and by tests, after moving a
// ManualClock). Deadlines and presence are not stored: after a restart the
// player to move gets a fresh full turn and every grace period starts again,
// so nobody is charged for the server's outage.
//
// Matches not in memory (finished ones, after a restart) are loaded on demand
// by replaying their stored moves through the engine.
// Thread-safety: all methods may be called from any thread; one mutex per
// match, never held while waiting on anything but the store.

#ifndef MANCALA_SERVICES_LIVE_MATCHES_H_
#define MANCALA_SERVICES_LIVE_MATCHES_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/state.h"
#include "mancala/v1/admin_service.pb.h"
#include "mancala/v1/match_service.pb.h"
#include "services/clock.h"
#include "services/watch_stream.h"
#include "storage/store.h"

namespace mancala::services {

struct LiveMatchesOptions {
  int64_t grace_ms = 20'000;  // Presence grace period after the last call.
  int standin_level = 2;      // CPU level that plays for absent players.
  int max_watchers = 64;      // Watch streams per match.
};

// A request to create a match, already checked for shape by the service.
struct NewMatch {
  std::string creator_id;
  std::string game;           // Engine wire name.
  engine::OptionMap options;  // Without rotate_first_player.
  std::vector<storage::SeatRecord> seats;
  int first_seat = 0;
  bool ranked = false;
  int turn_limit_s = 0;
  bool rotate_first_player = true;
};

// A turn the computer must play.
struct CpuTurn {
  std::string match_id;
  int64_t ply = 0;      // The match's ply when announced.
  engine::State state;  // A copy to search on, off the match lock.
  int level = 0;
  v1::Move::CpuReason reason = v1::Move::CPU_REASON_UNSPECIFIED;
  // Set when the search is no longer wanted (the player came back, the
  // match moved on or ended).
  std::shared_ptr<std::atomic<bool>> stop;
};

struct SubmitMove {
  std::string player_id;
  int pit = 0;
  std::optional<int64_t> expected_ply;
  std::string request_id;
};

class LiveMatches {
 public:
  LiveMatches(storage::Store& store, const Clock& clock,
              LiveMatchesOptions options);
  ~LiveMatches();

  // Called (outside any match lock) whenever the computer must move.
  void SetCpuTurnListener(std::function<void(CpuTurn)> listener);

  // Loads every match in progress or waiting from the store. Call once at
  // start-up, before serving.
  absl::Status LoadActive();

  grpc::Status Create(const NewMatch& request, v1::Match* out);
  // `viewer_id` (may be empty) is touched as present if seated.
  grpc::Status Get(const std::string& id, const std::string& viewer_id,
                   v1::Match* out);
  grpc::Status Join(const std::string& invite_code, std::optional<int> seat,
                    const std::string& player_id, v1::Match* out);
  grpc::Status Cancel(const std::string& id, const std::string& player_id,
                      v1::Match* out);
  grpc::Status Rematch(const std::string& id, const std::string& player_id,
                       v1::Match* out);
  grpc::Status Play(const std::string& id, const SubmitMove& move,
                    v1::SubmitMoveResponse* out);
  // The computer's pit for `turn`; ABORTED if the turn is no longer due.
  grpc::Status PlayCpu(const CpuTurn& turn, int pit);
  grpc::Status Resign(const std::string& id, const std::string& player_id,
                      v1::Match* out);
  // Stored moves from `from_ply` (1-based), at most `limit`; `finished`
  // tells whether the match is over (or cancelled).
  grpc::Status ListMoves(const std::string& id, int64_t from_ply, int limit,
                         std::vector<v1::Move>* out, bool* finished);

  // Registers a watcher: queues the match snapshot, the stored moves after
  // `after_ply`, then every live event until the match ends. Seats of
  // `viewer_id` stay present while the sink is registered.
  // RESOURCE_EXHAUSTED (TOO_MANY_WATCHERS) past max_watchers.
  grpc::Status Watch(const std::string& id, const std::string& viewer_id,
                     int64_t after_ply, std::shared_ptr<WatchSink> sink);
  // Unregisters a watcher (its stream ended).
  void Unwatch(const std::string& id, const std::shared_ptr<WatchSink>& sink);
  // Watchers registered on match `id` (0 if unknown).
  int WatcherCount(const std::string& id);

  // Admin: marks a finished rated match void and recomputes its game's
  // ratings from the stored history without it, with an audit entry.
  // FAILED_PRECONDITION if the match was not rated or is void already.
  grpc::Status VoidMatch(const std::string& id, const std::string& reason,
                         const std::string& actor, v1::Match* out,
                         int* recomputed);
  // Admin: replays the stored moves through the engine and compares the
  // result with the stored one.
  grpc::Status Verify(const std::string& id, v1::VerifyMatchResponse* out);

  // Ends every watch stream (UNAVAILABLE: watch again), for shutdown; a
  // Watch() from then on answers UNAVAILABLE too.
  void CloseWatchers();

  // Looks at every live match's clock and presence; announces CPU turns and
  // presence changes that are due. Evicts ended matches nobody watches.
  void Tick();

 private:
  struct Live;
  using LivePtr = std::shared_ptr<Live>;

  grpc::Status Find(const std::string& id, LivePtr* out);
  grpc::Status Load(const std::string& id, LivePtr* out);
  // Applies and stores one action (pit >= 0 a move, < 0 a resignation) for
  // `seat`, tells the watchers, and fills `reply` (may be null). Requires
  // live.mu.
  grpc::Status Record(Live& live, int seat, int pit,
                      v1::Move::CpuReason cpu_reason,
                      const std::string& request_id,
                      v1::SubmitMoveResponse* reply);
  // Marks `player_id`'s seats as seen now; a seat the CPU stood in for is
  // taken back. Requires live.mu.
  void Touch(Live& live, const std::string& player_id);
  // Presence changes since last announced, broadcast. Requires live.mu.
  void UpdatePresence(Live& live);
  // The CPU turn due now, if any (and not already queued). Requires live.mu.
  std::optional<CpuTurn> DueCpuTurn(Live& live);
  // Starts the clock and presence for a match that (re)starts now.
  void StartClock(Live& live);
  void Snapshot(const Live& live, v1::Match* out) const;
  // For a rated match that ends with `last_move`: marks it aborted, or
  // fills the rating changes into `update`. Requires ratings_mu_.
  grpc::Status RateEnd(const Live& live, const engine::State& final_state,
                       const storage::MoveRow& last_move,
                       storage::MatchUpdate* update);
  void Broadcast(Live& live, const v1::WatchEvent& event, bool last = false);
  void Announce(std::optional<CpuTurn> turn);

  storage::Store& store_;
  const Clock& clock_;
  const LiveMatchesOptions options_;
  std::function<void(CpuTurn)> on_cpu_turn_;
  std::atomic<bool> closed_{false};  // CloseWatchers() was called.

  std::mutex ratings_mu_;  // Serializes rating updates (see RateEnd).
  std::mutex mu_;          // Guards matches_.
  std::unordered_map<std::string, LivePtr> matches_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_LIVE_MATCHES_H_
