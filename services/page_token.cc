#include "services/page_token.h"

#include <openssl/evp.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "services/errors.h"

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

}  // namespace

std::string EncodePageToken(const std::string& kind, const std::string& scope,
                            const std::vector<std::string>& fields) {
  nlohmann::json j = {{"v", 1}, {"k", kind}, {"s", scope}, {"f", fields}};
  return Base64Url(j.dump());
}

std::optional<std::vector<std::string>> DecodePageToken(
    const std::string& token, const std::string& kind,
    const std::string& scope) {
  std::optional<std::string> raw = FromBase64Url(token);
  if (!raw.has_value()) return std::nullopt;
  try {
    nlohmann::json j = nlohmann::json::parse(*raw);
    if (j.at("v") != 1 || j.at("k") != kind || j.at("s") != scope) {
      return std::nullopt;
    }
    return j.at("f").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

grpc::Status ReadPageToken(const std::string& token, const std::string& kind,
                           const std::string& scope, size_t count,
                           std::vector<std::string>* fields) {
  std::optional<std::vector<std::string>> read =
      DecodePageToken(token, kind, scope);
  if (!read.has_value() || read->size() != count) return InvalidPageToken();
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
  if (!TokenInt(fields[0], at)) return InvalidPageToken();
  *id = fields[1];
  return grpc::Status::OK;
}

grpc::Status PageSize(int requested, int fallback, int max, int* size) {
  if (requested < 0) return Invalid("page_size must be >= 0");
  *size = requested == 0 ? fallback : std::min(requested, max);
  return grpc::Status::OK;
}

}  // namespace mancala::services
