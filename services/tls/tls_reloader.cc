#include "services/tls/tls_reloader.h"

#include <fcntl.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_credentials_options.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace mancala::services::tls {
namespace {

// gRPC's provider re-reads the staged copies this often (its unit: s).
constexpr unsigned kGrpcRefreshSeconds = 1;

std::string Errno(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Writes `text` to `path` (mode 0600) through `path`.new and a rename, so a
// reader sees the old file or the new one, whole.
absl::Status WriteAtomically(const std::string& path, const std::string& text) {
  const std::string fresh = path + ".new";
  int fd = ::open(fresh.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                  0600);
  if (fd < 0) return absl::InternalError(Errno("cannot write " + fresh));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return absl::InternalError(Errno("cannot write " + fresh));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (std::rename(fresh.c_str(), path.c_str()) != 0) {
    return absl::InternalError(Errno("cannot rename " + fresh));
  }
  return absl::OkStatus();
}

void LogServing(const char* what, const TlsMaterial& m) {
  spdlog::info("{}: serial {}, valid until {}", what, m.serial_hex,
               m.not_after);
}

}  // namespace

absl::StatusOr<std::unique_ptr<TlsReloader>> TlsReloader::Start(
    const TlsPaths& paths, std::chrono::milliseconds interval) {
  auto material = ReadTlsFiles(paths);
  if (!material.ok()) return material.status();
  std::error_code error;
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path(error);  // $TMPDIR or the system's.
  if (error) {
    return absl::InternalError("no temporary folder: " + error.message());
  }
  std::string folder = (tmp / "mancalad-tls-XXXXXX").string();
  if (::mkdtemp(folder.data()) == nullptr) {  // Mode 0700.
    return absl::InternalError(Errno("cannot make a folder " + folder));
  }
  std::unique_ptr<TlsReloader> r(
      new TlsReloader(paths, interval, std::move(folder)));
  if (absl::Status s = r->Stage(*material); !s.ok()) return s;
  LogServing("TLS certificate", *material);
  {
    MutexLock lock(&r->mu_);
    r->current_ = std::make_shared<const TlsMaterial>(*std::move(material));
  }
  r->thread_ = std::thread([p = r.get()] { p->Run(); });
  return r;
}

TlsReloader::TlsReloader(TlsPaths paths, std::chrono::milliseconds interval,
                         std::string folder)
    : paths_(std::move(paths)),
      interval_(interval),
      folder_(std::move(folder)) {}

TlsReloader::~TlsReloader() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
  for (const char* name : {"/identity.pem", "/client_ca.pem",
                           "/identity.pem.new", "/client_ca.pem.new"}) {
    ::unlink((folder_ + name).c_str());
  }
  ::rmdir(folder_.c_str());
}

absl::Status TlsReloader::Stage(const TlsMaterial& m) const {
  // The CA first: a client verified against a newer CA than the identity
  // for one refresh is no worse than the rotation itself.
  if (!paths_.client_ca.empty()) {
    if (absl::Status s = WriteAtomically(folder_ + "/client_ca.pem",
                                         m.client_ca_pem);
        !s.ok()) {
      return s;
    }
  }
  // One file for both: gRPC's provider reads the key and the chain from
  // the same path, and OpenSSL skips the blocks of the other kind.
  std::string identity = m.cert_chain_pem;
  if (!identity.empty() && identity.back() != '\n') identity += '\n';
  identity += m.key_pem;
  return WriteAtomically(folder_ + "/identity.pem", identity);
}

std::shared_ptr<grpc::ServerCredentials> TlsReloader::GrpcCredentials() const {
  const std::string identity = folder_ + "/identity.pem";
  auto provider =
      paths_.client_ca.empty()
          ? std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
                identity, identity, kGrpcRefreshSeconds)
          : std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
                identity, identity, folder_ + "/client_ca.pem",
                kGrpcRefreshSeconds);
  grpc::experimental::TlsServerCredentialsOptions options(provider);
  options.watch_identity_key_cert_pairs();
  if (paths_.client_ca.empty()) {
    options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  } else {
    options.watch_root_certs();
    options.set_cert_request_type(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  }
  return grpc::experimental::TlsServerCredentials(options);
}

std::shared_ptr<const TlsMaterial> TlsReloader::Current() const {
  MutexLock lock(&mu_);
  return current_;
}

void TlsReloader::Run() {
  for (;;) {
    {
      MutexLock lock(&mu_);
      if (mu_.AwaitWithTimeout(Condition(&stopping_),
                               absl::FromChrono(interval_))) {
        return;
      }
    }
    auto material = ReadTlsFiles(paths_);
    if (!material.ok()) {
      // Once per distinct failure: a file being replaced fails for one
      // pass, a broken one for every pass.
      if (material.status().message() != last_error_) {
        last_error_ = std::string(material.status().message());
        spdlog::warn("TLS files not reloaded, keeping serial {}: {}",
                     Current()->serial_hex, last_error_);
      }
      continue;
    }
    last_error_.clear();
    if (material->SameFiles(*Current())) continue;
    if (absl::Status s = Stage(*material); !s.ok()) {
      spdlog::error("TLS files not reloaded: {}", std::string(s.message()));
      continue;
    }
    LogServing("TLS certificate reloaded", *material);
    MutexLock lock(&mu_);
    current_ = std::make_shared<const TlsMaterial>(*std::move(material));
  }
}

}  // namespace mancala::services::tls
