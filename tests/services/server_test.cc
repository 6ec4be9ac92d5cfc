// The server as a whole: health checking, reflection, and restarts that
// restore matches in progress exactly.

#include <grpcpp/generic/generic_stub.h>

#include <future>

#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using ServerTest = ServiceTest;

// One unary call by method name with raw protobuf bytes (the test has no
// generated code for grpc.health.v1).
grpc::Status RawUnary(grpc::Channel* channel, const std::string& method,
                      const std::string& request, std::string* response) {
  grpc::GenericStub stub(channel->shared_from_this());
  grpc::Slice slice(request);
  grpc::ByteBuffer req(&slice, 1), resp;
  grpc::ClientContext ctx;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&ctx, method, grpc::StubOptions(), &req, &resp,
                 [&done](grpc::Status s) { done.set_value(s); });
  grpc::Status s = done.get_future().get();
  std::vector<grpc::Slice> slices;
  if (s.ok() && resp.Dump(&slices).ok()) {
    for (const grpc::Slice& sl : slices) {
      response->append(reinterpret_cast<const char*>(sl.begin()), sl.size());
    }
  }
  return s;
}

TEST_F(ServerTest, HealthCheckSaysServing) {
  std::string response;
  grpc::Status s =
      RawUnary(channel_.get(), "/grpc.health.v1.Health/Check", "", &response);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // HealthCheckResponse{status: SERVING (1)} is field 1, varint 1.
  EXPECT_EQ(response, std::string("\x08\x01", 2));
}

TEST_F(ServerTest, ReflectionListsTheServices) {
  grpc::GenericStub stub(channel_);
  grpc::CompletionQueue cq;
  grpc::ClientContext ctx;
  auto call = stub.PrepareCall(
      &ctx, "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
      &cq);
  void* tag;
  bool ok;
  call->StartCall(reinterpret_cast<void*>(1));
  ASSERT_TRUE(cq.Next(&tag, &ok) && ok);
  // ServerReflectionRequest{list_services: ""} is field 7, empty string.
  grpc::Slice req_slice(std::string("\x3a\x00", 2));
  grpc::ByteBuffer req(&req_slice, 1);
  call->Write(req, reinterpret_cast<void*>(2));
  ASSERT_TRUE(cq.Next(&tag, &ok) && ok);
  grpc::ByteBuffer resp;
  call->Read(&resp, reinterpret_cast<void*>(3));
  ASSERT_TRUE(cq.Next(&tag, &ok) && ok);
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(resp.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  EXPECT_NE(bytes.find("mancala.v1.MatchService"), std::string::npos);
  EXPECT_NE(bytes.find("mancala.v1.PlayerService"), std::string::npos);
  ctx.TryCancel();
  grpc::Status finish_status;
  call->Finish(&finish_status, reinterpret_cast<void*>(4));
  cq.Next(&tag, &ok);
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
}

TEST_F(ServerTest, RestartRestoresAMatchInProgressExactly) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::OWARE, &m).ok());
  for (int i = 0; i < 5; ++i) {
    v1::Match now = WaitForTurn(m.name(), 0);
    v1::SubmitMoveResponse resp;
    ASSERT_TRUE(Move(me, m.name(), now.legal_pits(0), &resp).ok());
  }
  v1::Match before = WaitForTurn(m.name(), 0);
  ASSERT_EQ(before.state(), v1::Match::IN_PROGRESS);
  StartServer();  // Same database file, new process state.
  v1::Match after = Get(m.name());
  EXPECT_EQ(after.ply(), before.ply());
  EXPECT_EQ(after.board().SerializeAsString(),
            before.board().SerializeAsString());
  EXPECT_EQ(after.to_move(), 0);
  EXPECT_EQ(after.seats(0).display_name(), before.seats(0).display_name());
  // The token still works and the match goes on.
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(Move(me, m.name(), after.legal_pits(0), &resp).ok());
  EXPECT_EQ(resp.match().ply(), before.ply() + 1);
}

TEST_F(ServerTest, CpuTurnPendingAtShutdownIsPlayedAfterRestart) {
  cpu_threads_ = 0;
  StartServer();
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::CONGKAK, &m, /*cpu_first=*/true).ok());
  EXPECT_EQ(Get(m.name()).ply(), 0);  // The CPU has no thread to move.
  cpu_threads_ = 1;
  StartServer();
  v1::Match after = WaitForTurn(m.name(), 1);
  EXPECT_GE(after.ply(), 1);
}

}  // namespace
}  // namespace mancala::testing
