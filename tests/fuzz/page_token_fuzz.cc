// Page-token decoding (services/api/page_token.h): any bytes decode to nothing
// or to fields, never a crash or an exception; and any fields encoded for a
// kind and scope decode back to the same fields, for that kind and scope
// only.

#include <fuzzer/FuzzedDataProvider.h>

#include "services/api/page_token.h"
#include "tests/fuzz/fuzz_check.h"

using mancala::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using mancala::services::DecodePageToken;
  using mancala::services::EncodePageToken;
  FuzzedDataProvider in(data, size);
  const std::string kind = in.ConsumeRandomLengthString(16);
  const std::string scope = in.ConsumeRandomLengthString(64);
  if (in.ConsumeBool()) {
    // A token as a client may send it: any text.
    DecodePageToken(in.ConsumeRemainingBytesAsString(), kind, scope);
    return 0;
  }
  std::vector<std::string> fields(in.ConsumeIntegralInRange(0, 4));
  for (std::string& f : fields) f = in.ConsumeRandomLengthString(64);
  const std::string token = EncodePageToken(kind, scope, fields);
  auto back = DecodePageToken(token, kind, scope);
  Check(back.has_value() && *back == fields, "a token does not round-trip");
  const std::string other = in.ConsumeRandomLengthString(64);
  if (other != scope) {
    Check(!DecodePageToken(token, kind, other).has_value(),
          "a token decoded for another scope");
  }
  if (other != kind) {
    Check(!DecodePageToken(token, other, scope).has_value(),
          "a token decoded for another kind");
  }
  return 0;
}
