// `mancala play`: a whole match from the terminal, against the CPU or
// people.
//
// The client follows the match through a WatchMatch stream (which also
// keeps its seat present), draws the board when it is the player's turn,
// sends the chosen pit with the expected ply and a request id (a repeated
// tap never moves twice), and prints every move and the result.

#ifndef MANCALA_SERVICES_CLI_PLAY_H_
#define MANCALA_SERVICES_CLI_PLAY_H_

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace mancala::cli {

struct PlayOptions {
  std::string server = "127.0.0.1:50051";
  std::string game = "kalah";                  // kalah, oware, congkak,
                                               // mancala_basic.
  std::map<std::string, std::string> options;  // Game options.
  // Who fills the other seats: "cpu" or "open" (people, by invite code).
  std::string vs = "cpu";
  int cpu_level = 2;
  int opponents = 1;       // Other seats (Mancala Basic: 1-3).
  bool cpu_first = false;  // The opponent moves first.
  bool ranked = false;
  int turn_limit_s = 0;  // 0, 30 or 60.
  std::string name;      // Display name of a new player ("" = guest).
  // Join a match by invite code instead of creating one.
  std::string join;
  // Resume: an existing match and/or an existing player's token.
  std::string match;
  std::string token;
  // Pits to play, in order, before reading standard input.
  std::vector<int> moves;
  bool auto_play = false;  // Play the lowest legal pit without asking.
  int move_delay_ms = 0;   // Wait before each automatic move.
  int rpc_deadline_ms = 10000;
};

// Plays until the match ends. Returns 0 when it ends, 1 on error (the
// message, with how to resume, goes to `err`), 2 when input runs out.
int Play(const PlayOptions& options, std::istream& in, std::ostream& out,
         std::ostream& err);

struct WatchOptions {
  std::string server = "127.0.0.1:50051";
  std::string match;  // "matches/{id}".
  int64_t after_ply = 0;
  std::string token;  // Optional: watch as that player.
};

// `mancala watch`: prints every event of a match, one line each, until it
// ends. Returns 0 when the match ended, 1 on error.
int Watch(const WatchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace mancala::cli

#endif  // MANCALA_SERVICES_CLI_PLAY_H_
