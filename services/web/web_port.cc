// The web port (web_port.h): Beast sessions, one per connection, each on
// its own strand, and the inner gRPC calls they make.

#include "services/web/web_port.h"

#include <grpcpp/generic/generic_stub.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "google/rpc/status.pb.h"
#include "services/tls/tls_openssl.h"
#include "services/web/web_codec.h"
#include "services/web/web_methods.h"
#include "services/web/web_root.h"
#include "services/web/web_stream.h"

namespace mancala::services::web {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

constexpr auto kRequestTimeout = std::chrono::seconds(30);  // Slow senders.

std::string ToString(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (!buffer.Dump(&slices).ok()) return out;
  for (const grpc::Slice& s : slices) {
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return out;
}

grpc::ByteBuffer ToBuffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

std::string_view SV(beast::string_view v) { return {v.data(), v.size()}; }

// A status's google.rpc.Status details as Connect's (type, value) pairs.
std::vector<Detail> DetailsOf(const grpc::Status& status) {
  std::vector<Detail> out;
  google::rpc::Status rich;
  if (status.error_details().empty() ||
      !rich.ParseFromString(status.error_details())) {
    return out;
  }
  for (const auto& any : rich.details()) {
    const std::string& url = any.type_url();
    out.push_back({url.substr(url.rfind('/') + 1), any.value()});
  }
  return out;
}

}  // namespace

// What the sessions share.
class WebPort::Impl {
 public:
  Impl(std::shared_ptr<grpc::Channel> channel, WebPortOptions options)
      : options_(std::move(options)),
        io_(options_.threads),
        acceptor_(io_),
        stub_(std::move(channel)) {
    if (options_.tls != nullptr) {
      tls_.emplace(net::ssl::context::tls_server);
      // Browsers present no client certificates: players are known by
      // their bearer tokens here, as on every port.
      tls::ServeCurrentCertificate(tls_->native_handle(), *options_.tls,
                                   /*verify_clients=*/false);
    }
  }

  const WebPortOptions& options() const { return options_; }
  const WebMethods& methods() const { return methods_; }
  // The files for GET and HEAD; nullptr without --web-root.
  const WebRoot* root() const { return root_ ? &*root_ : nullptr; }
  void set_root(WebRoot root) { root_ = std::move(root); }
  grpc::GenericStub& stub() { return stub_; }
  net::io_context& io() { return io_; }
  // The TLS context for new connections; nullptr in plaintext.
  net::ssl::context* tls() { return tls_ ? &*tls_ : nullptr; }

  bool Allowed(std::string_view origin) const {
    return !origin.empty() &&
           std::find(options_.allowed_origins.begin(),
                     options_.allowed_origins.end(),
                     origin) != options_.allowed_origins.end();
  }

  // Inner calls in flight, so Stop() can cancel them and wait.
  bool Begin(grpc::ClientContext* context) {
    std::lock_guard lock(mu_);
    if (stopping_) return false;
    calls_.insert(context);
    return true;
  }
  void End(grpc::ClientContext* context) {
    std::lock_guard lock(mu_);
    calls_.erase(context);
    if (calls_.empty()) idle_.notify_all();
  }

  absl::Status Listen();
  void Accept();
  void Stop();
  int port() const { return port_; }

 private:
  const WebPortOptions options_;
  const WebMethods methods_;
  std::optional<WebRoot> root_;  // Set before Listen(), then read only.
  std::optional<net::ssl::context> tls_;  // Before the sessions that use it.
  net::io_context io_;
  tcp::acceptor acceptor_;
  grpc::GenericStub stub_;
  std::vector<std::thread> threads_;
  int port_ = 0;
  std::mutex mu_;
  std::condition_variable idle_;
  std::set<grpc::ClientContext*> calls_;  // Under mu_.
  bool stopping_ = false;                 // Under mu_.
  bool stopped_ = false;
};

namespace {

using Impl = WebPort::Impl;

// One request's inner call: its context and messages.
struct Call {
  grpc::ClientContext context;
  grpc::ByteBuffer request;
  grpc::ByteBuffer response;
  const WebMethod* method = nullptr;
  WireFormat format{};
};

class Session;

// A server-streaming inner call (a bidi reactor that writes its one
// request and reads until the end).
class StreamCall final
    : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  StreamCall(std::shared_ptr<Call> call, std::shared_ptr<Session> session)
      : call_(std::move(call)), session_(std::move(session)) {}
  void Start(Impl& port);
  void OnReadDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;
  grpc::ClientContext& context() { return call_->context; }

