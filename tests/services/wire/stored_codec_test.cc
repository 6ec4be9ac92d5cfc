// The stored encoding of a move's events (services/wire/stored_codec.h):
// decoded once into the engine's events, and a move converted from those
// is the same Move as one parsed from the stored bytes.

#include "services/wire/stored_codec.h"

#include <gtest/gtest.h>

#include <random>
#include <variant>

#include "engine/rules.h"
#include "google/protobuf/util/message_differencer.h"
#include "services/model/domain_error.h"
#include "services/wire/convert.h"

namespace mancala::services {
namespace {

using engine::EventType;
using engine::Place;

engine::Rules RulesOf(const std::string& game) {
  return std::get<engine::Rules>(engine::ParseRules(game, {}, 2));
}

storage::MoveRow RowOf(const StoredCodec& codec,
                       const engine::MoveRecord& record, int64_t ply) {
  storage::MoveRow row;
  row.match_id = "m1";
  row.ply = ply;
  row.seat = record.player;
  row.pit = record.pit;
  row.events = codec.EncodeEvents(record.events);
  return row;
}

TEST(StoredCodecTest, AKalahMoveDecodesToTheEnginesEvents) {
  StoredCodec codec;
  engine::State state(RulesOf("kalah"), 0);
  engine::MoveRecord record;
  ASSERT_FALSE(state.Apply(2, &record).has_value());
  std::vector<engine::Event> decoded;
  ASSERT_TRUE(codec.DecodeEvents(RowOf(codec, record, 1), &decoded).ok());
  // Pit 2's 4 seeds: pits 3, 4, 5, then the store, and an extra turn (K.4).
  ASSERT_EQ(decoded.size(), 6u);
  EXPECT_EQ(decoded[0].type, EventType::kPickUp);
  EXPECT_EQ(decoded[0].place, (Place{0, 2}));
  EXPECT_EQ(decoded[0].count, 4);
  EXPECT_EQ(decoded[3].place, (Place{0, 5}));
  EXPECT_EQ(decoded[4].type, EventType::kDrop);
  EXPECT_EQ(decoded[4].place, (Place{0, Place::kStore}));
  EXPECT_EQ(decoded[5].type, EventType::kExtraTurn);
  EXPECT_EQ(decoded[5].player, 0);
  EXPECT_EQ(decoded, record.events);
}

// Every event type of whole games (captures, relays, sweeps, the end, a
// resignation) comes back as it was, and the Move built from the engine's
// events is the one the stored bytes give.
TEST(StoredCodecTest, WholeGamesRoundTripAndBuildTheSameMove) {
  StoredCodec codec;
  for (const char* game : {"kalah", "oware", "congkak", "mancala_basic"}) {
    std::mt19937_64 rng(7);
    engine::State state(RulesOf(game), 0);
    int64_t ply = 0;
    while (!state.is_over()) {
      engine::MoveRecord record;
      if (ply == 60) {
        ASSERT_FALSE(state.Resign(state.to_move(), &record).has_value());
      } else {
        const std::vector<int> legal = state.LegalMoves();
        ASSERT_FALSE(
            state.Apply(legal[rng() % legal.size()], &record).has_value());
      }
      const storage::MoveRow row = RowOf(codec, record, ++ply);
      auto decoded = std::make_shared<std::vector<engine::Event>>();
      ASSERT_TRUE(codec.DecodeEvents(row, decoded.get()).ok());
      ASSERT_EQ(*decoded, record.events) << game << " ply " << ply;
      v1::Move from_bytes, from_events;
      ASSERT_TRUE(ToProto(MoveOf(row), &from_bytes).ok());
      ASSERT_TRUE(ToProto(MoveOf(row, decoded), &from_events).ok());
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
          from_bytes, from_events))
          << game << " ply " << ply;
    }
  }
}

TEST(StoredCodecTest, AnEventTypeThisBuildDoesNotKnowIsBadStoredData) {
  StoredCodec codec;
  v1::Move move;
  move.add_events()->set_type(static_cast<v1::MoveEvent::Type>(42));
  storage::MoveRow row;
  row.match_id = "m1";
  row.ply = 3;
  row.events = move.SerializeAsString();
  std::vector<engine::Event> decoded;
  absl::Status s = codec.DecodeEvents(row, &decoded);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(DetailOf(s).reason, "BAD_STORED_DATA");
  EXPECT_NE(s.message().find("unknown event type 42"), std::string::npos)
      << s.message();
}

TEST(StoredCodecTest, UnreadableEventsAreBadStoredData) {
  StoredCodec codec;
  storage::MoveRow row;
  row.match_id = "m1";
  row.ply = 3;
  row.events = "\xff\xff\xff";
  std::vector<engine::Event> decoded;
  absl::Status s = codec.DecodeEvents(row, &decoded);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("events unreadable"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace mancala::services
