#include "services/server.h"

#include <grpc/grpc.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/version_info.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "absl/time/time.h"
#include "services/api/admin_service.h"
#include "services/api/auth.h"
#include "services/api/guarded_services.h"
#include "services/api/match_service.h"
#include "services/api/matchmaking_service.h"
#include "services/api/player_service.h"
#include "services/api/rating_service.h"
#include "services/api/rpc_log.h"
#include "services/api/unparsed_request.h"
#include "services/api/watch_stream.h"
#include "services/base/metrics.h"
#include "services/base/mutex.h"
#include "services/base/store_alarm.h"
#include "services/cluster/cluster_node.h"
#include "services/cluster/credential_watch.h"
#include "services/match/cpu_worker.h"
#include "services/match/live_matches.h"
#include "services/metrics_http.h"
#include "services/tls/tls_reloader.h"
#include "services/web/web_port.h"
#include "services/wire/convert.h"
#include "services/wire/resource_names.h"
#include "services/wire/search_codec.h"
#include "services/wire/stored_codec.h"
#include "storage/call_deadline.h"
#include "storage/open_cluster.h"
#include "storage/open_match_queue.h"
#include "storage/open_store.h"

namespace mancala::services {

struct Server::Impl {
  // First member: outlives everything that reports to it.
  Metrics metrics{GRPC_CPP_VERSION_STRING};
  StoreAlarm store_alarm{metrics};  // The store's commits and failures.
  // Calls of our services in flight (rpc_log.h), for Shutdown() step 2;
  // before `server`, which counts into it.
  std::atomic<int> calls_in_flight{0};
  SystemClock system_clock;
  const Clock* clock = nullptr;
  std::unique_ptr<storage::Store> store;
  std::function<absl::Status()> ping;  // Empty for SQLite.
  // Who is online (every authenticated call and stream); before `cluster`,
  // which writes it at each heartbeat, and `auth`, which fills it.
  std::unique_ptr<OnlinePlayers> online;
  std::unique_ptr<Authenticator> auth;
  // PostgreSQL only. Declared before `matches` and `cpu`, whose threads
  // call it; its own threads call `matches`, so ~Impl() stops them first.
  std::unique_ptr<ClusterNode> cluster;
  // What the domain reaches of the wire format; stateless, before their
  // users.
  const StoredCodec stored_codec{};
  const SearchCodec search_codec{};
  const WatchStreamFanOut watch_fanout{};
  std::unique_ptr<LiveMatches> matches;
  std::unique_ptr<CpuWorker> cpu;
  std::unique_ptr<PlayerServiceImpl> players;
  std::unique_ptr<MatchServiceImpl> match_service;
  std::unique_ptr<RatingServiceImpl> rating_service;
  std::unique_ptr<storage::MatchQueue> match_queue;
  std::unique_ptr<Matchmaker> matchmaker;
  std::unique_ptr<MatchmakingServiceImpl> matchmaking_service;
  std::unique_ptr<CredentialEffects> credential_effects;
  std::unique_ptr<AdminServiceImpl> admin_service;  // Uses `matchmaker`.
  // PostgreSQL only: tells `auth` of credentials other nodes changed.
  std::unique_ptr<CredentialWatch> credential_watch;
  // What gRPC serves: the services above behind the one catch at the edge.
  std::unique_ptr<PeerLimiter> creations;  // Per client address.
  std::unique_ptr<GuardedPlayerService> guarded_players;
  std::unique_ptr<GuardedMatchService> guarded_matches;
  std::unique_ptr<GuardedRatingService> guarded_ratings;
  std::unique_ptr<GuardedAdminService> guarded_admin;
  std::unique_ptr<GuardedMatchmakingService> guarded_matchmaking;
  // Before `server`, whose credentials read its staged copies.
  std::unique_ptr<tls::TlsReloader> tls;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  // The plaintext health port: gRPC's health service alone, told what
  // `server`'s is told (SetHealth).
  std::unique_ptr<grpc::Server> health_server;
  int health_port = 0;
  std::unique_ptr<MetricsHttpServer> metrics_http;
  std::unique_ptr<web::WebPort> web;  // Browsers; through `server`.

  ~Impl() {
    if (cluster) cluster->Stop();
  }

