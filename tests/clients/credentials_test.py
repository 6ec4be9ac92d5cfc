"""Replacing a token, and an operator revoking tokens and banning a player
(issue 29 item 5), over the wire: the old token fails at once, each
operator act leaves its audit entry, a banned player's calls fail with
PERMISSION_DENIED (PLAYER_BANNED) and their search ends, they leave the
leaderboard with their rating kept, and a lifted ban lets the same token in
again. Across two nodes: tests/e2e/two_nodes_test.py."""

import threading
import unittest

import grpc

import harness
from harness import auth, expect_error
from mancala.v1 import (admin_service_pb2 as ad, game_pb2,
                        match_service_pb2 as ms, matchmaking_service_pb2 as mm,
                        player_service_pb2 as ps, rating_service_pb2 as rs)

srv = harness.srv
ADMIN = auth(harness.ADMIN_TOKEN)
PD = grpc.StatusCode.PERMISSION_DENIED
FP = grpc.StatusCode.FAILED_PRECONDITION
NF = grpc.StatusCode.NOT_FOUND
IA = grpc.StatusCode.INVALID_ARGUMENT
UA = grpc.StatusCode.UNAUTHENTICATED


ME = ps.GetPlayerRequest(name="players/me")


def me(token):
    return srv.players.GetPlayer(ps.GetPlayerRequest(name="players/me"),
                                 metadata=auth(token),
                                 timeout=harness.DEADLINE_S)


def audit_entries(n):
    return srv.admin.ListAuditLog(ad.ListAuditLogRequest(page_size=n),
                                  metadata=ADMIN,
                                  timeout=harness.DEADLINE_S).entries


def read_in_background(stream):
    """Reads `stream` on a thread: (messages so far, [its RpcError] once
    it ends with one)."""
    messages, ended = [], []

    def read():
        try:
            for message in stream:
                messages.append(message)
        except grpc.RpcError as e:
            ended.append(e)

    threading.Thread(target=read, daemon=True).start()
    return messages, ended


class ReplaceTokenTest(unittest.TestCase):
    def test_the_old_token_fails_at_once(self):
        p = srv.new_player("Rita")
        self.assertEqual(me(p.token).name, p.name)  # Remembered by the node.
        resp = srv.players.ReplaceToken(
            ps.ReplaceTokenRequest(name="players/me"), metadata=p.md(),
            timeout=harness.DEADLINE_S)
        self.assertEqual(resp.player.name, p.name)
        self.assertEqual(resp.player.display_name, "Rita")
        self.assertNotEqual(resp.token, p.token)
        self.assertGreaterEqual(len(resp.token), 32)
        expect_error(self, srv.players.GetPlayer, UA, "UNKNOWN_TOKEN", ME,
                     metadata=auth(p.token))
        self.assertEqual(me(resp.token).name, p.name)
        entry = audit_entries(1)[0]
        self.assertEqual((entry.actor, entry.action, entry.target,
                          entry.reason),
                         (p.name, "replace_token", p.name,
                          "replaced by the player"))
        # Its own name works as well as players/me.
        again = srv.players.ReplaceToken(ps.ReplaceTokenRequest(name=p.name),
                                         metadata=auth(resp.token),
                                         timeout=harness.DEADLINE_S)
        expect_error(self, srv.players.GetPlayer, UA, "UNKNOWN_TOKEN", ME,
                     metadata=auth(resp.token))
        self.assertEqual(me(again.token).name, p.name)

    def test_only_ones_own_token(self):
        p, q = srv.new_player("P"), srv.new_player("Q")
        expect_error(self, srv.players.ReplaceToken, PD, "NOT_YOUR_PLAYER",
                     ps.ReplaceTokenRequest(name=q.name), metadata=p.md())
        expect_error(self, srv.players.ReplaceToken, IA, "INVALID_NAME",
                     ps.ReplaceTokenRequest(name="matches/x"), metadata=p.md())
        self.assertEqual(me(q.token).name, q.name)  # Untouched.


