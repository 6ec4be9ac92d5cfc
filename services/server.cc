#include "services/server.h"

#include <filesystem>

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/grpcpp.h>

#include "services/cpu_worker.h"
#include "services/live_matches.h"
#include "services/match_service.h"
#include "services/player_service.h"
#include "storage/sqlite_store.h"

namespace mancala::services {

struct Server::Impl {
  SystemClock system_clock;
  const Clock* clock = nullptr;
  std::unique_ptr<storage::SqliteStore> store;
  std::unique_ptr<LiveMatches> matches;
  std::unique_ptr<CpuWorker> cpu;
  std::unique_ptr<PlayerServiceImpl> players;
  std::unique_ptr<MatchServiceImpl> match_service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { Shutdown(); }

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->clock = options.clock ? options.clock : &impl->system_clock;
  if (options.db_path != ":memory:") {
    std::error_code ec;
    auto dir = std::filesystem::path(options.db_path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  }
  auto store = storage::SqliteStore::Open(options.db_path);
  if (!store.ok()) return store.status();
  impl->store = *std::move(store);
  impl->matches = std::make_unique<LiveMatches>(*impl->store, *impl->clock);
  impl->cpu = std::make_unique<CpuWorker>(*impl->matches, options.cpu_threads,
                                          options.cpu_budget);
  CpuWorker* cpu = impl->cpu.get();
  impl->matches->SetCpuTurnListener(
      [cpu](CpuTurn turn) { cpu->Enqueue(std::move(turn)); });
  if (absl::Status s = impl->matches->LoadInProgress(); !s.ok()) return s;

  impl->players =
      std::make_unique<PlayerServiceImpl>(*impl->store, *impl->clock);
  impl->match_service =
      std::make_unique<MatchServiceImpl>(*impl->store, *impl->matches);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.address, grpc::InsecureServerCredentials(),
                           &impl->port);
  builder.RegisterService(impl->players.get());
  builder.RegisterService(impl->match_service.get());
  impl->server = builder.BuildAndStart();
  if (!impl->server || impl->port == 0) {
    return absl::UnavailableError("cannot listen on " + options.address);
  }
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

int Server::port() const { return impl_->port; }

void Server::Wait() { impl_->server->Wait(); }

void Server::Shutdown() {
  if (impl_ && impl_->server) {
    impl_->server->Shutdown();
    impl_->cpu.reset();  // Stop CPU moves before the store goes away.
  }
}

}  // namespace mancala::services
