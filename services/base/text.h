// Text helpers for checking and quoting client input: Trim() drops Unicode
// White_Space at both ends; Quote() is what an error message may show of
// client input (its first kQuoteChars code points). The input is valid
// UTF-8 by then: protobuf does not parse a request otherwise.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_BASE_TEXT_H_
#define MANCALA_SERVICES_BASE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace mancala::services {

inline constexpr size_t kQuoteChars = 32;

// Code points in valid UTF-8 `text`.
size_t CharCount(std::string_view text);
// `text` without leading and trailing Unicode White_Space (valid UTF-8).
std::string Trim(std::string_view text);
// Whether valid UTF-8 `text` holds a C0 or C1 control character or DEL.
bool HasControlCharacter(std::string_view text);
// `text` in double quotes for an error message, cut to kQuoteChars code
// points with "..." when longer.
std::string Quote(std::string_view text);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_TEXT_H_
