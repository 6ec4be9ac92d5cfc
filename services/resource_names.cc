#include "services/resource_names.h"

#include <string_view>

#include "services/errors.h"

namespace mancala::services {
namespace {

// The single segment after `prefix`, or "".
std::string IdAfter(const std::string& name, std::string_view prefix) {
  if (name.size() <= prefix.size() ||
      name.compare(0, prefix.size(), prefix) != 0 ||
      name.find('/', prefix.size()) != std::string::npos) {
    return "";
  }
  return name.substr(prefix.size());
}

}  // namespace

std::string PlayerIdFromName(const std::string& name) {
  return IdAfter(name, "players/");
}

grpc::Status MatchIdFromName(const std::string& name, const char* field,
                             std::string* id) {
  *id = IdAfter(name, "matches/");
  if (id->empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
                 std::string(field) + " must be 'matches/{match_id}', got '" +
                     name + "'");
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
