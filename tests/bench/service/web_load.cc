#include "tests/bench/service/web_load.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "mancala/v1/match_service.pb.h"

namespace mancala::bench {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

struct WebClient::Impl {
  Impl(int web_port, int threads)
      : endpoint(net::ip::make_address("127.0.0.1"),
                 static_cast<uint16_t>(web_port)),
        work(net::make_work_guard(io)) {
    for (int i = 0; i < threads; ++i) pool.emplace_back([this] { io.run(); });
  }
  ~Impl() {
    work.reset();
    io.stop();
    for (std::thread& t : pool) t.join();
  }
  net::io_context io;
  const tcp::endpoint endpoint;
  net::executor_work_guard<net::io_context::executor_type> work;
  std::vector<std::thread> pool;
};

WebClient::WebClient(int web_port, int threads)
    : impl_(std::make_unique<Impl>(web_port, threads)) {}
WebClient::~WebClient() = default;

namespace {

http::request<http::string_body> Post(const std::string& path,
                                      const std::string& content_type,
                                      std::string body) {
  http::request<http::string_body> req{http::verb::post, path, 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, content_type);
  req.set("connect-protocol-version", "1");
  req.body() = std::move(body);
  req.prepare_payload();
  return req;
}

// One Connect unary call at a time on one kept-alive connection (connected
// on the first call, and again after the server closes it).
class WebUnarySession final : public Session {
 public:
  WebUnarySession(WebClient::Impl& c, std::string path, std::string body)
      : c_(c),
        stream_(net::make_strand(c.io)),
        request_(Post(path, "application/proto", std::move(body))) {}
  ~WebUnarySession() override {
    beast::error_code ec;
    stream_.socket().close(ec);
  }

  void Call(std::function<void(CallOutcome)> done) override {
    if (connected_) return Send(std::move(done));
    stream_.async_connect(c_.endpoint, [this, done = std::move(done)](
                                           beast::error_code ec) mutable {
      if (ec) return done({true, grpc::StatusCode::UNAVAILABLE});
      stream_.socket().set_option(tcp::no_delay(true), ec);
      connected_ = true;
      Send(std::move(done));
    });
  }

 private:
  void Send(std::function<void(CallOutcome)> done) {
    http::async_write(
        stream_, request_,
        [this, done = std::move(done)](beast::error_code ec, size_t) mutable {
          if (ec) return Failed(std::move(done));
          response_ = {};
          http::async_read(stream_, buffer_, response_,
                           [this, done = std::move(done)](
                               beast::error_code read_ec, size_t) mutable {
                             if (read_ec) return Failed(std::move(done));
                             if (!response_.keep_alive()) Reset();
                             done({true, response_.result() == http::status::ok
                                             ? grpc::StatusCode::OK
                                             : grpc::StatusCode::UNKNOWN});
                           });
        });
  }
  void Failed(std::function<void(CallOutcome)> done) {
    Reset();
    done({true, grpc::StatusCode::UNAVAILABLE});
  }
  void Reset() {
    beast::error_code ec;
    stream_.socket().close(ec);
    buffer_.clear();
    connected_ = false;
  }

  WebClient::Impl& c_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  const http::request<http::string_body> request_;
  http::response<http::string_body> response_;
  bool connected_ = false;
};

class WebFleet;

// One WatchMatch stream: the request, then the response's chunks read as
// they come, cut into Connect envelopes.
class WebStream : public std::enable_shared_from_this<WebStream> {
 public:
  WebStream(WebClient::Impl& c, const std::string& body, int index,
            WebFleet* fleet)
      : c_(c),
        stream_(net::make_strand(c.io)),
        request_(Post("/mancala.v1.MatchService/WatchMatch",
                      "application/connect+proto", body)),
        index_(index),
        fleet_(fleet) {}
  void Start();
  void Cancel() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      self->stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
      self->stream_.socket().close(ec);
    });
  }

 private:
  void Read();
  size_t OnChunk(std::string_view bytes);
  void Done();

  WebClient::Impl& c_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  std::optional<http::response_parser<http::string_body>> parser_;
  std::string pending_;  // Bytes of an envelope not whole yet.
  // The parser keeps a reference to its chunk callback: it lives here.
  std::function<size_t(uint64_t, beast::string_view, beast::error_code&)>
      on_chunk_ =
          [this](uint64_t, beast::string_view bytes, beast::error_code&) {
            return OnChunk(std::string_view(bytes.data(), bytes.size()));
          };
  bool first_ = true;
  const int index_;
  WebFleet* const fleet_;
};

