// Authenticator: a token is looked up in the store once, then answered
// from memory; unknown and malformed tokens keep failing; Forget() makes
// the next call read a replaced token or a ban, and a read that raced a
// Forget() is not remembered.

#include "services/api/auth.h"

#include <grpcpp/test/server_context_test_spouse.h>
#include <gtest/gtest.h>

#include <functional>
#include <utility>

#include "services/wire/errors.h"
#include "storage/sqlite_store.h"
#include "tests/support/forwarding_store.h"

namespace mancala::storage {
namespace {

// A Store that counts token look-ups and forwards everything.
class CountingStore final : public ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  int token_lookups = 0;
  // Runs inside the next look-up, after the store answered (a change
  // committed while the look-up's answer was on its way).
  std::function<void()> after_next_lookup;

  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override {
    ++token_lookups;
    auto found = ForwardingStore::FindPlayerByTokenHash(token_hash);
    if (after_next_lookup) std::exchange(after_next_lookup, nullptr)();
    return found;
  }
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

TEST_F(AuthTest, AForgottenPlayerIsReadAgainReplacedTokenAndBan) {
  auth_ = std::make_unique<Authenticator>(*store_);
  const std::string old_token = std::string("Bearer ") + kToken;
  storage::PlayerRecord who;
  ASSERT_TRUE(Call(old_token, &who).ok());
  ASSERT_TRUE(
      sqlite_->ReplaceTokenHash("ada", HashToken("new-token"), {}).ok());
  // Not told: memory still answers (the CredentialWatch or the service
  // that changed it tells it).
  EXPECT_TRUE(Call(old_token, &who).ok());
  auth_->Forget("ada");
  grpc::Status s = Call(old_token, &who);
  EXPECT_EQ(ErrorReason(s), "UNKNOWN_TOKEN");
  ASSERT_TRUE(Call("Bearer new-token", &who).ok());
  EXPECT_EQ(who.id, "ada");

  ASSERT_TRUE(sqlite_->SetBan("ada", 777, {}).ok());
  auth_->Forget("ada");
  const int lookups = store_->token_lookups;
  for (int i = 0; i < 2; ++i) {
    s = Call("Bearer new-token", &who);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_EQ(ErrorReason(s), "PLAYER_BANNED");
  }
  // The ban is remembered too: one read for both calls.
  EXPECT_EQ(store_->token_lookups, lookups + 1);
  ASSERT_TRUE(sqlite_->SetBan("ada", 0, {}).ok());
  auth_->Forget("ada");
  EXPECT_TRUE(Call("Bearer new-token", &who).ok());
}

TEST_F(AuthTest, ALookUpThatRacedAForgetIsNotRemembered) {
  auth_ = std::make_unique<Authenticator>(*store_);
  const std::string token = std::string("Bearer ") + kToken;
  // The look-up reads Ada unbanned; the ban commits and is forgotten
  // before the look-up's answer is remembered.
  store_->after_next_lookup = [&] {
    ASSERT_TRUE(sqlite_->SetBan("ada", 777, {}).ok());
    auth_->Forget("ada");
  };
  storage::PlayerRecord who;
  EXPECT_TRUE(Call(token, &who).ok());  // What it read: not banned yet.
  grpc::Status s = Call(token, &who);   // Read again, not from memory.
  EXPECT_EQ(ErrorReason(s), "PLAYER_BANNED");
  EXPECT_EQ(store_->token_lookups, 2);
}

}  // namespace
}  // namespace mancala::services
