// SQLiteCpp's exceptions become an absl::Status here, and nowhere else
// (docs/design.md "Errors"): a constraint failure is ALREADY_EXISTS, anything
// else INTERNAL, with `what` naming the operation.

#ifndef MANCALA_STORAGE_SQLITE_ERRORS_H_
#define MANCALA_STORAGE_SQLITE_ERRORS_H_

#include "absl/status/status.h"

namespace SQLite {
class Exception;
}

namespace mancala::storage {

absl::Status FromException(const SQLite::Exception& e, const char* what);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_ERRORS_H_
