#include "client/rpc.h"

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/time_util.h>

#include <cctype>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "mancala/v1/player_service.grpc.pb.h"

namespace mancala::cli {

const char kRetryServiceConfig[] = R"json({
  "methodConfig": [{
    "name": [
      {"service": "mancala.v1.MatchService", "method": "CreateMatch"},
      {"service": "mancala.v1.MatchService", "method": "SubmitMove"},
      {"service": "mancala.v1.MatchService", "method": "GetMatch"},
      {"service": "mancala.v1.MatchService", "method": "ListMoves"},
      {"service": "mancala.v1.PlayerService", "method": "GetPlayer"},
      {"service": "mancala.v1.RatingService"},
      {"service": "mancala.v1.MatchmakingService", "method": "GetQueueStats"},
      {"service": "mancala.v1.AdminService", "method": "ListMatches"},
      {"service": "mancala.v1.AdminService", "method": "GetMatchHistory"},
      {"service": "mancala.v1.AdminService", "method": "ListAuditLog"},
      {"service": "mancala.v1.AdminService", "method": "VerifyMatch"}
    ],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.2s",
      "maxBackoff": "2s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }]
})json";

namespace {
std::shared_ptr<grpc::ChannelCredentials>& CurrentCredentials() {
  static auto* credentials = new std::shared_ptr<grpc::ChannelCredentials>(
      grpc::InsecureChannelCredentials());
  return *credentials;
}
}  // namespace

absl::Status UseTls(const TlsOptions& tls) {
  if (!tls.on && tls.ca_file.empty()) return absl::OkStatus();
  grpc::SslCredentialsOptions ssl;  // Empty roots: the system's.
  if (!tls.ca_file.empty()) {
    std::ifstream in(tls.ca_file, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in) {
      return absl::InvalidArgumentError("--tls-ca-file " + tls.ca_file +
                                        ": cannot read it");
    }
    ssl.pem_root_certs = text.str();
    if (ssl.pem_root_certs.find("-----BEGIN CERTIFICATE-----") ==
        std::string::npos) {
      return absl::InvalidArgumentError("--tls-ca-file " + tls.ca_file +
                                        ": no PEM certificate in it");
    }
  }
  CurrentCredentials() = grpc::SslCredentials(ssl);
  return absl::OkStatus();
}

std::shared_ptr<grpc::ChannelCredentials> Credentials() {
  return CurrentCredentials();
}

std::shared_ptr<grpc::Channel> Dial(const std::string& server) {
  grpc::ChannelArguments args;
  args.SetServiceConfigJSON(kRetryServiceConfig);
  return grpc::CreateCustomChannel(server, Credentials(), args);
}

std::unique_ptr<grpc::ClientContext> CallContext(const std::string& token,
                                                 int deadline_ms) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (deadline_ms > 0) {
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::milliseconds(deadline_ms));
  }
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

std::optional<v1::Game> ParseGame(const std::string& name) {
  v1::Game game;
  std::string upper;
  for (char c : name) {
    upper.push_back(std::toupper(static_cast<unsigned char>(c)));
  }
  if (!v1::Game_Parse(upper, &game) || game == v1::GAME_UNSPECIFIED) {
    return std::nullopt;
  }
  return game;
}

std::string GameLabel(v1::Game game) {
  std::string name = v1::Game_Name(game);
  for (char& c : name) c = std::tolower(static_cast<unsigned char>(c));
  return name;
}

int ShowError(std::ostream& err, const std::string& what,
              const grpc::Status& status) {
  err << "error: " << what << ": " << status.error_message() << " ("
      << absl::StatusCodeToString(
             static_cast<absl::StatusCode>(status.error_code()))
      << ")\n";
  return 1;
}

std::string ToJson(const google::protobuf::Message& message) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  // Scripts find every field, zeros and empty lists included.
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  return out + "\n";
}

grpc::Status ResolvePlayer(const std::shared_ptr<grpc::Channel>& channel,
                           const std::string& player, const std::string& token,
                           std::string* out) {
  if (!player.empty()) {
    *out = player;
    return grpc::Status::OK;
  }
  if (token.empty()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "name the player with --player players/ID or "
                        "--token (your own)");
  }
  v1::GetPlayerRequest req;
  req.set_name("players/me");
  v1::Player me;
  auto ctx = CallContext(token);
  grpc::Status s =
      v1::PlayerService::NewStub(channel)->GetPlayer(ctx.get(), req, &me);
  if (s.ok()) *out = me.name();
  return s;
}

std::string ShortTime(const google::protobuf::Timestamp& t) {
  if (t.seconds() == 0 && t.nanos() == 0) return "-";
  const std::time_t secs = static_cast<std::time_t>(t.seconds());
  std::tm utc{};
  gmtime_r(&secs, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &utc);
  return buf;
}

}  // namespace mancala::cli
