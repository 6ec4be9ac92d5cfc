// The stored encodings of a search in the matchmaking queue
// (storage/match_queue.h), as the matchmaker reaches them: its queue's
// description (QueueEntry::queue_info) and the match it was given
// (OwnSearch::match_id). Every node reads what any node wrote, so the
// encodings are the wire's (wire/search_codec.h implements them, the server
// wires that in); this interface keeps the protos out of the matchmaker.
// Thread-safety: an implementation is stateless; every method from any
// thread.

#ifndef MANCALA_SERVICES_MATCHMAKING_SEARCH_ENCODINGS_H_
#define MANCALA_SERVICES_MATCHMAKING_SEARCH_ENCODINGS_H_

#include <optional>
#include <string>

#include "services/model/search_views.h"

namespace mancala::services {

class SearchEncodings {
 public:
  virtual ~SearchEncodings() = default;

  // `queue` without its count.
  virtual std::string EncodeQueueInfo(const QueueView& queue) const = 0;
  // The queue EncodeQueueInfo() wrote (searching 0); nullopt for one this
  // build cannot read: a newer build's, counted in that build's listing.
  virtual std::optional<QueueView> DecodeQueueInfo(
      const std::string& stored) const = 0;
  // The match `match_id` as the search holds it.
  virtual std::string EncodeSearchMatch(const std::string& match_id) const = 0;
  // The match id EncodeSearchMatch() wrote; nullopt if `stored` is not one.
  virtual std::optional<std::string> DecodeSearchMatch(
      const std::string& stored) const = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCHMAKING_SEARCH_ENCODINGS_H_
