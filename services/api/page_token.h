// Opaque page tokens: a few fields in a small binary struct with a version
// tag, the listing's kind and a digest of its scope, base64url-encoded once,
// so clients cannot depend on their contents and a token from another
// listing (or a tampered one) is refused with INVALID_ARGUMENT. Any bytes
// are valid field values and scopes (a serialized request, say).
// Thread-safety: pure functions.

#ifndef MANCALA_SERVICES_API_PAGE_TOKEN_H_
#define MANCALA_SERVICES_API_PAGE_TOKEN_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mancala::services {

// `kind` names the listing (e.g. "matches"); `scope` binds the token to the
// request's filters. At most 255 fields; kind and each field at most 1000
// bytes (a token longer than 4096 characters is refused when decoded).
std::string EncodePageToken(const std::string& kind, const std::string& scope,
                            const std::vector<std::string>& fields);

// The fields, or nullopt if `token` was not made by EncodePageToken for
// this kind and scope. Never throws, for any bytes.
std::optional<std::vector<std::string>> DecodePageToken(
    const std::string& token, const std::string& kind,
    const std::string& scope);

// The `count` fields of a request's page_token, or INVALID_ARGUMENT
// (INVALID_PAGE_TOKEN) if `token` was not made by EncodePageToken for this
// kind and scope, or holds another number of fields.
grpc::Status ReadPageToken(const std::string& token, const std::string& kind,
                           const std::string& scope, size_t count,
                           std::vector<std::string>* fields);

// A decimal integer field of a page token; false if it is not one.
bool TokenInt(const std::string& field, int64_t* out);

// A token of two fields, a time (or other integer) and an id, the cursor of
// listings ordered by (time, id); INVALID_ARGUMENT like ReadPageToken.
grpc::Status ReadCursorToken(const std::string& token, const std::string& kind,
                             const std::string& scope, int64_t* at,
                             std::string* id);

// Page size from a request: `requested` (0 = `fallback`), at most `max`;
// INVALID_ARGUMENT if negative.
grpc::Status PageSize(int requested, int fallback, int max, int* size);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_PAGE_TOKEN_H_
