// `mancala replay FILE...`: checks conformance traces and edge_cases.json
// offline against the engine (format: tests/data/README.md).

#ifndef MANCALA_SERVICES_CLI_REPLAY_H_
#define MANCALA_SERVICES_CLI_REPLAY_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace mancala::cli {

// Prints every mismatch with its file, game and ply, then the line
// "N passed, N failed, N skipped". Returns 0 only if nothing failed.
int Replay(const std::vector<std::string>& files, std::ostream& out);

}  // namespace mancala::cli

#endif  // MANCALA_SERVICES_CLI_REPLAY_H_
