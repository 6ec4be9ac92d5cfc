// The HTTP endpoint Prometheus scrapes: GET /metrics answers
// Metrics::Render() as text/plain; version=0.0.4 (cpp-httplib, Debian's
// libcpp-httplib-dev). Anything else is 404. Off unless mancalad is given
// --metrics-listen; over TLS when the gRPC port is (unless
// --metrics-plaintext).
// Thread-safety: Start and the destructor from one thread.

#ifndef MANCALA_SERVICES_METRICS_HTTP_H_
#define MANCALA_SERVICES_METRICS_HTTP_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "services/base/metrics.h"

namespace httplib {
class Server;
}
namespace mancala::services::tls {
class TlsReloader;
}

namespace mancala::services {

class MetricsHttpServer {
 public:
  // Binds `address` ("host:port"; port 0 picks a free one) and serves in
  // its own thread: over TLS with `tls`'s current certificate (and its
  // client CA, if any) when `tls` is set, which must outlive the server;
  // plaintext when it is nullptr. INVALID_ARGUMENT for a malformed address,
  // UNAVAILABLE if it cannot be bound.
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(
      const std::string& address, const Metrics& metrics,
      const tls::TlsReloader* tls);
  ~MetricsHttpServer();  // Stops serving.

  int port() const { return port_; }

 private:
  MetricsHttpServer() = default;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_METRICS_HTTP_H_
