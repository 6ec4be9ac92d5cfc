// Limits on client input, read from the request messages themselves.
//
// proto/mancala/v1/field_limits.proto puts `max_chars` and `max_entries` on
// request fields; CheckFieldLimits() walks a request (nested messages and
// maps included) and refuses, before any other check, a string longer than
// its limit in Unicode code points, or a repeated/map field with too many
// entries (FIELD_TOO_LONG, metadata "field" = the path, e.g.
// "seats[1].player"). Every RPC calls it first, so no later check ever
// handles unbounded input. Strings are valid UTF-8 by then: protobuf does
// not parse a request otherwise (unparsed_request.h). The text helpers for
// the checks that follow are base/text.h's.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_API_FIELD_LIMITS_H_
#define MANCALA_SERVICES_API_FIELD_LIMITS_H_

#include <google/protobuf/message.h>
#include <grpcpp/grpcpp.h>

namespace mancala::services {

// OK, or INVALID_ARGUMENT (FIELD_TOO_LONG, metadata "field" = the path).
grpc::Status CheckFieldLimits(const google::protobuf::Message& request);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_FIELD_LIMITS_H_
