// mancalad's port for browsers (mancalad --web-listen): the Connect
// protocol and gRPC-Web over HTTP/1.1 (web_codec.h), for every RPC
// web_methods.h lists.
//
// Each request becomes one call on the server's in-process channel through
// a byte-level generic stub, so the browser meets the very handlers native
// clients do (authentication, limits, logs, errors): nothing is implemented
// twice. The browser's `authorization` header and its address (metadata
// kClientAddressKey, which the services trust only from the in-process
// peer: services/api/client_address.h) go along; its deadline
// (connect-timeout-ms, grpc-timeout) becomes the call's.
//
// Event-driven (Boost.Asio and Boost.Beast): `threads` threads serve every
// connection; an open stream costs a socket, buffers and its inner call,
// never a thread. TCP_NODELAY is on. A request body over its limit is
// refused (413) from its length, before it is read whole. A stream's
// messages are written one at a time: the next is read from the inner call
// only once the last is on the wire, so a slow browser slows only its
// stream. A connection that closes ends its stream's inner call
// (TryCancel) at once: a FindMatch leaves the queue, a watcher's presence
// ends. A stream's response ends its connection (Connection: close).
//
// GET and HEAD are answered from `root_dir`'s files (web_root.h), read at
// Start(): 200 with an ETag (and Cache-Control: no-cache, so a new deploy
// shows at the next load), 304 for a matching If-None-Match, 404 for any
// other path.
//
// CORS: a request whose Origin is one of `allowed_origins` (exact match)
// gets Access-Control-Allow-Origin and the exposed status headers, and its
// preflight (OPTIONS) is answered; any other origin gets no CORS headers,
// so a browser refuses it.
// Thread-safety: Start() and Stop() from one thread; port() from any.

#ifndef MANCALA_SERVICES_WEB_WEB_PORT_H_
#define MANCALA_SERVICES_WEB_WEB_PORT_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/api/client_address.h"

namespace mancala::services::tls {
class TlsReloader;
}

namespace mancala::services::web {

struct WebPortOptions {
  std::string address = "127.0.0.1:8080";    // host:port; port 0 picks one.
  std::vector<std::string> allowed_origins;  // Exact origins; empty: none.
  size_t max_message_bytes = 64 * 1024;      // As the gRPC port's.
  // Files served to GET and HEAD (web_root.h); empty: none, and GET is 405.
  std::string root_dir;
  int threads = 2;
  // TLS with this reloader's current certificate (it outlives the port);
  // nullptr: plaintext HTTP/1.1.
  const tls::TlsReloader* tls = nullptr;
};

class WebPort {
 public:
  // Listens and serves through `channel` (grpc::Server::InProcessChannel).
  // INVALID_ARGUMENT for an address that is not host:port or a root_dir
  // WebRoot::Load refuses, UNAVAILABLE if it cannot be listened on.
  static absl::StatusOr<std::unique_ptr<WebPort>> Start(
      std::shared_ptr<grpc::Channel> channel, WebPortOptions options);
  ~WebPort();  // Stop().

  int port() const;
  // Stops accepting, cancels the inner calls still running and waits for
  // them, closes every connection and joins the threads. Idempotent.
  void Stop();

  class Impl;

 private:
  explicit WebPort(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::services::web

#endif  // MANCALA_SERVICES_WEB_WEB_PORT_H_
