// `mancala queue`: looks for opponents with FindMatch, showing how many
// are searching as the server reports it, then plays the match it gets
// (as `mancala play` does, see play.h).

#ifndef MANCALA_CLIENT_QUEUE_H_
#define MANCALA_CLIENT_QUEUE_H_

#include <iosfwd>

#include "client/play.h"

namespace mancala::cli {

struct QueueOptions {
  // Server, game, options, ranking, turn limit, name or token, and how to
  // play once matched (--auto, --moves).
  PlayOptions play;
  int players = 2;  // Seats in the match (Mancala Basic: 2-4).
  // Casual: take CPU opponents after the server's fallback wait.
  bool accept_cpu = false;
};

// Returns what Play returns once matched; 1 if the search failed.
int Queue(const QueueOptions& options, std::istream& in, std::ostream& out,
          std::ostream& err);

}  // namespace mancala::cli

#endif  // MANCALA_CLIENT_QUEUE_H_
