#include "services/cli/play.h"

#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "mancala/v1/match_service.grpc.pb.h"
#include "mancala/v1/player_service.grpc.pb.h"
#include "services/cli/board_view.h"

namespace mancala::cli {
namespace {

class Session {
 public:
  Session(const PlayOptions& o, std::ostream& out, std::ostream& err)
      : o_(o), out_(out), err_(err),
        channel_(grpc::CreateChannel(o.server,
                                     grpc::InsecureChannelCredentials())),
        players_(v1::PlayerService::NewStub(channel_)),
        matches_(v1::MatchService::NewStub(channel_)) {}

  int Run(std::istream& in);

 private:
  std::unique_ptr<grpc::ClientContext> Context() const {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::milliseconds(o_.rpc_deadline_ms));
    if (!token_.empty()) ctx->AddMetadata("authorization", "Bearer " + token_);
    return ctx;
  }
  int Fail(const std::string& what, const grpc::Status& s) const {
    err_ << "error: " << what << ": " << s.error_message() << " (code "
         << s.error_code() << ")\n";
    if (!match_.empty()) {
      err_ << "resume with: mancala play --server " << o_.server
           << " --match " << match_ << " --token " << token_ << "\n";
    }
    return 1;
  }
  // Prints the moves recorded since the last one shown.
  grpc::Status ShowNewMoves(const v1::Match& match);
  // Next pit to play: from --moves, --auto, or the input stream.
  std::optional<int> NextPit(const v1::Match& match, std::istream& in);

  const PlayOptions& o_;
  std::ostream& out_;
  std::ostream& err_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::PlayerService::Stub> players_;
  std::unique_ptr<v1::MatchService::Stub> matches_;
  std::string token_;
  std::string match_;
  std::string me_;   // "players/{id}".
  int seat_ = 0;
  int64_t shown_ply_ = 0;
  size_t next_move_ = 0;
};

grpc::Status Session::ShowNewMoves(const v1::Match& match) {
  while (shown_ply_ < match.ply()) {
    v1::ListMovesRequest req;
    req.set_parent(match_);
    req.set_page_token(std::to_string(shown_ply_ + 1));
    v1::ListMovesResponse resp;
    auto ctx = Context();
    grpc::Status s = matches_->ListMoves(ctx.get(), req, &resp);
    if (!s.ok()) return s;
    if (resp.moves().empty()) break;
    for (const v1::Move& m : resp.moves()) {
      out_ << "  ply " << m.ply() << ": " << DescribeMove(match, m, seat_)
           << "\n";
      shown_ply_ = m.ply();
    }
  }
  return grpc::Status::OK;
}

std::optional<int> Session::NextPit(const v1::Match& match, std::istream& in) {
  if (next_move_ < o_.moves.size()) {
    int pit = o_.moves[next_move_++];
    out_ << "Your move (pit): " << pit << "\n";
    return pit;
  }
  if (o_.auto_play) {
    out_ << "Your move (pit): " << match.legal_pits(0) << "\n";
    return match.legal_pits(0);
  }
  for (;;) {
    out_ << "Your move (pit";
    for (int p : match.legal_pits()) out_ << " " << p;
    out_ << "; q to resign): " << std::flush;
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "q" || word == "quit") return -1;
    try {
      size_t used = 0;
      int pit = std::stoi(word, &used);
      if (used == word.size()) return pit;
    } catch (const std::exception&) {
    }
    out_ << "Type a pit number from the list.\n";
  }
}

