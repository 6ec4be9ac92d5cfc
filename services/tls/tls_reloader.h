// mancalad's TLS certificate, kept current while the server runs: the
// operator's files (tls_files.h) are read again every `interval`; a changed
// set that passes the checks becomes the certificate for new handshakes, a
// set that fails them is logged and the last good one kept. Open
// connections are never touched: a certificate is only used in a handshake.
//
// The gRPC port reads its certificate through gRPC's own
// FileWatcherCertificateProvider, which re-reads files every second but
// checks nothing: a half-written or mismatched file would make every new
// handshake fail, and a missing one would drop the certificate. So gRPC
// watches private copies that only this class writes, and only after the
// checks: a fresh folder (mode 0700, in the temporary folder: $TMPDIR or
// the system's) holding
// identity.pem (the chain, then the key; mode 0600), replaced by one
// rename, so every read of it sees one generation whole, and client_ca.pem.
// (gRPC reads the path twice, key then chain, microseconds apart, once a
// second: a rename falling between them would pair two generations until
// its next read, a second later.) The folder is removed when the reloader
// is destroyed.
//
// Thread-safety: Start and the destructor from one thread; GrpcCredentials,
// Current and reloads from any.

#ifndef MANCALA_SERVICES_TLS_TLS_RELOADER_H_
#define MANCALA_SERVICES_TLS_TLS_RELOADER_H_

#include <grpcpp/security/server_credentials.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "services/base/mutex.h"
#include "services/tls/tls_files.h"

namespace mancala::services::tls {

class TlsReloader {
 public:
  // Reads and checks `paths` (ReadTlsFiles' errors), stages the copies
  // (INTERNAL if the folder cannot be made or written) and starts the
  // thread that re-reads them every `interval`.
  static absl::StatusOr<std::unique_ptr<TlsReloader>> Start(
      const TlsPaths& paths, std::chrono::milliseconds interval);
  ~TlsReloader();  // Stops the thread; removes the staged copies.

  TlsReloader(const TlsReloader&) = delete;
  TlsReloader& operator=(const TlsReloader&) = delete;

  // Credentials for grpc::ServerBuilder::AddListeningPort: TLS 1.2 or
  // later with the current certificate; with a client CA, a client must
  // present a certificate it signed (else the handshake fails).
  std::shared_ptr<grpc::ServerCredentials> GrpcCredentials() const;

  // The files as last accepted.
  std::shared_ptr<const TlsMaterial> Current() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  TlsReloader(TlsPaths paths, std::chrono::milliseconds interval,
              std::string folder);
  absl::Status Stage(const TlsMaterial& m) const;
  void Run() ABSL_LOCKS_EXCLUDED(mu_);

  const TlsPaths paths_;
  const std::chrono::milliseconds interval_;
  const std::string folder_;  // The staged copies.
  mutable Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::shared_ptr<const TlsMaterial> current_ ABSL_GUARDED_BY(mu_);
  std::string last_error_;  // Only the thread: one log line per failure.
  std::thread thread_;
};

}  // namespace mancala::services::tls

#endif  // MANCALA_SERVICES_TLS_TLS_RELOADER_H_
