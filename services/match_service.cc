#include "services/match_service.h"

#include <charconv>

#include "engine/cpu/cpu_player.h"
#include "services/auth.h"
#include "services/convert.h"
#include "services/errors.h"
#include "services/player_service.h"

namespace mancala::services {
namespace {

using storage::SeatRecord;

// The id in "matches/{id}"; INVALID_ARGUMENT otherwise.
grpc::Status MatchId(const std::string& name, const char* field,
                     std::string* id) {
  static constexpr std::string_view kPrefix = "matches/";
  if (name.size() <= kPrefix.size() ||
      name.compare(0, kPrefix.size(), kPrefix) != 0 ||
      name.find('/', kPrefix.size()) != std::string::npos) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
                 std::string(field) + " must be 'matches/{match_id}', got '" +
                     name + "'");
  }
  *id = name.substr(kPrefix.size());
  return grpc::Status::OK;
}

grpc::Status Invalid(const std::string& message) {
  return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT",
               message);
}

// Page tokens are the next ply, in decimal: opaque to clients by contract.
grpc::Status ParsePageToken(const std::string& token, int64_t* from_ply) {
  *from_ply = 1;
  if (token.empty()) return grpc::Status::OK;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(),
                                   value);
  if (ec != std::errc() || end != token.data() + token.size() || value < 1) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_PAGE_TOKEN",
                 "page_token was not returned by ListMoves");
  }
  *from_ply = value;
  return grpc::Status::OK;
}

}  // namespace

grpc::Status MatchServiceImpl::CreateMatch(
    grpc::ServerContext* context, const v1::CreateMatchRequest* request,
    v1::Match* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s = Authenticate(*context, store_, &caller); !s.ok()) {
    return s;
  }
  NewMatch match;
  match.creator_id = caller.id;
  std::optional<std::string> game = GameName(request->game());
  if (!game.has_value()) {
    return Invalid("game must be KALAH, OWARE, CONGKAK or MANCALA_BASIC");
  }
  match.game = *game;
  match.options.insert(request->options().begin(), request->options().end());
  const int max_seats = request->game() == v1::MANCALA_BASIC ? 4 : 2;
  const int seats = request->seats_size();
  if (seats < 2 || seats > max_seats) {
    return Invalid(*game + " takes " +
                   (max_seats == 2 ? std::string("exactly 2")
                                   : std::string("2 to 4")) +
                   " seats, got " + std::to_string(seats));
  }
  bool caller_seated = false;
  for (int i = 0; i < seats; ++i) {
    const v1::Seat& seat = request->seats(i);
    SeatRecord record;
    const std::string where = "seats[" + std::to_string(i) + "]";
    switch (seat.kind()) {
      case v1::Seat::PLAYER: {
        record.kind = SeatRecord::Kind::kPlayer;
        record.player_id = PlayerIdFromName(seat.player());
        if (record.player_id.empty()) {
          return Invalid(where + ".player must be 'players/{player_id}'");
        }
        if (record.player_id != caller.id) {
          return Error(grpc::StatusCode::PERMISSION_DENIED, "NOT_YOUR_SEAT",
                       where + " names another player; you may only seat "
                               "yourself and the CPU");
        }
        caller_seated = true;
        break;
      }
      case v1::Seat::CPU:
        record.kind = SeatRecord::Kind::kCpu;
        record.cpu_level = seat.cpu_level() == 0 ? engine::kDefaultCpuLevel
                                                 : seat.cpu_level();
        if (record.cpu_level < engine::kMinCpuLevel ||
            record.cpu_level > engine::kMaxCpuLevel) {
          return Invalid(where + ".cpu_level must be 1 to 4, got " +
                         std::to_string(seat.cpu_level()));
        }
        break;
      default:
        return Invalid(where + ".kind must be PLAYER or CPU");
    }
    match.seats.push_back(std::move(record));
  }
  if (!caller_seated) {
    return Invalid("the caller must hold one of the seats");
  }
  if (request->first_seat() < 0 || request->first_seat() >= seats) {
    return Invalid("first_seat must be 0.." + std::to_string(seats - 1));
  }
  match.first_seat = request->first_seat();
  return matches_.Create(match, response);
}

grpc::Status MatchServiceImpl::GetMatch(grpc::ServerContext*,
                                        const v1::GetMatchRequest* request,
                                        v1::Match* response) {
  std::string id;
  if (grpc::Status s = MatchId(request->name(), "name", &id); !s.ok()) {
    return s;
  }
  return matches_.Get(id, response);
}

grpc::Status MatchServiceImpl::SubmitMove(
    grpc::ServerContext* context, const v1::SubmitMoveRequest* request,
    v1::SubmitMoveResponse* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s = Authenticate(*context, store_, &caller); !s.ok()) {
    return s;
  }
  std::string id;
  if (grpc::Status s = MatchId(request->match(), "match", &id); !s.ok()) {
    return s;
  }
  return matches_.Play(id, caller.id, request->pit(), /*by_cpu=*/false,
                       /*expected_ply=*/-1, response->mutable_match(),
                       response->mutable_move());
}

grpc::Status MatchServiceImpl::Resign(grpc::ServerContext* context,
                                      const v1::ResignRequest* request,
                                      v1::Match* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s = Authenticate(*context, store_, &caller); !s.ok()) {
    return s;
  }
  std::string id;
  if (grpc::Status s = MatchId(request->match(), "match", &id); !s.ok()) {
    return s;
  }
  return matches_.Resign(id, caller.id, response);
}

grpc::Status MatchServiceImpl::ListMoves(grpc::ServerContext*,
                                         const v1::ListMovesRequest* request,
                                         v1::ListMovesResponse* response) {
  std::string id;
  if (grpc::Status s = MatchId(request->parent(), "parent", &id); !s.ok()) {
    return s;
  }
  if (request->page_size() < 0) return Invalid("page_size must be >= 0");
  const int limit = request->page_size() == 0
                        ? 100
                        : std::min(request->page_size(), 1000);
  int64_t from_ply = 1;
  if (grpc::Status s = ParsePageToken(request->page_token(), &from_ply);
      !s.ok()) {
    return s;
  }
  std::vector<v1::Move> moves;
  if (grpc::Status s = matches_.ListMoves(id, from_ply, limit, &moves);
      !s.ok()) {
    return s;
  }
  const int64_t next = moves.empty() ? from_ply : moves.back().ply() + 1;
  const bool page_full = static_cast<int>(moves.size()) == limit;
  for (v1::Move& m : moves) *response->add_moves() = std::move(m);
  // A match in progress always gets a token, so a client can poll with it
  // for moves recorded later; a finished match's last page gets none.
  v1::Match match;
  if (grpc::Status s = matches_.Get(id, &match); !s.ok()) return s;
  if (page_full || match.state() != v1::Match::FINISHED) {
    response->set_next_page_token(std::to_string(next));
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
