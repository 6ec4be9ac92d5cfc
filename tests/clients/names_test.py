"""Every RPC that names a resource refuses a malformed name
(INVALID_ARGUMENT, INVALID_NAME) and an unknown one (NOT_FOUND), and every
listing refuses a negative page_size and a foreign page_token."""

import unittest

import grpc

import harness
from harness import auth, expect_error
from mancala.v1 import (admin_service_pb2 as ad, game_pb2,
                        match_service_pb2 as ms, matchmaking_service_pb2 as mm,
                        player_service_pb2 as ps, rating_service_pb2 as rs)

srv = harness.srv
ADMIN = auth(harness.ADMIN_TOKEN)
IA = grpc.StatusCode.INVALID_ARGUMENT
UNKNOWN_MATCH = "matches/" + "0" * 32


class NamesTest(unittest.TestCase):
    def setUp(self):
        self.p = srv.new_player("N")

    def match_rpcs(self):
        """(rpc, request for a match name, metadata)."""
        me, admin = self.p.md(), ADMIN
        return [
            (srv.matches.GetMatch, lambda n: ms.GetMatchRequest(name=n), ()),
            (srv.matches.CancelMatch,
             lambda n: ms.CancelMatchRequest(name=n), me),
            (srv.matches.Rematch, lambda n: ms.RematchRequest(name=n), me),
            (srv.matches.WatchMatch,
             lambda n: ms.WatchMatchRequest(name=n), ()),
            (srv.matches.SubmitMove,
             lambda n: ms.SubmitMoveRequest(name=n, pit=0), me),
            (srv.matches.Resign, lambda n: ms.ResignRequest(name=n), me),
            (srv.matches.ListMoves,
             lambda n: ms.ListMovesRequest(parent=n), ()),
            (srv.admin.GetMatchHistory,
             lambda n: ad.GetMatchHistoryRequest(name=n), admin),
            (srv.admin.VoidMatch,
             lambda n: ad.VoidMatchRequest(name=n, reason="r"), admin),
            (srv.admin.VerifyMatch,
             lambda n: ad.VerifyMatchRequest(name=n), admin),
        ]

    def test_match_names(self):
        for method, request, md in self.match_rpcs():
            with self.subTest(rpc=method._method):
                expect_error(self, method, IA, "INVALID_NAME",
                             request("matches/a/b"), metadata=md)
                expect_error(self, method, grpc.StatusCode.NOT_FOUND,
                             "MATCH_NOT_FOUND", request(UNKNOWN_MATCH),
                             metadata=md)

    def test_player_and_rating_names(self):
        expect_error(self, srv.players.GetPlayer, IA, "INVALID_NAME",
                     ps.GetPlayerRequest(name="people/1"))
        for method, req in ((srv.ratings.GetRating, rs.GetRatingRequest),
                            (srv.ratings.GetRatingHistory,
                             rs.GetRatingHistoryRequest)):
            for bad in ("players/x/ratings/chess", "ratings/kalah"):
                expect_error(self, method, IA, "INVALID_NAME", req(name=bad))
        expect_error(self, srv.admin.ListMatches, IA, "INVALID_NAME",
                     ad.ListMatchesRequest(player="people/1"), metadata=ADMIN)
        expect_error(self, srv.matches.CreateMatch, IA, "INVALID_NAME",
                     ms.CreateMatchRequest(game=game_pb2.KALAH, seats=[
                         harness.seat_of(self.p),
                         ms.Seat(kind=ms.Seat.PLAYER, player="people/1")]),
                     metadata=self.p.md())

    def test_listings_check_page_size_and_token(self):
        rating = self.p.name + "/ratings/kalah"
        listings = [
            (srv.ratings.ListLeaderboard,
             lambda **kw: rs.ListLeaderboardRequest(game=game_pb2.KALAH,
                                                    **kw), ()),
            (srv.ratings.GetRatingHistory,
             lambda **kw: rs.GetRatingHistoryRequest(name=rating, **kw), ()),
            (srv.admin.ListMatches,
             lambda **kw: ad.ListMatchesRequest(**kw), ADMIN),
            (srv.admin.ListAuditLog,
             lambda **kw: ad.ListAuditLogRequest(**kw), ADMIN),
        ]
        for method, request, md in listings:
            with self.subTest(rpc=method._method):
                expect_error(self, method, IA, "INVALID_ARGUMENT",
                             request(page_size=-1), metadata=md)
                expect_error(self, method, IA, "INVALID_PAGE_TOKEN",
                             request(page_token="bm90LWEtdG9rZW4="),
                             metadata=md)

    def test_find_match_shape(self):
        expect_error(self, srv.matchmaking.FindMatch, IA, "INVALID_ARGUMENT",
                     mm.FindMatchRequest(game=game_pb2.KALAH, players=3),
                     metadata=self.p.md())
        expect_error(self, srv.matchmaking.FindMatch, IA, "INVALID_OPTION",
                     mm.FindMatchRequest(game=game_pb2.KALAH,
                                         options={"seeds": "99"}),
                     metadata=self.p.md())


if __name__ == "__main__":
    unittest.main()