 private:
  std::shared_ptr<Call> call_;
  std::shared_ptr<Session> session_;
  grpc::ByteBuffer message_;
  Impl* port_ = nullptr;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Impl& port)
      : stream_(std::move(socket), port.tls()), port_(port) {
    beast::error_code ec;
    const tcp::endpoint remote = stream_.tcp().socket().remote_endpoint(ec);
    if (!ec) {
      peer_ = (remote.address().is_v4() ? "ipv4:" : "ipv6:[") +
              remote.address().to_string() +
              (remote.address().is_v4() ? ":" : "]:") +
              std::to_string(remote.port());
    }
  }

  void Start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->stream_.is_tls()) return self->ReadRequest();
      self->stream_.tcp().expires_after(kRequestTimeout);
      self->stream_.async_handshake([self](beast::error_code ec) {
        if (ec) return self->stream_.tcp().close();  // Not TLS, or refused.
        self->ReadRequest();
      });
    });
  }

  // From the stream's reactor (any thread): a message, then the end.
  void OnStreamMessage(std::string bytes) {
    net::post(stream_.get_executor(),
              [self = shared_from_this(), bytes = std::move(bytes)] {
                self->Enqueue(bytes);
              });
  }
  void OnStreamDone(grpc::Status status) {
    net::post(stream_.get_executor(),
              [self = shared_from_this(), status = std::move(status)] {
                self->end_ = status;
                self->Pump();
              });
  }

 private:
  using Response = http::response<http::string_body>;

  void ReadRequest() {
    origin_.clear();
    keep_alive_ = true;
    parser_.emplace();
    // Text mode's base64 is 4/3 of the message; the prefix and a little
    // room on top.
    parser_->body_limit(port_.options().max_message_bytes * 4 / 3 + 64);
    parser_->header_limit(16 * 1024);
    stream_.tcp().expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       self->OnRequest(ec);
                     });
  }

  void OnRequest(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      // The header is read, the body is not: the refusal is given in the
      // caller's own protocol (RESOURCE_EXHAUSTED, as native gRPC gives for
      // a message over its limit), so that a client library reports the
      // code rather than a bare HTTP status; then the connection closes,
      // after reading away what is still coming.
      const auto& req = parser_->get();
      origin_ = std::string(SV(req[http::field::origin]));
      keep_alive_ = false;
      lingering_ = true;
      const std::string why =
          "request larger than the " +
          std::to_string(port_.options().max_message_bytes) +
          "-byte message limit";
      if (const auto format = FormatOf(SV(req[http::field::content_type]))) {
        Call call;
        call.format = *format;
        return Fail(call,
                    grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, why),
                    http::status::payload_too_large);
      }
      Response res{http::status::payload_too_large, req.version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = why + "\n";
      return Send(std::move(res));
    }
    if (ec) return Close();
    const auto& req = parser_->get();
    origin_ = std::string(SV(req[http::field::origin]));
    keep_alive_ = req.keep_alive();
    if (req.method() == http::verb::options) return Preflight();
    if ((req.method() == http::verb::get || req.method() == http::verb::head) &&
        port_.root() != nullptr) {
      return ServeFile();
    }
    if (req.method() != http::verb::post) {
      Response res{http::status::method_not_allowed, req.version()};
      res.set(http::field::allow, port_.root() != nullptr
                                      ? "GET, HEAD, POST, OPTIONS"
                                      : "POST, OPTIONS");
      return Send(std::move(res));
    }
    const std::optional<WireFormat> format =
        FormatOf(SV(req[http::field::content_type]));
    if (!format) {
      Response res{http::status::unsupported_media_type, req.version()};
      res.set(http::field::content_type, "text/plain");
      res.body() =
          "unsupported content type; use application/json, application/"
          "proto, application/connect+json, application/connect+proto or "
          "application/grpc-web[-text]\n";
      return Send(std::move(res));
    }
    auto call = std::make_shared<Call>();
    call->format = *format;
    const auto path = SplitPath(SV(req.target()));
    call->method =
        path ? port_.methods().Find(path->first, path->second) : nullptr;
    if (call->method == nullptr) {
      return Fail(
          *call,
          grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                       "no such method: " + std::string(SV(req.target()))),
          http::status::not_found);
    }
    const bool stream_format = format->protocol == Protocol::kConnectStream;
    if (format->protocol != Protocol::kGrpcWeb &&
        format->protocol != Protocol::kGrpcWebText &&
        stream_format != call->method->server_streaming) {
      Response res{http::status::unsupported_media_type, req.version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = call->method->server_streaming
                       ? "a streaming method takes application/connect+json "
                         "or application/connect+proto\n"
                       : "a unary method takes application/json or "
                         "application/proto\n";
      return Send(std::move(res));
    }
    if (grpc::Status s = Prepare(*call); !s.ok()) return Fail(*call, s);
    if (!port_.Begin(&call->context)) {
      return Fail(*call, grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                      "server shutting down"));
    }
    if (call->method->server_streaming) {
      auto* reactor = new StreamCall(call, shared_from_this());
      stream_call_ = reactor;
      stream_.tcp().expires_never();
      WatchForClose(call);
      reactor->Start(port_);
      return;
    }
    port_.stub().UnaryCall(
        &call->context, call->method->path, grpc::StubOptions(), &call->request,
        &call->response,
        [self = shared_from_this(), call](grpc::Status status) {
          self->port_.End(&call->context);
          net::post(self->stream_.get_executor(),
                    [self, call, status = std::move(status)] {
                      self->FinishUnary(*call, status);
                    });
        });
  }

  // The request message, metadata and deadline of `call`.
  grpc::Status Prepare(Call& call) {
    const auto& req = parser_->get();
    const std::string& body = req.body();
    std::string message;
    const Protocol protocol = call.format.protocol;
    if (protocol == Protocol::kConnectUnary) {
      message = body;
    } else {
      std::string framed = body;
      if (protocol == Protocol::kGrpcWebText) {
        std::optional<std::string> decoded = DecodeBase64(body);
        if (!decoded) {
          return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                              "request body is not base64");
        }
        framed = *std::move(decoded);
      }
      bool too_long = false;
      std::optional<Enveloped> e =
          ReadEnvelope(framed, port_.options().max_message_bytes, &too_long);
      if (too_long) {
        return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                            "request message over the limit");
      }
      if (!e || e->consumed != framed.size()) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            "request body is not one whole message frame");
      }
      if (e->flags & kCompressed) {
        return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                            "compressed requests are not supported");
      }
      message = std::move(e->payload);
    }
    if (call.format.codec == Codec::kJson) {
      absl::StatusOr<std::string> binary =
          port_.methods().RequestFromJson(*call.method, message);
      if (!binary.ok()) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            std::string(binary.status().message()));
      }
      message = *std::move(binary);
    }
    call.request = ToBuffer(message);
    const std::string_view auth = SV(req[http::field::authorization]);
    if (!auth.empty())
      call.context.AddMetadata("authorization", std::string(auth));
    if (!peer_.empty())
      call.context.AddMetadata(kClientAddressKey, peer_);  // client_address.h
    std::optional<int64_t> timeout_ms;
    if (auto it = req.find("connect-timeout-ms"); it != req.end()) {
      timeout_ms = ConnectTimeoutMs(SV(it->value()));
      if (!timeout_ms) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            "connect-timeout-ms must be up to 10 digits");
      }
    } else if (auto g = req.find("grpc-timeout"); g != req.end()) {
      timeout_ms = GrpcTimeoutMs(SV(g->value()));
      if (!timeout_ms) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            "malformed grpc-timeout");
      }
    }
    if (timeout_ms) {
      call.context.set_deadline(std::chrono::system_clock::now() +
                                std::chrono::milliseconds(*timeout_ms));
    }
    return grpc::Status::OK;
  }

  void SetCors(http::fields& headers) const {
    if (!port_.Allowed(origin_)) return;
    headers.set(http::field::access_control_allow_origin, origin_);
    headers.set(http::field::vary, "Origin");
    headers.set(http::field::access_control_expose_headers,
                "grpc-status, grpc-message, grpc-status-details-bin");
  }

  void Preflight() {
    const auto& req = parser_->get();
    Response res{http::status::no_content, req.version()};
    if (port_.Allowed(origin_)) {
      SetCors(res.base());
      res.set(http::field::access_control_allow_methods, "POST");
      res.set(http::field::access_control_allow_headers,
              "content-type, authorization, connect-protocol-version, "
              "connect-timeout-ms, x-grpc-web, x-user-agent, grpc-timeout");
      res.set(http::field::access_control_max_age, "7200");
    }
    Send(std::move(res));
  }

  // An error answered before or instead of an inner call.
  void Fail(const Call& call, const grpc::Status& status,
            http::status connect_status = http::status::unknown) {
    const auto& req = parser_->get();
    if (call.format.protocol == Protocol::kGrpcWeb ||
        call.format.protocol == Protocol::kGrpcWebText) {
      return Send(TrailersOnly(call, status));
    }
    if (call.format.protocol == Protocol::kConnectStream) {
      Response res{http::status::ok, req.version()};
      res.set(http::field::content_type, ContentTypeOf(call.format));
      res.body() = Envelope(
          kConnectEndStream,
          ConnectEndStreamJson(status.error_code(), status.error_message(),
                               DetailsOf(status)));
      return Send(std::move(res));
    }
    Response res{
        connect_status != http::status::unknown
            ? connect_status
            : static_cast<http::status>(ConnectHttpStatus(status.error_code())),
        req.version()};
    res.set(http::field::content_type, "application/json");
    res.body() = ConnectErrorJson(status.error_code(), status.error_message(),
                                  DetailsOf(status));
    Send(std::move(res));
  }

  Response TrailersOnly(const Call& call, const grpc::Status& status) {
    Response res{http::status::ok, parser_->get().version()};
    res.set(http::field::content_type, ContentTypeOf(call.format));
    res.set("grpc-status", std::to_string(status.error_code()));
    if (!status.error_message().empty()) {
      res.set("grpc-message", PercentEncode(status.error_message()));
    }
    if (!status.error_details().empty()) {
      res.set("grpc-status-details-bin", Base64(status.error_details()));
    }
    return res;
  }

  void FinishUnary(Call& call, const grpc::Status& status) {
    if (!status.ok()) return Fail(call, status);
    std::string bytes = ToString(call.response);
    if (call.format.codec == Codec::kJson) {
      absl::StatusOr<std::string> json =
          port_.methods().ResponseToJson(*call.method, bytes);
      if (!json.ok()) {
        return Fail(call, grpc::Status(grpc::StatusCode::INTERNAL,
                                       std::string(json.status().message())));
      }
      bytes = *std::move(json);
    }
    Response res{http::status::ok, parser_->get().version()};
    res.set(http::field::content_type, ContentTypeOf(call.format));
    if (call.format.protocol == Protocol::kConnectUnary) {
      res.body() = std::move(bytes);
    } else {
      std::string body = Envelope(0, bytes) +
                         Envelope(kGrpcWebTrailers, GrpcWebTrailers(0, "", ""));
      res.body() = call.format.protocol == Protocol::kGrpcWebText
                       ? Base64(body)
                       : std::move(body);
    }
    Send(std::move(res));
  }

  // A stream ---------------------------------------------------------------

  // The browser closing its connection is the only thing it can send while
  // the response streams: it cancels the inner call.
  void WatchForClose(std::shared_ptr<Call> call) {
    stream_.async_read_untimed(
        net::buffer(scratch_),
        [self = shared_from_this(), call](beast::error_code ec, size_t) {
          if (ec) {
            call->context.TryCancel();
            return;
          }
          self->WatchForClose(call);  // Stray bytes: still open.
        });
  }

  std::string Frame(const std::string& bytes, uint8_t flags) const {
    std::string framed = Envelope(flags, bytes);
    return stream_format_.protocol == Protocol::kGrpcWebText ? Base64(framed)
                                                             : framed;
  }

  // A message of the inner call, to be written after those before it. A
  // browser that falls kMaxQueued messages behind loses its stream, as a
  // native watcher does (--max-queued-events).
  void Enqueue(const std::string& bytes) {
    std::string payload = bytes;
    if (stream_format_.codec == Codec::kJson) {
      absl::StatusOr<std::string> json =
          port_.methods().ResponseToJson(*stream_method_, bytes);
      payload = json.ok() ? *std::move(json) : "{}";
    }
    queue_.push_back(Frame(payload, 0));
    if (queue_.size() > kMaxQueued && !fell_behind_) {
      fell_behind_ = true;
      CancelStream();
    }
    Pump();
  }

  // Writes what is queued, one chunk at a time, then the end.
  void Pump() {
    if (writing_ || finished_) return;
    if (!queue_.empty()) {
      writing_ = true;
      WriteChunk(queue_.front(), [self = shared_from_this()] {
        self->queue_.pop_front();
        self->writing_ = false;
        self->Pump();
      });
      return;
    }
    if (!end_) return;
    finished_ = true;
    FinishStream(fell_behind_
                     ? grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                    "the browser fell too far behind the "
                                    "stream; watch again from your last ply")
                     : *end_);
  }

  void FinishStream(const grpc::Status& status) {
    const bool grpc_web = stream_format_.protocol != Protocol::kConnectStream;
    if (!head_written_ && grpc_web) {
      // Nothing was sent yet: a trailers-only answer.
      Call call;
      call.format = stream_format_;
      Response res = TrailersOnly(call, status);
      res.keep_alive(false);
      return Send(std::move(res));
    }
    const std::string last =
        grpc_web
            ? Frame(GrpcWebTrailers(status.error_code(), status.error_message(),
                                    status.error_details()),
                    kGrpcWebTrailers)
            : Frame(ConnectEndStreamJson(status.error_code(),
                                         status.error_message(),
                                         DetailsOf(status)),
                    kConnectEndStream);
    WriteChunk(last, [self = shared_from_this()] {
      net::async_write(self->stream_, http::make_chunk_last(),
                       [self](beast::error_code, size_t) { self->Close(); });
    });
  }

  // Writes the response head first if it is not out yet.
  template <class Then>
  void WriteChunk(std::string data, Then then) {
    auto write = [self = shared_from_this(), then](std::string chunk) {
      self->out_ = std::move(chunk);
      net::async_write(self->stream_, http::make_chunk(net::buffer(self->out_)),
                       [self, then](beast::error_code ec, size_t) {
                         // The browser went: the inner call ends, and
                         // `then` still runs (the queue drains at once).
                         if (ec) self->CancelStream();
                         then();
                       });
    };
    if (head_written_) return write(std::move(data));
    head_written_ = true;
    head_.emplace(http::status::ok, 11);
    head_->set(http::field::content_type, ContentTypeOf(stream_format_));
    head_->keep_alive(false);
    SetCors(head_->base());
    head_->chunked(true);
    serializer_.emplace(*head_);
    http::async_write_header(
        stream_, *serializer_,
        [self = shared_from_this(), write, data = std::move(data)](
            beast::error_code ec, size_t) mutable {
          if (ec) self->CancelStream();
          write(std::move(data));  // Fails at once, as above.
        });
  }

  void CancelStream() {
    if (stream_call_ != nullptr) stream_call_->context().TryCancel();
  }

  // A file of --web-root (web_root.h), or 404.
  void ServeFile() {
    const auto& req = parser_->get();
    const StaticFile* file = port_.root()->Find(SV(req.target()));
    if (file == nullptr) {
      Response res{http::status::not_found, req.version()};
      res.set(http::field::content_type, "text/plain; charset=utf-8");
      res.body() = "not found\n";
      return Send(std::move(res));
    }
    const bool fresh = SV(req[http::field::if_none_match]) == file->etag;
    Response res{fresh ? http::status::not_modified : http::status::ok,
                 req.version()};
    res.set(http::field::etag, file->etag);
    // Revalidated at every load (a 304 costs one small round trip), so a
    // new deploy is seen at once.
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Content-Type-Options", "nosniff");
    if (fresh) return Send(std::move(res));
    res.set(http::field::content_type, file->content_type);
    if (req.method() == http::verb::head) {
      return Send(std::move(res), file->body.size());
    }
    res.body() = file->body;
    Send(std::move(res));
  }

  // The end of an exchange ---------------------------------------------------

  // `head_of` is the length a HEAD answer announces for the body it leaves
  // out.
  void Send(Response res, std::optional<size_t> head_of = std::nullopt) {
    SetCors(res.base());
    res.keep_alive(keep_alive_ && res.keep_alive());
    res.prepare_payload();
    if (head_of) res.content_length(*head_of);
    auto sp = std::make_shared<Response>(std::move(res));
    http::async_write(
        stream_, *sp,
        [self = shared_from_this(), sp](beast::error_code ec, size_t) {
          if (ec || !sp->keep_alive()) return self->Close();
          self->ReadRequest();
        });
  }

  void Close() {
    beast::error_code ec;
    stream_.tcp().socket().shutdown(tcp::socket::shutdown_send, ec);
    if (lingering_) return Linger();
    stream_.tcp().close();
  }

  // After refusing a request whose body is still on its way: reading it
  // away (for a few seconds at most) before closing lets the client finish
  // sending and read the answer, where closing at once would reset the
  // connection under it.
  void Linger() {
    stream_.tcp().expires_after(std::chrono::seconds(3));
    stream_.async_read_some(
        net::buffer(scratch_),
        [self = shared_from_this()](beast::error_code ec, size_t) {
          if (ec) {
            self->stream_.tcp().close();
            return;
          }
          self->Linger();
        });
  }

  friend class StreamCall;
  WebStream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Impl& port_;
  std::string peer_;
  std::string origin_;
  bool keep_alive_ = true;
  bool lingering_ = false;  // Close() reads what is left first.
  // The stream being answered (set in StreamCall::Start).
  StreamCall* stream_call_ = nullptr;
  const WebMethod* stream_method_ = nullptr;
  WireFormat stream_format_{};
  bool head_written_ = false;
  std::optional<http::response<http::empty_body>> head_;
  std::optional<http::response_serializer<http::empty_body>> serializer_;
  std::string out_;                           // The chunk being written.
  static constexpr size_t kMaxQueued = 1024;  // Messages not yet written.
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool fell_behind_ = false;
  std::optional<grpc::Status> end_;  // The inner call's, once over.
  bool finished_ = false;            // The end is being written.
  std::array<char, 512> scratch_{};
};

