// PlayerService over a real channel.

#include "services/api/auth.h"
#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using PlayerServiceTest = ServiceTest;

TEST_F(PlayerServiceTest, GuestGetsGeneratedNameAndAToken) {
  v1::CreatePlayerRequest req;
  v1::CreatePlayerResponse resp;
  auto ctx = Ctx();
  ASSERT_TRUE(players_->CreatePlayer(ctx.get(), req, &resp).ok());
  EXPECT_TRUE(resp.player().guest());
  EXPECT_EQ(resp.player().display_name().rfind("Guest-", 0), 0u);
  EXPECT_EQ(resp.player().name().rfind("players/", 0), 0u);
  EXPECT_EQ(resp.token().size(), 64u);
  EXPECT_EQ(resp.player().create_time().seconds(), 1'800'000'000);
}

TEST_F(PlayerServiceTest, NamedPlayerIsFoundByGetPlayer) {
  TestPlayer ada = NewPlayer("Ada");
  v1::GetPlayerRequest req;
  req.set_name(ada.name);
  v1::Player got;
  auto ctx = Ctx();
  ASSERT_TRUE(players_->GetPlayer(ctx.get(), req, &got).ok());
  EXPECT_EQ(got.display_name(), "Ada");
  EXPECT_FALSE(got.guest());
}

TEST_F(PlayerServiceTest, TokensDifferAndOnlyTheirHashIsKept) {
  TestPlayer a = NewPlayer("A");
  TestPlayer b = NewPlayer("B");
  EXPECT_NE(a.token, b.token);
  EXPECT_EQ(services::HashToken("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(PlayerServiceTest, BadDisplayNamesAreInvalidArgument) {
  // 41 characters (82 bytes) is too long; 40 (80 bytes) is fine.
  const std::pair<std::string, std::string> cases[] = {
      {"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
       "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
       "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
       "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
       "\u00e9",
       "FIELD_TOO_LONG"},
      {"tab\there", "INVALID_DISPLAY_NAME"},
      {" \u3000 ", "INVALID_DISPLAY_NAME"}};
  for (const auto& [name, reason] : cases) {
    v1::CreatePlayerRequest req;
    req.set_display_name(name);
    v1::CreatePlayerResponse resp;
    auto ctx = Ctx();
    grpc::Status s = players_->CreatePlayer(ctx.get(), req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    EXPECT_EQ(services::ErrorReason(s), reason) << name;
  }
  v1::CreatePlayerRequest req;
  req.set_display_name(cases[0].first.substr(2));  // 40 characters.
  v1::CreatePlayerResponse resp;
  auto ctx = Ctx();
  ASSERT_TRUE(players_->CreatePlayer(ctx.get(), req, &resp).ok());
  EXPECT_EQ(resp.player().display_name(), req.display_name());
}

TEST_F(PlayerServiceTest, UnknownAndMalformedPlayerNames) {
  v1::GetPlayerRequest req;
  v1::Player got;
  req.set_name("players/nope");
  auto ctx = Ctx();
  EXPECT_EQ(players_->GetPlayer(ctx.get(), req, &got).error_code(),
            grpc::StatusCode::NOT_FOUND);
  req.set_name("nope");
  auto ctx2 = Ctx();
  EXPECT_EQ(players_->GetPlayer(ctx2.get(), req, &got).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace mancala::testing
