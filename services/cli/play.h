// `mancala play`: a whole match against the CPU from the terminal.

#ifndef MANCALA_SERVICES_CLI_PLAY_H_
#define MANCALA_SERVICES_CLI_PLAY_H_

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace mancala::cli {

struct PlayOptions {
  std::string server = "127.0.0.1:50051";
  std::string game = "kalah";              // kalah, oware, congkak,
                                           // mancala_basic.
  std::map<std::string, std::string> options;  // Game options.
  int cpu_level = 2;
  int opponents = 1;        // CPU seats (Mancala Basic: 1-3).
  bool cpu_first = false;   // The CPU moves first.
  // Resume: an existing match and the token of its player.
  std::string match;
  std::string token;
  // Pits to play, in order, before reading standard input.
  std::vector<int> moves;
  bool auto_play = false;   // Play the lowest legal pit without asking.
  int rpc_deadline_ms = 10000;
};

// Plays until the match ends. Returns 0 when it ends, 1 on error (the
// message, with how to resume, goes to `err`), 2 when input runs out.
int Play(const PlayOptions& options, std::istream& in, std::ostream& out,
         std::ostream& err);

}  // namespace mancala::cli

#endif  // MANCALA_SERVICES_CLI_PLAY_H_
