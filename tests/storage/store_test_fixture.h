// A SqliteStore on a fresh database file in a temporary folder, and a sample
// match and moves (also used by the contract tests on both backends).

#ifndef MANCALA_TESTS_STORAGE_STORE_TEST_FIXTURE_H_
#define MANCALA_TESTS_STORAGE_STORE_TEST_FIXTURE_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "storage/sqlite_store.h"

namespace mancala::storage {

// A Kalah match between player p1 (seat 0) and a level-3 CPU that moves
// first, created at 1000 ms.
inline MatchRecord SampleMatch(const std::string& id = "m1") {
  MatchRecord m;
  m.id = id;
  m.game = "kalah";
  m.options = {{"seeds", "5"}, {"end_rule", "any_side_empty"}};
  m.seats = {{SeatRecord::Kind::kPlayer, "p1", 0},
             {SeatRecord::Kind::kCpu, "", 3}};
  m.first_seat = 1;
  m.created_by = "p1";
  m.created_at_ms = m.updated_at_ms = 1000;
  return m;
}

// Move `ply` of `match_id`, played at 1000 + ply ms, with binary events.
inline MoveRow SampleMove(int64_t ply, int seat, int pit,
                          const std::string& match_id = "m1") {
  MoveRow r;
  r.match_id = match_id;
  r.ply = ply;
  r.seat = seat;
  r.pit = pit;
  r.by_cpu = seat == 1;
  r.played_at_ms = 1000 + ply;
  r.events = std::string("ev\0") + std::to_string(ply);  // Binary-safe.
  return r;
}

class StoreFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("mancala_store_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "test.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<SqliteStore> Open(const SqliteStoreOptions& options = {}) {
    auto store = SqliteStore::Open(path_, options);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  static MatchRecord SampleMatch(const std::string& id = "m1") {
    return storage::SampleMatch(id);
  }
  static MoveRow Move(int64_t ply, int seat, int pit,
                      const std::string& match_id = "m1") {
    return SampleMove(ply, seat, pit, match_id);
  }

  // Polls `done` until it holds or `deadline` passes; returns whether it
  // held.
  static bool WaitFor(
      const std::function<bool()>& done,
      std::chrono::milliseconds deadline = std::chrono::seconds(10)) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (!done()) {
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }

  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace mancala::storage

#endif  // MANCALA_TESTS_STORAGE_STORE_TEST_FIXTURE_H_