void StreamCall::Start(Impl& port) {
  port_ = &port;
  session_->stream_method_ = call_->method;
  session_->stream_format_ = call_->format;
  port.stub().PrepareBidiStreamingCall(&call_->context, call_->method->path,
                                       grpc::StubOptions(), this);
  StartWriteLast(&call_->request, grpc::WriteOptions());
  StartRead(&message_);
  StartCall();
}

void StreamCall::OnReadDone(bool ok) {
  if (!ok) return;  // The end; OnDone follows.
  // Read on at once: the session queues (and bounds) what the browser has
  // not taken yet. A read left unasked for while the server finishes with
  // its last message loses that message on the in-process transport.
  session_->OnStreamMessage(ToString(message_));
  StartRead(&message_);
}

void StreamCall::OnDone(const grpc::Status& status) {
  port_->End(&call_->context);
  session_->OnStreamDone(status);
  // The session may still TryCancel() through its pointer: it is cleared
  // on the session's strand before this object goes. The handler owns
  // this object, so that one dropped unrun when the port stops (io_.stop()
  // with handlers still queued) frees it too.
  std::shared_ptr<Session> session = std::move(session_);
  net::post(session->stream_.get_executor(),
            [session, self = std::unique_ptr<StreamCall>(this)]() mutable {
              session->stream_call_ = nullptr;
              self.reset();
            });
}

}  // namespace