  // The ticker: checks clocks and presence every `every` until stopping.
  Mutex tick_mu;
  // Shutdown() has begun: readiness is NOT_SERVING for good.
  bool draining ABSL_GUARDED_BY(tick_mu) = false;
  // The drain is over: streams end and calls are refused.
  bool stopping ABSL_GUARDED_BY(tick_mu) = false;
  bool stopped ABSL_GUARDED_BY(tick_mu) = false;  // Shutdown() has finished.
  std::chrono::milliseconds drain{0};             // ServerOptions::drain.
  std::thread ticker;

  void RunTicker(absl::Duration every) ABSL_LOCKS_EXCLUDED(tick_mu) {
    for (;;) {
      {
        MutexLock lock(&tick_mu);
        if (tick_mu.AwaitWithTimeout(Condition(&stopping), every)) {
          return;
        }
      }
      matches->Tick();
      matchmaker->Tick();
    }
  }
  // The readiness names ("" and kReadinessHealthName) say `serving`;
  // liveness is left alone.
  void SetReady(bool serving) {
    SetHealth("", serving);
    SetHealth(kReadinessHealthName, serving);
  }
  // On the main port and the health port alike.
  void SetHealth(const char* name, bool serving) {
    server->GetHealthCheckService()->SetServingStatus(name, serving);
    if (health_server) {
      health_server->GetHealthCheckService()->SetServingStatus(name, serving);
    }
  }
  // Health: asks the database every `every` (PostgreSQL only) and reports
  // readiness NOT_SERVING while it does not answer within kProbeTimeout. Once
  // draining, readiness stays NOT_SERVING (set under tick_mu, so no late probe
  // undoes it).
  void RunProber(absl::Duration every) ABSL_LOCKS_EXCLUDED(tick_mu) {
    bool serving = true;
    for (;;) {
      {
        MutexLock lock(&tick_mu);
        if (tick_mu.AwaitWithTimeout(Condition(&draining), every)) {
          return;
        }
      }
      absl::Status s;
      {
        // Its own timeout: a frozen database (SIGSTOP, a partition) answers
        // nothing, and readiness must say so within a few seconds.
        const storage::CallDeadline probe(std::chrono::steady_clock::now() +
                                          kProbeTimeout);
        s = ping();
      }
      if (s.ok() == serving) continue;
      {
        MutexLock lock(&tick_mu);
        if (draining) return;
        serving = s.ok();
        SetReady(serving);
      }
      if (serving) {
        spdlog::info("database answers again: serving");
      } else {
        spdlog::warn("database unreachable, not serving: {}",
                     std::string(s.message()));
      }
    }
  }
  std::thread prober;  // Health: PostgreSQL only.
  static constexpr std::chrono::seconds kProbeTimeout{2};
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

namespace {

// Reads the gauges at each scrape (the endpoint is stopped before the
// parts go away); starts the endpoint if `address` is set.
absl::StatusOr<std::unique_ptr<MetricsHttpServer>> StartMetrics(
    Metrics& metrics, LiveMatches& matches, Matchmaker& matchmaker,
    CpuWorker& cpu, OnlinePlayers& online, const std::string& address,
    const tls::TlsReloader* tls) {
  metrics.SetGaugeSource([&matches, &matchmaker, &cpu, &online] {
    GaugeReadings g;
    LiveMatches::Stats live = matches.GetStats();
    g.live_matches_by_state = std::move(live.by_state);
    g.watch_streams_open = live.watchers;
    for (v1::Game game :
         {v1::KALAH, v1::OWARE, v1::CONGKAK, v1::MANCALA_BASIC}) {
      g.searching_by_game[GameName(game).value_or("unknown")] = 0;
    }
    QueueStatsView queues;
    (void)matchmaker.Stats(std::nullopt, &queues);  // None counted if down.
    for (const QueueView& q : queues.queues) {
      g.searching_by_game[q.game] += q.searching;
    }
    g.cpu_turns_queued = cpu.queued();
    g.players_online = online.Count();
    return g;
  });
  if (address.empty()) return nullptr;
  return MetricsHttpServer::Start(address, metrics, tls);
}

// Joins the cluster on `options.db_path`; due turns this node claims from
// the sweep are played by `matches`.
absl::StatusOr<std::unique_ptr<ClusterNode>> StartCluster(
    const ServerOptions& options, const std::string& node_id,
    LiveMatches* matches, OnlinePlayers* online) {
  auto tables = storage::OpenCluster(options.db_path);
  if (!tables.ok()) return tables.status();
  ClusterOptions cluster;
  cluster.node_id = node_id;
  // A live node must never look dead: at least a few beats per grace.
  cluster.heartbeat = std::min(options.heartbeat, options.grace / 3);
  cluster.sweep = options.sweep;
  cluster.grace_ms = options.grace.count();
  // The longest search, and room for its move to be stored.
  cluster.claim_ttl_ms = *std::max_element(options.cpu_budget_ms.begin(),
                                           options.cpu_budget_ms.end()) +
                         5'000;
  return ClusterNode::Start(
      *std::move(tables), std::move(cluster),
      [matches](const storage::DueTurn& turn) { matches->PlayDue(turn); },
      online);
}

}  // namespace

Server::~Server() { Shutdown(); }

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->clock = options.clock ? options.clock : &impl->system_clock;
  // One name for everything this node holds in a shared database.
  const std::string node_id =
      options.node_id.empty() ? DefaultNodeId() : options.node_id;
  if (options.db_path != ":memory:" &&
      !storage::IsPostgresUrl(options.db_path)) {
    std::error_code ec;
    auto dir = std::filesystem::path(options.db_path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  }
  storage::StoreOptions store_options;
  store_options.pool_size = options.db_pool_size;
  store_options.sqlite.busy_timeout_ms = options.db_busy_timeout_ms;
  store_options.call_bound_ms = options.db_call_timeout_ms;
  store_options.sqlite.read_connections = options.db_read_connections;
  store_options.sqlite.max_size_mb = options.db_max_size_mb;
  auto store = storage::OpenStore(options.db_path, store_options);
  if (!store.ok()) return store.status();
  impl->store = std::move(store->store);
  impl->ping = std::move(store->ping);
  impl->store->set_metrics(&impl->store_alarm);
  LiveMatchesOptions live_options;
  live_options.grace_ms = options.grace.count();
  live_options.standin_level = options.standin_level;
  live_options.fanout_threads = options.fanout_threads;
  live_options.max_watchers = options.max_watchers_per_match;
  live_options.max_waiting_per_player = options.max_waiting_matches_per_player;
  live_options.waiting_ttl_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(
          options.waiting_match_ttl)
          .count();
  impl->matches =
      std::make_unique<LiveMatches>(*impl->store, *impl->clock, live_options,
                                    impl->stored_codec, impl->watch_fanout);
  LiveMatches* live = impl->matches.get();
  impl->online =
      std::make_unique<OnlinePlayers>(*impl->clock, options.grace.count());
  std::function<bool(const CpuTurn&)> claim;
  if (storage::IsPostgresUrl(options.db_path)) {
    // One node of several: the nodes tell each other their moves and keep
    // due turns and presence in the database (replication.h).
    auto cluster = StartCluster(options, node_id, live, impl->online.get());
    if (!cluster.ok()) return cluster.status();
    impl->cluster = *std::move(cluster);
    impl->matches->ShareDatabase(std::move(store->notices),
                                 impl->cluster.get());
    claim = [node = impl->cluster.get()](const CpuTurn& turn) {
      // CpuReason and DueReason share their numbers (due_turns.h).
      return node->Claim(turn.match_id, turn.ply,
                         static_cast<storage::DueReason>(turn.reason));
    };
  }
  impl->cpu = std::make_unique<CpuWorker>(*impl->matches, options.cpu_threads,
                                          options.cpu_budget_ms, &impl->metrics,
                                          std::move(claim));
  CpuWorker* cpu = impl->cpu.get();
  impl->matches->SetCpuTurnListener(
      [cpu](CpuTurn turn) { cpu->Enqueue(std::move(turn)); });
  if (absl::Status s = impl->matches->LoadActive(); !s.ok()) return s;

  impl->auth =
      std::make_unique<Authenticator>(*impl->store, impl->online.get());
  impl->players = std::make_unique<PlayerServiceImpl>(*impl->store, *impl->auth,
                                                      *impl->clock);
  impl->match_service = std::make_unique<MatchServiceImpl>(
      *impl->store, *impl->auth, *impl->matches,
      static_cast<size_t>(options.max_queued_events));
  impl->rating_service = std::make_unique<RatingServiceImpl>(*impl->store);
  MatchmakerOptions mm;
  mm.window_start = options.rating_window;
  mm.window_growth = options.rating_window_growth;
  mm.cpu_fallback_ms = options.cpu_fallback.count();
  mm.cpu_level = options.standin_level;
  mm.update_every_ms = options.queue_update.count();
  const Clock* clock = impl->clock;
  auto queue = storage::OpenMatchQueue(
      options.db_path, node_id, [clock] { return clock->NowMs(); },
      /*test_clock=*/options.clock != nullptr);
  if (!queue.ok()) return queue.status();
  impl->match_queue = *std::move(queue);
  impl->matchmaker = std::make_unique<Matchmaker>(
      *impl->matches, *impl->store, *impl->match_queue, *impl->clock,
      impl->search_codec, mm);
  impl->matchmaking_service =
      std::make_unique<MatchmakingServiceImpl>(*impl->auth, *impl->matchmaker);
  impl->credential_effects = std::make_unique<CredentialEffects>(
      *impl->auth, *impl->matches, *impl->store);
  impl->admin_service = std::make_unique<AdminServiceImpl>(
      *impl->store, *impl->matches, *impl->credential_effects,
      *impl->matchmaker, *impl->clock, options.admin_token);
  if (impl->cluster) {
    // Tokens replaced and bans made on other nodes reach this node within
    // a period (credential_watch.h).
    impl->credential_watch = std::make_unique<CredentialWatch>(
        *impl->store, [effects = impl->credential_effects.get()](
                          const std::string& player_id) {
          effects->ChangedElsewhere(player_id);
        });
  }

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  grpc::ResourceQuota quota("mancalad");
  quota.SetMaxThreads(options.max_threads);
  builder.SetResourceQuota(quota);
  // gRPC's sync server keeps at most MAX_POLLERS (default 2) idle threads
  // waiting for calls: a thread that ends a call while two wait exits, and
  // the next call makes a new one (issue 28 measured 0.48 thread creations
  // per RPC, 14.5% of the CPU at 8 clients). Here up to half the thread
  // bound may wait instead; those beyond MIN_POLLERS still exit after
  // CQ_TIMEOUT_MSEC (gRPC's default, 10 s) without a call.
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MAX_POLLERS,
      std::max(2, options.max_threads / 2));
  std::shared_ptr<grpc::ServerCredentials> credentials =
      grpc::InsecureServerCredentials();
  if (!options.tls.cert.empty()) {
    auto tls = tls::TlsReloader::Start(options.tls, options.tls_reload);
    if (!tls.ok()) return tls.status();
    impl->tls = *std::move(tls);
    credentials = impl->tls->GrpcCredentials();
  }
  builder.AddListeningPort(options.address, credentials, &impl->port);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             options.max_streams_per_connection);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS,
                             static_cast<int>(options.keepalive.count()));
  builder.AddChannelArgument(
      GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
      static_cast<int>(options.keepalive_timeout.count()));
  // Pings also connections without calls (a peer that connected and went
  // silent holds a connection too), and keeps pinging an idle connection
  // after the first two pings (gRPC's default stops there).
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  impl->creations = std::make_unique<PeerLimiter>(
      *impl->clock, options.create_burst, options.create_per_minute);
  // The longest a call's store work may take, deadline or not.
  const std::chrono::milliseconds call_bound(options.db_call_timeout_ms);
  impl->guarded_players = std::make_unique<GuardedPlayerService>(
      *impl->players, *impl->creations, call_bound);
  impl->guarded_matches = std::make_unique<GuardedMatchService>(
      *impl->match_service, *impl->creations, call_bound);
  impl->guarded_ratings =
      std::make_unique<GuardedRatingService>(*impl->rating_service, call_bound);
  impl->guarded_admin =
      std::make_unique<GuardedAdminService>(*impl->admin_service, call_bound);
  impl->guarded_matchmaking = std::make_unique<GuardedMatchmakingService>(
      *impl->matchmaking_service, call_bound);
  builder.RegisterService(impl->guarded_players.get());
  builder.RegisterService(impl->guarded_matches.get());
  builder.RegisterService(impl->guarded_ratings.get());
  builder.RegisterService(impl->guarded_admin.get());
  builder.RegisterService(impl->guarded_matchmaking.get());
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(UnparsedRequestInterceptorFactory());
  interceptors.push_back(
      NewRpcInterceptorFactory(&impl->metrics, &impl->calls_in_flight));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  impl->server = builder.BuildAndStart();
  if (!impl->server || impl->port == 0) {
    return absl::UnavailableError("cannot listen on " + options.address);
  }
  if (!options.health_address.empty()) {
    grpc::ServerBuilder health;
    health.AddListeningPort(options.health_address,
                            grpc::InsecureServerCredentials(),
                            &impl->health_port);
    impl->health_server = health.BuildAndStart();
    if (!impl->health_server || impl->health_port == 0) {
      return absl::UnavailableError("cannot listen for health on " +
                                    options.health_address);
    }
  }
  impl->SetReady(true);
  impl->SetHealth(kLivenessHealthName, true);
  impl->drain = options.drain;
  auto metrics_http =
      StartMetrics(impl->metrics, *impl->matches, *impl->matchmaker, *impl->cpu,
                   *impl->online, options.metrics_address,
                   options.metrics_plaintext ? nullptr : impl->tls.get());
  if (!metrics_http.ok()) return metrics_http.status();
  impl->metrics_http = *std::move(metrics_http);
  if (!options.web_address.empty()) {
    web::WebPortOptions web_options;
    web_options.address = options.web_address;
    web_options.allowed_origins = options.web_allowed_origins;
    web_options.root_dir = options.web_root;
    web_options.max_message_bytes =
        static_cast<size_t>(options.max_message_bytes);
    web_options.tls = impl->tls.get();
    auto web = web::WebPort::Start(
        impl->server->InProcessChannel(grpc::ChannelArguments()),
        std::move(web_options));
    if (!web.ok()) return web.status();
    impl->web = *std::move(web);
  }
  if (options.tick.count() > 0) {
    Impl* p = impl.get();
    const absl::Duration every = absl::FromChrono(options.tick);
    p->ticker = std::thread([p, every] { p->RunTicker(every); });
  }
  if (impl->ping) {
    Impl* p = impl.get();
    const absl::Duration every = absl::FromChrono(options.health_probe);
    p->prober = std::thread([p, every] { p->RunProber(every); });
  }
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

