"""Item 1: every "from/after" position has one meaning, tested at 0, 1, the
current ply, current+1 and beyond (WatchMatch.after_ply, ListMoves.after_ply
and its page tokens)."""

import threading
import unittest

import grpc

import harness
from harness import expect_error
from mancala.v1 import match_service_pb2 as ms

srv = harness.srv


class Watch:
    """Reads a WatchMatch stream in a thread; events are (kind, ply)."""

    def __init__(self, name, after_ply):
        self.events = []
        self.call = srv.matches.WatchMatch(
            ms.WatchMatchRequest(name=name, after_ply=after_ply))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for ev in self.call:
                kind = ev.WhichOneof("event")
                ply = ev.move.ply if kind == "move" else getattr(ev, kind).ply \
                    if kind in ("match", "finished") else None
                self.events.append((kind, ply))
        except grpc.RpcError:
            pass

    def wait(self, n):
        harness.wait_for(lambda: len(self.events) >= n,
                         "%d events, have %s" % (n, self.events))
        return self.events

    def close(self):
        self.call.cancel()


class ResumeTest(unittest.TestCase):
    def setUp(self):
        self.a, self.b = srv.new_player("A"), srv.new_player("B")
        m = harness.create_match(srv, self.a,
                                 [harness.seat_of(self.a),
                                  harness.seat_of(self.b)])
        self.by_seat = [self.a, self.b]
        self.match = harness.play(srv, m, self.by_seat, plies=2)
        self.assertEqual(self.match.ply, 2)

    def next_move(self):
        self.match = harness.play(srv, self.match, self.by_seat, plies=1)

    def test_watch_after_ply_at_0_1_current(self):
        # The input: ply 2, after_ply=0 -> the snapshot, then live
        # moves only (3), never 1 and 2 again.
        cases = {0: [("match", 2)],
                 1: [("move", 2), ("match", 2)],
                 2: [("match", 2)]}
        watches = {k: Watch(self.match.name, k) for k in cases}
        for k, expected in cases.items():
            self.assertEqual(watches[k].wait(len(expected)), expected, k)
        self.next_move()
        for k, expected in cases.items():
            self.assertEqual(watches[k].wait(len(expected) + 1),
                             expected + [("move", 3)], k)
            watches[k].close()

    def test_watch_after_ply_past_current_is_out_of_range(self):
        for after in (3, 1000):  # current+1, beyond
            _, info = expect_error(self, srv.matches.WatchMatch,
                                   grpc.StatusCode.OUT_OF_RANGE, "PLY_AHEAD",
                                   ms.WatchMatchRequest(name=self.match.name,
                                                        after_ply=after))
            self.assertEqual(info.metadata["ply"], "2")
        expect_error(self, srv.matches.WatchMatch,
                     grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT",
                     ms.WatchMatchRequest(name=self.match.name, after_ply=-1))

    def list_plies(self, **kw):
        resp = srv.matches.ListMoves(
            ms.ListMovesRequest(parent=self.match.name, **kw),
            timeout=harness.DEADLINE_S)
        return [m.ply for m in resp.moves], resp.next_page_token

    def test_list_moves_after_ply_at_0_1_current(self):
        self.assertEqual(self.list_plies(after_ply=0)[0], [1, 2])
        self.assertEqual(self.list_plies(after_ply=1)[0], [2])
        plies, token = self.list_plies(after_ply=2)
        self.assertEqual(plies, [])
        self.assertTrue(token)  # In progress: poll with it for later moves.
        self.next_move()
        self.assertEqual(self.list_plies(page_token=token)[0], [3])
        for after in (4, 1000):  # current+1, beyond
            _, info = expect_error(
                self, srv.matches.ListMoves, grpc.StatusCode.OUT_OF_RANGE,
                "PLY_AHEAD", ms.ListMovesRequest(parent=self.match.name,
                                                 after_ply=after))
            self.assertEqual(info.metadata["ply"], "3")
        for bad in ({"after_ply": -1},
                    {"after_ply": 1, "page_token": token},
                    {"page_size": -1}):
            expect_error(self, srv.matches.ListMoves,
                         grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT",
                         ms.ListMovesRequest(parent=self.match.name, **bad))
        expect_error(self, srv.matches.ListMoves,
                     grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN",
                     ms.ListMovesRequest(parent=self.match.name,
                                         page_token="3"))

    def test_list_moves_pages_without_gaps_or_repeats(self):
        self.match = harness.play(srv, self.match, self.by_seat)  # To the end.
        seen, token = [], ""
        while True:
            plies, token = self.list_plies(page_size=3, page_token=token)
            seen += plies
            if not token:
                break
        self.assertEqual(seen, list(range(1, self.match.ply + 1)))


if __name__ == "__main__":
    unittest.main()