int Session::Run(std::istream& in) {
  v1::Match match;
  if (!o_.match.empty()) {
    match_ = o_.match;
    token_ = o_.token;
    v1::GetMatchRequest req;
    req.set_name(match_);
    auto ctx = Context();
    if (grpc::Status s = matches_->GetMatch(ctx.get(), req, &match); !s.ok()) {
      return Fail("get match", s);
    }
    // The seat is the one that is not the CPU's.
    for (int i = 0; i < match.seats_size(); ++i) {
      if (match.seats(i).kind() == v1::Seat::PLAYER) seat_ = i;
    }
    shown_ply_ = match.ply();
    out_ << "Resuming " << match_ << " at ply " << match.ply() << ".\n";
  } else {
    v1::CreatePlayerRequest preq;
    v1::CreatePlayerResponse presp;
    auto ctx = Context();
    if (grpc::Status s = players_->CreatePlayer(ctx.get(), preq, &presp);
        !s.ok()) {
      return Fail("create player", s);
    }
    token_ = presp.token();
    me_ = presp.player().name();
    v1::CreateMatchRequest mreq;
    v1::Game game = v1::GAME_UNSPECIFIED;
    if (!v1::Game_Parse(o_.game == "mancala_basic" ? "MANCALA_BASIC"
                        : o_.game == "kalah"       ? "KALAH"
                        : o_.game == "oware"       ? "OWARE"
                        : o_.game == "congkak"     ? "CONGKAK"
                                                   : "",
                        &game)) {
      err_ << "error: unknown game '" << o_.game
           << "' (kalah, oware, congkak, mancala_basic)\n";
      return 1;
    }
    mreq.set_game(game);
    mreq.mutable_options()->insert(o_.options.begin(), o_.options.end());
    const int seats = 1 + o_.opponents;
    seat_ = o_.cpu_first ? seats - 1 : 0;
    for (int i = 0; i < seats; ++i) {
      v1::Seat* seat = mreq.add_seats();
      if (i == seat_) {
        seat->set_kind(v1::Seat::PLAYER);
        seat->set_player(me_);
      } else {
        seat->set_kind(v1::Seat::CPU);
        seat->set_cpu_level(o_.cpu_level);
      }
    }
    auto mctx = Context();
    if (grpc::Status s = matches_->CreateMatch(mctx.get(), mreq, &match);
        !s.ok()) {
      return Fail("create match", s);
    }
    match_ = match.name();
    out_ << "You are " << presp.player().display_name() << ", seat " << seat_
         << ", in " << match_ << " (token " << token_ << ").\n";
  }

  for (;;) {
    if (grpc::Status s = ShowNewMoves(match); !s.ok()) {
      return Fail("list moves", s);
    }
    if (match.state() == v1::Match::FINISHED) {
      out_ << DrawBoard(match, seat_) << DescribeResult(match, seat_) << "\n";
      return 0;
    }
    if (match.to_move() != seat_) {
      // The CPU is thinking; look again shortly.
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      v1::GetMatchRequest req;
      req.set_name(match_);
      auto ctx = Context();
      if (grpc::Status s = matches_->GetMatch(ctx.get(), req, &match);
          !s.ok()) {
        return Fail("get match", s);
      }
      continue;
    }
    out_ << "\n" << DrawBoard(match, seat_);
    std::optional<int> pit = NextPit(match, in);
    if (!pit.has_value()) {
      err_ << "no more moves on input; resume with: mancala play --server "
           << o_.server << " --match " << match_ << " --token " << token_
           << "\n";
      return 2;
    }
    auto ctx = Context();
    grpc::Status s;
    if (*pit < 0) {
      v1::ResignRequest req;
      req.set_match(match_);
      s = matches_->Resign(ctx.get(), req, &match);
    } else {
      v1::SubmitMoveRequest req;
      req.set_match(match_);
      req.set_pit(*pit);
      v1::SubmitMoveResponse resp;
      s = matches_->SubmitMove(ctx.get(), req, &resp);
      if (s.ok()) match = resp.match();
    }
    if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
        s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
      out_ << "Not allowed: " << s.error_message() << "\n";
      continue;
    }
    if (!s.ok()) return Fail("move", s);
  }
}

}  // namespace

int Play(const PlayOptions& options, std::istream& in, std::ostream& out,
         std::ostream& err) {
  Session session(options, out, err);
  return session.Run(in);
}

}  // namespace mancala::cli
