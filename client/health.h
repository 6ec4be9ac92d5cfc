// `mancala health`: asks a server for its grpc.health.v1 status, as an
// operator's probe or a script's "is it up yet" (deploy/fresh-root.sh waits
// on it). It needs no generated stubs: the health protocol's messages have
// one field each (HealthCheckRequest.service = 1, a string;
// HealthCheckResponse.status = 1, an enum), written and read as protobuf
// wire format (grpc/health/v1/health.proto in the gRPC repository).

#ifndef MANCALA_CLIENT_HEALTH_H_
#define MANCALA_CLIENT_HEALTH_H_

#include <ostream>
#include <string>

namespace mancala::cli {

struct HealthOptions {
  std::string server = "127.0.0.1:50051";
  // "" asks about the whole server; mancalad also answers "liveness" and
  // "readiness", and no other name (docs/api.md "Health").
  std::string service;
  int timeout_ms = 5000;  // the call's deadline, milliseconds
};

// Prints one word on `out`: SERVING, NOT_SERVING, UNKNOWN, SERVICE_UNKNOWN
// (the server registers no such name: NOT_FOUND) or UNREACHABLE (any other
// failed call; its status goes to `err`). Returns 0 for SERVING, else 1.
int Health(const HealthOptions& options, std::ostream& out, std::ostream& err);

}  // namespace mancala::cli

#endif  // MANCALA_CLIENT_HEALTH_H_
