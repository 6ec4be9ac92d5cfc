// The stored encodings of a search in the matchmaking queue
// (storage/match_queue.h): its queue's description (QueueEntry::queue_info)
// and the match it was given (OwnSearch::match_id). Every node reads what
// any node wrote, so both keep the encodings of the builds before them: a
// mancala.v1.QueueStats.Queue as JSON, and the match's resource name. This
// interface keeps the protos out of the matchmaker (matchmaker.h), as
// stored_codec.h does for the match domain.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_WIRE_SEARCH_CODEC_H_
#define MANCALA_SERVICES_WIRE_SEARCH_CODEC_H_

#include <optional>
#include <string>

#include "services/matchmaking/search_encodings.h"
#include "services/model/search_views.h"

namespace mancala::services {

// `queue` without its count, as JSON.
std::string EncodeQueueInfo(const QueueView& queue);
// The queue EncodeQueueInfo() wrote (searching 0); nullopt for one this
// build cannot read: a newer build's (a game or field it does not know),
// counted in that build's own listing.
std::optional<QueueView> DecodeQueueInfo(const std::string& stored);

// The match `match_id` as the search holds it ("matches/{id}").
std::string EncodeSearchMatch(const std::string& match_id);
// The match id EncodeSearchMatch() wrote; nullopt if `stored` is not a
// match's name.
std::optional<std::string> DecodeSearchMatch(const std::string& stored);

// The functions above as the matchmaker's interface; the server lends it.
class SearchCodec final : public SearchEncodings {
 public:
  std::string EncodeQueueInfo(const QueueView& queue) const override;
  std::optional<QueueView> DecodeQueueInfo(
      const std::string& stored) const override;
  std::string EncodeSearchMatch(const std::string& match_id) const override;
  std::optional<std::string> DecodeSearchMatch(
      const std::string& stored) const override;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WIRE_SEARCH_CODEC_H_