class WebFleet final : public WatchFleet {
 public:
  WebFleet(WebClient::Impl& c, const std::string& match, int n,
           MoveArrival on_move)
      : on_move_(std::move(on_move)), n_(n) {
    v1::WatchMatchRequest req;
    req.set_name(match);
    std::string message = req.SerializeAsString();
    // A Connect envelope: flags 0, the length in 4 bytes big-endian.
    std::string body(5, '\0');
    const uint32_t len = static_cast<uint32_t>(message.size());
    for (int i = 0; i < 4; ++i)
      body[1 + i] = static_cast<char>(len >> (24 - 8 * i));
    body += message;
    for (int i = 0; i < n; ++i) {
      streams_.push_back(std::make_shared<WebStream>(c, body, i, this));
      streams_.back()->Start();
    }
  }
  ~WebFleet() override {
    for (auto& s : streams_) s->Cancel();
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(30), [&] { return ended_ == n_; });
  }
  bool WaitSnapshots(std::chrono::seconds limit) override {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, limit, [&] { return snapshots_ == n_; });
  }

  void Snapshot() {
    std::lock_guard lock(mu_);
    ++snapshots_;
    cv_.notify_all();
  }
  void Move(int stream, int64_t ply) {
    on_move_(stream, ply, std::chrono::steady_clock::now());
  }
  void Ended() {
    // Notified under the lock: the destructor may return once it sees the
    // count, and nothing here touches the fleet after the unlock.
    std::lock_guard lock(mu_);
    ++ended_;
    cv_.notify_all();
  }

 private:
  const MoveArrival on_move_;
  const int n_;
  std::mutex mu_;
  std::condition_variable cv_;
  int snapshots_ = 0;
  int ended_ = 0;
  std::vector<std::shared_ptr<WebStream>> streams_;
};

void WebStream::Start() {
  stream_.async_connect(
      c_.endpoint, [self = shared_from_this()](beast::error_code ec) {
        if (ec) return self->Done();
        self->stream_.socket().set_option(tcp::no_delay(true), ec);
        http::async_write(self->stream_, self->request_,
                          [self](beast::error_code write_ec, size_t) {
                            if (write_ec) return self->Done();
                            self->Read();
                          });
      });
}

void WebStream::Read() {
  parser_.emplace();
  parser_->body_limit(boost::none);
  parser_->on_chunk_body(on_chunk_);
  http::async_read(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code, size_t) { self->Done(); });
}

size_t WebStream::OnChunk(std::string_view bytes) {
  pending_.append(bytes);
  size_t at = 0;
  while (pending_.size() - at >= 5) {
    const auto* p =
        reinterpret_cast<const unsigned char*>(pending_.data() + at);
    const uint32_t len = (uint32_t{p[1]} << 24) | (uint32_t{p[2]} << 16) |
                         (uint32_t{p[3]} << 8) | uint32_t{p[4]};
    if (pending_.size() - at - 5 < len) break;
    if (p[0] == 0) {
      v1::WatchEvent event;
      event.ParseFromArray(pending_.data() + at + 5, static_cast<int>(len));
      if (first_) {
        first_ = false;
        fleet_->Snapshot();
      }
      if (event.has_move()) fleet_->Move(index_, event.move().ply());
    }
    at += 5 + len;
  }
  pending_.erase(0, at);
  return bytes.size();  // All taken: the body itself stays empty.
}

void WebStream::Done() {
  beast::error_code ec;
  stream_.socket().close(ec);
  fleet_->Ended();
}

}  // namespace

std::unique_ptr<Session> NewWebHealthSession(WebClient& client) {
  // HealthCheckRequest{service: ""}: no bytes.
  return std::make_unique<WebUnarySession>(
      client.impl(), "/grpc.health.v1.Health/Check", std::string());
}

std::unique_ptr<Session> NewWebGetMatchSession(WebClient& client,
                                               const std::string& match) {
  v1::GetMatchRequest req;
  req.set_name(match);
  return std::make_unique<WebUnarySession>(client.impl(),
                                           "/mancala.v1.MatchService/GetMatch",
                                           req.SerializeAsString());
}

std::unique_ptr<WatchFleet> WebWatchers(WebClient& client,
                                        const std::string& match, int n,
                                        MoveArrival on_move) {
  return std::make_unique<WebFleet>(client.impl(), match, n,
                                    std::move(on_move));
}

}  // namespace mancala::bench
