// Stored values the service cannot read back (a match status, seat kind,
// game or CPU reason outside its enum) reach the client as DATA_LOSS
// (reason BAD_STORED_DATA), never as a silent default. The bad values are
// written into the SQLite file while the server is stopped.

#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using services::ErrorReason;

class StoredDataTest : public ServiceTest {
 protected:
  void SetUp() override {
    cpu_threads_ = 0;  // Only people move here.
    ServiceTest::SetUp();
  }

  // A match of `me` with one OPEN seat, cancelled at once: ended, so a
  // restarted server loads it only when asked for it.
  v1::Match CancelledMatch(const TestPlayer& me) {
    v1::Match m = WithOpenSeat(me);
    v1::CancelMatchRequest cancel;
    cancel.set_name(m.name());
    auto ctx = Ctx(me.token);
    EXPECT_TRUE(matches_->CancelMatch(ctx.get(), cancel, &m).ok());
    EXPECT_EQ(m.state(), v1::Match::CANCELLED);
    return m;
  }

  // Stops the server, runs `sql` with `?` bound to the id of `match` on its
  // file, and starts it again on the same file.
  void Corrupt(const std::string& sql, const v1::Match& match) {
    server_.reset();
    // Ids are hex (resource_names.h), safe to quote as they are.
    std::string statement = sql;
    statement.replace(
        statement.find('?'), 1,
        "'" + match.name().substr(std::string("matches/").size()) + "'");
    ASSERT_TRUE(db_->Exec(statement).ok()) << statement;
    StartServer();
  }

  void ExpectDataLoss(const grpc::Status& s, const std::string& detail) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS)
        << s.error_code() << " " << s.error_message();
    EXPECT_EQ(ErrorReason(s), "BAD_STORED_DATA");
    EXPECT_NE(s.error_message().find(detail), std::string::npos)
        << s.error_message();
  }

  grpc::Status GetStatus(const std::string& match) {
    v1::GetMatchRequest req;
    req.set_name(match);
    v1::Match out;
    auto ctx = Ctx();
    return matches_->GetMatch(ctx.get(), req, &out);
  }
};

TEST_F(StoredDataTest, UnknownMatchStatusIsDataLoss) {
  TestPlayer me = NewPlayer();
  v1::Match m = CancelledMatch(me);
  Corrupt("UPDATE matches SET status = 'paused' WHERE id = ?", m);
  ExpectDataLoss(GetStatus(m.name()), "unknown match status \"paused\"");
  // The admin listing reads the same row.
  v1::ListMatchesRequest req;
  v1::ListMatchesResponse resp;
  auto ctx = Ctx(kAdminToken);
  ExpectDataLoss(admin_->ListMatches(ctx.get(), req, &resp), "paused");
}

TEST_F(StoredDataTest, UnknownSeatKindIsDataLoss) {
  TestPlayer me = NewPlayer();
  v1::Match m = CancelledMatch(me);
  Corrupt("UPDATE seats SET kind = 'robot' WHERE match_id = ? AND seat = 1", m);
  ExpectDataLoss(GetStatus(m.name()), "unknown seat kind \"robot\"");
}

TEST_F(StoredDataTest, UnknownGameIsDataLoss) {
  TestPlayer me = NewPlayer();
  v1::Match m = CancelledMatch(me);
  Corrupt("UPDATE matches SET game = 'chess' WHERE id = ?", m);
  ExpectDataLoss(GetStatus(m.name()), "unknown game \"chess\"");
}

TEST_F(StoredDataTest, UnknownCpuReasonOfAStoredMoveIsDataLoss) {
  TestPlayer a = NewPlayer(), b = NewPlayer();
  v1::Match m = TwoPlayers(a, b);
  v1::SubmitMoveResponse moved;
  ASSERT_TRUE(Move(a, m.name(), 0, &moved).ok());
  Corrupt("UPDATE moves SET cpu_reason = 99 WHERE match_id = ? AND ply = 1", m);
  v1::ListMovesRequest list;
  list.set_parent(m.name());
  v1::ListMovesResponse moves;
  auto ctx2 = Ctx();
  ExpectDataLoss(matches_->ListMoves(ctx2.get(), list, &moves),
                 "unknown CPU reason 99");
}

// VerifyMatch compares the stored result with a replay of the moves (the
// match domain reports, the edge builds the response).
TEST_F(StoredDataTest, VerifyFindsAStoredResultThatDiffersFromTheReplay) {
  TestPlayer a = NewPlayer(), b = NewPlayer();
  v1::Match m = TwoPlayers(a, b);
  v1::ResignRequest resign;
  resign.set_name(m.name());
  v1::Match ended;
  auto ctx = Ctx(a.token);
  ASSERT_TRUE(matches_->Resign(ctx.get(), resign, &ended).ok());
  ASSERT_EQ(ended.state(), v1::Match::FINISHED);
  Corrupt("UPDATE matches SET result = '' WHERE id = ?", m);
  v1::VerifyMatchRequest v;
  v.set_name(m.name());
  v1::VerifyMatchResponse vr;
  auto admin = Ctx(kAdminToken);
  ASSERT_TRUE(admin_->VerifyMatch(admin.get(), v, &vr).ok());
  EXPECT_FALSE(vr.consistent());
  EXPECT_EQ(vr.detail(), "stored result differs from the replayed one");
  EXPECT_FALSE(vr.has_stored_result());
  EXPECT_EQ(vr.replayed_result().end_reason(), v1::RESIGNATION);
  EXPECT_EQ(vr.replayed_result().winner(), 1);  // Seat 0 resigned.
}

}  // namespace
}  // namespace mancala::testing
