// The `mancala` subcommands that read records: leaderboard, rating,
// history, and the operators' `admin` queries. Each prints a table for
// people, or with `json` the API's response as one JSON document (proto3
// JSON mapping, proto field names) for scripts. Each returns 0, or 1 after
// printing the error to `err`.

#ifndef MANCALA_CLIENT_RECORDS_H_
#define MANCALA_CLIENT_RECORDS_H_

#include <ostream>
#include <string>

namespace mancala::cli {

struct QueryOptions {
  std::string server = "127.0.0.1:50051";
  bool json = false;
  int limit = 20;      // Rows at most (pages are fetched until then).
  std::string game;    // kalah, oware, congkak, mancala_basic; "" = all.
  std::string player;  // "players/{id}"; or found from `token`.
  std::string token;   // A player's bearer token.
  // AdminService: the operator's token, from MANCALA_ADMIN_TOKEN.
  std::string admin_token;
};

// `mancala leaderboard --game G`: best ratings first (RatingService).
int Leaderboard(const QueryOptions& o, bool provisional, std::ostream& out,
                std::ostream& err);
// `mancala rating`: a player's rating per game, or with `history` their
// rating changes, newest first.
int Rating(const QueryOptions& o, bool history, std::ostream& out,
           std::ostream& err);
// `mancala history`: a player's matches, newest first. Listing another
// player's matches is an operator's query (AdminService.ListMatches), so
// it needs the admin token.
int History(const QueryOptions& o, std::ostream& out, std::ostream& err);

struct AdminOptions {
  std::string match;   // "matches/{id}" for history, void, verify.
  std::string state;   // matches: waiting, in_progress, finished, ...
  std::string reason;  // void, ban, ...: required, kept in the audit log.
  std::string actor;   // void, ban, ...: who, for the audit log.
  std::string player;  // "players/{id}" for revoke-tokens, ban, unban.
};
// `mancala admin matches|history|void|verify|audit|revoke-tokens|ban|unban`
// (the last three: admin_players.cc).
int Admin(const std::string& what, const QueryOptions& o, const AdminOptions& a,
          std::ostream& out, std::ostream& err);
// `mancala admin revoke-tokens|ban|unban players/ID --reason R`: prints
// what changed (and revoke-tokens the new token, to hand to the player).
int AdminPlayer(const std::string& what, const QueryOptions& o,
                const AdminOptions& a, std::ostream& out, std::ostream& err);

}  // namespace mancala::cli

#endif  // MANCALA_CLIENT_RECORDS_H_
