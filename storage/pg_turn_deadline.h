// The turn deadline that PostgreSQL keeps for a cluster (due_turns.h), as
// one SQL expression, shared by the sweep (pg_due_turns.cc), which times a
// turn out when it passes, and the match reads (pg_store.cc,
// MatchRecord::turn_time_left_ms), from which every node shows it: both
// count on the database's clock.

#ifndef MANCALA_STORAGE_PG_TURN_DEADLINE_H_
#define MANCALA_STORAGE_PG_TURN_DEADLINE_H_

#include <string>

namespace mancala::storage {

// A timestamptz over the row `m` of matches: the stored due time (set with
// every move; a match not yet moved in has none, its turn started when it
// was last updated), or a full turn after the service came back
// (service_resumed, migration 5), if that is later; NULL without a turn
// time limit. Meaningful for a player's turn of a match in progress.
std::string PgTurnDeadlineSql();

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_TURN_DEADLINE_H_
