// The status of a move refused because its match is at another ply: one
// wording for every append path (SqliteStore, PgStore's single append and
// PgAppendBatcher), since clients and logs meet it through each of them.

#ifndef MANCALA_STORAGE_APPEND_REFUSAL_H_
#define MANCALA_STORAGE_APPEND_REFUSAL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "storage/store.h"

namespace mancala::storage {

// ABORTED: "match <id> is at ply <stored_ply>, not <move.ply - 1>" (store.h
// AppendMove's refusal; nothing was written).
absl::Status PlyTaken(const MoveRow& move, int64_t stored_ply);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_APPEND_REFUSAL_H_
