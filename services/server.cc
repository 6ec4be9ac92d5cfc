#include "services/server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "services/admin_service.h"
#include "services/cpu_worker.h"
#include "services/live_matches.h"
#include "services/match_service.h"
#include "services/matchmaking_service.h"
#include "services/player_service.h"
#include "services/rating_service.h"
#include "storage/open_store.h"

namespace mancala::services {

struct Server::Impl {
  SystemClock system_clock;
  const Clock* clock = nullptr;
  std::unique_ptr<storage::Store> store;
  std::function<absl::Status()> ping;  // Empty for SQLite.
  std::unique_ptr<LiveMatches> matches;
  std::unique_ptr<CpuWorker> cpu;
  std::unique_ptr<PlayerServiceImpl> players;
  std::unique_ptr<MatchServiceImpl> match_service;
  std::unique_ptr<RatingServiceImpl> rating_service;
  std::unique_ptr<AdminServiceImpl> admin_service;
  std::unique_ptr<Matchmaker> matchmaker;
  std::unique_ptr<MatchmakingServiceImpl> matchmaking_service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;

  // The ticker: checks clocks and presence every `tick`.
  std::mutex tick_mu;
  std::condition_variable tick_cv;
  bool stopping = false;
  std::thread ticker;
  std::thread prober;  // Health: PostgreSQL only.
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { Shutdown(); }

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->clock = options.clock ? options.clock : &impl->system_clock;
  if (options.db_path != ":memory:" &&
      !storage::IsPostgresUrl(options.db_path)) {
    std::error_code ec;
    auto dir = std::filesystem::path(options.db_path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  }
  storage::StoreOptions store_options;
  store_options.pool_size = options.db_pool_size;
  store_options.sqlite.busy_timeout_ms = options.db_busy_timeout_ms;
  store_options.sqlite.read_connections = options.db_read_connections;
  auto store = storage::OpenStore(options.db_path, store_options);
  if (!store.ok()) return store.status();
  impl->store = std::move(store->store);
  impl->ping = std::move(store->ping);
  LiveMatchesOptions live_options;
  live_options.grace_ms = options.grace.count();
  live_options.standin_level = options.standin_level;
  impl->matches =
      std::make_unique<LiveMatches>(*impl->store, *impl->clock, live_options);
  impl->cpu = std::make_unique<CpuWorker>(*impl->matches, options.cpu_threads,
                                          options.cpu_budget_ms);
  CpuWorker* cpu = impl->cpu.get();
  impl->matches->SetCpuTurnListener(
      [cpu](CpuTurn turn) { cpu->Enqueue(std::move(turn)); });
  if (absl::Status s = impl->matches->LoadActive(); !s.ok()) return s;

  impl->players =
      std::make_unique<PlayerServiceImpl>(*impl->store, *impl->clock);
  impl->match_service =
      std::make_unique<MatchServiceImpl>(*impl->store, *impl->matches);
  impl->rating_service = std::make_unique<RatingServiceImpl>(*impl->store);
  impl->admin_service = std::make_unique<AdminServiceImpl>(
      *impl->store, *impl->matches, options.admin_token);
  MatchmakerOptions mm;
  mm.window_start = options.rating_window;
  mm.window_growth = options.rating_window_growth;
  mm.cpu_fallback_ms = options.cpu_fallback.count();
  mm.cpu_level = options.standin_level;
  impl->matchmaker = std::make_unique<Matchmaker>(*impl->matches, *impl->store,
                                                  *impl->clock, mm);
  impl->matchmaking_service =
      std::make_unique<MatchmakingServiceImpl>(*impl->store, *impl->matchmaker);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.address, grpc::InsecureServerCredentials(),
                           &impl->port);
  builder.RegisterService(impl->players.get());
  builder.RegisterService(impl->match_service.get());
  builder.RegisterService(impl->rating_service.get());
  builder.RegisterService(impl->admin_service.get());
  builder.RegisterService(impl->matchmaking_service.get());
  impl->server = builder.BuildAndStart();
  if (!impl->server || impl->port == 0) {
    return absl::UnavailableError("cannot listen on " + options.address);
  }
  if (options.tick.count() > 0) {
    Impl* p = impl.get();
    const auto every = options.tick;
    p->ticker = std::thread([p, every] {
      std::unique_lock lock(p->tick_mu);
      while (!p->tick_cv.wait_for(lock, every, [p] { return p->stopping; })) {
        lock.unlock();
        p->matches->Tick();
        p->matchmaker->Tick();
        lock.lock();
      }
    });
  }
  if (impl->ping) {
    Impl* p = impl.get();
    const auto every = options.health_probe;
    p->prober = std::thread([p, every] {
      grpc::HealthCheckServiceInterface* health =
          p->server->GetHealthCheckService();
      bool serving = true;
      std::unique_lock lock(p->tick_mu);
      while (!p->tick_cv.wait_for(lock, every, [p] { return p->stopping; })) {
        lock.unlock();
        absl::Status s = p->ping();
        if (s.ok() != serving) {
          serving = s.ok();
          health->SetServingStatus(serving);
          if (serving) {
            spdlog::info("database answers again: serving");
          } else {
            spdlog::warn("database unreachable, not serving: {}",
                         std::string(s.message()));
          }
        }
        lock.lock();
      }
    });
  }
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

void Server::Tick() {
  impl_->matches->Tick();
  impl_->matchmaker->Tick();
}

int Server::port() const { return impl_->port; }

void Server::Wait() { impl_->server->Wait(); }

void Server::Shutdown() {
  if (!impl_ || !impl_->server) return;
  {
    std::lock_guard lock(impl_->tick_mu);
    if (impl_->stopping) return;
    impl_->stopping = true;
  }
  impl_->tick_cv.notify_all();
  if (impl_->ticker.joinable()) impl_->ticker.join();
  if (impl_->prober.joinable()) impl_->prober.join();
  impl_->cpu.reset();  // No CPU move starts after this.
  // Open watch streams end first, so Shutdown does not wait for them.
  impl_->matches->CloseWatchers();
  impl_->matchmaker->CloseAll();
  impl_->server->Shutdown(std::chrono::system_clock::now() +
                          std::chrono::seconds(2));
}

}  // namespace mancala::services
