#include "tests/bench/service/closed_loop.h"

#include <grpcpp/alarm.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "tests/bench/service/perf_counts.h"

namespace mancala::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The per-session loop: times each call and starts the next. A call
// answered RESOURCE_EXHAUSTED (the server's thread bound) is tried again
// after a growing pause, as a client would; its latency runs from the
// first try to the answer.
struct Loop {
  Session* session = nullptr;
  std::vector<double> latencies_ms;
  std::map<grpc::StatusCode, int64_t> errors;
  Clock::time_point started;
  bool retrying = false;
  std::chrono::microseconds backoff{0};
  std::unique_ptr<grpc::Alarm> alarm;
};

constexpr std::chrono::microseconds kFirstBackoff{500};
constexpr std::chrono::microseconds kMostBackoff{50'000};

struct Shared {
  std::atomic<bool> stop{false};
  Clock::time_point window_begin, window_end;
  std::mutex mu;
  std::condition_variable cv;
  int running = 0;
};

void Next(Loop* loop, Shared* shared) {
  if (shared->stop.load()) {
    std::lock_guard lock(shared->mu);
    if (--shared->running == 0) shared->cv.notify_all();
    return;
  }
  if (!loop->retrying) loop->started = Clock::now();
  loop->session->Call([loop, shared](CallOutcome outcome) {
    const Clock::time_point now = Clock::now();
    if (now >= shared->window_begin && now < shared->window_end) {
      if (outcome.code != grpc::StatusCode::OK) {
        loop->errors[outcome.code]++;  // Bookkeeping calls' errors too.
      } else if (outcome.counted) {
        loop->latencies_ms.push_back(
            std::chrono::duration<double, std::milli>(now - loop->started)
                .count());
      }
    }
    if (outcome.code == grpc::StatusCode::OK) {
      loop->retrying = false;
      loop->backoff = std::chrono::microseconds(0);
      Next(loop, shared);
      return;
    }
    // Any error: pause before the next call rather than spin (gRPC's
    // callback threads must not sleep: an alarm wakes the loop).
    loop->retrying = outcome.code == grpc::StatusCode::RESOURCE_EXHAUSTED;
    loop->backoff =
        std::min(kMostBackoff, loop->backoff.count() == 0 ? kFirstBackoff
                                                          : 2 * loop->backoff);
    loop->alarm = std::make_unique<grpc::Alarm>();
    loop->alarm->Set(std::chrono::system_clock::now() + loop->backoff,
                     [loop, shared](bool) { Next(loop, shared); });
  });
}

}  // namespace

double PhaseResult::Percentile(double p) const {
  if (latencies_ms.empty()) return 0;
  const size_t i = static_cast<size_t>(
      std::ceil(p / 100.0 * static_cast<double>(latencies_ms.size())));
  return latencies_ms[std::min(latencies_ms.size() - 1, i == 0 ? 0 : i - 1)];
}

PhaseResult RunClosedLoop(std::vector<std::unique_ptr<Session>>& sessions,
                          std::chrono::milliseconds warmup,
                          std::chrono::milliseconds measure,
                          const ServerProcess* server, bool count_syscalls) {
  std::vector<const ServerProcess*> servers;
  if (server) servers.push_back(server);
  return RunClosedLoop(sessions, warmup, measure, servers, count_syscalls);
}

PhaseResult RunClosedLoop(std::vector<std::unique_ptr<Session>>& sessions,
                          std::chrono::milliseconds warmup,
                          std::chrono::milliseconds measure,
                          const std::vector<const ServerProcess*>& servers,
                          bool count_syscalls) {
  Shared shared;
  const Clock::time_point start = Clock::now();
  shared.window_begin = start + warmup;
  shared.window_end = shared.window_begin + measure;
  std::vector<Loop> loops(sessions.size());
  shared.running = static_cast<int>(sessions.size());
  for (size_t i = 0; i < sessions.size(); ++i) {
    loops[i].session = sessions[i].get();
    Next(&loops[i], &shared);
  }
  std::this_thread::sleep_until(shared.window_begin);
  PhaseResult r;
  auto stats = [&servers] {
    ProcStats sum;
    for (const ServerProcess* server : servers) {
      const ProcStats s = server->Stats();
      sum.cpu_seconds += s.cpu_seconds;
      sum.threads += s.threads;
      sum.rss_kib += s.rss_kib;
    }
    return sum;
  };
  std::vector<std::unique_ptr<PerfCounts>> perf;
  if (count_syscalls) {
    for (const ServerProcess* server : servers) {
      perf.push_back(PerfCounts::Start(server->pid()));
    }
  }
  const ProcStats before = stats();
  r.max_threads = before.threads;
  while (Clock::now() < shared.window_end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    r.max_threads = std::max(r.max_threads, stats().threads);
  }
  const ProcStats after = stats();
  r.cpu_seconds = after.cpu_seconds - before.cpu_seconds;
  if (count_syscalls) {
    r.syscalls = r.new_threads = 0;
    for (auto& counter : perf) {
      const PerfCounts::Counts c = counter->Stop();
      r.syscalls += c.syscalls;
      r.new_threads += c.new_threads;
    }
  }
  r.seconds = std::chrono::duration<double>(measure).count();
  shared.stop = true;
  {
    std::unique_lock lock(shared.mu);
    if (!shared.cv.wait_for(lock, std::chrono::seconds(60),
                            [&] { return shared.running == 0; })) {
      throw std::runtime_error("calls still in flight 60 s after the phase");
    }
  }
  for (Loop& loop : loops) {
    r.latencies_ms.insert(r.latencies_ms.end(), loop.latencies_ms.begin(),
                          loop.latencies_ms.end());
    for (auto [code, n] : loop.errors) r.errors[code] += n;
  }
  r.calls = static_cast<int64_t>(r.latencies_ms.size());
  std::sort(r.latencies_ms.begin(), r.latencies_ms.end());
  return r;
}

}  // namespace mancala::bench
