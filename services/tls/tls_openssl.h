// The OpenSSL side of mancalad's TLS: the checked files as OpenSSL objects,
// and a server SSL_CTX that takes the reloader's current certificate at
// every handshake, for the ports that run OpenSSL themselves (the web port
// through Boost.Asio, the metrics port through cpp-httplib). gRPC's port
// does not use it: gRPC reads the reloader's staged copies.
// Thread-safety: ParsedTls is immutable once built and shared by
// handshakes on any thread.

#ifndef MANCALA_SERVICES_TLS_TLS_OPENSSL_H_
#define MANCALA_SERVICES_TLS_TLS_OPENSSL_H_

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "services/tls/tls_reloader.h"

namespace mancala::services::tls {

struct ParsedTls {
  ParsedTls() = default;
  ParsedTls(const ParsedTls&) = delete;
  ParsedTls& operator=(const ParsedTls&) = delete;
  ~ParsedTls();

  X509* leaf = nullptr;                // The server's certificate.
  STACK_OF(X509)* chain = nullptr;     // The rest of the file, in order.
  EVP_PKEY* key = nullptr;             // Matches `leaf`.
  X509_STORE* client_cas = nullptr;    // nullptr: no client certificates.
};

// Sets up `ctx` (a server context its port owns and outlives no handshake
// of) for TLS 1.2 or later with the certificate `reloader` holds at each
// handshake, so a reload serves the next connection. With
// `verify_clients` and a client CA file, a client must present a
// certificate one of those CAs signed. `reloader` must outlive `ctx`.
void ServeCurrentCertificate(SSL_CTX* ctx, const TlsReloader& reloader,
                             bool verify_clients);

}  // namespace mancala::services::tls

#endif  // MANCALA_SERVICES_TLS_TLS_OPENSSL_H_
