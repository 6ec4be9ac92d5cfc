#include "client/play.h"

#include <google/protobuf/util/time_util.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "client/board_view.h"
#include "client/rpc.h"
#include "mancala/v1/match_service.grpc.pb.h"
#include "mancala/v1/player_service.grpc.pb.h"

namespace mancala::cli {
namespace {

using google::protobuf::util::TimeUtil;

// A channel and the two stubs, with per-call contexts carrying the token.
class Connection {
 public:
  Connection(const std::string& server, int deadline_ms)
      : channel_(Dial(server)),
        players(v1::PlayerService::NewStub(channel_)),
        matches(v1::MatchService::NewStub(channel_)),
        deadline_ms_(deadline_ms) {}

  std::unique_ptr<grpc::ClientContext> Context(bool with_deadline = true) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    if (with_deadline) {
      ctx->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::milliseconds(deadline_ms_));
    }
    if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
    return ctx;
  }

  std::string token;

 private:
  std::shared_ptr<grpc::Channel> channel_;

 public:
  std::unique_ptr<v1::PlayerService::Stub> players;
  std::unique_ptr<v1::MatchService::Stub> matches;

 private:
  int deadline_ms_;
};

std::string DescribePresence(const v1::Match& match,
                             const v1::PresenceChange& p) {
  const std::string who = match.seats(p.seat()).display_name();
  if (p.cpu_standing_in()) return who + " is away: the CPU plays for them";
  return who + (p.present() ? " is here" : " is away");
}

class Session {
 public:
  Session(const PlayOptions& o, std::istream& in, std::ostream& out,
          std::ostream& err)
      : o_(o),
        in_(in),
        out_(out),
        err_(err),
        conn_(o.server, o.rpc_deadline_ms) {}

  int Run();

 private:
  int Fail(const std::string& what, const grpc::Status& s) const {
    err_ << "error: " << what << ": " << s.error_message() << " (code "
         << s.error_code() << ")\n";
    PrintResume();
    return 1;
  }
  void PrintResume() const {
    if (match_.name().empty()) return;
    err_ << "resume with: mancala play --server " << o_.server << " --match "
         << match_.name() << " --token " << conn_.token << "\n";
  }
  grpc::Status Setup();
  grpc::Status Refresh();
  // Prints the moves up to match_.ply() that were not printed yet.
  grpc::Status ShowMissedMoves();
  void ShowMove(const v1::Move& move);
  // Plays one turn if it is ours. Returns 2 when input ran out, 0 else.
  int MaybePlay();
  std::optional<int> NextPit();

  const PlayOptions& o_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& err_;
  Connection conn_;
  std::string me_;             // "players/{id}".
  std::set<int> seats_;        // Seats held by me.
  v1::Match match_;            // Latest view.
  int64_t shown_ply_ = 0;      // Moves printed so far.
  int64_t prompted_ply_ = -1;  // Ply we last played at.
  size_t next_move_ = 0;
  bool told_code_ = false;
  std::mt19937_64 rng_{std::random_device{}()};
};

grpc::Status Session::Setup() {
  conn_.token = o_.token;
  if (conn_.token.empty()) {
    v1::CreatePlayerRequest req;
    req.set_display_name(o_.name);
    v1::CreatePlayerResponse resp;
    auto ctx = conn_.Context();
    if (grpc::Status s = conn_.players->CreatePlayer(ctx.get(), req, &resp);
        !s.ok()) {
      return s;
    }
    conn_.token = resp.token();
    me_ = resp.player().name();
    out_ << "You are " << resp.player().display_name() << " (" << me_
         << ", token " << conn_.token << ").\n";
  } else {
    v1::GetPlayerRequest req;
    req.set_name("players/me");
    v1::Player me;
    auto ctx = conn_.Context();
    if (grpc::Status s = conn_.players->GetPlayer(ctx.get(), req, &me);
        !s.ok()) {
      return s;
    }
    me_ = me.name();
  }
  auto ctx = conn_.Context();
  grpc::Status s;
  if (!o_.match.empty()) {
    v1::GetMatchRequest req;
    req.set_name(o_.match);
    s = conn_.matches->GetMatch(ctx.get(), req, &match_);
    if (s.ok())
      out_ << "Resuming " << match_.name() << " at ply " << match_.ply()
           << ".\n";
  } else if (!o_.join.empty()) {
    v1::JoinMatchRequest req;
    req.set_invite_code(o_.join);
    s = conn_.matches->JoinMatch(ctx.get(), req, &match_);
  } else {
    std::optional<v1::Game> game = ParseGame(o_.game);
    if (!game.has_value()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "unknown game '" + o_.game +
                              "' (kalah, oware, congkak, mancala_basic)");
    }
    v1::CreateMatchRequest req;
    // A retry (rpc.h Dial) after a lost reply returns this match again.
    req.set_request_id(std::to_string(rng_()));
    req.set_game(*game);
    req.mutable_options()->insert(o_.options.begin(), o_.options.end());
    req.set_ranked(o_.ranked);
    req.set_turn_time_limit_seconds(o_.turn_limit_s);
    const int seats = 1 + o_.opponents;
    const int mine = o_.cpu_first ? seats - 1 : 0;
    for (int i = 0; i < seats; ++i) {
      v1::Seat* seat = req.add_seats();
      if (i == mine) {
        seat->set_kind(v1::Seat::PLAYER);
        seat->set_player(me_);
      } else if (o_.vs == "open") {
        seat->set_kind(v1::Seat::OPEN);
      } else {
        seat->set_kind(v1::Seat::CPU);
        seat->set_cpu_level(o_.cpu_level);
      }
    }
    s = conn_.matches->CreateMatch(ctx.get(), req, &match_);
  }
  if (!s.ok()) return s;
  for (int i = 0; i < match_.seats_size(); ++i) {
    if (match_.seats(i).player() == me_) seats_.insert(i);
  }
  if (seats_.empty()) {
    return grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                        "you hold no seat in " + match_.name());
  }
  out_ << "Match " << match_.name() << ", your seat " << *seats_.begin()
       << ".\n";
  shown_ply_ = match_.ply();
  return grpc::Status::OK;
}

