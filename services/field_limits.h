// Limits on client input, read from the request messages themselves.
//
// proto/mancala/v1/field_limits.proto puts `max_chars` and `max_entries` on
// request fields; CheckFieldLimits() walks a request (nested messages and
// maps included) and refuses, before any other check, a string longer than
// its limit in Unicode code points, or a repeated/map field with too many
// entries (FIELD_TOO_LONG, metadata "field" = the path, e.g.
// "seats[1].player"). Every RPC calls it first, so no later check ever
// handles unbounded input. Strings are valid UTF-8 by then: protobuf does
// not parse a request otherwise (unparsed_request.h).
//
// Text helpers for the checks that follow: Trim() drops Unicode White_Space
// at both ends; Quote() is what an error message may show of client input
// (its first kQuoteChars code points).
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_FIELD_LIMITS_H_
#define MANCALA_SERVICES_FIELD_LIMITS_H_

#include <google/protobuf/message.h>
#include <grpcpp/grpcpp.h>

#include <string>
#include <string_view>

namespace mancala::services {

inline constexpr size_t kQuoteChars = 32;

grpc::Status CheckFieldLimits(const google::protobuf::Message& request);

// Code points in valid UTF-8 `text`.
size_t CharCount(std::string_view text);
// `text` without leading and trailing Unicode White_Space (valid UTF-8).
std::string Trim(std::string_view text);
// Whether valid UTF-8 `text` holds a C0 or C1 control character or DEL.
bool HasControlCharacter(std::string_view text);
// `text` in double quotes for an error message, cut to kQuoteChars code
// points with "..." when longer.
std::string Quote(std::string_view text);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_FIELD_LIMITS_H_
