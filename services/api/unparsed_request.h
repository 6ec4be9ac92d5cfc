// Requests that do not parse get INVALID_ARGUMENT, not INTERNAL.
//
// gRPC parses a request before any handler runs; when the bytes are no
// message of the method's type (in practice: a proto3 string field that is
// not valid UTF-8, which protobuf refuses), it answers INTERNAL with an
// empty message. That blames the server for a client's input, so this
// interceptor turns exactly that status (INTERNAL, no message, no details:
// the services never send it) into INVALID_ARGUMENT with reason
// INVALID_UTF8 (mancala.v1.ErrorReason) on every RPC. The callback API
// (guarded_services.h) answers the same with UNIMPLEMENTED and no message
// instead: turned the same way when the request arrived unparsed (a method
// this server lacks answers UNIMPLEMENTED too, but receives no request).
// Thread-safety: interceptors are per call.

#ifndef MANCALA_SERVICES_API_UNPARSED_REQUEST_H_
#define MANCALA_SERVICES_API_UNPARSED_REQUEST_H_

#include <grpcpp/support/server_interceptor.h>

#include <memory>

namespace mancala::services {

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
UnparsedRequestInterceptorFactory();

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_UNPARSED_REQUEST_H_
