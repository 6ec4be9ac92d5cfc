// Text names of match statuses and seat kinds, as both backends store them
// (storage/schema.cc, storage/pg_schema.cc). Unknown names read back as the
// safest value (in progress; an open seat).

#ifndef MANCALA_STORAGE_RECORD_NAMES_H_
#define MANCALA_STORAGE_RECORD_NAMES_H_

#include <string>

#include "storage/store.h"

namespace mancala::storage {

const char* StatusName(MatchStatus status);
MatchStatus ParseStatus(const std::string& name);
const char* SeatKindName(SeatRecord::Kind kind);
SeatRecord::Kind ParseSeatKind(const std::string& name);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_RECORD_NAMES_H_
