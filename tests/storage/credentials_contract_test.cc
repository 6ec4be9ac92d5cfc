// The credentials part of the Store contract (storage/store.h
// "Credentials") on both backends: a replaced token finds nobody, a ban and
// its lift change state once, each change is listed for the token caches
// and leaves its audit entry, and banned players are off the leaderboard
// with their ratings kept.

#include <gtest/gtest.h>

#include <algorithm>

#include "storage/open_store.h"
#include "tests/storage/store_test_fixture.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

using ::mancala::testing::Backend;

class CredentialsContract : public testing::BackendTest {
 protected:
  void SetUp() override {
    testing::BackendTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    StoreOptions options;
    options.pool_size = 2;
    auto opened = OpenStore(db_->url(), options);
    ASSERT_TRUE(opened.ok()) << opened.status();
    store_ = std::move(opened->store);
    for (const char* id : {"ada", "bob"}) {
      ASSERT_TRUE(
          store_->CreatePlayer({id, id, false, std::string("h-") + id, 1000})
              .ok());
    }
  }

  static AuditRecord Audit(const char* action, const char* target) {
    return {0, 5000, "ops", action, target, "cheating"};
  }

  std::vector<std::string> ChangedSince(int64_t since_ms) {
    auto changes = store_->ListCredentialChanges(since_ms);
    EXPECT_TRUE(changes.ok()) << changes.status();
    if (!changes.ok()) return {};
    std::vector<std::string> ids = changes->player_ids;
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  std::unique_ptr<Store> store_;
};

TEST_P(CredentialsContract, AReplacedTokenFindsNobodyAndIsListedAsChanged) {
  auto before = store_->ListCredentialChanges(0);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_TRUE(before->player_ids.empty());
  EXPECT_GT(before->as_of_ms, 1'600'000'000'000);  // A clock, in ms.

  ASSERT_TRUE(store_->ReplaceTokenHash("ada", "h-ada-2", {}).ok());
  EXPECT_TRUE(
      absl::IsNotFound(store_->FindPlayerByTokenHash("h-ada").status()));
  auto found = store_->FindPlayerByTokenHash("h-ada-2");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->id, "ada");
  EXPECT_EQ(ChangedSince(before->as_of_ms - 1000),
            std::vector<std::string>{"ada"});
  // Nothing changed after a later clock reading.
  auto after = store_->ListCredentialChanges(0);
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(ChangedSince(after->as_of_ms + 60'000).empty());
  // A player's own replacement leaves no audit entry; an operator's does.
  EXPECT_TRUE(store_->ListAuditLog(INT64_MAX, 10)->empty());
  ASSERT_TRUE(store_
                  ->ReplaceTokenHash("bob", "h-bob-2",
                                     Audit("revoke_tokens", "players/bob"))
                  .ok());
  auto log = store_->ListAuditLog(INT64_MAX, 10);
  ASSERT_EQ(log->size(), 1u);
  EXPECT_EQ((*log)[0].action, "revoke_tokens");
  EXPECT_EQ((*log)[0].target, "players/bob");
  EXPECT_EQ((*log)[0].actor, "ops");
  EXPECT_EQ((*log)[0].reason, "cheating");
  EXPECT_EQ(ChangedSince(before->as_of_ms - 1000),
            (std::vector<std::string>{"ada", "bob"}));

  EXPECT_TRUE(absl::IsNotFound(store_->ReplaceTokenHash("nobody", "x", {})));
  // Token hashes stay unique.
  EXPECT_TRUE(
      absl::IsAlreadyExists(store_->ReplaceTokenHash("ada", "h-bob-2", {})));
}

TEST_P(CredentialsContract, ABanAndItsLiftEachChangeStateOnce) {
  ASSERT_TRUE(
      store_->SetBan("bob", 4242, Audit("ban_player", "players/bob")).ok());
  EXPECT_EQ(store_->GetPlayer("bob")->banned_at_ms, 4242);
  EXPECT_EQ(store_->FindPlayerByTokenHash("h-bob")->banned_at_ms, 4242);
  EXPECT_EQ(store_->GetPlayer("ada")->banned_at_ms, 0);
  EXPECT_TRUE(absl::IsFailedPrecondition(
      store_->SetBan("bob", 5000, Audit("ban_player", "players/bob"))));
  EXPECT_EQ(store_->GetPlayer("bob")->banned_at_ms, 4242);
  EXPECT_TRUE(absl::IsFailedPrecondition(
      store_->SetBan("ada", 0, Audit("unban_player", "players/ada"))));
  EXPECT_TRUE(absl::IsNotFound(
      store_->SetBan("nobody", 1, Audit("ban_player", "players/nobody"))));
  ASSERT_TRUE(
      store_->SetBan("bob", 0, Audit("unban_player", "players/bob")).ok());
  EXPECT_EQ(store_->GetPlayer("bob")->banned_at_ms, 0);
  // Two entries: the refused calls wrote none.
  auto log = store_->ListAuditLog(INT64_MAX, 10);
  ASSERT_EQ(log->size(), 2u);
  EXPECT_EQ((*log)[0].action, "unban_player");
  EXPECT_EQ((*log)[1].action, "ban_player");
  EXPECT_EQ(ChangedSince(0), std::vector<std::string>{"bob"});
}

TEST_P(CredentialsContract, BannedPlayersAreOffTheLeaderboardTheirRatingsKept) {
  ASSERT_TRUE(store_->CreateMatch(SampleMatch("m1")).ok());
  MatchUpdate end;
  end.status = MatchStatus::kFinished;
  end.ended_at_ms = 2000;
  const double ratings[] = {1600, 1400};
  const char* players[] = {"ada", "bob"};
  for (int i = 0; i < 2; ++i) {
    RatingChange c;
    c.match_id = "m1";
    c.player_id = players[i];
    c.game = "kalah";
    c.seat = i;
    c.after = {ratings[i], 200, 0.06};
    end.rating_changes.push_back(c);
    end.new_ratings.push_back({players[i], "kalah", c.after, 1, 2000});
  }
  ASSERT_TRUE(store_->AppendMove(SampleMove(1, 0, 1, "m1"), end).ok());
  auto board = [&] {
    std::vector<std::string> ids;
    auto rows = store_->ListLeaderboard("kalah", 1e9, std::nullopt, 10);
    EXPECT_TRUE(rows.ok()) << rows.status();
    if (!rows.ok()) return ids;
    for (const RatingRecord& r : *rows) ids.push_back(r.player_id);
    return ids;
  };
  EXPECT_EQ(board(), (std::vector<std::string>{"ada", "bob"}));
  ASSERT_TRUE(store_->SetBan("ada", 3000, {}).ok());
  EXPECT_EQ(board(), std::vector<std::string>{"bob"});
  // Paging past the banned player's place still works.
  auto after =
      store_->ListLeaderboard("kalah", 1e9, std::make_pair(1600.0, "ada"), 10);
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ((*after)[0].player_id, "bob");
  // The rating and its change stay.
  EXPECT_EQ(store_->GetRatings("kalah", {"ada"})->size(), 1u);
  EXPECT_EQ(store_->ListMatchRatingChanges("m1")->size(), 2u);
  ASSERT_TRUE(store_->SetBan("ada", 0, {}).ok());
  EXPECT_EQ(board(), (std::vector<std::string>{"ada", "bob"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, CredentialsContract,
                         ::testing::Values(Backend::kSqlite,
                                           Backend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace mancala::storage
