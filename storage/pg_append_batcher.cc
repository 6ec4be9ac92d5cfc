#include "storage/pg_append_batcher.h"

#include <algorithm>
#include <map>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <utility>

#include "storage/append_refusal.h"
#include "storage/call_deadline.h"
#include "storage/pg_store.h"  // AppendPgArrayElement, PgTextArray
#include "storage/record_names.h"

namespace mancala::storage {
namespace {

using Clock = std::chrono::steady_clock;

// One array literal, built element by element.
class ArrayLiteral {
 public:
  void Add(const std::string& value) {
    Separator();
    AppendPgArrayElement(&out_, value);
  }
  void Add(int64_t value) { Add(std::to_string(value)); }
  void AddBool(bool value) { Add(std::string(value ? "t" : "f")); }
  // bytea in its hex input format.
  void AddBytes(const std::string& bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex = "\\x";
    hex.reserve(2 + 2 * bytes.size());
    for (unsigned char b : bytes) {
      hex += kHex[b >> 4];
      hex += kHex[b & 15];
    }
    Add(hex);
  }
  // NULL for an empty string, as the single append's OrNull.
  void AddOrNull(const std::string& value) {
    if (!value.empty()) return Add(value);
    Separator();
    out_ += "NULL";
  }
  std::string Done() && { return std::move(out_) + "}"; }

 private:
  void Separator() {
    if (out_.size() > 1) out_ += ',';
  }
  std::string out_ = "{";
};

absl::Status DeadlineExceeded() {
  return absl::DeadlineExceededError(
      "the call's deadline passed while its move waited for the database; "
      "nothing was sent");
}

}  // namespace

std::vector<std::string> AppendBatchParams(
    const std::vector<const MoveRow*>& moves,
    const std::vector<const MatchUpdate*>& updates) {
  // In the order of the statement's parameters ($1..$17, pg_store.cc).
  ArrayLiteral match_id, ply, status, played_at_ms, ended_at_ms, result, seat,
      pit, by_cpu, events, cpu_reason, request_id, reply, to_move, due_after_ms,
      claim_node, claim_ttl_ms;
  for (size_t i = 0; i < moves.size(); ++i) {
    const MoveRow& mv = *moves[i];
    const MatchUpdate& u = *updates[i];
    match_id.Add(mv.match_id);
    ply.Add(mv.ply);
    status.Add(std::string(StatusName(u.status)));
    played_at_ms.Add(mv.played_at_ms);
    ended_at_ms.Add(u.ended_at_ms);
    result.AddBytes(u.result);
    seat.Add(mv.seat);
    pit.Add(mv.pit);
    by_cpu.AddBool(mv.by_cpu);
    events.AddBytes(mv.events);
    cpu_reason.Add(mv.cpu_reason);
    request_id.AddOrNull(mv.request_id);
    reply.AddBytes(mv.reply);
    to_move.Add(u.to_move);
    due_after_ms.Add(u.due_after_ms);
    claim_node.AddOrNull(u.claim_node);
    claim_ttl_ms.Add(u.claim_ttl_ms);
  }
  std::vector<std::string> out;
  for (ArrayLiteral* a :
       {&match_id, &ply, &status, &played_at_ms, &ended_at_ms, &result, &seat,
        &pit, &by_cpu, &events, &cpu_reason, &request_id, &reply, &to_move,
        &due_after_ms, &claim_node, &claim_ttl_ms}) {
    out.push_back(std::move(*a).Done());
  }
  return out;
}

PgAppendBatcher::PgAppendBatcher(PgPool& pool, int max_batch, int threads,
                                 Single single, Check check)
    : pool_(pool),
      max_batch_(max_batch > 0 ? max_batch : 1),
      slots_(std::max(1, threads)),
      single_(std::move(single)),
      check_(std::move(check)) {
  for (int i = 0; i < slots_; ++i) {
    threads_.emplace_back([this] { Loop(); });
  }
}

PgAppendBatcher::~PgAppendBatcher() { Close(); }

void PgAppendBatcher::Close() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

PgAppendBatcher::Stats PgAppendBatcher::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void PgAppendBatcher::Submit(MoveRow move, MatchUpdate update,
                             std::optional<Clock::time_point> deadline,
                             Store::AppendDone done) {
  auto job = std::make_unique<Job>();
  job->move = std::move(move);
  job->update = std::move(update);
  job->deadline = deadline;
  job->done = std::move(done);
  std::unique_lock lock(mu_);
  if (closing_) {
    lock.unlock();
    job->done(absl::UnavailableError("the store is closing"));
    return;
  }
  queue_.push_back(std::move(job));
  lock.unlock();
  work_.notify_one();
}

std::optional<absl::Status> PgAppendBatcher::TryAlone(
    const MoveRow& move, const MatchUpdate& update) {
  {
    std::lock_guard lock(mu_);
    if (closing_ || !queue_.empty() || running_ >= slots_ ||
        !in_flight_.insert(move.match_id).second) {
      return std::nullopt;
    }
    ++running_;
  }
  absl::Status s = single_(move, update);
  bool queued;
  {
    std::lock_guard lock(mu_);
    --running_;
    in_flight_.erase(move.match_id);
    ++stats_.batches;
    ++stats_.moves;
    queued = !queue_.empty();
  }
  // A slot is free, and a move of this match may be waiting.
  if (queued) work_.notify_one();
  return s;
}

void PgAppendBatcher::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    // At most one move per match, and none of a match in another batch:
    // those wait for a later batch.
    std::vector<std::unique_ptr<Job>> batch;
    auto take = [&] {
      if (closing_ && queue_.empty()) return true;
      if (running_ >= slots_) return false;
      for (auto it = queue_.begin();
           it != queue_.end() && batch.size() < max_batch_;) {
        if (in_flight_.insert((*it)->move.match_id).second) {
          batch.push_back(std::move(*it));
          it = queue_.erase(it);
        } else {
          ++it;
        }
      }
      return !batch.empty();
    };
    work_.wait(lock, take);
    if (batch.empty()) return;  // Closing, and everyone was answered.
    ++running_;
    // Moves left that another thread may take (Submit() woke one thread
    // per move, but this one took several).
    const bool more = !queue_.empty() && running_ < slots_;
    lock.unlock();
    if (more) work_.notify_one();
    RunBatch(batch);
    for (auto& job : batch) job->done(std::move(job->result));
    lock.lock();
    --running_;
    for (auto& job : batch) in_flight_.erase(job->move.match_id);
    // Moves of these matches may be waiting, and closing threads too.
    work_.notify_all();
  }
}

