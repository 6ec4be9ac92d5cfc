"""Item 2: the bearer scheme is case-insensitive (RFC 9110 11.1), the token
is not, and a present but invalid token is UNAUTHENTICATED on every RPC,
public reads included."""

import unittest

import grpc

import harness
from harness import auth, expect_error
from mancala.v1 import (admin_service_pb2 as ad, game_pb2,
                        match_service_pb2 as ms, matchmaking_service_pb2 as mm,
                        player_service_pb2 as ps, rating_service_pb2 as rs)

srv = harness.srv


def every_rpc(match, player):
    """(name, stub method, request) for each of the API's 26 RPCs, with
    requests that would succeed with the right token."""
    return [
        ("CreatePlayer", srv.players.CreatePlayer, ps.CreatePlayerRequest()),
        ("GetPlayer", srv.players.GetPlayer,
         ps.GetPlayerRequest(name=player.name)),
        ("ReplaceToken", srv.players.ReplaceToken,
         ps.ReplaceTokenRequest(name="players/me")),
        ("CreateMatch", srv.matches.CreateMatch,
         ms.CreateMatchRequest(game=game_pb2.KALAH, seats=[
             harness.seat_of(player), ms.Seat(kind=ms.Seat.CPU)])),
        ("GetMatch", srv.matches.GetMatch, ms.GetMatchRequest(name=match)),
        ("JoinMatch", srv.matches.JoinMatch,
         ms.JoinMatchRequest(invite_code="ABCDEFGH")),
        ("CancelMatch", srv.matches.CancelMatch,
         ms.CancelMatchRequest(name=match)),
        ("Rematch", srv.matches.Rematch, ms.RematchRequest(name=match)),
        ("WatchMatch", srv.matches.WatchMatch,
         ms.WatchMatchRequest(name=match)),
        ("SubmitMove", srv.matches.SubmitMove,
         ms.SubmitMoveRequest(name=match, pit=0)),
        ("Resign", srv.matches.Resign, ms.ResignRequest(name=match)),
        ("ListMoves", srv.matches.ListMoves,
         ms.ListMovesRequest(parent=match)),
        ("GetRating", srv.ratings.GetRating,
         rs.GetRatingRequest(name=player.name + "/ratings/kalah")),
        ("ListLeaderboard", srv.ratings.ListLeaderboard,
         rs.ListLeaderboardRequest(game=game_pb2.KALAH)),
        ("GetRatingHistory", srv.ratings.GetRatingHistory,
         rs.GetRatingHistoryRequest(name=player.name + "/ratings/kalah")),
        ("ListMatches", srv.admin.ListMatches, ad.ListMatchesRequest()),
        ("GetMatchHistory", srv.admin.GetMatchHistory,
         ad.GetMatchHistoryRequest(name=match)),
        ("VoidMatch", srv.admin.VoidMatch,
         ad.VoidMatchRequest(name=match, reason="x")),
        ("ListAuditLog", srv.admin.ListAuditLog, ad.ListAuditLogRequest()),
        ("VerifyMatch", srv.admin.VerifyMatch,
         ad.VerifyMatchRequest(name=match)),
        ("RevokeTokens", srv.admin.RevokeTokens,
         ad.RevokeTokensRequest(name=player.name, reason="x")),
        ("BanPlayer", srv.admin.BanPlayer,
         ad.BanPlayerRequest(name=player.name, reason="x")),
        ("UnbanPlayer", srv.admin.UnbanPlayer,
         ad.UnbanPlayerRequest(name=player.name, reason="x")),
        ("FindMatch", srv.matchmaking.FindMatch,
         mm.FindMatchRequest(game=game_pb2.KALAH)),
        ("CancelFind", srv.matchmaking.CancelFind, mm.CancelFindRequest()),
        ("GetQueueStats", srv.matchmaking.GetQueueStats,
         mm.GetQueueStatsRequest()),
    ]


