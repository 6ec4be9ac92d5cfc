"""Limits a client meets per connection and per stream, against a real
mancalad with each limit set low: concurrent streams on one connection
(--max-streams-per-connection), a silent peer (--keepalive-seconds), a
watcher that stops reading (--max-queued-events), matches waiting for
players (--max-waiting-matches-per-player) and CreateMatch's request id."""

import socket
import struct
import time
import unittest

import grpc

import harness
from harness import expect_error
from mancala.v1 import (game_pb2, match_service_pb2 as ms,
                        match_service_pb2_grpc)

RE = grpc.StatusCode.RESOURCE_EXHAUSTED


def own_channel(srv, *options):
    """A channel with a connection of its own (no shared subchannel)."""
    return grpc.insecure_channel(
        "127.0.0.1:%d" % srv.port,
        options=[("grpc.use_local_subchannel_pool", 1)] + list(options))


def waiting_match(srv, player, request_id=""):
    req = ms.CreateMatchRequest(
        game=game_pb2.KALAH, request_id=request_id,
        seats=[harness.seat_of(player), ms.Seat(kind=ms.Seat.OPEN)])
    return srv.matches.CreateMatch(req, metadata=player.md(),
                                   timeout=harness.DEADLINE_S)


class ConnectionLimitsTest(unittest.TestCase):
    def server(self, *extra):
        srv = harness.Server(extra=list(extra))
        self.addCleanup(srv.close)
        return srv

    def test_streams_beyond_the_limit_wait_for_a_free_one(self):
        srv = self.server("--max-streams-per-connection", "2")
        a = srv.new_player("A")
        match = waiting_match(srv, a)
        channel = own_channel(srv)
        self.addCleanup(channel.close)
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        watch = ms.WatchMatchRequest(name=match.name)
        first = stub.WatchMatch(watch)
        second = stub.WatchMatch(watch)
        for stream in (first, second):
            self.addCleanup(stream.cancel)
            next(stream)  # Both streams are open on the server.
        # HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS = 2: a third call on this
        # connection is held by the client until one ends, so within its
        # deadline it is never served.
        with self.assertRaises(grpc.RpcError) as held:
            stub.GetMatch(ms.GetMatchRequest(name=match.name), timeout=1.5)
        self.assertEqual(held.exception.code(),
                         grpc.StatusCode.DEADLINE_EXCEEDED)
        # Other connections are not limited by this one.
        self.assertEqual(srv.matches.GetMatch(
            ms.GetMatchRequest(name=match.name),
            timeout=harness.DEADLINE_S).name, match.name)
        # One stream ends: the next call on the connection goes through.
        first.cancel()
        got = stub.GetMatch(ms.GetMatchRequest(name=match.name),
                            timeout=harness.DEADLINE_S)
        self.assertEqual(got.name, match.name)

    def test_a_peer_that_never_answers_pings_is_disconnected(self):
        keepalive_s, timeout_s = 1, 2
        srv = self.server("--keepalive-seconds", str(keepalive_s),
                          "--keepalive-timeout-seconds", str(timeout_s))
        # An HTTP/2 peer by hand: the connection preface and SETTINGS, the
        # server's SETTINGS acknowledged, then silence: no PING is answered.
        sock = socket.create_connection(("127.0.0.1", srv.port),
                                        timeout=harness.DEADLINE_S)
        self.addCleanup(sock.close)
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" +
                     struct.pack(">I", 0)[1:] + b"\x04\x00" +
                     struct.pack(">I", 0))
        start = time.monotonic()
        first_ping = closed = None
        buf = b""
        while closed is None:
            chunk = sock.recv(65536)
            if not chunk:
                closed = time.monotonic() - start
                break
            buf += chunk
            while len(buf) >= 9:
                length = int.from_bytes(buf[:3], "big")
                kind, flags = buf[3], buf[4]
                if len(buf) < 9 + length:
                    break
                buf = buf[9 + length:]
                if kind == 4 and not flags & 1:  # SETTINGS: acknowledge.
                    sock.sendall(b"\x00\x00\x00\x04\x01\x00\x00\x00\x00")
                elif kind == 6 and not flags & 1 and first_ping is None:
                    first_ping = time.monotonic() - start
        self.assertIsNotNone(first_ping, "the server never pinged")
        self.assertLess(first_ping, keepalive_s + 3)
        # Dropped once the ping's answer is overdue: after the timeout, and
        # well before a second keepalive period plus slack.
        self.assertGreaterEqual(closed, first_ping + timeout_s - 0.5)
        self.assertLess(closed, keepalive_s + timeout_s + 5)

    def test_a_watcher_that_does_not_read_is_dropped_and_resumes(self):
        cap = 4
        srv = self.server("--max-queued-events", str(cap))
        a, b = srv.new_player("A"), srv.new_player("B")
        match = harness.create_match(
            srv, a, [harness.seat_of(a), harness.seat_of(b)],
            options={"seeds": "6"})
        # The watcher's connection takes a few hundred bytes before it must
        # be read (a tiny HTTP/2 window), so the server queues the rest.
        channel = own_channel(srv, ("grpc.http2.lookahead_bytes", 1024),
                              ("grpc.http2.bdp_probe", 0))
        self.addCleanup(channel.close)
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        stream = stub.WatchMatch(ms.WatchMatchRequest(name=match.name))
        self.addCleanup(stream.cancel)
        # Registered (the first event arrived); then it stops reading.
        self.assertTrue(next(stream).HasField("match"))
        match = harness.play(srv, match, {0: a, 1: b})
        self.assertEqual(match.state, ms.Match.FINISHED)
        plies = []
        with self.assertRaises(grpc.RpcError) as dropped:
            for event in stream:
                if event.HasField("move"):
                    plies.append(event.move.ply)
        self.assertEqual(dropped.exception.code(), RE,
                         dropped.exception.details())
        # What arrived is a prefix, in order, short of the end.
        self.assertEqual(plies, list(range(1, len(plies) + 1)))
        self.assertLess(len(plies), match.ply)
        # Resuming from the last ply seen delivers the rest, even though
        # it is far more than the cap: the catch-up is not capped.
        self.assertGreater(match.ply - len(plies), cap)
        rest = []
        for event in stub.WatchMatch(
                ms.WatchMatchRequest(name=match.name, after_ply=len(plies)),
                timeout=harness.DEADLINE_S):
            if event.HasField("move"):
                rest.append(event.move.ply)
        self.assertEqual(plies + rest, list(range(1, match.ply + 1)))

    def test_waiting_matches_per_player_are_capped(self):
        srv = self.server("--max-waiting-matches-per-player", "2")
        a, b = srv.new_player("A"), srv.new_player("B")
        first = waiting_match(srv, a)
        waiting_match(srv, a)
        _, info = expect_error(
            self, srv.matches.CreateMatch, RE, "TOO_MANY_WAITING_MATCHES",
            ms.CreateMatchRequest(
                game=game_pb2.KALAH,
                seats=[harness.seat_of(a), ms.Seat(kind=ms.Seat.OPEN)]),
            metadata=a.md())
        self.assertEqual(info.metadata["limit"], "2")
        # Filling a seat frees a place.
        srv.matches.JoinMatch(ms.JoinMatchRequest(
            invite_code=first.invite_code), metadata=b.md(),
            timeout=harness.DEADLINE_S)
        waiting_match(srv, a)

    def test_create_match_request_id_makes_one_match(self):
        srv = self.server()
        a = srv.new_player("A")
        first = waiting_match(srv, a, request_id="retry-me")
        again = waiting_match(srv, a, request_id="retry-me")
        self.assertEqual(again.name, first.name)
        srv.stop()
        srv.start()
        self.assertEqual(waiting_match(srv, a, "retry-me").name, first.name)
        expect_error(
            self, srv.matches.CreateMatch, grpc.StatusCode.INVALID_ARGUMENT,
            "REQUEST_ID_REUSED",
            ms.CreateMatchRequest(
                game=game_pb2.OWARE, request_id="retry-me",
                seats=[harness.seat_of(a), ms.Seat(kind=ms.Seat.OPEN)]),
            metadata=a.md())


if __name__ == "__main__":
    unittest.main()
