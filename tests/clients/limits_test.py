"""The limits against hostile clients and the shutdown, as a client meets
them: each on a server of its own with the limit set low."""

import signal
import unittest

import grpc

import harness
from harness import expect_error
from mancala.v1 import match_service_pb2 as ms, player_service_pb2 as ps

RE = grpc.StatusCode.RESOURCE_EXHAUSTED


class LimitsTest(unittest.TestCase):
    def server(self, *extra):
        # The harness turns the creation limit off; a later flag wins.
        srv = harness.Server(extra=list(extra))
        self.addCleanup(srv.close)
        return srv

    def test_creations_beyond_the_burst_are_rate_limited(self):
        srv = self.server("--create-burst", "2", "--create-per-minute", "1")
        srv.new_player("A")
        srv.new_player("B")
        _, info = expect_error(self, srv.players.CreatePlayer, RE,
                               "RATE_LIMITED",
                               ps.CreatePlayerRequest(display_name="C"))
        self.assertGreater(int(info.metadata["retry_after_ms"]), 0)

    def test_watchers_beyond_the_limit_are_refused(self):
        srv = self.server("--max-watchers-per-match", "1")
        a = srv.new_player("A")
        match = harness.create_match(
            srv, a, [harness.seat_of(a), ms.Seat(kind=ms.Seat.OPEN)])
        first = srv.matches.WatchMatch(ms.WatchMatchRequest(name=match.name))
        self.addCleanup(first.cancel)
        next(first)  # The snapshot: the first stream is registered.
        expect_error(self, srv.matches.WatchMatch, RE, "TOO_MANY_WATCHERS",
                     ms.WatchMatchRequest(name=match.name))

    def test_shutdown_ends_streams_with_shutting_down(self):
        srv = self.server()
        a = srv.new_player("A")
        match = harness.create_match(
            srv, a, [harness.seat_of(a), ms.Seat(kind=ms.Seat.OPEN)])
        stream = srv.matches.WatchMatch(ms.WatchMatchRequest(name=match.name),
                                        timeout=harness.DEADLINE_S)
        next(stream)  # Registered.
        srv.proc.send_signal(signal.SIGTERM)

        class Rest:  # The rest of the stream, as expect_error calls it.
            _method = b"/mancala.v1.MatchService/WatchMatch"

            def __call__(self, **_):
                for _ in stream:
                    pass
        expect_error(self, Rest(), grpc.StatusCode.UNAVAILABLE,
                     "SHUTTING_DOWN")
        srv.proc.wait(timeout=harness.DEADLINE_S)
        srv.proc = None
        srv.channel.close()


if __name__ == "__main__":
    unittest.main()
