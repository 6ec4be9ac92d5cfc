"""Item 5: Match.end_time exists only once a match is over, and time
filters use has_... semantics: a filter set to the Unix epoch filters, and an
end-time filter never passes a match that has not ended."""

import unittest

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

import harness
from harness import auth
from mancala.v1 import admin_service_pb2 as ad, match_service_pb2 as ms

srv = harness.srv
ADMIN = auth(harness.ADMIN_TOKEN)


def ts(seconds):
    return Timestamp(seconds=seconds)


YEAR_2096 = 4_000_000_000


class TimeFilterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        a, b = srv.new_player("A"), srv.new_player("B")
        cls.player = a.name
        two = [harness.seat_of(a), harness.seat_of(b)]
        cls.playing = harness.create_match(srv, a, two)
        cls.waiting = harness.create_match(
            srv, a, [harness.seat_of(a), ms.Seat(kind=ms.Seat.OPEN)])
        cancelled = harness.create_match(
            srv, a, [harness.seat_of(a), ms.Seat(kind=ms.Seat.OPEN)])
        cls.cancelled = srv.matches.CancelMatch(
            ms.CancelMatchRequest(name=cancelled.name), metadata=a.md(),
            timeout=harness.DEADLINE_S)
        finished = harness.create_match(srv, a, two)
        cls.finished = srv.matches.Resign(
            ms.ResignRequest(name=finished.name), metadata=a.md(),
            timeout=harness.DEADLINE_S)

    def names(self, **filters):
        resp = srv.admin.ListMatches(
            ad.ListMatchesRequest(player=self.player, **filters),
            metadata=ADMIN, timeout=harness.DEADLINE_S)
        return {m.name for m in resp.matches}

    def test_end_time_is_set_once_over(self):
        self.assertFalse(self.playing.HasField("end_time"))
        self.assertFalse(self.waiting.HasField("end_time"))
        for ended in (self.cancelled, self.finished):
            self.assertTrue(ended.HasField("end_time"))
            again = srv.matches.GetMatch(ms.GetMatchRequest(name=ended.name),
                                         timeout=harness.DEADLINE_S)
            self.assertEqual(again.end_time, ended.end_time)

    def test_end_time_filters_pass_only_ended_matches(self):
        ended = {self.cancelled.name, self.finished.name}
        self.assertEqual(self.names(end_time_to=ts(YEAR_2096)), ended)
        self.assertEqual(self.names(end_time_from=ts(0)), ended)
        self.assertEqual(self.names(end_time_to=ts(0)), set())
        self.assertEqual(self.names(end_time_from=ts(YEAR_2096)), set())
        self.assertEqual(len(self.names()), 4)

    def test_epoch_is_a_value_not_unset(self):
        self.assertEqual(self.names(create_time_to=ts(0)), set())
        self.assertEqual(len(self.names(create_time_from=ts(0))), 4)

    def test_ranking_is_an_enum(self):
        self.assertEqual(
            len(self.names(ranking=ad.ListMatchesRequest.CASUAL)), 4)
        self.assertEqual(self.names(ranking=ad.ListMatchesRequest.RANKED),
                         set())
        harness.expect_error(self, srv.admin.ListMatches,
                             grpc.StatusCode.INVALID_ARGUMENT,
                             "INVALID_ARGUMENT",
                             ad.ListMatchesRequest(ranking=7), metadata=ADMIN)


if __name__ == "__main__":
    unittest.main()