void PgAppendBatcher::RunBatch(std::vector<std::unique_ptr<Job>>& batch) {
  const Clock::time_point now = Clock::now();
  std::vector<Job*> send;
  std::optional<Clock::time_point> latest;  // Of the batch's deadlines.
  bool every_one_has_a_deadline = true;
  for (auto& job : batch) {
    if (job->deadline && now >= *job->deadline) {
      job->result = DeadlineExceeded();
      continue;
    }
    send.push_back(job.get());
    if (!job->deadline) {
      every_one_has_a_deadline = false;
    } else if (!latest || *job->deadline > *latest) {
      latest = job->deadline;
    }
  }
  if (send.empty()) return;
  if (send.size() == 1) {
    // Alone: the single append's statement, which costs the database less
    // than the batch statement with one element (no arrays to unpack).
    {
      std::optional<CallDeadline> scope;
      if (latest) scope.emplace(*latest);
      send[0]->result = single_(send[0]->move, send[0]->update);
    }
    std::lock_guard lock(mu_);
    ++stats_.batches;
    ++stats_.moves;
    return;
  }
  std::vector<const MoveRow*> moves;
  std::vector<const MatchUpdate*> updates;
  for (Job* job : send) {
    moves.push_back(&job->move);
    updates.push_back(&job->update);
  }
  const std::vector<std::string> p = AppendBatchParams(moves, updates);
  std::set<std::string> stored;
  absl::Status s;
  {
    // Nobody waits for the batch past its last caller's deadline.
    std::optional<CallDeadline> scope;
    if (every_one_has_a_deadline && latest) scope.emplace(*latest);
    s = pool_.Run("append moves", [&](pqxx::connection& c) {
      pqxx::nontransaction tx(c);
      stored.clear();
      for (const auto& row : tx.exec_prepared(
               "append_moves", p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
               p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15], p[16])) {
        stored.insert(row[0].as<std::string>());
      }
      return absl::OkStatus();
    });
  }
  {
    std::lock_guard lock(mu_);
    ++stats_.batches;
    stats_.moves += static_cast<int64_t>(send.size());
  }
  if (!s.ok()) {
    for (Job* job : send) {
      if (absl::IsUnavailable(s)) {
        job->result = check_(job->move, s);  // Cut off: stored or not?
      } else if (send.size() > 1 && !absl::IsDeadlineExceeded(s)) {
        // Maybe one move's fault (a request id stored already): each
        // alone, so it fails alone.
        job->result = single_(job->move, job->update);
      } else {
        job->result = s;
      }
    }
    return;
  }
  // Refused: its match was not at the ply before it. Read which ply it is
  // at, as the single append does, or that there is no such match.
  std::vector<std::string> refused;
  for (Job* job : send) {
    if (!stored.count(job->move.match_id))
      refused.push_back(job->move.match_id);
  }
  if (refused.empty()) return;
  const std::string id_array = PgTextArray(refused);
  std::map<std::string, int64_t> plies;
  const absl::Status read = pool_.Run("append moves", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    plies.clear();
    for (const auto& row : tx.exec_params(
             "SELECT id, ply FROM matches WHERE id = ANY($1::text[])",
             id_array)) {
      plies[row[0].as<std::string>()] = row[1].as<int64_t>();
    }
    return absl::OkStatus();
  });
  for (Job* job : send) {
    const MoveRow& mv = job->move;
    if (stored.count(mv.match_id)) continue;
    auto at = plies.find(mv.match_id);
    if (!read.ok()) {
      job->result = absl::AbortedError(
          "match " + mv.match_id + " is not at ply " +
          std::to_string(mv.ply - 1) + "; nothing was written");
    } else if (at == plies.end()) {
      job->result = absl::NotFoundError("match " + mv.match_id);
    } else {
      job->result = PlyTaken(mv, at->second);
    }
  }
}

}  // namespace mancala::storage
