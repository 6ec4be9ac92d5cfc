// Replies that grow with stored data stay under gRPC's 4 MiB limit: the
// largest case is the largest page (page_size 1000) of the largest moves.

#include "services/api/reply_budget.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/rules.h"
#include "engine/state.h"
#include "mancala/v1/admin_service.pb.h"
#include "services/wire/convert.h"

namespace mancala {
namespace {

constexpr size_t kGrpcLimit = 4 << 20;

// The largest move (with its events) of seeded random Congkak 9x9 games:
// long relay sowings make the most events.
v1::Move LargestCongkakMove() {
  auto rules = std::get<engine::Rules>(
      engine::ParseRules("congkak", {{"houses", "9"}, {"seeds", "9"}}, 2));
  v1::Move largest;
  for (int seed = 0; seed < 400; ++seed) {
    std::mt19937_64 rng(seed);
    engine::State s(rules, 0);
    while (!s.is_over()) {
      const std::vector<int> legal = s.LegalMoves();
      engine::MoveRecord record;
      s.Apply(legal[rng() % legal.size()], &record);
      v1::Move move;
      for (const engine::Event& e : record.events) {
        services::ToProto(e, move.add_events());
      }
      if (move.ByteSizeLong() > largest.ByteSizeLong()) largest = move;
    }
  }
  return largest;
}

TEST(ReplyBudget, TheLargestPageOfTheLargestMovesFitsInOneReply) {
  const v1::Move move = LargestCongkakMove();
  ASSERT_GT(move.ByteSizeLong(), 2000u);  // "About 2 KB" and more.
  // 2,000 plies of such moves: 1000 (the largest page_size) unbounded would
  // not fit in a reply.
  std::vector<v1::Move> moves(2000, move);
  for (size_t i = 0; i < moves.size(); ++i) moves[i].set_ply(i + 1);
  ASSERT_GT(move.ByteSizeLong() * 1000, kGrpcLimit);
  size_t next = 0;
  int pages = 0;
  while (next < moves.size()) {
    std::vector<v1::Move> rest(
        moves.begin() + next,
        moves.begin() + std::min(moves.size(), next + size_t{1000}));
    const size_t taken = services::ItemsWithinBudget(rest);
    ASSERT_GE(taken, 1u);
    v1::MatchHistory reply;
    for (size_t i = 0; i < taken; ++i) *reply.add_moves() = rest[i];
    EXPECT_LE(reply.ByteSizeLong(),
              services::kMaxPageBytes + move.ByteSizeLong() + 16);
    EXPECT_LT(reply.ByteSizeLong(), kGrpcLimit);
    EXPECT_EQ(reply.moves(0).ply(), static_cast<int64_t>(next + 1));
    next += taken;
    ++pages;
  }
  EXPECT_EQ(next, moves.size());  // Every move, none twice.
  EXPECT_GT(pages, 2);
}

TEST(ReplyBudget, AnItemLargerThanTheBudgetStillGoesOut) {
  v1::Move big;
  big.add_events()->set_count(1);
  const std::vector<v1::Move> one(3, big);
  EXPECT_EQ(services::ItemsWithinBudget(one, /*budget=*/1), 1u);
  EXPECT_EQ(services::ItemsWithinBudget(one, /*budget=*/1000), 3u);
}

}  // namespace
}  // namespace mancala
