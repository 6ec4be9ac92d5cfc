#include "services/api/page_token.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <charconv>
#include <string_view>

#include "services/wire/errors.h"

namespace mancala::services {
namespace {

std::string Base64Url(const std::string& raw) {
  std::string out(4 * ((raw.size() + 2) / 3) + 1, '\0');
  const int n =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(raw.data()),
                      static_cast<int>(raw.size()));
  out.resize(n);
  std::replace(out.begin(), out.end(), '+', '-');
  std::replace(out.begin(), out.end(), '/', '_');
  return out;
}

std::optional<std::string> FromBase64Url(std::string text) {
  if (text.empty() || text.size() % 4 != 0 || text.size() > 4096) {
    return std::nullopt;
  }
  std::replace(text.begin(), text.end(), '-', '+');
  std::replace(text.begin(), text.end(), '_', '/');
  std::string out(3 * text.size() / 4, '\0');
  const int n =
      EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(text.data()),
                      static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  size_t pad = 0;
  while (pad < 2 && text[text.size() - 1 - pad] == '=') ++pad;
  out.resize(n - pad);
  return out;
}

// Token layout before base64url (version 2): the version byte, then each
// of kind, SHA-256(scope) and the fields as a 2-byte big-endian length and
// its bytes, the fields preceded by their count (1 byte). Bytes, never text:
// any field value round-trips, and nothing in the token needs escaping.
constexpr unsigned char kVersion = 2;
constexpr size_t kMaxRaw = 3000;  // Fits the 4096-character text limit.

void Put(std::string& out, std::string_view bytes) {
  out.push_back(static_cast<char>(bytes.size() >> 8));
  out.push_back(static_cast<char>(bytes.size() & 0xff));
  out.append(bytes);
}

// Reads what Put() wrote; false past the end.
bool Take(std::string_view& in, std::string* out) {
  if (in.size() < 2) return false;
  const size_t n = (static_cast<unsigned char>(in[0]) << 8) |
                   static_cast<unsigned char>(in[1]);
  if (in.size() - 2 < n) return false;
  out->assign(in.substr(2, n));
  in.remove_prefix(2 + n);
  return true;
}

std::string ScopeDigest(const std::string& scope) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(scope.data()), scope.size(),
         digest);
  return std::string(reinterpret_cast<char*>(digest), sizeof digest);
}

}  // namespace

std::string EncodePageToken(const std::string& kind, const std::string& scope,
                            const std::vector<std::string>& fields) {
  std::string raw(1, static_cast<char>(kVersion));
  Put(raw, kind);
  Put(raw, ScopeDigest(scope));
  raw.push_back(static_cast<char>(fields.size()));
  for (const std::string& f : fields) Put(raw, f);
  return Base64Url(raw);
}

std::optional<std::vector<std::string>> DecodePageToken(
    const std::string& token, const std::string& kind,
    const std::string& scope) {
  std::optional<std::string> raw = FromBase64Url(token);
  if (!raw.has_value() || raw->empty() || raw->size() > kMaxRaw ||
      static_cast<unsigned char>((*raw)[0]) != kVersion) {
    return std::nullopt;
  }
  std::string_view in(*raw);
  in.remove_prefix(1);
  std::string got_kind, got_scope;
  if (!Take(in, &got_kind) || got_kind != kind || !Take(in, &got_scope) ||
      got_scope != ScopeDigest(scope) || in.empty()) {
    return std::nullopt;
  }
  std::vector<std::string> fields(static_cast<unsigned char>(in[0]));
  in.remove_prefix(1);
  for (std::string& f : fields) {
    if (!Take(in, &f)) return std::nullopt;
  }
  if (!in.empty()) return std::nullopt;  // Trailing bytes: not ours.
  return fields;
}

grpc::Status ReadPageToken(const std::string& token, const std::string& kind,
                           const std::string& scope, size_t count,
                           std::vector<std::string>* fields) {
  std::optional<std::vector<std::string>> read =
      DecodePageToken(token, kind, scope);
  if (!read.has_value() || read->size() != count) return GrpcInvalidPageToken();
  *fields = std::move(*read);
  return grpc::Status::OK;
}

bool TokenInt(const std::string& field, int64_t* out) {
  auto [end, ec] =
      std::from_chars(field.data(), field.data() + field.size(), *out);
  return ec == std::errc() && end == field.data() + field.size() &&
         !field.empty();
}

grpc::Status ReadCursorToken(const std::string& token, const std::string& kind,
                             const std::string& scope, int64_t* at,
                             std::string* id) {
  std::vector<std::string> fields;
  if (grpc::Status s = ReadPageToken(token, kind, scope, 2, &fields); !s.ok()) {
    return s;
  }
  if (!TokenInt(fields[0], at)) return GrpcInvalidPageToken();
  *id = fields[1];
  return grpc::Status::OK;
}

grpc::Status PageSize(int requested, int fallback, int max, int* size) {
  if (requested < 0) return GrpcInvalidField("page_size must be >= 0");
  *size = requested == 0 ? fallback : std::min(requested, max);
  return grpc::Status::OK;
}

}  // namespace mancala::services
