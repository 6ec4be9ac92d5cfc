// Resource-name parsing (services/wire/resource_names.h): any string gives an
// id that rebuilds the name exactly, or is refused (INVALID_ARGUMENT for
// matches); never a crash.

#include <string>

#include "services/wire/resource_names.h"
#include "tests/fuzz/fuzz_check.h"

using mancala::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name(reinterpret_cast<const char*>(data), size);
  const std::string player = mancala::services::PlayerIdFromName(name);
  if (!player.empty()) {
    Check("players/" + player == name, "player id does not rebuild the name");
    Check(player.find('/') == std::string::npos, "player id holds a '/'");
  }
  std::string match;
  grpc::Status s = mancala::services::MatchIdFromName(name, "name", &match);
  if (s.ok()) {
    Check(!match.empty() && "matches/" + match == name,
          "match id does not rebuild the name");
    Check(match.find('/') == std::string::npos, "match id holds a '/'");
  } else {
    Check(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT,
          "a bad match name is not INVALID_ARGUMENT");
  }
  return 0;
}
