// The WatchMatch stream: an EventSink of WatchEvents (event_stream.h).

#ifndef MANCALA_SERVICES_WATCH_STREAM_H_
#define MANCALA_SERVICES_WATCH_STREAM_H_

#include "mancala/v1/match_service.pb.h"
#include "services/event_stream.h"

namespace mancala::services {

using WatchSink = EventSink<v1::WatchEvent>;
using WatchReactor = EventReactor<v1::WatchEvent>;

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WATCH_STREAM_H_
