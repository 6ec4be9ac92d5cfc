// What the `mancala` subcommands that talk to mancalad share: the channel,
// per-call contexts with the bearer token and a deadline, game names, and
// how an RPC error is shown.

#ifndef MANCALA_CLIENT_RPC_H_
#define MANCALA_CLIENT_RPC_H_

#include <google/protobuf/message.h>
#include <google/protobuf/timestamp.pb.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "mancala/v1/game.pb.h"

namespace mancala::cli {

// How every subcommand reaches mancalad (`mancala --tls [--tls-ca-file F]`):
// plaintext by default, or TLS with the server's certificate checked
// against the system's roots (/etc/ssl/certs, as gRPC finds them) or only
// the CA certificates in `ca_file` (PEM), and its name against the host in
// --server (an IP address must be in the certificate's subjectAltName).
struct TlsOptions {
  bool on = false;
  std::string ca_file;  // Implies `on`.
};
// Sets the credentials of every later Dial(). INVALID_ARGUMENT naming the
// file if `ca_file` cannot be read or holds no PEM certificate.
// Thread-safety: once, before any Dial().
absl::Status UseTls(const TlsOptions& tls);
// The credentials UseTls() set (plaintext if it was not called).
std::shared_ptr<grpc::ChannelCredentials> Credentials();

// A channel to `server` (host:port; plaintext or TLS as UseTls() set)
// whose calls that are safe to repeat are retried on UNAVAILABLE
// (kRetryServiceConfig): a node that stops or dies behind a load balancer
// costs those calls nothing.
std::shared_ptr<grpc::Channel> Dial(const std::string& server);

// The gRPC service config Dial() sets (JSON, gRPC's service config format):
// on UNAVAILABLE, up to 4 attempts, backoff 0.2 s doubling to at most 2 s,
// for the reads and for the two writes whose request_id makes a repeat
// return the first answer (CreateMatch, SubmitMove; the CLI always sets
// it). Other writes (JoinMatch, Resign, ...) are not retried: their repeat
// is not guaranteed to be harmless.
extern const char kRetryServiceConfig[];

// A context for one call: `authorization: Bearer <token>` when `token` is
// set, and a deadline `deadline_ms` from now (0 = none, for streams).
std::unique_ptr<grpc::ClientContext> CallContext(const std::string& token,
                                                 int deadline_ms = 10000);

// "kalah", "oware", "congkak", "mancala_basic" (any case); nullopt else.
std::optional<v1::Game> ParseGame(const std::string& name);
// The lower-case name of `game` ("kalah").
std::string GameLabel(v1::Game game);

// Prints "error: <what>: <message> (<CODE>)" and returns 1.
int ShowError(std::ostream& err, const std::string& what,
              const grpc::Status& status);

// `message` as JSON (proto3 JSON mapping, field names as in the proto),
// followed by a newline.
std::string ToJson(const google::protobuf::Message& message);

// The player to query: `player` if set ("players/{id}"), else the owner
// of `token` (GetPlayer "players/me"). INVALID_ARGUMENT if neither is set.
grpc::Status ResolvePlayer(const std::shared_ptr<grpc::Channel>& channel,
                           const std::string& player, const std::string& token,
                           std::string* out);

// Pages through a List call until `limit` items or its last page, adding
// the items to `all`. `call(context, request, response)` makes one call;
// `items(response)` is the response's repeated field (mutable).
template <typename Request, typename Response, typename Call, typename Items>
grpc::Status FetchPages(const std::string& token, int limit, Request request,
                        Call call, Items items, Response* all) {
  std::string page;
  do {
    request.set_page_size(
        std::min(limit - static_cast<int>(items(*all).size()), 500));
    request.set_page_token(page);
    Response response;
    auto ctx = CallContext(token);
    if (grpc::Status s = call(ctx.get(), request, &response); !s.ok()) {
      return s;
    }
    items(*all).MergeFrom(items(response));
    page = response.next_page_token();
    all->set_next_page_token(page);
  } while (!page.empty() && static_cast<int>(items(*all).size()) < limit);
  return grpc::Status::OK;
}

// "2026-11-30 12:00:05" (UTC); "-" when unset.
std::string ShortTime(const google::protobuf::Timestamp& t);

}  // namespace mancala::cli

#endif  // MANCALA_CLIENT_RPC_H_
