// The batched log sink (services/base/batched_log_sink.h): every line
// written once, whole and in order; many lines per write while the reader
// is slow or while the writer lingers; a line goes out without a flush;
// nothing left behind by flush() or the destructor.

#include "services/base/batched_log_sink.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mancala {
namespace {

// A pipe read to its end on a thread; Text() once the write end is closed.
class PipeReader {
 public:
  PipeReader() {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    read_fd_ = fds[0];
    write_fd_ = fds[1];
  }
  ~PipeReader() {
    CloseWriteEnd();
    if (reader_.joinable()) reader_.join();
    close(read_fd_);
  }
  int write_fd() const { return write_fd_; }
  void StartReading() {
    reader_ = std::thread([this] {
      char buf[4096];
      ssize_t n;
      while ((n = read(read_fd_, buf, sizeof buf)) > 0) {
        std::lock_guard lock(mu_);
        text_.append(buf, n);
      }
    });
  }
  // Waits (up to 30 s) until `bytes` have been read; what was read then.
  std::string WaitFor(size_t bytes) {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      {
        std::lock_guard lock(mu_);
        if (text_.size() >= bytes ||
            std::chrono::steady_clock::now() > give_up) {
          return text_;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  void CloseWriteEnd() {
    if (write_fd_ >= 0) close(write_fd_);
    write_fd_ = -1;
  }
  std::string Text() {
    CloseWriteEnd();
    if (reader_.joinable()) reader_.join();
    return text_;
  }

 private:
  int read_fd_ = -1, write_fd_ = -1;
  std::thread reader_;
  std::mutex mu_;
  std::string text_;  // GUARDED_BY(mu_) while reader_ runs.
};

std::shared_ptr<spdlog::logger> LoggerOn(
    const std::shared_ptr<services::BatchedLogSink>& sink) {
  auto logger = std::make_shared<spdlog::logger>("batched", sink);
  logger->set_pattern("%v");
  return logger;
}

std::string Expected(int threads, int lines) {
  std::string text;
  for (int t = 0; t < threads; ++t) {
    for (int i = 0; i < lines; ++i) {
      text +=
          "thread " + std::to_string(t) + " line " + std::to_string(i) + "\n";
    }
  }
  return text;
}

TEST(BatchedLogSink, FlushWritesEveryLineWholeAndInOrder) {
  PipeReader pipe;
  pipe.StartReading();
  auto sink = std::make_shared<services::BatchedLogSink>(pipe.write_fd());
  auto logger = LoggerOn(sink);
  constexpr int kThreads = 4, kLines = 500;
  std::vector<std::thread> loggers;
  for (int t = 0; t < kThreads; ++t) {
    loggers.emplace_back([&, t] {
      for (int i = 0; i < kLines; ++i) logger->info("thread {} line {}", t, i);
    });
  }
  for (std::thread& t : loggers) t.join();
  logger->flush();
  const std::string text = pipe.Text();
  // Each thread's lines in its order, none torn: sorting the lines by
  // thread (a stable partition) must give exactly the expected text.
  std::vector<std::string> by_thread(kThreads);
  size_t at = 0;
  int lines = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    ASSERT_NE(end, std::string::npos) << "a torn last line";
    const std::string line = text.substr(at, end - at + 1);
    int t = -1, i = -1;
    ASSERT_EQ(std::sscanf(line.c_str(), "thread %d line %d", &t, &i), 2)
        << line;
    ASSERT_GE(t, 0);
    ASSERT_LT(t, kThreads);
    by_thread[t] += line;
    ++lines;
    at = end + 1;
  }
  EXPECT_EQ(lines, kThreads * kLines);
  std::string sorted;
  for (const std::string& s : by_thread) sorted += s;
  EXPECT_EQ(sorted, Expected(kThreads, kLines));
}

// While the reader is slow (a full pipe), the lines logged meanwhile go
// out in one write once it reads again.
TEST(BatchedLogSink, LinesLoggedDuringAWriteGoOutTogether) {
  PipeReader pipe;
  // Fill the pipe so the sink's first write blocks.
  ASSERT_EQ(fcntl(pipe.write_fd(), F_SETFL, O_NONBLOCK), 0);
  const std::string filler(4096, 'x');
  size_t filled = 0;
  for (;;) {
    const ssize_t n = write(pipe.write_fd(), filler.data(), filler.size());
    if (n <= 0) break;
    filled += static_cast<size_t>(n);
  }
  ASSERT_EQ(fcntl(pipe.write_fd(), F_SETFL, 0), 0);
  auto sink = std::make_shared<services::BatchedLogSink>(pipe.write_fd());
  auto logger = LoggerOn(sink);
  constexpr int kLines = 200;
  for (int i = 0; i < kLines; ++i) logger->info("thread 0 line {}", i);
  pipe.StartReading();
  logger->flush();
  // The first write took the lines pending when the writer woke (one or
  // more), the second all the others.
  EXPECT_GE(sink->writes(), 1);
  EXPECT_LE(sink->writes(), 2);
  const std::string text = pipe.Text();
  ASSERT_EQ(text.size(), filled + Expected(1, kLines).size());
  EXPECT_EQ(text.substr(filled), Expected(1, kLines));
}

// A line goes out on its own (no flush, the sink alive), and a burst of
// lines logged while the writer lingers goes out in a few writes, not one
// each (the bound leaves room for a loaded machine pausing the loop).
TEST(BatchedLogSink, LinesGoOutWithoutAFlushInFewWrites) {
  PipeReader pipe;
  pipe.StartReading();
  auto sink = std::make_shared<services::BatchedLogSink>(pipe.write_fd());
  auto logger = LoggerOn(sink);
  logger->info("thread 0 line 0");
  EXPECT_EQ(pipe.WaitFor(Expected(1, 1).size()), Expected(1, 1));
  EXPECT_EQ(sink->writes(), 1);
  std::string burst;
  for (int i = 0; i < 1000; ++i) {
    logger->info("thread 1 line {}", i);
    burst += "thread 1 line " + std::to_string(i) + "\n";
  }
  EXPECT_EQ(pipe.WaitFor(Expected(1, 1).size() + burst.size()),
            Expected(1, 1) + burst);
  EXPECT_LT(sink->writes(), 1 + 100);
}

// What is still pending when the sink goes is written, not dropped.
TEST(BatchedLogSink, DestructorWritesWhatIsPending) {
  PipeReader pipe;
  pipe.StartReading();
  {
    auto sink = std::make_shared<services::BatchedLogSink>(pipe.write_fd());
    auto logger = LoggerOn(sink);
    for (int i = 0; i < 100; ++i) logger->info("thread 0 line {}", i);
  }
  EXPECT_EQ(pipe.Text(), Expected(1, 100));
}

}  // namespace
}  // namespace mancala
