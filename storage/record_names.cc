#include "storage/record_names.h"

#include <utility>

namespace mancala::storage {
namespace {

constexpr std::pair<MatchStatus, const char*> kStatusNames[] = {
    {MatchStatus::kWaiting, "waiting"},
    {MatchStatus::kInProgress, "in_progress"},
    {MatchStatus::kFinished, "finished"},
    {MatchStatus::kCancelled, "cancelled"},
    {MatchStatus::kAborted, "aborted"},
};

constexpr std::pair<SeatRecord::Kind, const char*> kSeatKinds[] = {
    {SeatRecord::Kind::kPlayer, "player"},
    {SeatRecord::Kind::kCpu, "cpu"},
    {SeatRecord::Kind::kOpen, "open"},
};

}  // namespace

const char* StatusName(MatchStatus s) {
  for (const auto& [status, name] : kStatusNames) {
    if (status == s) return name;
  }
  return "in_progress";
}

MatchStatus ParseStatus(const std::string& s) {
  for (const auto& [status, name] : kStatusNames) {
    if (s == name) return status;
  }
  throw UnreadableRow("unknown match status \"" + s + "\"");
}

const char* SeatKindName(SeatRecord::Kind k) {
  for (const auto& [kind, name] : kSeatKinds) {
    if (kind == k) return name;
  }
  return "open";
}

SeatRecord::Kind ParseSeatKind(const std::string& s) {
  for (const auto& [kind, name] : kSeatKinds) {
    if (s == name) return kind;
  }
  throw UnreadableRow("unknown seat kind \"" + s + "\"");
}

}  // namespace mancala::storage
