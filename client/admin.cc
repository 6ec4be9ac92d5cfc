// `mancala history` and `mancala admin ...`: the AdminService queries.

#include <algorithm>

#include "client/board_view.h"
#include "client/records.h"
#include "client/rpc.h"
#include "client/table.h"
#include "mancala/v1/admin_service.grpc.pb.h"

namespace mancala::cli {
namespace {

grpc::Status NeedAdminToken(const QueryOptions& o) {
  if (!o.admin_token.empty()) return grpc::Status::OK;
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                      "set MANCALA_ADMIN_TOKEN to the token mancalad was "
                      "started with (--admin-token)");
}

// "won", "lost", "draw" or "rank 2 of 3" for `seat`; "" if not over.
std::string Outcome(const v1::Match& m, int seat) {
  if (m.state() != v1::Match::FINISHED || seat < 0 ||
      seat >= m.result().ranks_size()) {
    return "";
  }
  const int rank = m.result().ranks(seat);
  const auto& ranks = m.result().ranks();
  const bool all_equal = std::all_of(ranks.begin(), ranks.end(),
                                     [rank](int r) { return r == rank; });
  if (all_equal) return "draw";
  if (m.seats_size() == 2) return rank == 1 ? "won" : "lost";
  return "rank " + std::to_string(rank) + " of " +
         std::to_string(m.seats_size());
}

std::string Seats(const v1::Match& m) {
  std::string text;
  for (const v1::Seat& s : m.seats()) {
    if (!text.empty()) text += " vs ";
    text += s.display_name().empty() ? v1::Seat::Kind_Name(s.kind())
                                     : s.display_name();
  }
  return text;
}

std::string StateLabel(const v1::Match& m) {
  std::string state = v1::Match::State_Name(m.state());
  for (char& c : state) c = std::tolower(static_cast<unsigned char>(c));
  return m.voided() ? state + " (void)" : state;
}

// AdminService.ListMatches with `filter`, paged up to `limit` matches.
grpc::Status ListMatches(v1::AdminService::Stub& admin, const QueryOptions& o,
                         v1::ListMatchesRequest filter,
                         v1::ListMatchesResponse* all) {
  return FetchPages(
      o.admin_token, o.limit, std::move(filter),
      [&](grpc::ClientContext* c, const auto& q, auto* r) {
        return admin.ListMatches(c, q, r);
      },
      [](auto& r) -> auto& { return *r.mutable_matches(); }, all);
}

// The filters shared by `history` and `admin matches`.
grpc::Status Filter(const QueryOptions& o, const AdminOptions& a,
                    v1::ListMatchesRequest* req) {
  if (!o.game.empty()) {
    std::optional<v1::Game> game = ParseGame(o.game);
    if (!game) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "unknown game '" + o.game +
                              "' (kalah, oware, congkak, mancala_basic)");
    }
    req->set_game(*game);
  }
  if (!a.state.empty()) {
    std::string upper;
    for (char c : a.state) upper.push_back(std::toupper(c));
    v1::Match::State state;
    if (!v1::Match::State_Parse(upper, &state)) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "unknown state '" + a.state +
                              "' (waiting, in_progress, finished, "
                              "cancelled, aborted)");
    }
    req->set_state(state);
  }
  return grpc::Status::OK;
}

int MatchesTable(const v1::ListMatchesResponse& all, const std::string& player,
                 std::ostream& out) {
  if (all.matches().empty()) {
    out << "No matches.\n";
    return 0;
  }
  std::vector<std::string> headers = {"MATCH", "GAME",    "STATE", "RANKED",
                                      "PLY",   "CREATED", "SEATS"};
  if (!player.empty()) headers.push_back("RESULT");
  Table table(headers);
  for (const v1::Match& m : all.matches()) {
    std::vector<std::string> row = {m.name(),
                                    GameLabel(m.game()),
                                    StateLabel(m),
                                    m.ranked() ? "ranked" : "casual",
                                    std::to_string(m.ply()),
                                    ShortTime(m.create_time()),
                                    Seats(m)};
    if (!player.empty()) {
      int seat = -1;
      for (int i = 0; i < m.seats_size(); ++i) {
        if (m.seats(i).player() == player) seat = i;
      }
      row.push_back(Outcome(m, seat));
    }
    table.Add(row);
  }
  table.Print(out);
  return 0;
}

int MatchHistory(v1::AdminService::Stub& admin, const QueryOptions& o,
                 const AdminOptions& a, std::ostream& out, std::ostream& err) {
  v1::GetMatchHistoryRequest req;
  req.set_name(a.match);
  v1::MatchHistory h;
  auto ctx = CallContext(o.admin_token);
  if (grpc::Status s = admin.GetMatchHistory(ctx.get(), req, &h); !s.ok()) {
    return ShowError(err, "match history", s);
  }
  if (o.json) {
    out << ToJson(h);
    return 0;
  }
  const v1::Match& m = h.match();
  out << m.name() << ": " << GameLabel(m.game()) << ", " << StateLabel(m)
      << ", " << (m.ranked() ? "ranked" : "casual") << ", " << Seats(m) << "\n";
  if (m.state() == v1::Match::FINISHED) {
    out << "result: " << EndReasonWords(m.result().end_reason()) << ", scores";
    for (int s : m.result().scores()) out << " " << s;
    out << ", winner seat " << m.result().winner() << "\n";
  }
  if (!h.void_reason().empty()) out << "void: " << h.void_reason() << "\n";
  Table moves({"PLY", "SEAT", "PIT", "BY", "TIME"});
  for (const v1::Move& mv : h.moves()) {
    std::string by = "player";
    if (mv.by_cpu()) {
      by = "cpu";
      if (mv.cpu_reason() != v1::Move::CPU_SEAT) {
        by += " (" + v1::Move::CpuReason_Name(mv.cpu_reason()) + ")";
      }
    }
    moves.Add({std::to_string(mv.ply()), std::to_string(mv.seat()),
               mv.pit() < 0 ? "resign" : std::to_string(mv.pit()), by,
               ShortTime(mv.time())});
  }
  moves.Print(out);
  if (!h.rating_changes().empty()) {
    Table changes({"SEAT", "RANK", "BEFORE", "AFTER"});
    for (const v1::RatingChange& c : h.rating_changes()) {
      changes.Add({std::to_string(c.seat()), std::to_string(c.rank()),
                   Fixed(c.rating_before()), Fixed(c.rating_after())});
    }
    out << "rating changes:\n";
    changes.Print(out);
  }
  return 0;
}

}  // namespace

