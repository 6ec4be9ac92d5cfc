// The gRPC edge: requests a client controls never reach the one catch
// (services/api/rpc_guard.h), which answers INTERNAL; page tokens survive any
// filter; timestamps are range-checked; shutdown ends streams cleanly.

#include <google/protobuf/util/time_util.h>

#include <set>
#include <stdexcept>

#include "services/api/rpc_guard.h"
#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using google::protobuf::util::TimeUtil;

class EdgeTest : public ServiceTest {
 protected:
  void NewMatches(const TestPlayer& p, int n) {
    for (int i = 0; i < n; ++i) {
      clock_.AdvanceMs(1000);
      v1::Match m;
      ASSERT_TRUE(NewMatchVsCpu(p, v1::KALAH, &m).ok());
    }
  }
  std::unique_ptr<grpc::ClientContext> AdminCtx() { return Ctx(kAdminToken); }
};

// Once answered UNKNOWN: the token carried the binary filter in JSON.
TEST_F(EdgeTest, ListMatchesWithATimeFilterPagesThroughEveryMatch) {
  TestPlayer a = NewPlayer("A");
  const int64_t t0 = clock_.NowMs();
  NewMatches(a, 5);
  v1::ListMatchesRequest req;
  *req.mutable_create_time_from() = TimeUtil::MillisecondsToTimestamp(t0);
  *req.mutable_create_time_to() =
      TimeUtil::MillisecondsToTimestamp(t0 + 60'000);
  req.set_page_size(2);
  std::set<std::string> seen;
  int pages = 0;
  for (;; ++pages) {
    v1::ListMatchesResponse resp;
    auto ctx = AdminCtx();
    grpc::Status s = admin_->ListMatches(ctx.get(), req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
    for (const v1::Match& m : resp.matches()) seen.insert(m.name());
    if (resp.next_page_token().empty()) break;
    req.set_page_token(resp.next_page_token());
  }
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(pages, 2);  // 2 + 2 + 1.
  // The token is bound to its filter: another time range refuses it.
  *req.mutable_create_time_from() = TimeUtil::MillisecondsToTimestamp(t0 + 1);
  v1::ListMatchesResponse resp;
  auto ctx = AdminCtx();
  grpc::Status s = admin_->ListMatches(ctx.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(services::ErrorReason(s), "INVALID_PAGE_TOKEN");
}

TEST_F(EdgeTest, TimestampsOutOfRangeAreInvalidArgument) {
  const std::vector<std::pair<int64_t, int32_t>> bad = {
      {-99'999'999'999'999, 0},  // Before year 1 (overflows milliseconds).
      {TimeUtil::kTimestampMaxSeconds + 1, 0},
      {0, -1},
      {0, 1'000'000'000}};
  for (auto [seconds, nanos] : bad) {
    for (int field = 0; field < 4; ++field) {
      v1::ListMatchesRequest req;
      google::protobuf::Timestamp* t =
          field == 0   ? req.mutable_create_time_from()
          : field == 1 ? req.mutable_create_time_to()
          : field == 2 ? req.mutable_end_time_from()
                       : req.mutable_end_time_to();
      t->set_seconds(seconds);
      t->set_nanos(nanos);
      v1::ListMatchesResponse resp;
      auto ctx = AdminCtx();
      grpc::Status s = admin_->ListMatches(ctx.get(), req, &resp);
      EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
          << "field " << field << " seconds " << seconds << " nanos " << nanos;
    }
  }
}

TEST_F(EdgeTest, ShutdownEndsWatchStreamsWithShuttingDown) {
  TestPlayer a = NewPlayer("A");
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(a, v1::KALAH, &m).ok());
  WatchClient watch(matches_.get(), m.name(), a.token);
  ASSERT_TRUE(
      watch.WaitFor([](const auto& events, bool) { return !events.empty(); }));
  server_->Shutdown();
  ASSERT_TRUE(watch.WaitDone());
  EXPECT_EQ(watch.status().error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(services::ErrorReason(watch.status()), "SHUTTING_DOWN");
  server_->Tick();      // Does nothing once stopped.
  server_->Shutdown();  // Again: returns at once.
}

TEST(RpcGuard, AnExceptionBecomesInternalAndOkPassesThrough) {
  grpc::Status s = services::Guard(
      "Boom", []() -> grpc::Status { throw std::runtime_error("boom"); });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(services::ErrorReason(s), "INTERNAL");
  EXPECT_NE(s.error_message().find("Boom"), std::string::npos);
  s = services::Guard("Odd", []() -> grpc::Status { throw 42; });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INTERNAL);
  s = services::Guard("Fine", [] {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such thing");
  });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace mancala::testing
