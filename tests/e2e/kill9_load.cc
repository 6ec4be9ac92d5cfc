// kill9_load: the service benchmark's movers as a load for the kill -9
// test (kill9_load_test.sh). Drives --matches matches at once against
// --server for --seconds and appends every acknowledged move to --log as
// "match_id,ply,pit", flushed at once: the test kills the server mid-run
// and then looks for each logged move in the database.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <mutex>

#include "tests/bench/service/closed_loop.h"
#include "tests/bench/service/sessions.h"

int main(int argc, char** argv) {
  using namespace mancala::bench;
  std::string address, log_path;
  int matches = 64;
  double seconds = 4;
  CLI::App app{"kill9_load: acknowledged moves under load, logged"};
  app.add_option("--server", address, "host:port of mancalad")->required();
  app.add_option("--log", log_path, "file the acknowledged moves go to")
      ->required();
  app.add_option("--matches", matches, "matches played at once")
      ->check(CLI::Range(1, 1024));
  app.add_option("--seconds", seconds, "how long to play")
      ->check(CLI::Range(0.1, 600.0));
  CLI11_PARSE(app, argc, argv);

  std::FILE* log = std::fopen(log_path.c_str(), "w");
  if (log == nullptr) {
    std::fprintf(stderr, "cannot write %s\n", log_path.c_str());
    return 1;
  }
  Clients clients(address, 4);
  std::vector<Guest> guests;
  try {
    guests = CreateGuests(clients, 2 * matches, 8);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kill9_load: %s\n", e.what());
    return 1;
  }
  std::mutex mu;
  auto ack = [&](const mancala::v1::SubmitMoveResponse& r) {
    const std::string& name = r.match().name();  // "matches/{id}"
    std::lock_guard lock(mu);
    std::fprintf(log, "%s,%lld,%d\n", name.substr(name.find('/') + 1).c_str(),
                 static_cast<long long>(r.move().ply()), r.move().pit());
    std::fflush(log);
  };
  std::vector<std::unique_ptr<Session>> sessions;
  for (int i = 0; i < matches; ++i) {
    sessions.push_back(NewMoverSession(clients.Pick(i), guests[2 * i],
                                       guests[2 * i + 1], i, ack));
  }
  // Only the moves matter here; the server is gone before the end, so its
  // /proc figures are not read (no server process given).
  PhaseResult r = RunClosedLoop(
      sessions, std::chrono::milliseconds(0),
      std::chrono::milliseconds(static_cast<int>(seconds * 1000)), nullptr);
  std::fclose(log);
  std::printf("%lld moves acknowledged\n", static_cast<long long>(r.calls));
  return 0;
}
