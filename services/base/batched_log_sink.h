// A spdlog sink that writes whole lines to a file descriptor from its own
// thread, many lines per write(2).
//
// Why: mancalad logs one line per RPC (rpc_log.h). spdlog's console sink
// writes and flushes each line on the caller's thread, one write(2) per
// RPC on the move path (issue 28's profile: 3% of the server's CPU). Here a
// logging thread only appends the formatted line to a buffer; a writer
// thread, woken by the first line into an empty buffer, lingers kLinger
// (or until kFullBytes are pending) for more lines, then writes the whole
// buffer at once. A line reaches the file descriptor within about kLinger
// of being logged. Without the linger the writer was woken for almost
// every line under load (one futex wake, one wait and 0.7 write(2) per RPC
// at 7k RPC/s, issue 28's syscall count); with it, one of each per
// kLinger.
//
// The lines are the formatter's, unchanged (no colours: the console sink's
// colours only ever showed on a terminal).
//
// flush() (spdlog::logger::flush, spdlog::shutdown) cuts the linger short
// and returns once every line logged before it is written; the destructor
// writes what is left and joins the thread. A line still in the buffer
// when the process is killed (SIGKILL, abort) is lost: at most the lines
// of kLinger and one write.
//
// The writer thread blocks every signal, so a process-directed SIGTERM
// still reaches the thread that waits for it (mancalad_main.cc).
//
// Thread safety: as any spdlog *_mt sink: log from any thread.

#ifndef MANCALA_SERVICES_BASE_BATCHED_LOG_SINK_H_
#define MANCALA_SERVICES_BASE_BATCHED_LOG_SINK_H_

#include <spdlog/sinks/base_sink.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace mancala::services {

class BatchedLogSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit BatchedLogSink(int fd);
  ~BatchedLogSink() override;

  BatchedLogSink(const BatchedLogSink&) = delete;
  BatchedLogSink& operator=(const BatchedLogSink&) = delete;

  // Writes made so far (for tests: fewer than the lines under load).
  int64_t writes() const;

  // How long the writer waits for more lines once woken, and the pending
  // size that ends the wait early.
  static constexpr std::chrono::milliseconds kLinger{5};
  static constexpr size_t kFullBytes = 64 * 1024;

 protected:
  // Called by base_sink with its mutex held.
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override;

 private:
  void Loop();
  // Writes all of `text` to fd_ (a failed write drops the rest: logging
  // must never stop the server).
  void WriteAll(const std::string& text);

  const int fd_;
  mutable std::mutex mu_;
  // Lines pending (from empty), kFullBytes pending, a flush, or stopping.
  std::condition_variable wake_;
  std::condition_variable written_;  // A write finished.
  std::string pending_;              // GUARDED_BY(mu_)
  int64_t appended_ = 0;             // Lines appended.  GUARDED_BY(mu_)
  int64_t done_ = 0;                 // Lines written.   GUARDED_BY(mu_)
  int64_t writes_ = 0;               // GUARDED_BY(mu_)
  int flushing_ = 0;                 // flush_() callers.  GUARDED_BY(mu_)
  bool stopping_ = false;            // GUARDED_BY(mu_)
  std::thread thread_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_BATCHED_LOG_SINK_H_
