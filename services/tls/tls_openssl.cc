#include "services/tls/tls_openssl.h"

namespace mancala::services::tls {
namespace {

// What the callback needs; owned by the context (ex data freed with it).
struct CallbackState {
  const TlsReloader* reloader;
  bool verify_clients;
};

int StateIndex() {
  static const int index = SSL_CTX_get_ex_new_index(
      0, nullptr, nullptr, nullptr,
      [](void*, void* state, CRYPTO_EX_DATA*, int, long, void*) {
        delete static_cast<CallbackState*>(state);
      });
  return index;
}

// OpenSSL calls it while reading the ClientHello, before the server's
// certificate and its request for the client's are sent.
int UseCurrentCertificate(SSL* ssl, void* arg) {
  const auto* state = static_cast<const CallbackState*>(arg);
  const std::shared_ptr<const TlsMaterial> m = state->reloader->Current();
  const ParsedTls& p = *m->parsed;
  // Takes its own references: `m` may be replaced mid-connection.
  if (SSL_use_cert_and_key(ssl, p.leaf, p.key, p.chain, /*override=*/1) != 1) {
    return 0;  // The handshake fails; nothing is served half set up.
  }
  if (state->verify_clients && p.client_cas != nullptr) {
    SSL_set1_verify_cert_store(ssl, p.client_cas);
    SSL_set_verify(ssl, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                   nullptr);
  }
  return 1;
}

}  // namespace

ParsedTls::~ParsedTls() {
  X509_free(leaf);
  sk_X509_pop_free(chain, X509_free);
  EVP_PKEY_free(key);
  X509_STORE_free(client_cas);
}

void ServeCurrentCertificate(SSL_CTX* ctx, const TlsReloader& reloader,
                             bool verify_clients) {
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  auto* state = new CallbackState{&reloader, verify_clients};
  SSL_CTX_set_ex_data(ctx, StateIndex(), state);
  SSL_CTX_set_cert_cb(ctx, UseCurrentCertificate, state);
}

}  // namespace mancala::services::tls
