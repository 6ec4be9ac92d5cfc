// A fixture for tests of the match domain as one node or several: a fresh
// database on either backend (test_database.h), the edge's codec and
// fan-out the server would lend, players p1 and p2, and LiveMatches nodes
// made on any store over it (a forwarding one that counts or interleaves).
// A node "on a shared database" gets move notices that never come, so its
// reads catch up from the store as a PostgreSQL node's do.

#ifndef MANCALA_TESTS_SERVICES_MATCH_NODE_FIXTURE_H_
#define MANCALA_TESTS_SERVICES_MATCH_NODE_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "services/api/watch_stream.h"
#include "services/base/clock.h"
#include "services/match/live_matches.h"
#include "services/wire/stored_codec.h"
#include "storage/move_notices.h"
#include "storage/open_store.h"
#include "tests/support/test_database.h"

namespace mancala::services {

class NodeTest : public ::testing::Test {
 protected:
  // Notices that never come.
  class SilentNotices final : public storage::MoveNotices {
   public:
    void Publish(const std::string&, int64_t) override {}
    void Listen(OnNotice, OnResync) override {}
    void Stop() override {}
  };

  void SetUp() override {
    MANCALA_SKIP_WITHOUT_POSTGRES(testing::BackendFromEnvironment());
    auto db = testing::TestDatabase::ForCurrentTest();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    auto opened = storage::OpenStore(db_->url());
    ASSERT_TRUE(opened.ok()) << opened.status();
    store_ = std::move(opened->store);
    for (const char* id : {"p1", "p2"}) {
      storage::PlayerRecord p;
      p.id = id;
      p.display_name = id;
      p.token_hash = std::string("hash-") + id;
      ASSERT_TRUE(store_->CreatePlayer(p).ok());
    }
  }

  // A node on `store` (store_ or one forwarding to it), alone on the
  // database or sharing it with others.
  std::unique_ptr<LiveMatches> Node(storage::Store& store, bool shared) {
    auto node = std::make_unique<LiveMatches>(
        store, clock_, LiveMatchesOptions{}, codec_, fanout_);
    if (shared) node->ShareDatabase(std::make_unique<SilentNotices>(), nullptr);
    return node;
  }

  ManualClock clock_{1'700'000'000'000};
  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<storage::Store> store_;
  const StoredCodec codec_{};
  const WatchStreamFanOut fanout_{};
};

}  // namespace mancala::services

#endif  // MANCALA_TESTS_SERVICES_MATCH_NODE_FIXTURE_H_
