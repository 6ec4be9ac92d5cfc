#include "services/api/auth.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "services/api/field_limits.h"
#include "services/api/rpc_log.h"
#include "services/model/match_errors.h"
#include "services/wire/errors.h"

namespace mancala::services {

grpc::Status BearerToken(const grpc::ServerContextBase& context,
                         std::string* token) {
  const auto& md = context.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) {
    return GrpcError(grpc::StatusCode::UNAUTHENTICATED, "MISSING_TOKEN",
                     "this call needs the metadata 'authorization: Bearer "
                     "<token>' (CreatePlayer gives a token)");
  }
  // credentials = auth-scheme 1*SP token68 (RFC 9110 11.4); the scheme is
  // case-insensitive (11.1), the token is not.
  const std::string_view value(it->second.data(), it->second.size());
  static constexpr std::string_view kScheme = "bearer";
  const size_t space = value.find(' ');
  const size_t start = value.find_first_not_of(' ', space);
  const std::string_view scheme = value.substr(0, space);
  const bool is_bearer =
      scheme.size() == kScheme.size() &&
      std::equal(scheme.begin(), scheme.end(), kScheme.begin(),
                 [](char a, char b) { return std::tolower(a) == b; });
  if (!is_bearer || start == std::string_view::npos ||
      value.find(' ', start) != std::string_view::npos) {
    return GrpcError(grpc::StatusCode::UNAUTHENTICATED, "MALFORMED_TOKEN",
                     "authorization metadata must be 'Bearer <token>'");
  }
  *token = std::string(value.substr(start));
  return grpc::Status::OK;
}

namespace {

grpc::Status CheckNotBanned(const storage::PlayerRecord& player) {
  if (player.banned_at_ms == 0) return grpc::Status::OK;
  return ToGrpc(PlayerBanned());
}

}  // namespace

grpc::Status Authenticate(const grpc::ServerContextBase& context,
                          storage::Store& store,
                          storage::PlayerRecord* player) {
  std::string token;
  if (grpc::Status s = BearerToken(context, &token); !s.ok()) return s;
  auto found = store.FindPlayerByTokenHash(HashToken(token));
  if (absl::IsNotFound(found.status())) {
    return GrpcError(grpc::StatusCode::UNAUTHENTICATED, "UNKNOWN_TOKEN",
                     "the bearer token belongs to no player");
  }
  if (!found.ok()) return GrpcStorageFailure(found.status());
  *player = *std::move(found);
  NoteCallPlayer(context, player->id);  // For the RPC's log line.
  return CheckNotBanned(*player);
}

grpc::Status AuthenticateOptional(const grpc::ServerContextBase& context,
                                  storage::Store& store,
                                  storage::PlayerRecord* player) {
  if (context.client_metadata().count("authorization") == 0) {
    *player = storage::PlayerRecord{};
    return grpc::Status::OK;
  }
  return Authenticate(context, store, player);
}

grpc::Status Admit(const grpc::ServerContextBase& context,
                   storage::Store& store,
                   const google::protobuf::Message& request, Caller who,
                   storage::PlayerRecord* caller) {
  if (grpc::Status s = CheckFieldLimits(request); !s.ok()) return s;
  return who == Caller::kPlayer ? Authenticate(context, store, caller)
                                : AuthenticateOptional(context, store, caller);
}

grpc::Status Authenticator::Authenticate(const grpc::ServerContextBase& context,
                                         storage::PlayerRecord* player) {
  std::string token;
  if (grpc::Status s = BearerToken(context, &token); !s.ok()) return s;
  const std::string hash = HashToken(token);
  bool known = false;
  uint64_t generation;
  {
    std::shared_lock lock(mu_);
    generation = forgets_;
    if (auto it = by_hash_.find(hash); it != by_hash_.end()) {
      *player = it->second;
      known = true;
    }
  }
  if (known) {
    NoteCallPlayer(context, player->id);  // For the RPC's log line.
    if (grpc::Status s = CheckNotBanned(*player); !s.ok()) return s;
  } else {
    *player = storage::PlayerRecord{};
    grpc::Status s = services::Authenticate(context, store_, player);
    // A banned player is remembered too (their calls keep failing from
    // memory), unless the token found nobody or the store failed.
    if (!s.ok() && player->id.empty()) return s;
    {
      std::lock_guard lock(mu_);
      // A Forget() while the store was read may be about this very
      // player: what was read may be older than it, so it is not kept.
      if (forgets_ == generation) RememberLocked(hash, *player);
    }
    if (!s.ok()) return s;
  }
  // Outside mu_: the roster's own lock is not held under the token cache's.
  if (online_ != nullptr) online_->Seen(player->id);
  return grpc::Status::OK;
}

void Authenticator::RememberLocked(const std::string& hash,
                                   const storage::PlayerRecord& player) {
  if (by_hash_.size() >= kMaxRemembered) {
    by_hash_.clear();
    hash_by_player_.clear();
  }
  // A player's previous token, if remembered, names them no more.
  auto [it, fresh] = hash_by_player_.try_emplace(player.id, hash);
  if (!fresh && it->second != hash) {
    by_hash_.erase(it->second);
    it->second = hash;
  }
  by_hash_.insert_or_assign(hash, player);
}

void Authenticator::Forget(const std::string& player_id) {
  std::lock_guard lock(mu_);
  ++forgets_;
  auto it = hash_by_player_.find(player_id);
  if (it == hash_by_player_.end()) return;
  by_hash_.erase(it->second);
  hash_by_player_.erase(it);
}

grpc::Status Authenticator::AuthenticateOptional(
    const grpc::ServerContextBase& context, storage::PlayerRecord* player) {
  if (context.client_metadata().count("authorization") == 0) {
    *player = storage::PlayerRecord{};
    return grpc::Status::OK;
  }
  return Authenticate(context, player);
}

grpc::Status Authenticator::Admit(const grpc::ServerContextBase& context,
                                  const google::protobuf::Message& request,
                                  Caller who, storage::PlayerRecord* caller) {
  if (grpc::Status s = CheckFieldLimits(request); !s.ok()) return s;
  return who == Caller::kPlayer ? Authenticate(context, caller)
                                : AuthenticateOptional(context, caller);
}

}  // namespace mancala::services
