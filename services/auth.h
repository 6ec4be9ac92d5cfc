// Bearer tokens for players.
//
// A token is 32 random bytes from OpenSSL's RAND_bytes, sent as 64 hex
// characters in the metadata `authorization: Bearer <token>`. Only its
// SHA-256 (hex) is stored, so a leaked database reveals no usable token.

#ifndef MANCALA_SERVICES_AUTH_H_
#define MANCALA_SERVICES_AUTH_H_

#include <string>

#include <grpcpp/grpcpp.h>

#include "storage/store.h"

namespace mancala::services {

// A new random token (64 lowercase hex characters).
std::string NewToken();
// A new random id for records (32 lowercase hex characters).
std::string NewId();
// Hex SHA-256 of `token`.
std::string HashToken(const std::string& token);

// The player whose token the call carries. UNAUTHENTICATED when the
// authorization metadata is missing, malformed or names no player;
// UNAVAILABLE if the store fails.
grpc::Status Authenticate(const grpc::ServerContext& context,
                          storage::Store& store,
                          storage::PlayerRecord* player);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_AUTH_H_
