#include "services/auth.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "services/errors.h"
#include "services/rpc_log.h"

namespace mancala::services {
namespace {

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[data[i] >> 4]);
    out.push_back(kDigits[data[i] & 0xf]);
  }
  return out;
}

std::string RandomHex(size_t bytes) {
  unsigned char buf[64];
  if (bytes > sizeof buf || RAND_bytes(buf, static_cast<int>(bytes)) != 1) {
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  }
  return Hex(buf, bytes);
}

}  // namespace

std::string NewToken() { return RandomHex(32); }
std::string NewId() { return RandomHex(16); }

std::string NewInviteCode() {
  static constexpr char kAlphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  static constexpr size_t kSize = sizeof kAlphabet - 1;
  unsigned char buf[8];
  if (RAND_bytes(buf, sizeof buf) != 1) {
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  }
  std::string code;
  for (unsigned char b : buf) code.push_back(kAlphabet[b % kSize]);
  return code;
}

std::string HashToken(const std::string& token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // Fetched once: EVP_sha256() would look the algorithm up on every call.
  static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  EVP_Digest(token.data(), token.size(), digest, &len, sha256, nullptr);
  return Hex(digest, len);
}

grpc::Status Authenticator::Authenticate(const grpc::ServerContextBase& context,
                                         storage::PlayerRecord* player) {
  const auto& md = context.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) {
    return Error(grpc::StatusCode::UNAUTHENTICATED, "MISSING_TOKEN",
                 "this call needs the metadata 'authorization: Bearer "
                 "<token>' (CreatePlayer gives a token)");
  }
  const std::string_view value(it->second.data(), it->second.size());
  static constexpr std::string_view kPrefix = "Bearer ";
  if (value.size() <= kPrefix.size() || !value.starts_with(kPrefix)) {
    return Error(grpc::StatusCode::UNAUTHENTICATED, "MALFORMED_TOKEN",
                 "authorization metadata must be 'Bearer <token>'");
  }
  const std::string hash = HashToken(std::string(value.substr(kPrefix.size())));
  {
    std::shared_lock lock(mu_);
    if (auto known = by_hash_.find(hash); known != by_hash_.end()) {
      *player = known->second;
      NoteCallPlayer(context, player->id);  // For the RPC's log line.
      return grpc::Status::OK;
    }
  }
  auto found = store_.FindPlayerByTokenHash(hash);
  if (absl::IsNotFound(found.status())) {
    return Error(grpc::StatusCode::UNAUTHENTICATED, "UNKNOWN_TOKEN",
                 "the bearer token belongs to no player");
  }
  if (!found.ok()) return FromStorage(found.status());
  {
    std::lock_guard lock(mu_);
    if (by_hash_.size() >= kMaxRemembered) by_hash_.clear();
    by_hash_.emplace(hash, *found);
  }
  *player = *std::move(found);
  NoteCallPlayer(context, player->id);  // For the RPC's log line.
  return grpc::Status::OK;
}

grpc::Status Authenticator::AuthenticateOptional(
    const grpc::ServerContextBase& context, storage::PlayerRecord* player) {
  if (context.client_metadata().count("authorization") == 0) {
    *player = storage::PlayerRecord{};
    return grpc::Status::OK;
  }
  return Authenticate(context, player);
}

}  // namespace mancala::services
