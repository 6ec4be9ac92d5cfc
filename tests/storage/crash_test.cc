// Group commit answers a caller only after its batch is committed: a child
// process appends moves from 16 threads and reports each acknowledged
// append through a pipe; it is killed with SIGKILL mid-stream; every
// acknowledged move must then be in the database, and each match's moves
// must be exactly plies 1..ply. (Power loss, which synchronous=FULL covers
// too, cannot be simulated here.)

#include <SQLiteCpp/SQLiteCpp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include "tests/storage/store_test_fixture.h"

namespace mancala::storage {
namespace {

using CrashTest = StoreFileTest;

constexpr int kMatches = 16;

[[noreturn]] void AppendUntilKilled(const std::string& path, int out_fd) {
  auto store = SqliteStore::Open(path);
  if (!store.ok()) _exit(2);
  std::vector<std::thread> threads;
  for (int i = 0; i < kMatches; ++i) {
    threads.emplace_back([&, i] {
      const std::string id = "m" + std::to_string(i);
      for (int64_t ply = 1;; ++ply) {
        MoveRow row;
        row.match_id = id;
        row.ply = ply;
        row.pit = static_cast<int>(ply % 6);
        row.events = "e";
        if (!(*store)->AppendMove(row, {}).ok()) _exit(3);
        char line[64];
        int n = std::snprintf(line, sizeof(line), "%d %lld\n", i,
                              static_cast<long long>(ply));
        if (write(out_fd, line, n) != n) _exit(4);  // Atomic: < PIPE_BUF.
      }
    });
  }
  for (auto& t : threads) t.join();
  _exit(0);
}

TEST_F(CrashTest, EveryAcknowledgedMoveSurvivesKillNine) {
  {
    auto store = Open();
    for (int i = 0; i < kMatches; ++i) {
      ASSERT_TRUE(
          store->CreateMatch(SampleMatch("m" + std::to_string(i))).ok());
    }
  }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    AppendUntilKilled(path_, fds[1]);
  }
  close(fds[1]);
  // Read acknowledgements until 300 have arrived (or 20 s pass), then kill.
  FILE* acks = fdopen(fds[0], "r");
  ASSERT_NE(acks, nullptr);
  std::map<int, int64_t> acked;  // Highest acknowledged ply per match.
  int count = 0, match = 0;
  long long ply = 0;
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (count < 300 && std::chrono::steady_clock::now() < give_up &&
         std::fscanf(acks, "%d %lld", &match, &ply) == 2) {
    acked[match] = std::max<int64_t>(acked[match], ply);
    ++count;
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  // Acknowledgements already in the pipe count too.
  while (std::fscanf(acks, "%d %lld", &match, &ply) == 2) {
    acked[match] = std::max<int64_t>(acked[match], ply);
    ++count;
  }
  fclose(acks);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited " << WEXITSTATUS(status);
  ASSERT_GE(count, 300);

  auto store = Open();  // The lock died with the child.
  ASSERT_NE(store, nullptr);
  for (int i = 0; i < kMatches; ++i) {
    const std::string id = "m" + std::to_string(i);
    auto m = store->GetMatch(id);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_GE(m->ply, acked[i]) << id << ": acknowledged ply lost";
    auto moves = store->ListMoves(id, 1, 1'000'000);
    ASSERT_TRUE(moves.ok());
    ASSERT_EQ(static_cast<int64_t>(moves->size()), m->ply) << id;
    for (size_t k = 0; k < moves->size(); ++k) {
      EXPECT_EQ((*moves)[k].ply, static_cast<int64_t>(k + 1)) << id;
    }
  }
}

}  // namespace
}  // namespace mancala::storage