grpc::Status Session::Refresh() {
  v1::GetMatchRequest req;
  req.set_name(match_.name());
  auto ctx = conn_.Context();
  return conn_.matches->GetMatch(ctx.get(), req, &match_);
}

void Session::ShowMove(const v1::Move& move) {
  if (move.ply() <= shown_ply_) return;
  shown_ply_ = move.ply();
  out_ << "  ply " << move.ply() << ": "
       << DescribeMove(match_, move, *seats_.begin()) << "\n";
}

grpc::Status Session::ShowMissedMoves() {
  // Page tokens are opaque: page from the first move; ShowMove skips the
  // moves already shown.
  std::string token;
  while (shown_ply_ < match_.ply()) {
    v1::ListMovesRequest req;
    req.set_parent(match_.name());
    req.set_page_size(1000);
    req.set_page_token(token);
    v1::ListMovesResponse resp;
    auto ctx = conn_.Context();
    if (grpc::Status s = conn_.matches->ListMoves(ctx.get(), req, &resp);
        !s.ok()) {
      return s;
    }
    if (resp.moves().empty()) break;
    for (const v1::Move& m : resp.moves()) ShowMove(m);
    token = resp.next_page_token();
    if (token.empty()) break;
  }
  return grpc::Status::OK;
}

std::optional<int> Session::NextPit() {
  if (next_move_ < o_.moves.size()) {
    const int pit = o_.moves[next_move_++];
    out_ << "Your move (pit): " << pit << "\n";
    return pit;
  }
  if (o_.auto_play) {
    if (o_.move_delay_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(o_.move_delay_ms));
    }
    out_ << "Your move (pit): " << match_.legal_pits(0) << "\n";
    return match_.legal_pits(0);
  }
  for (;;) {
    out_ << "Your move (pit";
    for (int p : match_.legal_pits()) out_ << " " << p;
    out_ << "; q to resign): " << std::flush;
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "q" || word == "quit") return -1;
    try {
      size_t used = 0;
      const int pit = std::stoi(word, &used);
      if (used == word.size()) return pit;
    } catch (const std::exception&) {
    }
    out_ << "Type a pit number from the list.\n";
  }
}

int Session::MaybePlay() {
  while (match_.state() == v1::Match::IN_PROGRESS &&
         seats_.count(match_.to_move()) > 0 && prompted_ply_ != match_.ply()) {
    const int seat = match_.to_move();
    if (grpc::Status s = ShowMissedMoves(); !s.ok()) return Fail("moves", s);
    out_ << "\n" << DrawBoard(match_, seat);
    if (match_.has_turn_deadline()) {
      const int64_t left_ms =
          TimeUtil::TimestampToMilliseconds(match_.turn_deadline()) -
          std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::system_clock::now().time_since_epoch())
              .count();
      out_ << "(" << std::max<int64_t>(0, left_ms / 1000)
           << " s left for this turn)\n";
    }
    std::optional<int> pit = NextPit();
    if (!pit.has_value()) {
      err_ << "no more moves on input\n";
      PrintResume();
      return 2;
    }
    auto ctx = conn_.Context();
    grpc::Status s;
    if (*pit < 0) {
      v1::ResignRequest req;
      req.set_name(match_.name());
      s = conn_.matches->Resign(ctx.get(), req, &match_);
    } else {
      v1::SubmitMoveRequest req;
      req.set_name(match_.name());
      req.set_pit(*pit);
      req.set_expected_ply(match_.ply());
      req.set_request_id(std::to_string(rng_()));
      v1::SubmitMoveResponse resp;
      s = conn_.matches->SubmitMove(ctx.get(), req, &resp);
      if (s.ok()) match_ = resp.match();
    }
    if (s.ok()) continue;  // Perhaps an extra turn.
    if (s.error_code() == grpc::StatusCode::ABORTED) {
      out_ << "Too late: " << s.error_message()
           << " (the CPU may have played for you)\n";
      prompted_ply_ = match_.ply();
      return 0;
    }
    if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
        s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
      out_ << "Not allowed: " << s.error_message() << "\n";
      continue;
    }
    return Fail("move", s);
  }
  return 0;
}

