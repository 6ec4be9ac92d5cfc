#include "services/api/unparsed_request.h"

#include "services/wire/errors.h"

namespace mancala::services {
namespace {

using grpc::experimental::InterceptionHookPoints;

class UnparsedRequestInterceptor final
    : public grpc::experimental::Interceptor {
 public:
  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE)) {
      // The message, or null when the bytes did not parse.
      unparsed_ = methods->GetRecvMessage() == nullptr;
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status s = methods->GetSendStatus();
      if (s.error_message().empty() && s.error_details().empty() &&
          (s.error_code() == grpc::StatusCode::INTERNAL ||
           (s.error_code() == grpc::StatusCode::UNIMPLEMENTED && unparsed_))) {
        methods->ModifySendStatus(
            GrpcError(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_UTF8",
                      "the request does not parse: a string field is not valid "
                      "UTF-8 (or the bytes are not this method's request)"));
      }
    }
    methods->Proceed();
  }

 private:
  // The callback API answers a request that does not parse with
  // UNIMPLEMENTED and no message, before any handler runs; a method this
  // server lacks answers the same but never receives its request.
  bool unparsed_ = false;
};

class Factory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo*) override {
    return new UnparsedRequestInterceptor;
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
UnparsedRequestInterceptorFactory() {
  return std::make_unique<Factory>();
}

}  // namespace mancala::services