absl::Status Impl::Listen() {
  const std::string& address = options_.address;
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) {
    return absl::InvalidArgumentError("--web-listen wants host:port, not " +
                                      address);
  }
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  beast::error_code ec;
  const net::ip::address ip = net::ip::make_address(host, ec);
  int port_number = -1;
  try {
    port_number = std::stoi(address.substr(colon + 1));
  } catch (const std::exception&) {
  }
  if (ec || port_number < 0 || port_number > 65535) {
    return absl::InvalidArgumentError(
        "--web-listen wants an IP and a port, "
        "not " +
        address);
  }
  const tcp::endpoint endpoint(ip, static_cast<uint16_t>(port_number));
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return absl::UnavailableError("cannot listen on " + address + ": " +
                                  ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
  Accept();
  for (int i = 0; i < std::max(1, options_.threads); ++i) {
    threads_.emplace_back([this] { io_.run(); });
  }
  return absl::OkStatus();
}

void Impl::Accept() {
  acceptor_.async_accept(
      net::make_strand(io_), [this](beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted) return;  // Stopping.
        if (!ec) {
          socket.set_option(tcp::no_delay(true), ec);  // Nagle: +40 ms.
          std::make_shared<Session>(std::move(socket), *this)->Start();
        }
        Accept();
      });
}

