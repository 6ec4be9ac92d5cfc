#include "services/matchmaking/matchmaker.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/rules.h"
#include "ratings/glicko2.h"
#include "services/base/ids.h"
#include "services/model/domain_error.h"

namespace mancala::services {
namespace {

std::string QueueKey(const MatchShape& shape, bool ranked) {
  std::string key = shape.game + "|" + std::to_string(shape.seats) + "|" +
                    (ranked ? "ranked" : "casual") + "|" +
                    std::to_string(shape.turn_limit_s) + "|" +
                    (shape.rotate_first_player ? "rotate" : "keep");
  for (const auto& [k, v] : shape.options) key += "|" + k + "=" + v;
  return key;
}

// The queue as GetQueueStats lists it (without its count): the queue_info
// every node can read back (search_encodings.h).
std::string QueueInfo(const SearchEncodings& encodings, const MatchShape& shape,
                      bool ranked) {
  QueueView q;
  q.game = shape.game;
  q.options = shape.options;
  q.seats = shape.seats;
  q.ranked = ranked;
  q.turn_limit_s = shape.turn_limit_s;
  return encodings.EncodeQueueInfo(q);
}

absl::Status AlreadySearching() {
  return DomainError(absl::StatusCode::kFailedPrecondition, "ALREADY_SEARCHING",
                     "you are already searching for a match; cancel that "
                     "search first");
}

}  // namespace

absl::Status SearchCancelled() {
  return absl::CancelledError("you left the queue (CancelFind)");
}

Matchmaker::Matchmaker(LiveMatches& matches, storage::Store& store,
                       storage::MatchQueue& queue, const Clock& clock,
                       const SearchEncodings& encodings,
                       MatchmakerOptions options)
    : matches_(matches),
      store_(store),
      queue_(queue),
      clock_(clock),
      encodings_(encodings),
      options_(options) {}

double Matchmaker::Window(int64_t waited_ms) const {
  return options_.window_start + options_.window_growth * waited_ms / 1000.0;
}

absl::Status Matchmaker::Enqueue(const std::string& player_id,
                                 const SearchRequest& request,
                                 std::shared_ptr<FindSink> sink) {
  const MatchShape& shape = request.shape;
  const bool ranked = request.ranked;
  if (request.accept_cpu && ranked) {
    return InvalidField(
        "accept_cpu_opponent is for casual queues only; ranked "
        "matches against the CPU are never rated");
  }
  storage::QueueEntry entry;
  entry.search_id = NewId();
  entry.player_id = player_id;
  entry.node_id = queue_.node_id();
  entry.queue_key = QueueKey(shape, ranked);
  entry.queue_info = QueueInfo(encodings_, shape, ranked);
  entry.rating = ratings::kNewPlayer.rating;
  if (ranked) {
    auto rated = store_.GetRatings(shape.game, {player_id});
    if (!rated.ok()) return StorageFailure(rated.status());
    if (!rated->empty()) entry.rating = (*rated)[0].value.rating;
  }
  entry.accept_cpu = request.accept_cpu;
  {
    // Known here before the queue has it, so a claim by another thread
    // always finds the stream.
    MutexLock lock(&mu_);
    if (closed_) return ShuttingDown("search again");
    if (local_.count(player_id) > 0) return AlreadySearching();
    Local& l = local_[player_id];
    l.search_id = entry.search_id;
    l.queue_key = entry.queue_key;
    l.ranked = ranked;
    l.enqueued_ms = clock_.NowMs();
    l.sink = std::move(sink);
    queues_[entry.queue_key] = Queue{shape, ranked};
  }
  if (absl::Status s = queue_.Add(entry); !s.ok()) {
    MutexLock lock(&mu_);
    local_.erase(player_id);
    return absl::IsAlreadyExists(s) ? AlreadySearching() : StorageFailure(s);
  }
  {
    MutexLock lock(&mu_);
    auto it = local_.find(player_id);
    if (it != local_.end() && it->second.search_id == entry.search_id) {
      it->second.added = true;
    }
  }
  Form(entry.queue_key);
  SendUpdates(entry.queue_key);
  return absl::OkStatus();
}

void Matchmaker::Leave(const std::string& player_id,
                       const std::shared_ptr<FindSink>& sink) {
  std::string search_id;
  {
    MutexLock lock(&mu_);
    auto it = local_.find(player_id);
    // None, or a newer search of the same player.
    if (it == local_.end() || it->second.sink != sink) return;
    search_id = it->second.search_id;
    local_.erase(it);
  }
  // If this fails, the next Tick removes the row (no stream holds it).
  (void)queue_.Remove(search_id);
}

absl::Status Matchmaker::Cancel(const std::string& player_id, bool* cancelled) {
  auto removed = queue_.Cancel(player_id);
  if (!removed.ok()) return StorageFailure(removed.status());
  *cancelled = *removed;
  if (!*removed) return absl::OkStatus();
  std::shared_ptr<FindSink> sink;
  {
    MutexLock lock(&mu_);
    auto it = local_.find(player_id);
    if (it == local_.end()) return absl::OkStatus();  // Another node's.
    sink = it->second.sink;
    local_.erase(it);
  }
  sink->Close(SearchCancelled());
  return absl::OkStatus();
}

absl::Status Matchmaker::Stats(const std::optional<std::string>& game,
                               QueueStatsView* out) {
  auto counts = queue_.Counts();
  if (!counts.ok()) return StorageFailure(counts.status());
  int total = 0;
  for (const storage::QueueCount& c : *counts) {
    std::optional<QueueView> q = encodings_.DecodeQueueInfo(c.queue_info);
    if (!q) continue;  // Written by a newer build: counted in its own listing.
    if (game && q->game != *game) continue;
    q->searching = c.searching;
    out->queues.push_back(*std::move(q));
    total += c.searching;
  }
  out->searching = total;
  return absl::OkStatus();
}

void Matchmaker::Tick() {
  // Searches this node held before asking the queue: one the queue no
  // longer has was cancelled on another node (or expired).
  std::map<std::string, std::string> before;  // Search id -> player.
  {
    MutexLock lock(&mu_);
    for (const auto& [player, l] : local_) {
      if (l.added) before[l.search_id] = player;
    }
  }
  auto own = queue_.Refresh();
  if (own.ok()) {
    std::set<std::string> held;
    for (const storage::OwnSearch& s : *own) {
      held.insert(s.search_id);
      if (!s.match_id.empty()) {
        std::optional<std::string> match =
            encodings_.DecodeSearchMatch(s.match_id);
        if (match) {
          Deliver(s.player_id, s.search_id, *match, s.seat);
        } else {
          End(s.player_id, s.search_id,
              StoredDataLoss("search " + s.search_id + " was given " +
                             s.match_id + ", not a match's name"));
        }
        continue;
      }
      bool streamed = false;
      {
        MutexLock lock(&mu_);
        auto it = local_.find(s.player_id);
        streamed = it != local_.end() && it->second.search_id == s.search_id;
      }
      // A row whose stream ended without removing it (the database was
      // away): nobody can be told of a match for it.
      if (!streamed) (void)queue_.Remove(s.search_id);
    }
    for (const auto& [search_id, player] : before) {
      if (held.count(search_id) == 0) {
        End(player, search_id, SearchCancelled());
      }
    }
  }
  std::set<std::string> keys;
  {
    MutexLock lock(&mu_);
    for (const auto& [player, l] : local_) keys.insert(l.queue_key);
  }
  for (const std::string& key : keys) Form(key);
  SendUpdates("");
}

void Matchmaker::CloseAll() {
  std::vector<std::pair<std::string, std::string>> ends;  // Player, search.
  {
    MutexLock lock(&mu_);
    closed_ = true;
    for (const auto& [player, l] : local_)
      ends.push_back({player, l.search_id});
  }
  for (const auto& [player, search_id] : ends) {
    End(player, search_id, ShuttingDown("search again"));
  }
}

void Matchmaker::Form(const std::string& key) {
  Queue q;
  {
    MutexLock lock(&mu_);
    auto it = queues_.find(key);
    if (it == queues_.end()) return;
    q = it->second;
  }
  std::vector<Formed> formed;
  absl::Status s = queue_.Claim(
      key, [&](const std::vector<storage::QueueEntry>& searching, int64_t now) {
        return FormGroups(q, searching, now, &formed);
      });
  if (!s.ok()) return;  // Nothing was claimed: the next Tick tries again.
  Start(std::move(formed));
}

std::vector<size_t> Matchmaker::FormGroups(
    const Queue& q, const std::vector<storage::QueueEntry>& s, int64_t now,
    std::vector<Formed>* out) const {
  std::vector<bool> taken(s.size(), false);
  std::vector<size_t> claimed;
  auto form = [&](std::vector<size_t> members) {
    Formed f;
    f.match.shape = q.shape;
    f.match.ranked = q.ranked;
    for (size_t m : members) {
      taken[m] = true;
      claimed.push_back(m);
      f.members.push_back(s[m]);
      f.match.seats.push_back(
          {storage::SeatRecord::Kind::kPlayer, s[m].player_id, 0});
    }
    f.match.creator_id = f.members[0].player_id;
    out->push_back(std::move(f));
  };
  // Oldest first: the longest wait is served before anyone who came later.
  for (size_t i = 0; i < s.size(); ++i) {
    if (taken[i]) continue;
    const storage::QueueEntry& oldest = s[i];
    std::vector<std::pair<double, size_t>> near;  // (distance, index).
    for (size_t j = i + 1; j < s.size(); ++j) {
      if (taken[j]) continue;
      const double d = q.ranked ? std::abs(s[j].rating - oldest.rating) : 0.0;
      // The oldest has the widest window; casual queues take anyone.
      if (!q.ranked || d <= Window(now - oldest.enqueued_ms)) {
        near.push_back({d, j});
      }
    }
    if (static_cast<int>(near.size()) >= q.shape.seats - 1) {
      // Closest ratings first; equal distances by arrival (stable sort).
      std::stable_sort(
          near.begin(), near.end(),
          [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<size_t> members = {i};
      for (int k = 0; k < q.shape.seats - 1; ++k)
        members.push_back(near[k].second);
      std::sort(members.begin(), members.end());  // Seats by arrival.
      form(members);
      continue;
    }
    if (!q.ranked && oldest.accept_cpu && options_.cpu_fallback_ms > 0 &&
        now - oldest.enqueued_ms >= options_.cpu_fallback_ms) {
      form({i});  // CPU seats are added below.
      Formed& f = out->back();
      while (static_cast<int>(f.match.seats.size()) < q.shape.seats) {
        f.match.seats.push_back(
            {storage::SeatRecord::Kind::kCpu, "", options_.cpu_level});
      }
    }
  }
  return claimed;
}

void Matchmaker::SendUpdates(const std::string& key) {
  auto counts = queue_.Counts();
  if (!counts.ok()) return;  // The next Tick tries again.
  std::map<std::string, int> searching;
  for (const storage::QueueCount& c : *counts) {
    searching[c.queue_key] = c.searching;
  }
  MutexLock lock(&mu_);
  const int64_t now = clock_.NowMs();
  for (auto& [player, l] : local_) {
    if (!l.added || (!key.empty() && l.queue_key != key)) continue;
    const int n = searching[l.queue_key];
    const int64_t since = now - l.last_update_ms;
    // Due every update_every_ms, and soon after the count changed (a seed
    // page shows "N searching" live), but at most every kMinUpdateGapMs.
    const bool due =
        since >= options_.update_every_ms ||
        (n != l.last_searching && since >= MatchmakerOptions::kMinUpdateGapMs);
    if (!due) continue;
    l.last_update_ms = now;
    l.last_searching = n;
    SearchUpdate u;
    u.kind = SearchUpdate::Kind::kWaiting;
    u.searching = n;
    u.waited_s = (now - l.enqueued_ms) / 1000;
    if (l.ranked) u.rating_window = Window(now - l.enqueued_ms);
    l.sink->Push(u);
  }
}

void Matchmaker::Start(std::vector<Formed> formed) {
  for (Formed& f : formed) {
    MatchView view;
    const absl::Status s = matches_.Create(f.match, &view);
    std::vector<std::string> back;  // Other nodes' searchers: search again.
    for (size_t seat = 0; seat < f.members.size(); ++seat) {
      const storage::QueueEntry& m = f.members[seat];
      const bool mine = m.node_id == queue_.node_id();
      if (s.ok() && mine) {
        Deliver(m.player_id, m.search_id, view.id, seat);
      } else if (s.ok()) {
        // Its node delivers it on its next Tick. If this fails, the claim
        // lapses and the searcher is searching again.
        (void)queue_.Assign(m.search_id, encodings_.EncodeSearchMatch(view.id),
                            seat);
      } else if (mine) {
        End(m.player_id, m.search_id, s);
      } else {
        back.push_back(m.search_id);
      }
    }
    (void)queue_.Release(back);
  }
}

void Matchmaker::Deliver(const std::string& player_id,
                         const std::string& search_id,
                         const std::string& match_id, int seat) {
  {
    MutexLock lock(&mu_);
    auto it = local_.find(player_id);
    if (it != local_.end() && it->second.search_id == search_id) {
      SearchUpdate u;
      u.kind = SearchUpdate::Kind::kFound;
      u.match_id = match_id;
      u.seat = seat;
      // Under mu_ with the erase: no QueueState follows the match.
      it->second.sink->Push(u, /*last=*/true);
      local_.erase(it);
    }
  }
  (void)queue_.Remove(search_id);
}

void Matchmaker::End(const std::string& player_id, const std::string& search_id,
                     const absl::Status& status) {
  std::shared_ptr<FindSink> sink;
  {
    MutexLock lock(&mu_);
    auto it = local_.find(player_id);
    if (it != local_.end() && it->second.search_id == search_id) {
      sink = it->second.sink;
      local_.erase(it);
    }
  }
  (void)queue_.Remove(search_id);
  if (sink) sink->Close(status);
}

}  // namespace mancala::services
