#include "services/base/ids.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

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

namespace {
// No 0/O, 1/I/L look-alikes: codes are read aloud and typed by people.
constexpr char kAlphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
constexpr size_t kSize = sizeof kAlphabet - 1;
}  // namespace

std::optional<std::string> NormalizeInviteCode(std::string_view typed) {
  std::string code;
  for (char c : typed) {
    if (c == ' ' || c == '-') continue;
    const char upper =
        static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (std::string_view(kAlphabet).find(upper) == std::string_view::npos) {
      return std::nullopt;
    }
    code.push_back(upper);
  }
  return code;
}

std::string NewInviteCode() {
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
  EVP_Digest(token.data(), token.size(), digest, &len, EVP_sha256(), nullptr);
  return Hex(digest, len);
}

}  // namespace mancala::services