void Impl::Stop() {
  if (stopped_) return;
  stopped_ = true;
  net::post(io_, [this] {
    beast::error_code ec;
    acceptor_.close(ec);
  });
  {
    std::unique_lock lock(mu_);
    stopping_ = true;
    for (grpc::ClientContext* c : calls_) c->TryCancel();
    idle_.wait(lock, [this] { return calls_.empty(); });
  }
  io_.stop();
  for (std::thread& t : threads_) t.join();
}

WebPort::WebPort(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WebPort::~WebPort() { Stop(); }

absl::StatusOr<std::unique_ptr<WebPort>> WebPort::Start(
    std::shared_ptr<grpc::Channel> channel, WebPortOptions options) {
  std::optional<WebRoot> root;
  if (!options.root_dir.empty()) {
    absl::StatusOr<WebRoot> loaded = WebRoot::Load(options.root_dir);
    if (!loaded.ok()) return loaded.status();
    root = *std::move(loaded);
  }
  auto impl = std::make_unique<Impl>(std::move(channel), std::move(options));
  if (root) impl->set_root(*std::move(root));
  if (absl::Status s = impl->Listen(); !s.ok()) return s;
  return std::unique_ptr<WebPort>(new WebPort(std::move(impl)));
}

int WebPort::port() const { return impl_->port(); }
void WebPort::Stop() { impl_->Stop(); }

}  // namespace mancala::services::web
