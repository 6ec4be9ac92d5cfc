// `mancala admin revoke-tokens|ban|unban`: AdminService's acts on players.

#include "client/records.h"
#include "client/rpc.h"
#include "mancala/v1/admin_service.grpc.pb.h"

namespace mancala::cli {

int AdminPlayer(const std::string& what, const QueryOptions& o,
                const AdminOptions& a, std::ostream& out, std::ostream& err) {
  auto admin = v1::AdminService::NewStub(Dial(o.server));
  auto ctx = CallContext(o.admin_token);
  auto fill = [&](auto& req) {
    req.set_name(a.player);
    req.set_reason(a.reason);
    req.set_actor(a.actor);
  };
  grpc::Status s;
  v1::Player player;
  std::string token;
  if (what == "revoke-tokens") {
    v1::RevokeTokensRequest req;
    fill(req);
    v1::RevokeTokensResponse resp;
    s = admin->RevokeTokens(ctx.get(), req, &resp);
    if (s.ok() && o.json) out << ToJson(resp);
    player = resp.player();
    token = resp.token();
  } else if (what == "ban") {
    v1::BanPlayerRequest req;
    fill(req);
    v1::BanPlayerResponse resp;
    s = admin->BanPlayer(ctx.get(), req, &resp);
    if (s.ok() && o.json) out << ToJson(resp);
    player = resp.player();
  } else {
    v1::UnbanPlayerRequest req;
    fill(req);
    v1::UnbanPlayerResponse resp;
    s = admin->UnbanPlayer(ctx.get(), req, &resp);
    if (s.ok() && o.json) out << ToJson(resp);
    player = resp.player();
  }
  if (!s.ok()) return ShowError(err, what, s);
  if (o.json) return 0;
  if (what == "revoke-tokens") {
    out << "New token of " << player.name() << " (" << player.display_name()
        << "), shown once; the old one no longer works:\n"
        << token << "\n";
  } else {
    out << player.name() << " (" << player.display_name() << ") is "
        << (player.banned() ? "banned" : "no longer banned") << ".\n";
  }
  return 0;
}

}  // namespace mancala::cli
