#include "services/base/text.h"

#include <utf8cpp/utf8.h>

namespace mancala::services {
namespace {

// Unicode White_Space (PropList.txt).
bool IsWhiteSpace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
         c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

}  // namespace

size_t CharCount(std::string_view text) {
  return utf8::unchecked::distance(text.begin(), text.end());
}

std::string Trim(std::string_view text) {
  auto begin = text.begin();
  auto end = text.end();
  while (begin != end) {
    auto next = begin;
    if (!IsWhiteSpace(utf8::unchecked::next(next))) break;
    begin = next;
  }
  while (begin != end) {
    auto prev = end;
    if (!IsWhiteSpace(utf8::unchecked::prior(prev))) break;
    end = prev;
  }
  return std::string(begin, end);
}

bool HasControlCharacter(std::string_view text) {
  for (auto it = text.begin(); it != text.end();) {
    const uint32_t c = utf8::unchecked::next(it);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

std::string Quote(std::string_view text) {
  auto end = text.begin();
  size_t n = 0;
  while (end != text.end() && n < kQuoteChars) {
    if (utf8::find_invalid(end, text.end()) == end) break;  // Stop at junk.
    utf8::unchecked::next(end);
    ++n;
  }
  std::string out = "\"" + std::string(text.begin(), end);
  return out + (end == text.end() ? "\"" : "...\"");
}

}  // namespace mancala::services