class RevokeTokensTest(unittest.TestCase):
    def test_a_new_token_and_an_audit_entry(self):
        p = srv.new_player("Leaky")
        me(p.token)
        resp = srv.admin.RevokeTokens(
            ad.RevokeTokensRequest(name=p.name, reason="  token posted  ",
                                   actor=" ops "),
            metadata=ADMIN, timeout=harness.DEADLINE_S)
        self.assertEqual(resp.player.name, p.name)
        expect_error(self, srv.players.GetPlayer, UA, "UNKNOWN_TOKEN", ME,
                     metadata=auth(p.token))
        self.assertEqual(me(resp.token).name, p.name)
        entry = audit_entries(1)[0]
        self.assertEqual((entry.actor, entry.action, entry.target,
                          entry.reason),
                         ("ops", "revoke_tokens", p.name, "token posted"))

    def test_errors(self):
        p = srv.new_player()
        expect_error(self, srv.admin.RevokeTokens, NF, "PLAYER_NOT_FOUND",
                     ad.RevokeTokensRequest(name="players/nobody", reason="x"),
                     metadata=ADMIN)
        expect_error(self, srv.admin.RevokeTokens, IA, "INVALID_ARGUMENT",
                     ad.RevokeTokensRequest(name=p.name, reason=" "),
                     metadata=ADMIN)
        expect_error(self, srv.admin.RevokeTokens, IA, "INVALID_NAME",
                     ad.RevokeTokensRequest(name="p1", reason="x"),
                     metadata=ADMIN)
        expect_error(self, srv.admin.RevokeTokens, PD, "NOT_ADMIN",
                     ad.RevokeTokensRequest(name=p.name, reason="x"),
                     metadata=p.md())
        self.assertEqual(me(p.token).name, p.name)  # Nothing revoked.


