#include "services/api/client_address.h"

namespace mancala::services {

std::string ClientAddress(const grpc::ServerContextBase& context) {
  std::string peer = context.peer();
  // gRPC 1.51's in-process transport gives "unknown" as its peer (later
  // ones "inproc"); a network peer always has a scheme and an address
  // ("ipv4:", "ipv6:", "unix:"), which no client can choose.
  const bool in_process =
      peer.empty() || peer == "unknown" || peer.rfind("inproc", 0) == 0;
  if (!in_process) return peer;
  const auto& metadata = context.client_metadata();
  auto it = metadata.find(kClientAddressKey);
  if (it == metadata.end()) return peer;
  return std::string(it->second.data(), it->second.size());
}

}  // namespace mancala::services