int History(const QueryOptions& o, std::ostream& out, std::ostream& err) {
  if (grpc::Status s = NeedAdminToken(o); !s.ok()) {
    return ShowError(err, "history", s);
  }
  auto channel = Dial(o.server);
  std::string player;
  if (grpc::Status s = ResolvePlayer(channel, o.player, o.token, &player);
      !s.ok()) {
    return ShowError(err, "history", s);
  }
  v1::ListMatchesRequest req;
  if (grpc::Status s = Filter(o, AdminOptions{}, &req); !s.ok()) {
    return ShowError(err, "history", s);
  }
  req.set_player(player);
  auto admin = v1::AdminService::NewStub(channel);
  v1::ListMatchesResponse all;
  if (grpc::Status s = ListMatches(*admin, o, req, &all); !s.ok()) {
    return ShowError(err, "history", s);
  }
  if (o.json) {
    out << ToJson(all);
    return 0;
  }
  out << "Matches of " << player << " (newest first)\n";
  return MatchesTable(all, player, out);
}

int Admin(const std::string& what, const QueryOptions& o, const AdminOptions& a,
          std::ostream& out, std::ostream& err) {
  if (grpc::Status s = NeedAdminToken(o); !s.ok()) {
    return ShowError(err, "admin " + what, s);
  }
  auto admin = v1::AdminService::NewStub(Dial(o.server));
  if (what == "matches") {
    v1::ListMatchesRequest req;
    if (grpc::Status s = Filter(o, a, &req); !s.ok()) {
      return ShowError(err, "admin matches", s);
    }
    req.set_player(o.player);
    v1::ListMatchesResponse all;
    if (grpc::Status s = ListMatches(*admin, o, req, &all); !s.ok()) {
      return ShowError(err, "admin matches", s);
    }
    if (o.json) {
      out << ToJson(all);
      return 0;
    }
    return MatchesTable(all, o.player, out);
  }
  if (what == "history") return MatchHistory(*admin, o, a, out, err);
  if (what == "revoke-tokens" || what == "ban" || what == "unban") {
    return AdminPlayer(what, o, a, out, err);
  }
  if (what == "void") {
    v1::VoidMatchRequest req;
    req.set_name(a.match);
    req.set_reason(a.reason);
    req.set_actor(a.actor);
    v1::VoidMatchResponse resp;
    auto ctx = CallContext(o.admin_token);
    if (grpc::Status s = admin->VoidMatch(ctx.get(), req, &resp); !s.ok()) {
      return ShowError(err, "void", s);
    }
    if (o.json) {
      out << ToJson(resp);
    } else {
      out << "Voided " << resp.match().name() << "; "
          << resp.recomputed_changes() << " rating changes recomputed.\n";
    }
    return 0;
  }
  if (what == "verify") {
    v1::VerifyMatchRequest req;
    req.set_name(a.match);
    v1::VerifyMatchResponse resp;
    auto ctx = CallContext(o.admin_token);
    if (grpc::Status s = admin->VerifyMatch(ctx.get(), req, &resp); !s.ok()) {
      return ShowError(err, "verify", s);
    }
    if (o.json) {
      out << ToJson(resp);
    } else if (resp.consistent()) {
      out << a.match << ": consistent (replaying the stored moves gives the "
          << "stored result)\n";
    } else {
      out << a.match << ": INCONSISTENT: " << resp.detail() << "\n";
    }
    return resp.consistent() ? 0 : 3;
  }
  // audit
  v1::ListAuditLogResponse all;
  if (grpc::Status s = FetchPages(
          o.admin_token, o.limit, v1::ListAuditLogRequest(),
          [&](grpc::ClientContext* c, const auto& q, auto* r) {
            return admin->ListAuditLog(c, q, r);
          },
          [](auto& r) -> auto& { return *r.mutable_entries(); }, &all);
      !s.ok()) {
    return ShowError(err, "audit", s);
  }
  if (o.json) {
    out << ToJson(all);
    return 0;
  }
  if (all.entries().empty()) {
    out << "The audit log is empty.\n";
    return 0;
  }
  Table table({"ID", "TIME", "ACTOR", "ACTION", "TARGET", "REASON"});
  for (const v1::AuditEntry& e : all.entries()) {
    table.Add({std::to_string(e.id()), ShortTime(e.time()), e.actor(),
               e.action(), e.target(), e.reason()});
  }
  table.Print(out);
  return 0;
}

}  // namespace mancala::cli