class AuthTest(unittest.TestCase):
    def setUp(self):
        self.p = srv.new_player("Ann")
        other = srv.new_player("Bob")
        self.match = harness.create_match(
            srv, self.p, [harness.seat_of(self.p), harness.seat_of(other)])

    def test_scheme_is_case_insensitive(self):
        for scheme in ("Bearer", "bearer", "BEARER", "bEaReR"):
            me = srv.players.GetPlayer(ps.GetPlayerRequest(name="players/me"),
                                       metadata=auth(self.p.token, scheme),
                                       timeout=harness.DEADLINE_S)
            self.assertEqual(me.name, self.p.name, scheme)
        # RFC 9110: one or more spaces after the scheme.
        me = srv.players.GetPlayer(
            ps.GetPlayerRequest(name="players/me"),
            metadata=(("authorization", "bearer   " + self.p.token),),
            timeout=harness.DEADLINE_S)
        self.assertEqual(me.name, self.p.name)

    def test_token_is_case_sensitive(self):
        expect_error(self, srv.players.GetPlayer,
                     grpc.StatusCode.UNAUTHENTICATED, "UNKNOWN_TOKEN",
                     ps.GetPlayerRequest(name="players/me"),
                     metadata=auth(self.p.token.upper()))

    def test_malformed_and_missing(self):
        for value in ("Token " + self.p.token, "Bearer", "Bearer ",
                      "Bearer a b", self.p.token, "Basic dXNlcjpwYXNz"):
            expect_error(self, srv.players.GetPlayer,
                         grpc.StatusCode.UNAUTHENTICATED, "MALFORMED_TOKEN",
                         ps.GetPlayerRequest(name="players/me"),
                         metadata=(("authorization", value),))
        expect_error(self, srv.players.GetPlayer,
                     grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN",
                     ps.GetPlayerRequest(name="players/me"))

    def test_garbage_token_is_unauthenticated_on_every_rpc(self):
        rpcs = every_rpc(self.match.name, self.p)
        self.assertEqual(len(rpcs), 26)
        for name, method, request in rpcs:
            with self.subTest(rpc=name):
                expect_error(self, method, grpc.StatusCode.UNAUTHENTICATED,
                             "UNKNOWN_TOKEN", request,
                             metadata=auth("garbage"))
                expect_error(self, method, grpc.StatusCode.UNAUTHENTICATED,
                             "MALFORMED_TOKEN", request,
                             metadata=(("authorization", "garbage"),))

    def test_player_calls_need_a_token(self):
        acting = {"CreateMatch", "JoinMatch", "CancelMatch", "Rematch",
                  "SubmitMove", "Resign", "FindMatch", "CancelFind",
                  "ReplaceToken"}
        admin = {"ListMatches", "GetMatchHistory", "VoidMatch",
                 "ListAuditLog", "VerifyMatch", "RevokeTokens", "BanPlayer",
                 "UnbanPlayer"}
        for name, method, request in every_rpc(self.match.name, self.p):
            if name in acting | admin:
                with self.subTest(rpc=name):
                    expect_error(self, method,
                                 grpc.StatusCode.UNAUTHENTICATED,
                                 "MISSING_TOKEN", request)

    def test_public_reads_work_without_a_token(self):
        public = {"CreatePlayer", "GetPlayer", "GetMatch", "WatchMatch",
                  "ListMoves", "GetRating", "ListLeaderboard",
                  "GetRatingHistory", "GetQueueStats"}
        for name, method, request in every_rpc(self.match.name, self.p):
            if name not in public:
                continue
            with self.subTest(rpc=name):
                if name == "WatchMatch":
                    call = method(request, timeout=harness.DEADLINE_S)
                    self.assertTrue(next(iter(call)).HasField("match"))
                    call.cancel()
                else:
                    method(request, timeout=harness.DEADLINE_S)

    def test_admin_tokens(self):
        req = ad.ListAuditLogRequest()
        srv.admin.ListAuditLog(req, metadata=auth(harness.ADMIN_TOKEN, "bearer"),
                               timeout=harness.DEADLINE_S)
        expect_error(self, srv.admin.ListAuditLog,
                     grpc.StatusCode.PERMISSION_DENIED, "NOT_ADMIN", req,
                     metadata=self.p.md())
        expect_error(self, srv.admin.ListAuditLog,
                     grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN", req)

    def test_admin_disabled(self):
        off = harness.Server(admin_token="")
        try:
            expect_error(self, off.admin.ListAuditLog,
                         grpc.StatusCode.PERMISSION_DENIED, "ADMIN_DISABLED",
                         ad.ListAuditLogRequest(),
                         metadata=auth("anything"))
        finally:
            off.close()


if __name__ == "__main__":
    unittest.main()
