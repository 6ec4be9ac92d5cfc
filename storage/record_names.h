// Text names of match statuses and seat kinds, as both backends store them
// (storage/schema.cc, storage/pg_schema.cc). An unknown stored name is never
// read as some default: Parse* throw UnreadableRow, which both backends turn
// into DATA_LOSS.

#ifndef MANCALA_STORAGE_RECORD_NAMES_H_
#define MANCALA_STORAGE_RECORD_NAMES_H_

#include <stdexcept>
#include <string>

#include "storage/store.h"

namespace mancala::storage {

// A stored value outside its enum: the row cannot be read.
struct UnreadableRow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* StatusName(MatchStatus status);
MatchStatus ParseStatus(const std::string& name);
const char* SeatKindName(SeatRecord::Kind kind);
SeatRecord::Kind ParseSeatKind(const std::string& name);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_RECORD_NAMES_H_
