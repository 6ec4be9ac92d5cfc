"""Item 8: GetMatchHistory is paged (count and bytes) like ListMoves, so a
reply never outgrows gRPC's message limit however long the match."""

import random
import unittest

import grpc

import harness
from harness import auth, expect_error
from mancala.v1 import admin_service_pb2 as ad, game_pb2, match_service_pb2 as ms

srv = harness.srv
ADMIN = auth(harness.ADMIN_TOKEN)


class HistoryPagingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # A Congkak 9x9 match (the game with the largest moves), both seats
        # held by one player, played to its end with seeded random moves.
        p = srv.new_player("P")
        m = harness.create_match(srv, p, [harness.seat_of(p)] * 2,
                                 game=game_pb2.CONGKAK,
                                 options={"houses": "9", "seeds": "9"})
        rng = random.Random(8)
        while m.state == ms.Match.IN_PROGRESS:
            m = srv.matches.SubmitMove(
                ms.SubmitMoveRequest(name=m.name,
                                     pit=rng.choice(m.legal_pits)),
                metadata=p.md(), timeout=harness.DEADLINE_S).match
        cls.match = m

    def history(self, **kw):
        return srv.admin.GetMatchHistory(
            ad.GetMatchHistoryRequest(name=self.match.name, **kw),
            metadata=ADMIN, timeout=harness.DEADLINE_S)

    def test_pages_cover_every_move_once(self):
        self.assertGreater(self.match.ply, 20)
        plies, token, pages = [], "", 0
        while True:
            page = self.history(page_size=7, page_token=token)
            self.assertLessEqual(len(page.moves), 7)
            self.assertEqual(page.match.name, self.match.name)
            self.assertLess(page.ByteSize(), 4 << 20)
            plies += [m.ply for m in page.moves]
            pages += 1
            token = page.next_page_token
            if not token:
                break
        self.assertEqual(plies, list(range(1, self.match.ply + 1)))
        self.assertEqual(pages, -(-self.match.ply // 7))
        whole = self.history(page_size=1000)
        self.assertEqual(len(whole.moves), self.match.ply)
        self.assertEqual(whole.next_page_token, "")
        # Same moves, events included, as ListMoves gives.
        listed = srv.matches.ListMoves(
            ms.ListMovesRequest(parent=self.match.name, page_size=1000),
            timeout=harness.DEADLINE_S)
        self.assertEqual(list(whole.moves), list(listed.moves))

    def test_bad_paging_requests(self):
        expect_error(self, srv.admin.GetMatchHistory,
                     grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT",
                     ad.GetMatchHistoryRequest(name=self.match.name,
                                               page_size=-1), metadata=ADMIN)
        # A token is bound to its match.
        token = self.history(page_size=1).next_page_token
        q = srv.new_player("Q")
        other = harness.create_match(srv, q, [harness.seat_of(q),
                                              ms.Seat(kind=ms.Seat.CPU)])
        expect_error(self, srv.admin.GetMatchHistory,
                     grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN",
                     ad.GetMatchHistoryRequest(name=other.name,
                                               page_token=token),
                     metadata=ADMIN)


if __name__ == "__main__":
    unittest.main()
