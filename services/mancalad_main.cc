// mancalad: the mancala match server. Flags only; wiring is in server.cc.

#include <csignal>
#include <thread>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "services/server.h"

int main(int argc, char** argv) {
  mancala::services::ServerOptions options;
  int64_t budget_ms = options.cpu_budget.count();
  CLI::App app{"mancalad: mancala match and rating server (gRPC)"};
  app.add_option("--listen", options.address,
                 "host:port to serve on; port 0 picks a free port")
      ->capture_default_str();
  app.add_option("--db", options.db_path,
                 "SQLite database file (created if missing)")
      ->capture_default_str();
  app.add_option("--cpu-threads", options.cpu_threads,
                 "threads that play the computer's moves")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--cpu-budget-ms", budget_ms,
                 "thinking time per computer move, milliseconds")
      ->check(CLI::Range(1, 60000))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  options.cpu_budget = std::chrono::milliseconds(budget_ms);

  // Block the stop signals in every thread; one thread waits for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = mancala::services::Server::Start(options);
  if (!server.ok()) {
    spdlog::error("cannot start: {}", server.status().ToString());
    return 1;
  }
  // The line scripts and tests wait for; keep its shape.
  spdlog::info("mancalad listening on port {} (database {})",
               (*server)->port(), options.db_path);
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    spdlog::info("signal {}: shutting down", sig);
    (*server)->Shutdown();
  });
  (*server)->Wait();
  waiter.detach();
  return 0;
}
