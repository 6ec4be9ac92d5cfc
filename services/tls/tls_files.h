// A server's TLS files as mancalad reads them (--tls-cert-file,
// --tls-key-file, --tls-client-ca-file): PEM text, checked with OpenSSL
// before any listener uses it, so a bad file is an error at start-up and a
// logged no-op at a reload (tls_reloader.h), never a port that refuses
// every handshake.
//
// Checks: the certificate file holds one or more PEM certificates (the
// server's first, then its chain), the key file a PEM private key that
// matches the first certificate, and the client CA file (optional) one or
// more PEM certificates. Expiry is reported, not enforced: an operator
// replacing an expired certificate must not need the server to agree first.
// Thread-safety: free functions over values; any thread.

#ifndef MANCALA_SERVICES_TLS_TLS_FILES_H_
#define MANCALA_SERVICES_TLS_TLS_FILES_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace mancala::services::tls {

// Where the files are; `client_ca` empty = clients need no certificate.
struct TlsPaths {
  std::string cert;
  std::string key;
  std::string client_ca;
};

// The files as OpenSSL objects (tls_openssl.h), for the ports that make
// their handshakes with OpenSSL themselves.
struct ParsedTls;

// The checked contents of the files at one moment.
struct TlsMaterial {
  std::string cert_chain_pem;  // As read from `cert`.
  std::string key_pem;         // As read from `key`.
  std::string client_ca_pem;   // As read from `client_ca`; empty if none.
  // The first certificate's serial number, upper-case hex as
  // `openssl x509 -serial` prints it ("1001"), and its notAfter
  // ("2027-12-03 11:00:00 UTC"), for logs.
  std::string serial_hex;
  std::string not_after;
  std::shared_ptr<const ParsedTls> parsed;  // Never null once read.

  bool SameFiles(const TlsMaterial& other) const {
    return cert_chain_pem == other.cert_chain_pem &&
           key_pem == other.key_pem && client_ca_pem == other.client_ca_pem;
  }
};

// Reads and checks the files. INVALID_ARGUMENT naming the flag and the file
// ("--tls-key-file /etc/x/tls.key: no PEM private key in it", "... does
// not match the certificate of --tls-cert-file"), NOT_FOUND for a file
// that cannot be read (with the system's reason).
absl::StatusOr<TlsMaterial> ReadTlsFiles(const TlsPaths& paths);

}  // namespace mancala::services::tls

#endif  // MANCALA_SERVICES_TLS_TLS_FILES_H_
