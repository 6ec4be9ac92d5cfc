// Authenticator: a token is looked up in the store once, then answered
// from memory; unknown and malformed tokens keep failing.

#include "services/auth.h"

#include <grpcpp/test/server_context_test_spouse.h>
#include <gtest/gtest.h>

#include "services/errors.h"
#include "storage/sqlite_store.h"

namespace mancala::storage {
namespace {

// A Store that counts token look-ups and forwards everything.
class CountingStore final : public Store {
 public:
  explicit CountingStore(Store& inner) : inner_(inner) {}
  int token_lookups = 0;

  absl::Status CreatePlayer(const PlayerRecord& player) override {
    return inner_.CreatePlayer(player);
  }

  absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) override {
    return inner_.GetPlayer(id);
  }

  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override {
    ++token_lookups;
    return inner_.FindPlayerByTokenHash(token_hash);
  }

  absl::Status CreateMatch(const MatchRecord& match) override {
    return inner_.CreateMatch(match);
  }

  absl::Status UpdateMatch(const MatchRecord& match) override {
    return inner_.UpdateMatch(match);
  }

  absl::StatusOr<std::string> FindMatchByInviteCode(
      const std::string& code) override {
    return inner_.FindMatchByInviteCode(code);
  }

  absl::StatusOr<MatchRecord> GetMatch(const std::string& id) override {
    return inner_.GetMatch(id);
  }

  absl::StatusOr<MatchRecord> FindMatchByRequestId(
      const std::string& creator_id, const std::string& request_id) override {
    return inner_.FindMatchByRequestId(creator_id, request_id);
  }

  absl::StatusOr<int> CountWaitingMatches(
      const std::string& creator_id) override {
    return inner_.CountWaitingMatches(creator_id);
  }

  absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) override {
    return inner_.ListMatchIds(status);
  }

  absl::Status AppendMove(const MoveRow& move,
                          const MatchUpdate& update) override {
    return inner_.AppendMove(move, update);
  }

  absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) override {
    return inner_.FindMoveByRequestId(match_id, request_id);
  }

  absl::StatusOr<std::vector<MoveRow>> ListMoves(const std::string& match_id,
                                                 int64_t from_ply,
                                                 int limit) override {
    return inner_.ListMoves(match_id, from_ply, limit);
  }

  absl::StatusOr<std::vector<MatchRecord>> ListMatches(
      const MatchFilter& filter, const std::optional<Cursor>& after,
      int limit) override {
    return inner_.ListMatches(filter, after, limit);
  }

  absl::StatusOr<std::vector<RatingRecord>> GetRatings(
      const std::string& game,
      const std::vector<std::string>& player_ids) override {
    return inner_.GetRatings(game, player_ids);
  }

  absl::StatusOr<std::vector<RatingRecord>> ListLeaderboard(
      const std::string& game, double max_rd,
      const std::optional<std::pair<double, std::string>>& after,
      int limit) override {
    return inner_.ListLeaderboard(game, max_rd, after, limit);
  }

  absl::StatusOr<std::vector<RatingChange>> ListRatingChanges(
      const std::string& player_id, const std::string& game,
      const std::optional<Cursor>& after, int limit) override {
    return inner_.ListRatingChanges(player_id, game, after, limit);
  }

  absl::StatusOr<std::vector<RatingChange>> ListGameRatingChanges(
      const std::string& game) override {
    return inner_.ListGameRatingChanges(game);
  }

  absl::StatusOr<std::vector<RatingChange>> ListMatchRatingChanges(
      const std::string& match_id) override {
    return inner_.ListMatchRatingChanges(match_id);
  }

  absl::Status VoidMatch(const std::string& match_id, const std::string& reason,
                         const std::string& game,
                         const std::vector<RatingChange>& changes,
                         const std::vector<RatingRecord>& ratings,
                         const AuditRecord& audit) override {
    return inner_.VoidMatch(match_id, reason, game, changes, ratings, audit);
  }

  absl::StatusOr<std::vector<AuditRecord>> ListAuditLog(int64_t before_id,
                                                        int limit) override {
    return inner_.ListAuditLog(before_id, limit);
  }

 private:
  Store& inner_;
};

}  // namespace
}  // namespace mancala::storage

namespace mancala::services {
namespace {

using storage::CountingStore;

class AuthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = storage::SqliteStore::Open(":memory:");
    ASSERT_TRUE(opened.ok());
    sqlite_ = *std::move(opened);
    store_ = std::make_unique<CountingStore>(*sqlite_);
    storage::PlayerRecord ada;
    ada.id = "ada";
    ada.display_name = "Ada";
    ada.token_hash = HashToken(kToken);
    ASSERT_TRUE(sqlite_->CreatePlayer(ada).ok());
  }
  grpc::Status Call(const std::string& authorization,
                    storage::PlayerRecord* player) {
    grpc::ServerContext ctx;
    grpc::testing::ServerContextTestSpouse spouse(&ctx);
    spouse.AddClientMetadata("authorization", authorization);
    return auth_->Authenticate(ctx, player);
  }
  static constexpr char kToken[] = "0123456789abcdef";
  std::unique_ptr<storage::SqliteStore> sqlite_;
  std::unique_ptr<CountingStore> store_;
  std::unique_ptr<Authenticator> auth_;  // Made by each test.
};

TEST_F(AuthTest, KnownTokenReadsTheStoreOnceThenMemory) {
  auth_ = std::make_unique<Authenticator>(*store_);
  for (int i = 0; i < 3; ++i) {
    storage::PlayerRecord who;
    ASSERT_TRUE(Call(std::string("Bearer ") + kToken, &who).ok());
    EXPECT_EQ(who.id, "ada");
    EXPECT_EQ(who.display_name, "Ada");
  }
  EXPECT_EQ(store_->token_lookups, 1);
}

TEST_F(AuthTest, UnknownTokenFailsEveryTimeAndIsNotRemembered) {
  auth_ = std::make_unique<Authenticator>(*store_);
  for (int i = 0; i < 2; ++i) {
    storage::PlayerRecord who;
    grpc::Status s = Call("Bearer not-a-token", &who);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(ErrorReason(s), "UNKNOWN_TOKEN");
  }
  EXPECT_EQ(store_->token_lookups, 2);
  // A known token next to it still works.
  storage::PlayerRecord who;
  EXPECT_TRUE(Call(std::string("Bearer ") + kToken, &who).ok());
}

TEST_F(AuthTest, MalformedAuthorizationNeverReachesTheStore) {
  auth_ = std::make_unique<Authenticator>(*store_);
  for (const char* bad : {"Bearer ", "Basic abc", kToken}) {
    storage::PlayerRecord who;
    grpc::Status s = Call(bad, &who);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << bad;
    EXPECT_EQ(ErrorReason(s), "MALFORMED_TOKEN") << bad;
  }
  EXPECT_EQ(store_->token_lookups, 0);
}

}  // namespace
}  // namespace mancala::services
