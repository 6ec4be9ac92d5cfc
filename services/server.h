// The mancalad server: storage, live matches, CPU worker and the gRPC
// services, wired together (route_guide style: main() only parses flags).
//
// Start() opens the database, restores the matches in progress, binds the
// address (port 0 picks a free port; port() tells which) and serves
// mancala.v1.PlayerService, mancala.v1.MatchService, grpc.health.v1.Health
// and server reflection.

#ifndef MANCALA_SERVICES_SERVER_H_
#define MANCALA_SERVICES_SERVER_H_

#include <chrono>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "services/clock.h"

namespace mancala::services {

struct ServerOptions {
  std::string address = "127.0.0.1:50051";  // host:port; port 0 = any.
  std::string db_path = "var/mancala.db";   // ":memory:" for tests.
  int cpu_threads = 1;                       // CPU worker threads.
  std::chrono::milliseconds cpu_budget{1000};  // Thinking time per move.
  const Clock* clock = nullptr;              // nullptr = system clock.
};

class Server {
 public:
  // UNAVAILABLE if the database cannot be opened or the address bound;
  // FAILED_PRECONDITION for a database of a newer schema.
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerOptions& options);
  ~Server();  // Shuts down if still serving.

  int port() const;
  // Blocks until Shutdown() is called from another thread.
  void Wait();
  void Shutdown();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_SERVER_H_
