#include "services/web/web_codec.h"

#include <nlohmann/json.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"

namespace mancala::services::web {
namespace {

constexpr size_t kPrefix = 5;  // Flag byte + 4-byte length.

// Debian's abseil has a string_view of its own.
absl::string_view Absl(std::string_view s) { return {s.data(), s.size()}; }

nlohmann::json ErrorObject(int grpc_code, std::string_view message,
                           const std::vector<Detail>& details) {
  nlohmann::json error = {{"code", std::string(ConnectCodeName(grpc_code))}};
  if (!message.empty()) error["message"] = std::string(message);
  if (!details.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const Detail& d : details) {
      list.push_back({{"type", d.type}, {"value", Base64Unpadded(d.value)}});
    }
    error["details"] = std::move(list);
  }
  return error;
}

// A bounded run of decimal digits as a number.
std::optional<int64_t> Digits(std::string_view s, size_t max_digits) {
  if (s.empty() || s.size() > max_digits) return std::nullopt;
  int64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

std::optional<WireFormat> FormatOf(std::string_view content_type) {
  std::string type(content_type.substr(0, content_type.find(';')));
  absl::StripAsciiWhitespace(&type);
  absl::AsciiStrToLower(&type);
  if (type == "application/json")
    return WireFormat{Protocol::kConnectUnary, Codec::kJson};
  if (type == "application/proto")
    return WireFormat{Protocol::kConnectUnary, Codec::kProto};
  if (type == "application/connect+json")
    return WireFormat{Protocol::kConnectStream, Codec::kJson};
  if (type == "application/connect+proto")
    return WireFormat{Protocol::kConnectStream, Codec::kProto};
  if (type == "application/grpc-web" || type == "application/grpc-web+proto") {
    return WireFormat{Protocol::kGrpcWeb, Codec::kProto};
  }
  if (type == "application/grpc-web-text" ||
      type == "application/grpc-web-text+proto") {
    return WireFormat{Protocol::kGrpcWebText, Codec::kProto};
  }
  return std::nullopt;
}

std::string ContentTypeOf(const WireFormat& format) {
  const bool json = format.codec == Codec::kJson;
  switch (format.protocol) {
    case Protocol::kConnectUnary:
      return json ? "application/json" : "application/proto";
    case Protocol::kConnectStream:
      return json ? "application/connect+json" : "application/connect+proto";
    case Protocol::kGrpcWeb:
      return "application/grpc-web+proto";
    case Protocol::kGrpcWebText:
      return "application/grpc-web-text+proto";
  }
  return "application/proto";
}

std::string Envelope(uint8_t flags, std::string_view payload) {
  const auto n = static_cast<uint32_t>(payload.size());
  std::string out;
  out.reserve(kPrefix + payload.size());
  out.push_back(static_cast<char>(flags));
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((n >> shift) & 0xff));
  }
  out.append(payload);
  return out;
}

std::optional<Enveloped> ReadEnvelope(std::string_view bytes,
                                      size_t max_payload, bool* too_long) {
  *too_long = false;
  if (bytes.size() < kPrefix) return std::nullopt;
  uint32_t n = 0;
  for (size_t i = 1; i < kPrefix; ++i) {
    n = (n << 8) | static_cast<uint8_t>(bytes[i]);
  }
  if (n > max_payload) {
    *too_long = true;
    return std::nullopt;
  }
  if (bytes.size() - kPrefix < n) return std::nullopt;
  return Enveloped{static_cast<uint8_t>(bytes[0]),
                   std::string(bytes.substr(kPrefix, n)), kPrefix + n};
}

std::string Base64(std::string_view bytes) {
  return absl::Base64Escape(Absl(bytes));
}

std::string Base64Unpadded(std::string_view bytes) {
  std::string out = absl::Base64Escape(Absl(bytes));
  while (!out.empty() && out.back() == '=') out.pop_back();
  return out;
}

std::optional<std::string> DecodeBase64(std::string_view text) {
  // Text mode may concatenate padded chunks: decode each padded run alone.
  std::string out;
  while (!text.empty()) {
    size_t end = text.find('=');
    if (end == std::string_view::npos) {
      end = text.size();
    } else {
      while (end < text.size() && text[end] == '=') ++end;
    }
    std::string part;
    if (!absl::Base64Unescape(Absl(text.substr(0, end)), &part))
      return std::nullopt;
    out += part;
    text.remove_prefix(end);
  }
  return out;
}

std::string PercentEncode(std::string_view message) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : message) {
    if (c >= 0x20 && c <= 0x7e && c != '%') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

std::string_view ConnectCodeName(int grpc_code) {
  static constexpr std::string_view kNames[] = {"ok",
                                                "canceled",
                                                "unknown",
                                                "invalid_argument",
                                                "deadline_exceeded",
                                                "not_found",
                                                "already_exists",
                                                "permission_denied",
                                                "resource_exhausted",
                                                "failed_precondition",
                                                "aborted",
                                                "out_of_range",
                                                "unimplemented",
                                                "internal",
                                                "unavailable",
                                                "data_loss",
                                                "unauthenticated"};
  if (grpc_code < 0 || grpc_code > 16) return "unknown";
  return kNames[grpc_code];
}

int ConnectHttpStatus(int grpc_code) {
  static constexpr int kStatus[] = {200, 499, 500, 400, 504, 404, 409, 403, 429,
                                    400, 409, 400, 501, 500, 503, 500, 401};
  if (grpc_code < 0 || grpc_code > 16) return 500;
  return kStatus[grpc_code];
}

std::string ConnectErrorJson(int grpc_code, std::string_view message,
                             const std::vector<Detail>& details) {
  return ErrorObject(grpc_code, message, details).dump();
}

std::string ConnectEndStreamJson(int grpc_code, std::string_view message,
                                 const std::vector<Detail>& details) {
  if (grpc_code == 0) return "{}";
  return nlohmann::json{{"error", ErrorObject(grpc_code, message, details)}}
      .dump();
}

std::string GrpcWebTrailers(int grpc_code, std::string_view message,
                            std::string_view status_details) {
  std::string out = "grpc-status:" + std::to_string(grpc_code) + "\r\n";
  if (!message.empty())
    out += "grpc-message:" + PercentEncode(message) + "\r\n";
  if (!status_details.empty()) {
    out += "grpc-status-details-bin:" + Base64(status_details) + "\r\n";
  }
  return out;
}

std::optional<int64_t> ConnectTimeoutMs(std::string_view value) {
  return Digits(value, 10);
}

std::optional<int64_t> GrpcTimeoutMs(std::string_view value) {
  if (value.size() < 2) return std::nullopt;
  const std::optional<int64_t> n = Digits(value.substr(0, value.size() - 1), 8);
  if (!n) return std::nullopt;
  switch (value.back()) {
    case 'H':
      return *n * 3'600'000;
    case 'M':
      return *n * 60'000;
    case 'S':
      return *n * 1'000;
    case 'm':
      return *n;
    case 'u':
      return (*n + 999) / 1'000;
    case 'n':
      return (*n + 999'999) / 1'000'000;
    default:
      return std::nullopt;
  }
}

std::optional<std::pair<std::string, std::string>> SplitPath(
    std::string_view target) {
  target = target.substr(0, target.find('?'));
  if (target.size() < 4 || target[0] != '/') return std::nullopt;
  const size_t slash = target.find('/', 1);
  if (slash == std::string_view::npos || slash == 1 ||
      slash + 1 == target.size() ||
      target.find('/', slash + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  return std::make_pair(std::string(target.substr(1, slash - 1)),
                        std::string(target.substr(slash + 1)));
}

}  // namespace mancala::services::web
