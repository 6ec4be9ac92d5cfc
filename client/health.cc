#include "client/health.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <future>
#include <vector>

#include "client/rpc.h"

namespace mancala::cli {
namespace {

using google::protobuf::internal::WireFormatLite;

constexpr char kCheckMethod[] = "/grpc.health.v1.Health/Check";

// HealthCheckRequest{service} in wire format.
grpc::ByteBuffer EncodeRequest(const std::string& service) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    if (!service.empty()) WireFormatLite::WriteString(1, service, &coded);
  }
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

// HealthCheckResponse.status; 0 (UNKNOWN) when absent, -1 when the bytes
// are not a protobuf message.
int DecodeStatus(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  if (!buffer.Dump(&slices).ok()) return -1;
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  google::protobuf::io::CodedInputStream coded(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  int status = 0;
  while (uint32_t tag = coded.ReadTag()) {
    if (tag == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_VARINT)) {
      uint32_t value = 0;
      if (!coded.ReadVarint32(&value)) return -1;
      status = static_cast<int>(value);
    } else if (!WireFormatLite::SkipField(&coded, tag)) {
      return -1;
    }
  }
  return coded.ConsumedEntireMessage() ? status : -1;
}

}  // namespace

int Health(const HealthOptions& options, std::ostream& out,
           std::ostream& err) {
  auto channel = grpc::CreateChannel(options.server, Credentials());
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(options.timeout_ms));
  grpc::ByteBuffer request = EncodeRequest(options.service);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, kCheckMethod, grpc::StubOptions(), &request,
                 &response, [&done](grpc::Status s) { done.set_value(s); });
  grpc::Status status = done.get_future().get();
  if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
    out << "SERVICE_UNKNOWN\n";
    return 1;
  }
  if (!status.ok()) {
    out << "UNREACHABLE\n";
    return ShowError(err, "health check of " + options.server, status);
  }
  switch (DecodeStatus(response)) {
    case 1:
      out << "SERVING\n";
      return 0;
    case 2:
      out << "NOT_SERVING\n";
      return 1;
    case -1:
      err << "error: " << options.server << " answered a health check with "
          << "bytes that are not a HealthCheckResponse\n";
      out << "UNKNOWN\n";
      return 1;
    default:
      out << "UNKNOWN\n";
      return 1;
  }
}

}  // namespace mancala::cli
