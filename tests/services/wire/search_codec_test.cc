// What a search stores in the matchmaking queue (services/wire/search_codec.h):
// every node reads what any node wrote, builds before this one included,
// so the encodings are pinned here byte for byte.

#include "services/wire/search_codec.h"

#include <gtest/gtest.h>

namespace mancala::services {
namespace {

QueueView RankedKalah() {
  QueueView q;
  q.game = "kalah";
  q.options = {{"seeds", "5"}};
  q.seats = 2;
  q.ranked = true;
  q.turn_limit_s = 30;
  return q;
}

// As the builds before the matchmaker spoke plain values wrote it (a
// mancala.v1.QueueStats.Queue as JSON, defaults left out). One option
// only: protobuf writes a map's entries in no fixed order.
constexpr char kStoredRankedKalah[] =
    R"({"game":"KALAH","options":{"seeds":"5"},"players":2,"ranked":true,)"
    R"("turnTimeLimitSeconds":30})";

TEST(SearchCodec, QueueInfoIsTheListedQueueAsJsonWithoutItsCount) {
  QueueView q = RankedKalah();
  q.searching = 7;  // Never stored: counts are the queue's.
  EXPECT_EQ(EncodeQueueInfo(q), kStoredRankedKalah);
  QueueView casual;
  casual.game = "mancala_basic";
  casual.seats = 4;
  EXPECT_EQ(EncodeQueueInfo(casual), R"({"game":"MANCALA_BASIC","players":4})");
}

TEST(SearchCodec, StoredQueueInfoReadsBack) {
  std::optional<QueueView> q = DecodeQueueInfo(kStoredRankedKalah);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->game, "kalah");
  EXPECT_EQ(q->options, RankedKalah().options);
  EXPECT_EQ(q->seats, 2);
  EXPECT_TRUE(q->ranked);
  EXPECT_EQ(q->turn_limit_s, 30);
  EXPECT_EQ(q->searching, 0);
  // Every option, in whatever order the entries were written.
  QueueView many = RankedKalah();
  many.options = {{"seeds", "5"}, {"empty_capture", "on"}, {"x", "y"}};
  std::optional<QueueView> back = DecodeQueueInfo(EncodeQueueInfo(many));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->options, many.options);
  std::optional<QueueView> reordered =
      DecodeQueueInfo(R"({"game":"KALAH","options":{"b":"2","a":"1"}})");
  ASSERT_TRUE(reordered.has_value());
  EXPECT_EQ(reordered->options, (engine::OptionMap{{"a", "1"}, {"b", "2"}}));
}

// A newer build's queue (a game or a field this build does not know) is
// left out of this build's listing, never listed as something else.
TEST(SearchCodec, QueueInfoThisBuildCannotReadIsNone) {
  EXPECT_FALSE(DecodeQueueInfo(R"({"game":"BAO","players":2})").has_value());
  EXPECT_FALSE(
      DecodeQueueInfo(R"({"game":"KALAH","players":2,"stakes":"high"})")
          .has_value());
  EXPECT_FALSE(DecodeQueueInfo(R"({"players":2})").has_value());
  EXPECT_FALSE(DecodeQueueInfo("not json").has_value());
}

TEST(SearchCodec, TheMatchIsStoredByItsResourceName) {
  EXPECT_EQ(EncodeSearchMatch("0a1b"), "matches/0a1b");
  EXPECT_EQ(DecodeSearchMatch("matches/0a1b"), "0a1b");
  EXPECT_FALSE(DecodeSearchMatch("0a1b").has_value());
  EXPECT_FALSE(DecodeSearchMatch("matches/").has_value());
  EXPECT_FALSE(DecodeSearchMatch("players/0a1b").has_value());
}

}  // namespace
}  // namespace mancala::services
