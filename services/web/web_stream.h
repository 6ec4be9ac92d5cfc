// One connection of the web port: plain TCP, or TLS over it with the
// server's current certificate (services/tls/tls_openssl.h), behind the
// one interface Beast's HTTP reads and writes take (AsyncReadStream and
// AsyncWriteStream), so a session is written once for both.
//
// Timeouts are the TCP layer's (tcp().expires_after), which the TLS layer
// reads and writes through, so they hold for both. The TLS layer takes one
// read and one write at a time, as the sessions already do.
// Thread-safety: as beast::tcp_stream: one strand.

#ifndef MANCALA_SERVICES_WEB_WEB_STREAM_H_
#define MANCALA_SERVICES_WEB_WEB_STREAM_H_

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <boost/beast/ssl.hpp>
#include <optional>
#include <utility>

namespace mancala::services::web {

class WebStream {
 public:
  using executor_type = boost::beast::tcp_stream::executor_type;

  // TLS when `tls` is set (the port's context; it outlives the stream).
  WebStream(boost::asio::ip::tcp::socket socket,
            boost::asio::ssl::context* tls) {
    if (tls != nullptr) {
      tls_.emplace(std::move(socket), *tls);
    } else {
      plain_.emplace(std::move(socket));
    }
  }

  bool is_tls() const { return tls_.has_value(); }
  boost::beast::tcp_stream& tcp() {
    return tls_ ? tls_->next_layer() : *plain_;
  }
  executor_type get_executor() { return tcp().get_executor(); }

  // TLS only: the server's side of the handshake.
  template <class Handler>
  void async_handshake(Handler&& handler) {
    tls_->async_handshake(boost::asio::ssl::stream_base::server,
                          std::forward<Handler>(handler));
  }

  template <class Buffers, class Handler>
  auto async_read_some(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      return tls_->async_read_some(buffers, std::forward<Handler>(handler));
    }
    return plain_->async_read_some(buffers, std::forward<Handler>(handler));
  }

  template <class Buffers, class Handler>
  auto async_write_some(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      return tls_->async_write_some(buffers, std::forward<Handler>(handler));
    }
    return plain_->async_write_some(buffers, std::forward<Handler>(handler));
  }

  // A read with no timeout, while a response streams (its only use is to
  // see the browser close): the socket itself in plain TCP; in TLS the TLS
  // layer, since the bytes are records (the TCP layer's timer is off then).
  template <class Buffers, class Handler>
  void async_read_untimed(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      tls_->async_read_some(buffers, std::forward<Handler>(handler));
      return;
    }
    plain_->socket().async_read_some(buffers, std::forward<Handler>(handler));
  }

 private:
  std::optional<boost::beast::tcp_stream> plain_;
  std::optional<boost::beast::ssl_stream<boost::beast::tcp_stream>> tls_;
};

}  // namespace mancala::services::web

#endif  // MANCALA_SERVICES_WEB_WEB_STREAM_H_
