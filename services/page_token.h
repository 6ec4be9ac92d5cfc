// Opaque page tokens: a few fields, base64url-encoded with a version tag,
// so clients cannot depend on their contents and a token from another
// listing (or a tampered one) is refused with INVALID_ARGUMENT.

#ifndef MANCALA_SERVICES_PAGE_TOKEN_H_
#define MANCALA_SERVICES_PAGE_TOKEN_H_

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

// Page size from a request: `requested` (0 = `fallback`), at most `max`;
// nullopt if negative.
std::optional<int> PageSize(int requested, int fallback, int max);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_PAGE_TOKEN_H_
