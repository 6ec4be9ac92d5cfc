// The two browser protocols as bytes: what the web port (web_port.h) reads
// from a request and writes in a response, apart from the HTTP exchange
// itself and the messages' contents.
//
// Connect (https://connectrpc.com/docs/protocol):
//   - unary: the body is the bare message (application/json or
//     application/proto); an error is a non-200 status from
//     ConnectHttpStatus() with a JSON body (ConnectErrorJson());
//   - server streaming (application/connect+json or +proto): the request
//     is one envelope, the response 200 with one envelope per message and a
//     last one flagged kConnectEndStream holding JSON ({} or {"error":...}).
// gRPC-Web (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-WEB.md):
//   - application/grpc-web[+proto] or application/grpc-web-text[+proto]
//     (the body base64, which may be padded at any frame);
//   - frames as gRPC's (flag byte, 4-byte big-endian length); the status
//     in a last frame flagged kGrpcWebTrailers holding "name:value\r\n"
//     lines, or, before any message, in the headers (trailers-only).
// Envelopes and frames have the same 5-byte prefix.
//
// Every function here is pure; none throws. Thread-safety: none needed.

#ifndef MANCALA_SERVICES_WEB_WEB_CODEC_H_
#define MANCALA_SERVICES_WEB_WEB_CODEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mancala::services::web {

// Which protocol and codec a request's Content-Type asks for.
enum class Protocol { kConnectUnary, kConnectStream, kGrpcWeb, kGrpcWebText };
enum class Codec { kProto, kJson };
struct WireFormat {
  Protocol protocol;
  Codec codec;
};
// nullopt: unsupported (answer 415). Parameters (";charset=utf-8") are
// ignored; names are case-insensitive.
std::optional<WireFormat> FormatOf(std::string_view content_type);
// The Content-Type of the response for `format`.
std::string ContentTypeOf(const WireFormat& format);

inline constexpr uint8_t kConnectEndStream = 0x02;
inline constexpr uint8_t kGrpcWebTrailers = 0x80;
inline constexpr uint8_t kCompressed = 0x01;  // Refused: we send identity.

// `flags`, then `payload`'s length big-endian, then `payload`.
std::string Envelope(uint8_t flags, std::string_view payload);

// One envelope read from the front of `bytes`.
struct Enveloped {
  uint8_t flags = 0;
  std::string payload;
  size_t consumed = 0;  // Bytes of `bytes` it took.
};
// nullopt if `bytes` holds no complete envelope, or one longer than
// `max_payload` (then *too_long is set).
std::optional<Enveloped> ReadEnvelope(std::string_view bytes,
                                      size_t max_payload, bool* too_long);

// Standard base64 with padding (gRPC-Web text), and the Connect details'
// form: standard alphabet, no padding.
std::string Base64(std::string_view bytes);
std::string Base64Unpadded(std::string_view bytes);
// Decodes standard base64, padded or not, with padding also inside (text
// mode pads each chunk); nullopt if malformed.
std::optional<std::string> DecodeBase64(std::string_view text);

// grpc-message's encoding: percent-encodes bytes outside printable ASCII
// and '%' itself (PROTOCOL-HTTP2.md "Status-Message").
std::string PercentEncode(std::string_view message);

// gRPC's status code number as Connect names it ("not_found") and the
// HTTP status of a Connect unary error with it (the protocol's table).
std::string_view ConnectCodeName(int grpc_code);
int ConnectHttpStatus(int grpc_code);

// One google.rpc.Status detail (an Any): its type name, without the
// "type.googleapis.com/" prefix, and its serialized value.
struct Detail {
  std::string type;
  std::string value;
};
// {"code":"...","message":"...","details":[{"type":..,"value":..}]} with
// the values in unpadded base64; "message" and "details" only if set.
std::string ConnectErrorJson(int grpc_code, std::string_view message,
                             const std::vector<Detail>& details);
// A Connect stream's last envelope payload: {} when `grpc_code` is 0, else
// {"error":{...}}.
std::string ConnectEndStreamJson(int grpc_code, std::string_view message,
                                 const std::vector<Detail>& details);
// A gRPC-Web trailers block: "grpc-status:N\r\n", "grpc-message:...\r\n"
// (percent-encoded; omitted when empty) and, when `status_details` (a
// serialized google.rpc.Status) is set, "grpc-status-details-bin:<base64>".
std::string GrpcWebTrailers(int grpc_code, std::string_view message,
                            std::string_view status_details);

// A timeout header as a duration in milliseconds: connect-timeout-ms (at
// most 10 digits) or grpc-timeout ("<up to 8 digits><H|M|S|m|u|n>");
// nullopt if malformed (answer invalid_argument).
std::optional<int64_t> ConnectTimeoutMs(std::string_view value);
std::optional<int64_t> GrpcTimeoutMs(std::string_view value);

// "/mancala.v1.MatchService/GetMatch" -> {"mancala.v1.MatchService",
// "GetMatch"}; nullopt for any other shape.
std::optional<std::pair<std::string, std::string>> SplitPath(
    std::string_view target);

}  // namespace mancala::services::web

#endif  // MANCALA_SERVICES_WEB_WEB_CODEC_H_
