// Random ids, bearer tokens and invite codes, and the stored form of a
// token. Plain values: no gRPC, usable by the match domain.
//
// A token is 32 random bytes from OpenSSL's RAND_bytes, sent as 64 hex
// characters in the metadata `authorization: Bearer <token>` (auth.h). Only
// its SHA-256 (hex) is stored, so a leaked database reveals no usable token.
// Errors: the generators throw std::runtime_error if OpenSSL cannot give
// random bytes (the process cannot safely go on making tokens).
// Thread-safety: all functions from any thread.

#ifndef MANCALA_SERVICES_BASE_IDS_H_
#define MANCALA_SERVICES_BASE_IDS_H_

#include <optional>
#include <string>
#include <string_view>

namespace mancala::services {

// A new random token (64 lowercase hex characters).
std::string NewToken();
// A new random id for records (32 lowercase hex characters).
std::string NewId();
// A new invite code: 8 characters from an alphabet without look-alikes
// (no 0/O, 1/I/L), easy to read aloud.
std::string NewInviteCode();
// The invite code a person typed, as stored: letters upper-cased, spaces
// and hyphens dropped; nullopt if a character is one no code has.
std::optional<std::string> NormalizeInviteCode(std::string_view typed);
// Hex SHA-256 of `token`.
std::string HashToken(const std::string& token);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_IDS_H_