class BanTest(unittest.TestCase):
    def ban(self, player, reason="cheating"):
        return srv.admin.BanPlayer(
            ad.BanPlayerRequest(name=player.name, reason=reason),
            metadata=ADMIN, timeout=harness.DEADLINE_S)

    def unban(self, player, reason="appeal upheld"):
        return srv.admin.UnbanPlayer(
            ad.UnbanPlayerRequest(name=player.name, reason=reason),
            metadata=ADMIN, timeout=harness.DEADLINE_S)

    def test_a_banned_players_calls_fail_until_the_ban_is_lifted(self):
        a, b = srv.new_player("Cheat"), srv.new_player("Fair")
        match = harness.create_match(srv, a, [harness.seat_of(a),
                                              harness.seat_of(b)])
        me(a.token)
        banned = self.ban(a).player
        self.assertTrue(banned.banned)
        self.assertTrue(banned.HasField("ban_time"))
        for call, request in (
                (srv.players.GetPlayer, ME),
                (srv.matches.CreateMatch, ms.CreateMatchRequest(
                    game=game_pb2.KALAH,
                    seats=[harness.seat_of(a), ms.Seat(kind=ms.Seat.CPU)])),
                (srv.matches.SubmitMove,
                 ms.SubmitMoveRequest(name=match.name, pit=0)),
                (srv.matchmaking.FindMatch,
                 mm.FindMatchRequest(game=game_pb2.KALAH))):
            with self.subTest(request=type(request).__name__):
                expect_error(self, call, PD, "PLAYER_BANNED", request,
                             metadata=a.md())
        # Public: others still see the player, marked banned.
        seen = srv.players.GetPlayer(ps.GetPlayerRequest(name=a.name),
                                     timeout=harness.DEADLINE_S)
        self.assertTrue(seen.banned)
        self.assertEqual(seen.ban_time, banned.ban_time)
        expect_error(self, srv.admin.BanPlayer, FP, "ALREADY_BANNED",
                     ad.BanPlayerRequest(name=a.name, reason="again"),
                     metadata=ADMIN)
        lifted = self.unban(a).player
        self.assertFalse(lifted.banned)
        self.assertFalse(lifted.HasField("ban_time"))
        self.assertEqual(me(a.token).name, a.name)  # The same token.
        expect_error(self, srv.admin.UnbanPlayer, FP, "NOT_BANNED",
                     ad.UnbanPlayerRequest(name=a.name, reason="again"),
                     metadata=ADMIN)
        entries = audit_entries(2)
        self.assertEqual([(e.action, e.target, e.reason, e.actor)
                          for e in entries],
                         [("unban_player", a.name, "appeal upheld", "admin"),
                          ("ban_player", a.name, "cheating", "admin")])

    def test_errors(self):
        expect_error(self, srv.admin.BanPlayer, NF, "PLAYER_NOT_FOUND",
                     ad.BanPlayerRequest(name="players/nobody", reason="x"),
                     metadata=ADMIN)
        expect_error(self, srv.admin.UnbanPlayer, NF, "PLAYER_NOT_FOUND",
                     ad.UnbanPlayerRequest(name="players/nobody", reason="x"),
                     metadata=ADMIN)
        p = srv.new_player()
        expect_error(self, srv.admin.BanPlayer, IA, "INVALID_ARGUMENT",
                     ad.BanPlayerRequest(name=p.name, reason="\t"),
                     metadata=ADMIN)
        self.assertEqual(me(p.token).name, p.name)  # Not banned.

    def test_a_ban_ends_the_players_search(self):
        a = srv.new_player("Searcher")
        stream = srv.matchmaking.FindMatch(
            mm.FindMatchRequest(game=game_pb2.CONGKAK),
            metadata=a.md(), timeout=harness.DEADLINE_S)
        updates, ended = read_in_background(stream)
        harness.wait_for(lambda: updates, "the first waiting update")
        self.ban(a)
        harness.wait_for(lambda: ended, "the search to end")
        self.assertEqual([e.code() for e in ended],
                         [grpc.StatusCode.CANCELLED])

    def test_the_banned_players_seat_goes_to_the_cpu_stand_in(self):
        """Their stream that kept the seat present ends PLAYER_BANNED;
        after the grace period (1 s here) the CPU plays their turn."""
        own = harness.Server(extra=["--grace-seconds", "1"])
        try:
            a, b = own.new_player("Cheat"), own.new_player("Fair")
            match = harness.create_match(own, a, [harness.seat_of(a),
                                                  harness.seat_of(b)])
            self.assertEqual(match.to_move, 0)  # a, who is banned below.
            stream = own.matches.WatchMatch(
                ms.WatchMatchRequest(name=match.name), metadata=a.md(),
                timeout=harness.DEADLINE_S)
            events, ended = read_in_background(stream)
            harness.wait_for(lambda: events, "a's watch snapshot")
            own.admin.BanPlayer(ad.BanPlayerRequest(name=a.name,
                                                    reason="bot"),
                                metadata=ADMIN, timeout=harness.DEADLINE_S)
            harness.wait_for(lambda: ended, "a's stream to end")
            self.assertEqual(ended[0].code(), PD)
            self.assertIn("banned", ended[0].details())

            def first_move():
                moves = own.matches.ListMoves(
                    ms.ListMovesRequest(parent=match.name),
                    timeout=harness.DEADLINE_S).moves
                return moves and moves[0]

            move = harness.wait_for(first_move, "the stand-in's move")
            self.assertEqual((move.seat, move.by_cpu, move.cpu_reason),
                             (0, True, ms.Move.STAND_IN))
        finally:
            own.close()

    def test_off_the_leaderboard_with_the_rating_kept(self):
        a, b = srv.new_player("Top"), srv.new_player("Next")
        two = [harness.seat_of(a), harness.seat_of(b)]
        rated = harness.play(srv, harness.create_match(
            srv, a, two, game=game_pb2.OWARE, ranked=True), [a, b])
        self.assertEqual(rated.state, ms.Match.FINISHED)

        def board():
            return {r.player for r in srv.ratings.ListLeaderboard(
                rs.ListLeaderboardRequest(game=game_pb2.OWARE,
                                          include_provisional=True,
                                          page_size=500),
                timeout=harness.DEADLINE_S).ratings}

        self.assertLessEqual({a.name, b.name}, board())
        self.ban(a)
        self.assertNotIn(a.name, board())
        self.assertIn(b.name, board())
        rating = srv.ratings.GetRating(
            rs.GetRatingRequest(name=a.name + "/ratings/oware"),
            timeout=harness.DEADLINE_S)
        self.assertEqual(rating.games_played, 1)
        self.unban(a)
        self.assertIn(a.name, board())


if __name__ == "__main__":
    unittest.main()
