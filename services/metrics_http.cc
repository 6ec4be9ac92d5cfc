#include "services/metrics_http.h"

#include <httplib.h>

#include <charconv>

#include "services/tls/tls_openssl.h"

namespace mancala::services {

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    const std::string& address, const Metrics& metrics,
    const tls::TlsReloader* tls) {
  const size_t colon = address.rfind(':');
  int port = -1;
  if (colon != std::string::npos && colon > 0) {
    const char* first = address.data() + colon + 1;
    const char* last = address.data() + address.size();
    auto [end, ec] = std::from_chars(first, last, port);
    if (ec != std::errc() || end != last || first == last) port = -1;
  }
  if (port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        "--metrics-listen takes host:port (port 0 picks a free one), got '" +
        address + "'");
  }
  std::string host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);  // [::1]
  }
  std::unique_ptr<MetricsHttpServer> s(new MetricsHttpServer());
  if (tls != nullptr) {
    s->http_ = std::make_unique<httplib::SSLServer>([tls](SSL_CTX& ctx) {
      tls::ServeCurrentCertificate(&ctx, *tls, /*verify_clients=*/true);
      return true;
    });
  } else {
    s->http_ = std::make_unique<httplib::Server>();
  }
  s->http_->Get("/metrics",
                [&metrics](const httplib::Request&, httplib::Response& res) {
                  res.set_content(metrics.Render(),
                                  "text/plain; version=0.0.4; charset=utf-8");
                });
  if (port == 0) {
    s->port_ = s->http_->bind_to_any_port(host);
  } else if (s->http_->bind_to_port(host, port)) {
    s->port_ = port;
  }
  if (s->port_ <= 0) {
    return absl::UnavailableError("cannot listen for metrics on " + address);
  }
  httplib::Server* http = s->http_.get();
  s->thread_ = std::thread([http] { http->listen_after_bind(); });
  // stop() only stops a server that runs: wait for it to run (briefly).
  for (int i = 0; i < 5000 && !http->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return s;
}

MetricsHttpServer::~MetricsHttpServer() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace mancala::services
