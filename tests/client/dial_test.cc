// The CLI's channel (client/rpc.h Dial): calls safe to repeat are retried on
// UNAVAILABLE with the same request (so a SubmitMove's request_id is the
// same in every attempt), calls that are not are not retried, and other
// codes are never retried. Against an in-process MatchService that fails
// its first calls on purpose.

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/rpc.h"
#include "mancala/v1/match_service.grpc.pb.h"

namespace mancala::cli {
namespace {

// Answers each method with `failures` errors of `code` first, then OK;
// records the request_id of every SubmitMove attempt.
class FlakyMatchService final : public v1::MatchService::Service {
 public:
  FlakyMatchService(int failures, grpc::StatusCode code)
      : failures_(failures), code_(code) {}

  grpc::Status SubmitMove(grpc::ServerContext*,
                          const v1::SubmitMoveRequest* request,
                          v1::SubmitMoveResponse* response) override {
    std::lock_guard<std::mutex> lock(mu_);
    ids_.push_back(request->request_id());
    response->mutable_match()->set_ply(7);
    return Next();
  }
  grpc::Status JoinMatch(grpc::ServerContext*, const v1::JoinMatchRequest*,
                         v1::Match*) override {
    std::lock_guard<std::mutex> lock(mu_);
    return Next();
  }

  int calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }
  std::vector<std::string> ids() {
    std::lock_guard<std::mutex> lock(mu_);
    return ids_;
  }

 private:
  grpc::Status Next() {
    return ++calls_ <= failures_ ? grpc::Status(code_, "try another node")
                                 : grpc::Status::OK;
  }

  const int failures_;
  const grpc::StatusCode code_;
  std::mutex mu_;
  int calls_ = 0;
  std::vector<std::string> ids_;
};

class DialTest : public ::testing::Test {
 protected:
  void Serve(int failures, grpc::StatusCode code) {
    service_ = std::make_unique<FlakyMatchService>(failures, code);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ =
        v1::MatchService::NewStub(Dial("127.0.0.1:" + std::to_string(port)));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  grpc::Status Move(v1::SubmitMoveResponse* response) {
    v1::SubmitMoveRequest request;
    request.set_name("matches/m1");
    request.set_pit(2);
    request.set_request_id("r-42");
    return stub_->SubmitMove(CallContext("").get(), request, response);
  }

  std::unique_ptr<FlakyMatchService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::MatchService::Stub> stub_;
};

TEST_F(DialTest, ASubmitMoveIsRetriedOnUnavailableWithItsRequestId) {
  Serve(2, grpc::StatusCode::UNAVAILABLE);
  v1::SubmitMoveResponse response;
  grpc::Status s = Move(&response);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(response.match().ply(), 7);
  EXPECT_EQ(service_->calls(), 3);
  EXPECT_EQ(service_->ids(),
            (std::vector<std::string>{"r-42", "r-42", "r-42"}));
}

TEST_F(DialTest, RetriesStopAfterFourAttempts) {
  Serve(10, grpc::StatusCode::UNAVAILABLE);
  v1::SubmitMoveResponse response;
  EXPECT_EQ(Move(&response).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(service_->calls(), 4);
}

TEST_F(DialTest, OtherCodesAreNotRetried) {
  Serve(1, grpc::StatusCode::ABORTED);  // A stale ply: the client decides.
  v1::SubmitMoveResponse response;
  EXPECT_EQ(Move(&response).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(service_->calls(), 1);
}

TEST_F(DialTest, AJoinIsNotRetried) {
  Serve(1, grpc::StatusCode::UNAVAILABLE);
  v1::JoinMatchRequest request;
  request.set_invite_code("ABCDEFGH");
  v1::Match match;
  EXPECT_EQ(
      stub_->JoinMatch(CallContext("").get(), request, &match).error_code(),
      grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(service_->calls(), 1);
}

}  // namespace
}  // namespace mancala::cli
