// A search's stored encodings (search_codec.h).

#include "services/search_codec.h"

#include <google/protobuf/util/json_util.h>

#include "services/resource_names.h"
#include "services/search_convert.h"

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

}  // namespace mancala::services
