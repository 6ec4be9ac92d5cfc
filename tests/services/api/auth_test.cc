// Authenticator: a token is looked up in the store once, then answered
// from memory; unknown and malformed tokens keep failing.

#include "services/api/auth.h"

#include <grpcpp/test/server_context_test_spouse.h>
#include <gtest/gtest.h>

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

  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override {
    ++token_lookups;
    return ForwardingStore::FindPlayerByTokenHash(token_hash);
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

}  // namespace
}  // namespace mancala::services
