// Bearer tokens for players: reading them from a call and finding their
// player. How tokens are made and stored: ids.h.

#ifndef MANCALA_SERVICES_API_AUTH_H_
#define MANCALA_SERVICES_API_AUTH_H_

#include <google/protobuf/message.h>
#include <grpcpp/grpcpp.h>

#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "services/base/ids.h"
#include "services/cluster/online_players.h"
#include "storage/store.h"

namespace mancala::services {

// Authorization, one rule for every RPC (mancala.v1.MatchService's
// comment): `authorization: <scheme> <token>` with the scheme "Bearer" in
// any letter case. Calls that act for a player use Authenticate; every
// other call uses AuthenticateOptional, so a present but bad token is
// UNAUTHENTICATED everywhere.

// The token of `authorization: Bearer <token>`: UNAUTHENTICATED
// (MISSING_TOKEN, MALFORMED_TOKEN) otherwise.
grpc::Status BearerToken(const grpc::ServerContextBase& context,
                         std::string* token);

// The player whose token the call carries. UNAUTHENTICATED when the
// authorization metadata is missing, malformed or names no player;
// PERMISSION_DENIED (PLAYER_BANNED) when the player is banned;
// UNAVAILABLE if the store fails.
grpc::Status Authenticate(const grpc::ServerContextBase& context,
                          storage::Store& store, storage::PlayerRecord* player);

// Like Authenticate, but a call without authorization metadata is fine
// (anonymous: `player` is left empty); a bad or unknown token still fails.
grpc::Status AuthenticateOptional(const grpc::ServerContextBase& context,
                                  storage::Store& store,
                                  storage::PlayerRecord* player);

// What a call needs of its caller.
enum class Caller {
  kAnyone,  // Public: no token needed, a present one must be valid.
  kPlayer,  // Acts for a player: a valid token is needed.
};

// The checks every player-facing RPC makes first, in this order: the
// request's field limits (field_limits.h), then the token as `who` says.
// `caller` is the player, or empty for an anonymous public call. Looks the
// token up in the store every time (Authenticator::Admit remembers it).
grpc::Status Admit(const grpc::ServerContextBase& context,
                   storage::Store& store,
                   const google::protobuf::Message& request, Caller who,
                   storage::PlayerRecord* caller);

// The same checks, with the players behind tokens remembered.
//
// A token once found is answered from memory afterwards: an authenticated
// call reads the database only the first time its token is seen (token
// look-ups used to queue behind every write). Players are never deleted,
// but their credentials change (a replaced token, a ban: storage/store.h
// "Credentials"): whoever changes them calls Forget(), the service that
// made the change on this node at once and the CredentialWatch
// (services/cluster/credential_watch.h) for changes made on other nodes,
// so the next call reads the player again. Unknown tokens are not
// remembered; they go to the store each time and keep failing. The memory
// holds at most kMaxRemembered players; when full it starts again empty.
//
// Every caller it admits is also who is online (online_players.h): each
// authenticated call counts as the player Seen(); the streams and the
// count reach the same OnlinePlayers through online().
// Thread-safety: all methods may be called from any thread.
class Authenticator {
 public:
  static constexpr size_t kMaxRemembered = 100'000;

  // `online` (may be null: nobody is counted) outlives this.
  explicit Authenticator(storage::Store& store, OnlinePlayers* online = nullptr)
      : store_(store), online_(online) {}

  OnlinePlayers* online() const { return online_; }

  // As the free functions above, answered from memory when the token was
  // seen before.
  grpc::Status Authenticate(const grpc::ServerContextBase& context,
                            storage::PlayerRecord* player);
  grpc::Status AuthenticateOptional(const grpc::ServerContextBase& context,
                                    storage::PlayerRecord* player);
  grpc::Status Admit(const grpc::ServerContextBase& context,
                     const google::protobuf::Message& request, Caller who,
                     storage::PlayerRecord* caller);

  // Drops what is remembered of `player_id`: their next call reads the
  // store. Call after a change of their credentials is committed.
  void Forget(const std::string& player_id);

 private:
  storage::Store& store_;
  OnlinePlayers* const online_;
  std::shared_mutex mu_;
  std::unordered_map<std::string, storage::PlayerRecord> by_hash_;
  // Adds `player` under `hash`; mu_ held exclusively.
  void RememberLocked(const std::string& hash,
                      const storage::PlayerRecord& player);

  // The key of each remembered player in by_hash_ (one token each).
  std::unordered_map<std::string, std::string> hash_by_player_;
  // Forget() calls so far: a read that raced one is not remembered.
  uint64_t forgets_ = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_AUTH_H_
