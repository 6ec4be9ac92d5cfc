// A search's stored encodings (search_codec.h).

#include "services/wire/search_codec.h"

#include <google/protobuf/util/json_util.h>

#include "services/wire/resource_names.h"
#include "services/wire/search_convert.h"

namespace mancala::services {

std::string EncodeQueueInfo(const QueueView& queue) {
  QueueView uncounted = queue;
  uncounted.searching = 0;  // Counts are the queue's, never stored.
  v1::QueueStats::Queue q;
  ToProto(uncounted, &q);
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(q, &json);
  return json;
}

std::optional<QueueView> DecodeQueueInfo(const std::string& stored) {
  v1::QueueStats::Queue q;
  if (!google::protobuf::util::JsonStringToMessage(stored, &q).ok()) {
    return std::nullopt;
  }
  return QueueFromProto(q);
}

std::string EncodeSearchMatch(const std::string& match_id) {
  return MatchName(match_id);
}

std::optional<std::string> DecodeSearchMatch(const std::string& stored) {
  std::string id;
  if (!MatchIdFromName(stored, "match", &id).ok()) return std::nullopt;
  return id;
}

std::string SearchCodec::EncodeQueueInfo(const QueueView& queue) const {
  return services::EncodeQueueInfo(queue);
}

std::optional<QueueView> SearchCodec::DecodeQueueInfo(
    const std::string& stored) const {
  return services::DecodeQueueInfo(stored);
}

std::string SearchCodec::EncodeSearchMatch(const std::string& match_id) const {
  return services::EncodeSearchMatch(match_id);
}

std::optional<std::string> SearchCodec::DecodeSearchMatch(
    const std::string& stored) const {
  return services::DecodeSearchMatch(stored);
}

}  // namespace mancala::services
