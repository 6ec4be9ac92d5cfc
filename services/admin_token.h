// Where mancalad's admin token comes from: a file (--admin-token-file, first
// line) or the environment (MANCALAD_ADMIN_TOKEN), so it never shows in the
// process list. The old --admin-token flag still works, with a warning.

#ifndef MANCALA_SERVICES_ADMIN_TOKEN_H_
#define MANCALA_SERVICES_ADMIN_TOKEN_H_

#include <string>

#include "absl/status/statusor.h"

namespace mancala::services {

// The token from `file` (if not empty), else `env` (may be null), else
// `flag`; "" if none (the admin API is off). Logs a warning for a token
// given as a flag, and for a file other users may read. INVALID_ARGUMENT
// for an unreadable or empty file, or for more than one source.
absl::StatusOr<std::string> AdminToken(const std::string& file, const char* env,
                                       const std::string& flag);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_ADMIN_TOKEN_H_
