#include "client/replay.h"

#include <ostream>

#include "engine/conformance/replay.h"

namespace mancala::cli {

int Replay(const std::vector<std::string>& files, std::ostream& out) {
  namespace conf = engine::conformance;
  int passed = 0, failed = 0, skipped = 0;
  for (const std::string& file : files) {
    conf::ReplayReport report = conf::ReplayFile(file);
    for (const conf::Mismatch& m : report.mismatches) {
      out << "MISMATCH " << m.file << " " << m.game_id;
      if (m.ply >= 0) out << " ply " << m.ply;
      out << ": " << m.what << "\n";
    }
    for (const std::string& why : report.skipped_reasons) {
      out << "SKIPPED " << file << ": " << why << "\n";
    }
    out << file << ": " << report.passed << " passed, " << report.failed
        << " failed, " << report.skipped << " skipped\n";
    passed += report.passed;
    failed += report.failed;
    skipped += report.skipped;
  }
  out << passed << " passed, " << failed << " failed, " << skipped
      << " skipped\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace mancala::cli
