// Bearer tokens for players.
//
// A token is 32 random bytes from OpenSSL's RAND_bytes, sent as 64 hex
// characters in the metadata `authorization: Bearer <token>`. Only its
// SHA-256 (hex) is stored, so a leaked database reveals no usable token.

#ifndef MANCALA_SERVICES_AUTH_H_
#define MANCALA_SERVICES_AUTH_H_

#include <grpcpp/grpcpp.h>

#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "storage/store.h"

namespace mancala::services {

// A new random token (64 lowercase hex characters).
std::string NewToken();
// A new random id for records (32 lowercase hex characters).
std::string NewId();
// A new invite code: 8 characters from an alphabet without look-alikes
// (no 0/O, 1/I/L), easy to read aloud.
std::string NewInviteCode();
// Hex SHA-256 of `token`.
std::string HashToken(const std::string& token);

// Finds the player behind a call's bearer token.
//
// A token's SHA-256 never changes and players are never deleted or
// re-keyed, so a token once found is answered from memory afterwards: an
// authenticated call reads the database only the first time its token is
// seen (issue 12: token look-ups queued behind every write). Unknown tokens
// are not remembered; they go to the store each time and keep failing.
// The memory holds at most kMaxRemembered players; when full it starts
// again empty.
// Thread-safety: all methods may be called from any thread.
class Authenticator {
 public:
  static constexpr size_t kMaxRemembered = 100'000;

  explicit Authenticator(storage::Store& store) : store_(store) {}

  // The player whose token the call carries. UNAUTHENTICATED when the
  // authorization metadata is missing, malformed or names no player;
  // UNAVAILABLE if the store fails.
  grpc::Status Authenticate(const grpc::ServerContextBase& context,
                            storage::PlayerRecord* player);
  // Like Authenticate, but a call without authorization metadata is fine
  // (anonymous: `player` is left empty); a bad or unknown token still fails.
  grpc::Status AuthenticateOptional(const grpc::ServerContextBase& context,
                                    storage::PlayerRecord* player);

 private:
  storage::Store& store_;
  std::shared_mutex mu_;
  std::unordered_map<std::string, storage::PlayerRecord> by_hash_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_AUTH_H_
