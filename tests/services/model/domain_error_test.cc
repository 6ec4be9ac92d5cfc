// The domain's absl::Status errors and their one conversion to a gRPC
// status with a google.rpc.ErrorInfo (services/model/domain_error.h, errors.h).

#include "services/model/domain_error.h"

#include <gtest/gtest.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "services/wire/errors.h"

namespace mancala::services {
namespace {

// The ErrorInfo packed in `status`'s details.
google::rpc::ErrorInfo InfoOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::ErrorInfo info;
  EXPECT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.details_size(), 1);
  EXPECT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(details.code(), status.error_code());
  EXPECT_EQ(details.message(), status.error_message());
  return info;
}

TEST(DomainErrorTest, CarriesReasonAndMetadataToTheEdge) {
  absl::Status s =
      DomainError(absl::StatusCode::kFailedPrecondition, "NOT_YOUR_TURN",
                  "it is seat 1's turn", {{"to_move", "1"}, {"ply", "7"}});
  ErrorDetail detail = DetailOf(s);
  EXPECT_EQ(detail.reason, "NOT_YOUR_TURN");
  EXPECT_EQ(detail.metadata, (std::map<std::string, std::string>{
                                 {"ply", "7"}, {"to_move", "1"}}));

  grpc::Status g = ToGrpc(s);
  EXPECT_EQ(g.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(g.error_message(), "it is seat 1's turn");
  google::rpc::ErrorInfo info = InfoOf(g);
  EXPECT_EQ(info.reason(), "NOT_YOUR_TURN");
  EXPECT_EQ(info.domain(), kErrorDomain);
  ASSERT_EQ(info.metadata_size(), 2);
  EXPECT_EQ(info.metadata().at("to_move"), "1");
  EXPECT_EQ(info.metadata().at("ply"), "7");
}

TEST(DomainErrorTest, OkStaysOk) {
  EXPECT_TRUE(ToGrpc(absl::OkStatus()).ok());
  EXPECT_EQ(DetailOf(absl::OkStatus()).reason, "");
}

TEST(DomainErrorTest, RawStoreStatusesMapAsStorageFailures) {
  grpc::Status aborted = ToGrpc(absl::AbortedError("ply 4 taken"));
  EXPECT_EQ(aborted.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(ErrorReason(aborted), "STALE_PLY");
  grpc::Status lost = ToGrpc(absl::DataLossError("bad blob"));
  EXPECT_EQ(lost.error_code(), grpc::StatusCode::DATA_LOSS);
  EXPECT_EQ(ErrorReason(lost), "BAD_STORED_DATA");
  EXPECT_EQ(lost.error_message(), "stored data unreadable: bad blob");
  grpc::Status other = ToGrpc(absl::NotFoundError("row gone"));
  EXPECT_EQ(other.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(ErrorReason(other), "STORAGE");
  EXPECT_EQ(other.error_message(), "storage failed: row gone");
  // A hung database: the outcome of a write is unknown, and the client is
  // told how to learn it.
  grpc::Status slow = ToGrpc(absl::DeadlineExceededError("append move"));
  EXPECT_EQ(slow.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(ErrorReason(slow), "STORAGE_TIMEOUT");
  EXPECT_NE(slow.error_message().find("same request_id"), std::string::npos);
  // A full disk: not UNAVAILABLE, which would invite retries at once.
  grpc::Status full = ToGrpc(absl::ResourceExhaustedError("disk full"));
  EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ErrorReason(full), "STORAGE_FULL");
}

TEST(DomainErrorTest, EdgeHelpersMatchTheDomainOnes) {
  grpc::Status down = GrpcShuttingDown("watch again");
  EXPECT_EQ(down.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(down.error_message(), "server shutting down; watch again");
  EXPECT_EQ(ErrorReason(down), "SHUTTING_DOWN");
  grpc::Status bad = GrpcInvalidField("pit must be 0..5");
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorReason(bad), "INVALID_ARGUMENT");
}

}  // namespace
}  // namespace mancala::services
