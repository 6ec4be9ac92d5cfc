#include "services/admin_token.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <fstream>

namespace mancala::services {

absl::StatusOr<std::string> AdminToken(const std::string& file, const char* env,
                                       const std::string& flag) {
  const bool from_env = env != nullptr && *env != '\0';
  if ((!file.empty()) + from_env + (!flag.empty()) > 1) {
    return absl::InvalidArgumentError(
        "give the admin token once: --admin-token-file, MANCALAD_ADMIN_TOKEN "
        "or --admin-token");
  }
  if (!flag.empty()) {
    spdlog::warn(
        "--admin-token shows the token to every local user (process list); "
        "use --admin-token-file or MANCALAD_ADMIN_TOKEN");
    return flag;
  }
  if (from_env) return std::string(env);
  if (file.empty()) return std::string();
  std::ifstream in(file);
  std::string token;
  if (!in || !std::getline(in, token) || token.empty()) {
    return absl::InvalidArgumentError("cannot read an admin token from " +
                                      file + " (first line, not empty)");
  }
  struct stat st;
  if (::stat(file.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    spdlog::warn("{} is readable by other users; chmod 600 it", file);
  }
  return token;
}

}  // namespace mancala::services
