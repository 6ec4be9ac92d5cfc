// Bearer tokens for players.
//
// A token is 32 random bytes from OpenSSL's RAND_bytes, sent as 64 hex
// characters in the metadata `authorization: Bearer <token>`. Only its
// SHA-256 (hex) is stored, so a leaked database reveals no usable token.

#ifndef MANCALA_SERVICES_AUTH_H_
#define MANCALA_SERVICES_AUTH_H_

#include <grpcpp/grpcpp.h>

#include <string>

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

// The player whose token the call carries. UNAUTHENTICATED when the
// authorization metadata is missing, malformed or names no player;
// UNAVAILABLE if the store fails.
grpc::Status Authenticate(const grpc::ServerContextBase& context,
                          storage::Store& store, storage::PlayerRecord* player);

// Like Authenticate, but a call without authorization metadata is fine
// (anonymous: `player` is left empty); a bad or unknown token still fails.
grpc::Status AuthenticateOptional(const grpc::ServerContextBase& context,
                                  storage::Store& store,
                                  storage::PlayerRecord* player);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_AUTH_H_
