// Who a call comes from, for the limits kept per client address (the
// creation rate, peer_limiter.h). A native call's address is its gRPC peer.
// A browser's call arrives through the web port (services/web/web_port.h)
// on the server's in-process channel, whose peer says nothing ("unknown"):
// the port sends the browser's own address in metadata kClientAddressKey,
// which is believed only from the in-process peer, so a native client
// cannot claim another address by sending it.
// Thread-safety: a pure function of the call's context.

#ifndef MANCALA_SERVICES_API_CLIENT_ADDRESS_H_
#define MANCALA_SERVICES_API_CLIENT_ADDRESS_H_

#include <grpcpp/grpcpp.h>

#include <string>

namespace mancala::services {

inline constexpr char kClientAddressKey[] = "x-mancala-client-address";

// "ipv4:1.2.3.4:5678" (or "ipv6:[...]:port"), as grpc::ServerContext::peer()
// spells it.
std::string ClientAddress(const grpc::ServerContextBase& context);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_CLIENT_ADDRESS_H_
