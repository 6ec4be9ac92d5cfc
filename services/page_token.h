// Opaque page tokens: a few fields, base64url-encoded with a version tag,
// so clients cannot depend on their contents and a token from another
// listing (or a tampered one) is refused with INVALID_ARGUMENT.

#ifndef MANCALA_SERVICES_PAGE_TOKEN_H_
#define MANCALA_SERVICES_PAGE_TOKEN_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mancala::services {

// `kind` names the listing (e.g. "matches"); `scope` binds the token to the
// request's filters.
std::string EncodePageToken(const std::string& kind, const std::string& scope,
                            const std::vector<std::string>& fields);

// The fields, or nullopt if `token` was not made by EncodePageToken for
// this kind and scope.
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

#endif  // MANCALA_SERVICES_PAGE_TOKEN_H_