int Session::Run() {
  if (grpc::Status s = Setup(); !s.ok()) return Fail("start", s);
  for (int attempt = 0;; ++attempt) {
    v1::WatchMatchRequest req;
    req.set_name(match_.name());
    req.set_after_ply(shown_ply_);
    auto ctx = conn_.Context(/*with_deadline=*/false);
    auto stream = conn_.matches->WatchMatch(ctx.get(), req);
    v1::WatchEvent ev;
    while (stream->Read(&ev)) {
      if (ev.has_match()) {
        match_ = ev.match();
        if (match_.state() == v1::Match::WAITING && !told_code_) {
          out_ << "Waiting for players: invite code " << match_.invite_code()
               << "\n"
               << std::flush;
          told_code_ = true;
        }
      } else if (ev.has_move()) {
        if (ev.move().ply() <= shown_ply_) continue;
        ShowMove(ev.move());
        if (grpc::Status s = Refresh(); !s.ok()) return Fail("get match", s);
      } else if (ev.has_presence()) {
        out_ << "  " << DescribePresence(match_, ev.presence()) << "\n";
      } else if (ev.has_finished()) {
        match_ = ev.finished();
        if (grpc::Status s = ShowMissedMoves(); !s.ok()) {
          return Fail("moves", s);
        }
        if (match_.state() == v1::Match::CANCELLED) {
          out_ << "The match was cancelled.\n";
          return 0;
        }
        out_ << DrawBoard(match_, *seats_.begin())
             << DescribeResult(match_, *seats_.begin()) << "\n";
        return 0;
      }
      if (int rc = MaybePlay(); rc != 0) {
        ctx->TryCancel();
        stream->Finish();
        return rc;
      }
      out_ << std::flush;
    }
    grpc::Status s = stream->Finish();
    if (match_.state() == v1::Match::FINISHED) return 0;
    // The stream ends at the end of the match; anything else is an error
    // (a server restart closes it with UNAVAILABLE): try once more.
    if (attempt > 0 || s.error_code() != grpc::StatusCode::UNAVAILABLE) {
      return Fail("watch", s);
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace

int Play(const PlayOptions& options, std::istream& in, std::ostream& out,
         std::ostream& err) {
  Session session(options, in, out, err);
  return session.Run();
}

int Watch(const WatchOptions& o, std::ostream& out, std::ostream& err) {
  Connection conn(o.server, 10000);
  conn.token = o.token;
  v1::WatchMatchRequest req;
  req.set_name(o.match);
  req.set_after_ply(o.after_ply);
  auto ctx = conn.Context(/*with_deadline=*/false);
  auto stream = conn.matches->WatchMatch(ctx.get(), req);
  v1::WatchEvent ev;
  v1::Match match;
  bool ended = false;
  while (stream->Read(&ev)) {
    if (ev.has_match()) {
      match = ev.match();
      out << "match " << match.name() << ": "
          << v1::Match::State_Name(match.state()) << ", ply " << match.ply()
          << ", seat " << match.to_move() << " to move\n";
    } else if (ev.has_move()) {
      out << "ply " << ev.move().ply() << ": "
          << DescribeMove(match, ev.move(), -1) << "\n";
    } else if (ev.has_presence()) {
      out << DescribePresence(match, ev.presence()) << "\n";
    } else if (ev.has_deadline()) {
      out << "seat " << ev.deadline().seat() << " must move by "
          << TimeUtil::ToString(ev.deadline().deadline()) << "\n";
    } else if (ev.has_finished()) {
      match = ev.finished();
      out << "finished: " << v1::Match::State_Name(match.state());
      if (match.state() == v1::Match::FINISHED) {
        out << ", " << DescribeResult(match, -1);
      }
      out << "\n";
      ended = true;
    }
    out << std::flush;
  }
  grpc::Status s = stream->Finish();
  if (!s.ok() || !ended) {
    err << "error: watch: " << s.error_message() << " (code " << s.error_code()
        << ")\n";
    return 1;
  }
  return 0;
}

}  // namespace mancala::cli
