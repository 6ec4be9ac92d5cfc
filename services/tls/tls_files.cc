#include "services/tls/tls_files.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "services/tls/tls_openssl.h"

namespace mancala::services::tls {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

absl::StatusOr<std::string> ReadFile(const std::string& flag,
                                     const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(flag + " " + path + ": cannot read it (" +
                               std::strerror(errno) + ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Bio MemoryBio(const std::string& text) {
  return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// Every PEM certificate in `pem`, in order; none if it holds none.
std::vector<Cert> Certificates(const std::string& pem) {
  std::vector<Cert> certs;
  Bio bio = MemoryBio(pem);
  while (X509* x = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    certs.emplace_back(x);
  }
  ERR_clear_error();  // The end of the text reads as an error.
  return certs;
}

std::string SerialHex(X509* cert) {
  BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr);
  if (bn == nullptr) return "?";
  char* hex = BN_bn2hex(bn);
  std::string out = hex != nullptr ? hex : "?";
  OPENSSL_free(hex);
  BN_free(bn);
  return out;
}

std::string NotAfter(X509* cert) {
  struct tm t {};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &t) != 1) return "?";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &t);
  return text;
}

}  // namespace

absl::StatusOr<TlsMaterial> ReadTlsFiles(const TlsPaths& paths) {
  TlsMaterial m;
  auto cert_text = ReadFile("--tls-cert-file", paths.cert);
  if (!cert_text.ok()) return cert_text.status();
  auto key_text = ReadFile("--tls-key-file", paths.key);
  if (!key_text.ok()) return key_text.status();
  m.cert_chain_pem = *std::move(cert_text);
  m.key_pem = *std::move(key_text);

  std::vector<Cert> chain = Certificates(m.cert_chain_pem);
  if (chain.empty()) {
    return absl::InvalidArgumentError("--tls-cert-file " + paths.cert +
                                      ": no PEM certificate in it");
  }
  Bio key_bio = MemoryBio(m.key_pem);
  Key key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  if (key == nullptr) {
    return absl::InvalidArgumentError(
        "--tls-key-file " + paths.key +
        ": no PEM private key in it (or one protected by a passphrase)");
  }
  if (X509_check_private_key(chain.front().get(), key.get()) != 1) {
    ERR_clear_error();
    return absl::InvalidArgumentError("--tls-key-file " + paths.key +
                                      ": does not match the certificate of "
                                      "--tls-cert-file " +
                                      paths.cert);
  }
  auto parsed = std::make_shared<ParsedTls>();
  if (!paths.client_ca.empty()) {
    auto ca_text = ReadFile("--tls-client-ca-file", paths.client_ca);
    if (!ca_text.ok()) return ca_text.status();
    m.client_ca_pem = *std::move(ca_text);
    std::vector<Cert> cas = Certificates(m.client_ca_pem);
    if (cas.empty()) {
      return absl::InvalidArgumentError("--tls-client-ca-file " +
                                        paths.client_ca +
                                        ": no PEM certificate in it");
    }
    parsed->client_cas = X509_STORE_new();
    for (const Cert& ca : cas) X509_STORE_add_cert(parsed->client_cas, ca.get());
  }
  m.serial_hex = SerialHex(chain.front().get());
  m.not_after = NotAfter(chain.front().get());
  parsed->leaf = chain.front().release();
  parsed->chain = sk_X509_new_null();
  for (size_t i = 1; i < chain.size(); ++i) {
    sk_X509_push(parsed->chain, chain[i].release());
  }
  parsed->key = key.release();
  m.parsed = std::move(parsed);
  return m;
}

}  // namespace mancala::services::tls
