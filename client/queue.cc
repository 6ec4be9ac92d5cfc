#include "client/queue.h"

#include <unistd.h>

#include <cmath>
#include <iostream>

#include "client/rpc.h"
#include "mancala/v1/matchmaking_service.grpc.pb.h"
#include "mancala/v1/player_service.grpc.pb.h"

namespace mancala::cli {

int Queue(const QueueOptions& o, std::istream& in, std::ostream& out,
          std::ostream& err) {
  std::optional<v1::Game> game = ParseGame(o.play.game);
  if (!game) {
    return ShowError(err, "queue",
                     grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                  "unknown game '" + o.play.game +
                                      "' (kalah, oware, congkak, "
                                      "mancala_basic)"));
  }
  auto channel = Dial(o.play.server);
  PlayOptions play = o.play;
  if (play.token.empty()) {
    v1::CreatePlayerRequest req;
    req.set_display_name(play.name);
    v1::CreatePlayerResponse resp;
    auto ctx = CallContext("");
    if (grpc::Status s = v1::PlayerService::NewStub(channel)->CreatePlayer(
            ctx.get(), req, &resp);
        !s.ok()) {
      return ShowError(err, "create player", s);
    }
    play.token = resp.token();
    out << "You are " << resp.player().display_name() << " ("
        << resp.player().name() << ", token " << play.token << ").\n";
  }

  v1::FindMatchRequest req;
  req.set_game(*game);
  req.mutable_options()->insert(play.options.begin(), play.options.end());
  req.set_players(o.players);
  req.set_ranked(play.ranked);
  req.set_turn_time_limit_seconds(play.turn_limit_s);
  req.set_accept_cpu_opponent(o.accept_cpu);
  auto ctx = CallContext(play.token, /*deadline_ms=*/0);
  auto stream =
      v1::MatchmakingService::NewStub(channel)->FindMatch(ctx.get(), req);
  // On a terminal the count is redrawn in place; in a file, one line each.
  const bool live = &out == &std::cout && isatty(STDOUT_FILENO);
  out << "Looking for a " << (play.ranked ? "ranked" : "casual") << " "
      << GameLabel(*game) << " match for " << o.players << " players...\n"
      << std::flush;
  v1::FindMatchUpdate update;
  std::string found;
  while (stream->Read(&update)) {
    if (update.has_waiting()) {
      const v1::QueueState& q = update.waiting();
      out << (live ? "\r" : "") << q.searching() << " searching, waited "
          << q.waited_seconds() << " s";
      if (play.ranked) {
        out << ", rating window +/-" << std::lround(q.rating_window());
      }
      out << (live ? "   " : "\n") << std::flush;
    } else if (update.has_found()) {
      found = update.found().match();
      out << (live ? "\n" : "") << "Found " << found << ", your seat "
          << update.found().seat() << ".\n"
          << std::flush;
    }
  }
  if (grpc::Status s = stream->Finish(); found.empty()) {
    return ShowError(err, "find match",
                     s.ok() ? grpc::Status(grpc::StatusCode::UNKNOWN,
                                           "the search ended without a match")
                            : s);
  }
  play.match = found;
  return Play(play, in, out, err);
}

}  // namespace mancala::cli
