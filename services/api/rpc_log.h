// One gRPC server interceptor for every RPC: counts it and times it
// (metrics.h), and logs one info line when it ends (logging.h): method,
// status code, duration, the match it concerned and the calling player.
//
// The match comes from the request (or reply) fields that name one
// ("matches/..."); the player from NoteCallPlayer, which authentication
// calls once it knows who is calling. Tokens and token hashes are never
// logged: the interceptor reads no metadata.
// Thread-safety: all functions from any thread.

#ifndef MANCALA_SERVICES_API_RPC_LOG_H_
#define MANCALA_SERVICES_API_RPC_LOG_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>

#include <atomic>
#include <memory>
#include <string>

#include "services/base/metrics.h"

namespace mancala::services {

// The factory to hand to ServerBuilder::experimental().
// SetInterceptorCreators; `metrics` must outlive the server. If set,
// `in_flight` (which must outlive the server too) counts the calls of our
// own services ("/mancala.*": not health, not reflection) from the moment
// they are intercepted until they have ended, their status sent: what a
// shutdown waits for (server.cc).
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewRpcInterceptorFactory(Metrics* metrics,
                         std::atomic<int>* in_flight = nullptr);

// Tells the interceptor of the call with `context` which player is
// calling ("players/{id}" is logged). No-op for a call not intercepted.
void NoteCallPlayer(const grpc::ServerContextBase& context,
                    const std::string& player_id);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_RPC_LOG_H_
