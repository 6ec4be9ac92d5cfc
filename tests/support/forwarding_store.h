// A Store that forwards every call to another one: tests derive from it
// and override only the calls they count or interleave with.
// Thread-safety: that of the inner store.

#ifndef MANCALA_TESTS_SUPPORT_FORWARDING_STORE_H_
#define MANCALA_TESTS_SUPPORT_FORWARDING_STORE_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "storage/store.h"

namespace mancala::storage {

class ForwardingStore : public Store {
 public:
  explicit ForwardingStore(Store& inner) : inner_(inner) {}

  absl::Status CreatePlayer(const PlayerRecord& player) override {
    return inner_.CreatePlayer(player);
  }

  absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) override {
    return inner_.GetPlayer(id);
  }

  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override {
    return inner_.FindPlayerByTokenHash(token_hash);
  }

  absl::Status ReplaceTokenHash(const std::string& player_id,
                                const std::string& token_hash,
                                const AuditRecord& audit) override {
    return inner_.ReplaceTokenHash(player_id, token_hash, audit);
  }

  absl::Status SetBan(const std::string& player_id, int64_t banned_at_ms,
                      const AuditRecord& audit) override {
    return inner_.SetBan(player_id, banned_at_ms, audit);
  }

  absl::StatusOr<CredentialChanges> ListCredentialChanges(
      int64_t since_ms) override {
    return inner_.ListCredentialChanges(since_ms);
  }

  absl::Status CreateMatch(const MatchRecord& match) override {
    return inner_.CreateMatch(match);
  }

  absl::Status UpdateMatch(const MatchRecord& match) override {
    return inner_.UpdateMatch(match);
  }

  absl::StatusOr<std::string> FindMatchByInviteCode(
      const std::string& code) override {
    return inner_.FindMatchByInviteCode(code);
  }

  absl::StatusOr<MatchRecord> GetMatch(const std::string& id) override {
    return inner_.GetMatch(id);
  }

  absl::StatusOr<MatchRecord> FindMatchByRequestId(
      const std::string& creator_id, const std::string& request_id) override {
    return inner_.FindMatchByRequestId(creator_id, request_id);
  }

  absl::StatusOr<int> CountWaitingMatches(
      const std::string& creator_id) override {
    return inner_.CountWaitingMatches(creator_id);
  }

  absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) override {
    return inner_.ListMatchIds(status);
  }

  absl::Status AppendMove(const MoveRow& move,
                          const MatchUpdate& update) override {
    return inner_.AppendMove(move, update);
  }

  absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) override {
    return inner_.FindMoveByRequestId(match_id, request_id);
  }

  absl::StatusOr<std::vector<MoveRow>> ListMoves(const std::string& match_id,
                                                 int64_t from_ply,
                                                 int limit) override {
    return inner_.ListMoves(match_id, from_ply, limit);
  }

  absl::StatusOr<std::vector<MatchRecord>> ListMatches(
      const MatchFilter& filter, const std::optional<Cursor>& after,
      int limit) override {
    return inner_.ListMatches(filter, after, limit);
  }

  absl::StatusOr<std::vector<RatingRecord>> GetRatings(
      const std::string& game,
      const std::vector<std::string>& player_ids) override {
    return inner_.GetRatings(game, player_ids);
  }

  absl::StatusOr<std::vector<RatingRecord>> ListLeaderboard(
      const std::string& game, double max_rd,
      const std::optional<std::pair<double, std::string>>& after,
      int limit) override {
    return inner_.ListLeaderboard(game, max_rd, after, limit);
  }

  absl::StatusOr<std::vector<RatingChange>> ListRatingChanges(
      const std::string& player_id, const std::string& game,
      const std::optional<Cursor>& after, int limit) override {
    return inner_.ListRatingChanges(player_id, game, after, limit);
  }

  absl::StatusOr<std::vector<RatingChange>> ListGameRatingChanges(
      const std::string& game) override {
    return inner_.ListGameRatingChanges(game);
  }

  absl::StatusOr<std::vector<RatingChange>> ListMatchRatingChanges(
      const std::string& match_id) override {
    return inner_.ListMatchRatingChanges(match_id);
  }

  absl::Status VoidMatch(const std::string& match_id, const std::string& reason,
                         const std::string& game,
                         const std::vector<RatingChange>& changes,
                         const std::vector<RatingRecord>& ratings,
                         const AuditRecord& audit) override {
    return inner_.VoidMatch(match_id, reason, game, changes, ratings, audit);
  }

  absl::StatusOr<std::vector<AuditRecord>> ListAuditLog(int64_t before_id,
                                                        int limit) override {
    return inner_.ListAuditLog(before_id, limit);
  }

 private:
  Store& inner_;
};

}  // namespace mancala::storage

#endif  // MANCALA_TESTS_SUPPORT_FORWARDING_STORE_H_