void Server::Tick() {
  MutexLock lock(&impl_->tick_mu);
  if (impl_->stopping) return;  // The matches may be gone.
  impl_->matches->Tick();
  impl_->matchmaker->Tick();
}

int Server::WatcherCount(const std::string& match) {
  MutexLock lock(&impl_->tick_mu);
  if (impl_->stopping) return 0;
  std::string id;
  if (!MatchIdFromName(match, "match", &id).ok()) return 0;
  return impl_->matches->WatcherCount(id);
}

int Server::port() const { return impl_->port; }

int Server::web_port() const { return impl_->web ? impl_->web->port() : 0; }

int Server::health_port() const { return impl_->health_port; }

int Server::metrics_port() const {
  return impl_->metrics_http ? impl_->metrics_http->port() : 0;
}

void Server::Wait() {
  MutexLock lock(&impl_->tick_mu);
  impl_->tick_mu.Await(Condition(&impl_->stopped));
}

// The order is docs/design.md "Shutdown": each step only starts once
// nothing that could still call into what it tears down is running.
void Server::Shutdown() {
  if (!impl_ || !impl_->server) return;
  {
    MutexLock lock(&impl_->tick_mu);
    if (impl_->draining) return;
    impl_->draining = true;  // Ends the prober: readiness stays as set here.
    // 0. Readiness NOT_SERVING at once; everything goes on serving for the
    //    drain, so balancers that watch health move new calls elsewhere
    //    before this node refuses any.
    impl_->SetReady(false);
  }
  if (impl_->drain.count() > 0) {
    spdlog::info("draining: readiness NOT_SERVING, still serving for {} ms",
                 impl_->drain.count());
    absl::SleepFor(absl::FromChrono(impl_->drain));
    spdlog::info("drained: ending streams, refusing new calls");
  }
  {
    MutexLock lock(&impl_->tick_mu);
    impl_->stopping = true;  // Wakes the ticker's AwaitWithTimeout.
  }
  // 1. Streams end (UNAVAILABLE, SHUTTING_DOWN) and new ones are refused,
  //    so the drain below waits only for short calls.
  impl_->matches->CloseWatchers();
  impl_->matchmaker->CloseAll();
  //    A cluster node stops sweeping and deletes its heartbeat: its peers
  //    take over its due turns at once.
  if (impl_->cluster) impl_->cluster->Stop();
  // 2. gRPC stops accepting calls and connections and waits for the calls
  //    in flight: every move it stores is answered. Calls still running
  //    after 10 s are cancelled.
  //    gRPC's Shutdown(deadline) alone would also wait, up to its deadline,
  //    for every client connection, even one without a call, to answer the
  //    ping that follows its GOAWAY: an idle gRPC-core client (C++,
  //    Python) reads its connection only at its backup poll, every 5 s,
  //    and one that never reads held the exit for the whole 10 s, after the
  //    drain, on both backends. So the shutdown begins here (gRPC repeats
  //    it below, which it allows: all tags are notified), only our own
  //    calls are waited for, and then Shutdown() with its deadline already
  //    passed drops the connections at once, the calls in them answered.
  grpc_server* core = impl_->server->c_server();
  grpc_completion_queue* begun =
      grpc_completion_queue_create_for_pluck(nullptr);
  grpc_server_shutdown_and_notify(core, begun, begun);
  const auto cut_off =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  //    The count must read 0 twice in a row, 25 ms apart: by then a call
  //    gRPC admitted just before (handed to a thread, not yet intercepted)
  //    is counted, and the last answers, handed to the transport, are
  //    written out.
  for (int zeros = 0;
       zeros < 2 && std::chrono::steady_clock::now() < cut_off;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    zeros = impl_->calls_in_flight.load() == 0 ? zeros + 1 : 0;
  }
  impl_->server->Shutdown(std::chrono::system_clock::now());
  impl_->server->Wait();
  //    The web port's inner calls were among those: its connections close.
  if (impl_->web) impl_->web->Stop();
  //    Shutdown() returned: our notification is out too; take it before
  //    the server goes (grpc_server_destroy requires it).
  grpc_completion_queue_pluck(begun, begun, gpr_inf_future(GPR_CLOCK_REALTIME),
                              nullptr);
  grpc_completion_queue_shutdown(begun);
  grpc_completion_queue_destroy(begun);
  // 3. The ticker (it saw `stopping` and has ended or is ending) and the
  //    CPU worker stop: they are the only callers left, and the ticker
  //    announces CPU turns, so it stops first.
  if (impl_->ticker.joinable()) impl_->ticker.join();
  if (impl_->prober.joinable()) impl_->prober.join();
  impl_->metrics_http.reset();  // No scrape reads the parts below now.
  //    Probes were answered throughout: readiness NOT_SERVING, liveness
  //    SERVING until here.
  if (impl_->health_server) {
    impl_->health_server->Shutdown(std::chrono::system_clock::now());
    impl_->health_server->Wait();
  }
  impl_->cpu->Stop();
  impl_->matches->SetCpuTurnListener(nullptr);
  // 4. The store closes last, after everything that writes to it. The
  //    credential watch first: its thread reads the store and ends
  //    streams of `matches`.
  impl_->credential_watch.reset();
  impl_->server.reset();
  impl_->guarded_players.reset();
  impl_->guarded_matches.reset();
  impl_->guarded_ratings.reset();
  impl_->guarded_admin.reset();
  impl_->guarded_matchmaking.reset();
  impl_->matchmaking_service.reset();
  impl_->matchmaker.reset();
  impl_->match_queue.reset();
  impl_->admin_service.reset();
  impl_->credential_effects.reset();
  impl_->rating_service.reset();
  impl_->match_service.reset();
  impl_->players.reset();
  impl_->cpu.reset();
  impl_->matches.reset();
  impl_->store.reset();
  MutexLock lock(&impl_->tick_mu);
  impl_->stopped = true;  // Wakes Wait().
}

}  // namespace mancala::services
