"""Item 6 (every documented error reason is reachable; MATCH_FULL on a full
join) and the decisions of item 7, over the wire."""

import os
import random
import sqlite3
import threading
import time
import unittest

import grpc

import harness
from harness import auth, expect_error
from mancala.v1 import (admin_service_pb2 as ad, game_pb2,
                        match_service_pb2 as ms, matchmaking_service_pb2 as mm,
                        player_service_pb2 as ps, rating_service_pb2 as rs)

srv = harness.srv
ADMIN = auth(harness.ADMIN_TOKEN)
FP = grpc.StatusCode.FAILED_PRECONDITION
IA = grpc.StatusCode.INVALID_ARGUMENT


def move(player, match, pit, **kw):
    return srv.matches.SubmitMove(
        ms.SubmitMoveRequest(name=match.name, pit=pit, **kw),
        metadata=player.md(), timeout=harness.DEADLINE_S)


class JoinTest(unittest.TestCase):
    def setUp(self):
        self.a, self.b, self.c = (srv.new_player(n) for n in "ABC")
        self.open_match = harness.create_match(
            srv, self.a, [harness.seat_of(self.a), ms.Seat(kind=ms.Seat.OPEN)])
        self.code = self.open_match.invite_code

    def join(self, player, code, **kw):
        return srv.matches.JoinMatch(ms.JoinMatchRequest(invite_code=code,
                                                         **kw),
                                     metadata=player.md(),
                                     timeout=harness.DEADLINE_S)

    def test_joining_a_full_match_is_match_full(self):
        # The input: the last open seat was taken.
        typed = self.code[:4].lower() + "-" + self.code[4:].lower()
        joined = self.join(self.b, typed)  # Any case, hyphen ignored.
        self.assertEqual(joined.state, ms.Match.IN_PROGRESS)
        self.assertEqual(joined.invite_code, "")
        expect_error(self, srv.matches.JoinMatch, FP, "MATCH_FULL",
                     ms.JoinMatchRequest(invite_code=self.code),
                     metadata=self.c.md())

    def test_invite_code_errors(self):
        expect_error(self, srv.matches.JoinMatch, IA, "INVALID_INVITE_CODE",
                     ms.JoinMatchRequest(invite_code="ABCD0EFG"),
                     metadata=self.b.md())
        expect_error(self, srv.matches.JoinMatch, grpc.StatusCode.NOT_FOUND,
                     "INVITE_NOT_FOUND",
                     ms.JoinMatchRequest(invite_code="22222222"),
                     metadata=self.b.md())
        expect_error(self, srv.matches.JoinMatch, IA, "INVALID_ARGUMENT",
                     ms.JoinMatchRequest(invite_code=""), metadata=self.b.md())
        expect_error(self, srv.matches.JoinMatch, IA, "INVALID_ARGUMENT",
                     ms.JoinMatchRequest(invite_code=self.code, seat=5),
                     metadata=self.b.md())

    def test_seat_taken_and_already_seated(self):
        m = harness.create_match(
            srv, self.a, [harness.seat_of(self.a), ms.Seat(kind=ms.Seat.OPEN),
                          ms.Seat(kind=ms.Seat.OPEN)],
            game=game_pb2.MANCALA_BASIC, ranked=True)
        self.join(self.b, m.invite_code, seat=1)
        expect_error(self, srv.matches.JoinMatch, FP, "SEAT_TAKEN",
                     ms.JoinMatchRequest(invite_code=m.invite_code, seat=1),
                     metadata=self.c.md())
        expect_error(self, srv.matches.JoinMatch, FP, "ALREADY_SEATED",
                     ms.JoinMatchRequest(invite_code=m.invite_code),
                     metadata=self.a.md())

    def test_cancel(self):
        name = ms.CancelMatchRequest(name=self.open_match.name)
        expect_error(self, srv.matches.CancelMatch,
                     grpc.StatusCode.PERMISSION_DENIED, "NOT_CREATOR", name,
                     metadata=self.b.md())
        expect_error(self, srv.matches.SubmitMove, FP, "MATCH_NOT_STARTED",
                     ms.SubmitMoveRequest(name=self.open_match.name, pit=0),
                     metadata=self.a.md())
        expect_error(self, srv.matches.Resign, FP, "MATCH_NOT_STARTED",
                     ms.ResignRequest(name=self.open_match.name),
                     metadata=self.a.md())
        first = srv.matches.CancelMatch(name, metadata=self.a.md(),
                                        timeout=harness.DEADLINE_S)
        again = srv.matches.CancelMatch(name, metadata=self.a.md(),
                                        timeout=harness.DEADLINE_S)
        self.assertEqual(again, first)  # Cancelling again changes nothing.
        self.assertEqual(again.state, ms.Match.CANCELLED)
        expect_error(self, srv.matches.JoinMatch, grpc.StatusCode.NOT_FOUND,
                     "INVITE_NOT_FOUND",
                     ms.JoinMatchRequest(invite_code=self.code),
                     metadata=self.b.md())
        playing = harness.create_match(
            srv, self.a, [harness.seat_of(self.a), harness.seat_of(self.b)])
        err, _ = expect_error(self, srv.matches.CancelMatch, FP,
                              "MATCH_STARTED",
                              ms.CancelMatchRequest(name=playing.name),
                              metadata=self.a.md())
        self.assertIn("has started", err.details())


class MoveTest(unittest.TestCase):
    def setUp(self):
        self.a, self.b, self.c = (srv.new_player(n) for n in "ABC")
        self.m = harness.create_match(
            srv, self.a, [harness.seat_of(self.a), harness.seat_of(self.b)])

    def test_move_errors(self):
        expect_error(self, srv.matches.SubmitMove,
                     grpc.StatusCode.PERMISSION_DENIED, "NOT_A_SEAT",
                     ms.SubmitMoveRequest(name=self.m.name, pit=0),
                     metadata=self.c.md())
        _, info = expect_error(self, srv.matches.SubmitMove, FP,
                               "NOT_YOUR_TURN",
                               ms.SubmitMoveRequest(name=self.m.name, pit=0),
                               metadata=self.b.md())
        self.assertEqual(info.metadata["to_move"], "0")
        _, info = expect_error(self, srv.matches.SubmitMove, IA,
                               "PIT_OUT_OF_RANGE",
                               ms.SubmitMoveRequest(name=self.m.name, pit=6),
                               metadata=self.a.md())
        self.assertEqual(info.metadata["legal_pits"], "0, 1, 2, 3, 4, 5")
        expect_error(self, srv.matches.SubmitMove, IA, "INVALID_ARGUMENT",
                     ms.SubmitMoveRequest(name=self.m.name, pit=0,
                                          expected_ply=-1),
                     metadata=self.a.md())
        _, info = expect_error(self, srv.matches.SubmitMove,
                               grpc.StatusCode.ABORTED, "STALE_PLY",
                               ms.SubmitMoveRequest(name=self.m.name, pit=0,
                                                    expected_ply=3),
                               metadata=self.a.md())
        self.assertEqual(info.metadata["ply"], "0")
        # Kalah pit 2 (4 seeds) ends in the store: A moves again.
        after = move(self.a, self.m, 2, request_id="r1").match
        self.assertEqual(after.to_move, 0)
        _, info = expect_error(self, srv.matches.SubmitMove, FP, "PIT_EMPTY",
                               ms.SubmitMoveRequest(name=self.m.name, pit=2),
                               metadata=self.a.md())
        self.assertEqual(info.metadata["legal_pits"], "0, 1, 3, 4, 5")
        # request_id is scoped to (match, player).
        expect_error(self, srv.matches.SubmitMove, IA, "REQUEST_ID_REUSED",
                     ms.SubmitMoveRequest(name=self.m.name, pit=0,
                                          request_id="r1"),
                     metadata=self.a.md())
        repeat = move(self.a, self.m, 2, request_id="r1")
        self.assertEqual(repeat.match.ply, 1)  # The first answer, not a move.
        move(self.a, self.m, 0)
        other = move(self.b, after, 0, request_id="r1")  # B's own "r1".
        self.assertEqual(other.move.seat, 1)
        expect_error(self, srv.matches.Rematch, FP, "MATCH_NOT_OVER",
                     ms.RematchRequest(name=self.m.name),
                     metadata=self.a.md())
        ended = srv.matches.Resign(ms.ResignRequest(name=self.m.name),
                                   metadata=self.a.md(),
                                   timeout=harness.DEADLINE_S)
        self.assertEqual(ended.result.end_reason, game_pb2.RESIGNATION)
        expect_error(self, srv.matches.SubmitMove, FP, "MATCH_OVER",
                     ms.SubmitMoveRequest(name=self.m.name, pit=0),
                     metadata=self.b.md())
        expect_error(self, srv.matches.Resign, FP, "MATCH_OVER",
                     ms.ResignRequest(name=self.m.name), metadata=self.b.md())
        expect_error(self, srv.matches.Resign,
                     grpc.StatusCode.PERMISSION_DENIED, "NOT_A_SEAT",
                     ms.ResignRequest(name=self.m.name), metadata=self.c.md())
        expect_error(self, srv.matches.Rematch,
                     grpc.StatusCode.PERMISSION_DENIED, "NOT_A_SEAT",
                     ms.RematchRequest(name=self.m.name),
                     metadata=self.c.md())

    def test_pit_not_legal(self):
        # Oware with grand_slam=illegal, both seats held by one player
        # (casual): seeded random play until a non-empty pit is not legal
        # (must-feed or grand slam), then play it.
        rng = random.Random(17)
        for _ in range(40):
            m = harness.create_match(
                srv, self.a, [harness.seat_of(self.a),
                              harness.seat_of(self.a)],
                game=game_pb2.OWARE, options={"grand_slam": "illegal"})
            while m.state == ms.Match.IN_PROGRESS:
                side = m.board.sides[m.to_move].pits
                forbidden = [p for p in range(6)
                             if side[p] > 0 and p not in m.legal_pits]
                if forbidden:
                    _, info = expect_error(
                        self, srv.matches.SubmitMove, FP, "PIT_NOT_LEGAL",
                        ms.SubmitMoveRequest(name=m.name, pit=forbidden[0]),
                        metadata=self.a.md())
                    self.assertEqual(
                        info.metadata["legal_pits"],
                        ", ".join(str(p) for p in m.legal_pits))
                    return
                m = move(self.a, m, rng.choice(m.legal_pits)).match
        self.fail("no forbidden pit in 40 seeded games")

    def test_not_active_after_resigning(self):
        d = srv.new_player("D")
        m = harness.create_match(
            srv, self.a, [harness.seat_of(p) for p in (self.a, self.b, d)],
            game=game_pb2.MANCALA_BASIC)
        after = srv.matches.Resign(ms.ResignRequest(name=m.name),
                                   metadata=self.a.md(),
                                   timeout=harness.DEADLINE_S)
        self.assertEqual(after.state, ms.Match.IN_PROGRESS)
        expect_error(self, srv.matches.Resign, FP, "NOT_ACTIVE",
                     ms.ResignRequest(name=m.name), metadata=self.a.md())


class CreateAndReadTest(unittest.TestCase):
    def setUp(self):
        self.a = srv.new_player("A")

    def test_create_errors_and_options(self):
        seat = harness.seat_of(self.a)
        cpu = ms.Seat(kind=ms.Seat.CPU)
        expect_error(self, srv.matches.CreateMatch, IA, "INVALID_ARGUMENT",
                     ms.CreateMatchRequest(game=game_pb2.KALAH,
                                           seats=[seat, cpu], ranked=True),
                     metadata=self.a.md())
        expect_error(self, srv.matches.CreateMatch, IA, "INVALID_OPTION",
                     ms.CreateMatchRequest(game=game_pb2.KALAH,
                                           seats=[seat, cpu],
                                           options={"seeds": "7"}),
                     metadata=self.a.md())
        expect_error(self, srv.matches.CreateMatch, grpc.StatusCode.NOT_FOUND,
                     "PLAYER_NOT_FOUND",
                     ms.CreateMatchRequest(game=game_pb2.KALAH, seats=[
                         seat, ms.Seat(kind=ms.Seat.PLAYER,
                                       player="players/nobody")]),
                     metadata=self.a.md())
        expect_error(self, srv.matches.CreateMatch,
                     grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN",
                     ms.CreateMatchRequest(game=game_pb2.KALAH,
                                           seats=[seat, cpu]))
        kalah = harness.create_match(srv, self.a, [seat, cpu],
                                     options={"rotate_first_player": "off"})
        self.assertNotIn("rotate_first_player", kalah.options)
        self.assertFalse(kalah.rotate_first_player)
        basic = harness.create_match(srv, self.a, [seat, cpu],
                                     game=game_pb2.MANCALA_BASIC)
        self.assertEqual(basic.options["rotate_first_player"], "on")

    def test_read_errors(self):
        expect_error(self, srv.matches.GetMatch, IA, "INVALID_NAME",
                     ms.GetMatchRequest(name="match/1"))
        expect_error(self, srv.matches.GetMatch, grpc.StatusCode.NOT_FOUND,
                     "MATCH_NOT_FOUND", ms.GetMatchRequest(name="matches/1"))
        expect_error(self, srv.players.GetPlayer, grpc.StatusCode.NOT_FOUND,
                     "PLAYER_NOT_FOUND", ps.GetPlayerRequest(name="players/1"))
        # GetRatingHistory answers an unknown player as GetRating does.
        for method, req in ((srv.ratings.GetRating, rs.GetRatingRequest),
                            (srv.ratings.GetRatingHistory,
                             rs.GetRatingHistoryRequest)):
            expect_error(self, method, grpc.StatusCode.NOT_FOUND,
                         "PLAYER_NOT_FOUND",
                         req(name="players/nobody/ratings/kalah"))
        empty = srv.ratings.GetRatingHistory(
            rs.GetRatingHistoryRequest(name=self.a.name + "/ratings/kalah"),
            timeout=harness.DEADLINE_S)
        self.assertEqual(len(empty.changes), 0)
        expect_error(self, srv.ratings.ListLeaderboard, IA,
                     "INVALID_PAGE_TOKEN",
                     rs.ListLeaderboardRequest(game=game_pb2.KALAH,
                                               page_token="xyz"))
        expect_error(self, srv.matchmaking.GetQueueStats, IA,
                     "INVALID_ARGUMENT", mm.GetQueueStatsRequest(game=99))


class RatedTest(unittest.TestCase):
    def test_void(self):
        a, b = srv.new_player("A"), srv.new_player("B")
        two = [harness.seat_of(a), harness.seat_of(b)]
        rated = harness.play(srv, harness.create_match(srv, a, two,
                                                       ranked=True), [a, b])
        self.assertEqual(rated.state, ms.Match.FINISHED)
        req = ad.VoidMatchRequest(name=rated.name, reason="  test  ")
        srv.admin.VoidMatch(req, metadata=ADMIN, timeout=harness.DEADLINE_S)
        expect_error(self, srv.admin.VoidMatch, FP, "ALREADY_VOID", req,
                     metadata=ADMIN)
        casual = harness.play(srv, harness.create_match(srv, a, two), [a, b])
        expect_error(self, srv.admin.VoidMatch, FP, "NOT_RATED",
                     ad.VoidMatchRequest(name=casual.name, reason="x"),
                     metadata=ADMIN)
        expect_error(self, srv.admin.VoidMatch, IA, "INVALID_ARGUMENT",
                     ad.VoidMatchRequest(name=casual.name, reason=" \t"),
                     metadata=ADMIN)
        log = srv.admin.ListAuditLog(ad.ListAuditLogRequest(), metadata=ADMIN,
                                     timeout=harness.DEADLINE_S)
        self.assertEqual(log.entries[0].reason, "test")  # Trimmed.


class MatchmakingTest(unittest.TestCase):
    def test_already_searching_and_live_counts(self):
        a, b = srv.new_player("A"), srv.new_player("B")
        req = mm.FindMatchRequest(game=game_pb2.MANCALA_BASIC, players=3)
        seen = []
        first = srv.matchmaking.FindMatch(req, metadata=a.md())

        def read():
            try:
                for update in first:
                    seen.append(update.waiting.searching)
            except grpc.RpcError:
                pass

        threading.Thread(target=read, daemon=True).start()
        harness.wait_for(lambda: seen, "the first waiting update")
        expect_error(self, srv.matchmaking.FindMatch, FP, "ALREADY_SEARCHING",
                     req, metadata=a.md())
        second = srv.matchmaking.FindMatch(req, metadata=b.md())
        # The count changed: a's stream says so at once (the server runs
        # with --queue-update-seconds 60, so no periodic update explains it).
        harness.wait_for(lambda: 2 in seen, "searching=2, have %s" % seen)
        second.cancel()
        harness.wait_for(lambda: seen[-1] == 1, "searching=1, have %s" % seen)
        first.cancel()


class StorageFaultTest(unittest.TestCase):
    """STORAGE, REPLAY_FAILED and BAD_STORED_DATA: faults made in the
    database itself, on ended matches (which load on demand)."""

    def test_faults_in_the_database(self):
        own = harness.Server()
        try:
            a, b = own.new_player("A"), own.new_player("B")
            two = [harness.seat_of(a), harness.seat_of(b)]
            ended = []
            for _ in range(2):
                m = harness.play(own, harness.create_match(own, a, two),
                                 [a, b], plies=2)
                ended.append(own.matches.Resign(
                    ms.ResignRequest(name=m.name), metadata=a.md(),
                    timeout=harness.DEADLINE_S))
            ids = [m.name.split("/")[1] for m in ended]
            own.stop()
            with sqlite3.connect(own.db) as db:
                db.execute("UPDATE moves SET pit = 9 WHERE match_id = ? AND "
                           "ply = 2", (ids[0],))
                db.execute("UPDATE matches SET turn_limit_s = 7 WHERE id = ?",
                           (ids[1],))
            own.start()
            harness.expect_error(self, own.matches.GetMatch,
                                 grpc.StatusCode.DATA_LOSS, "REPLAY_FAILED",
                                 ms.GetMatchRequest(name=ended[0].name))
            harness.expect_error(self, own.matches.GetMatch,
                                 grpc.StatusCode.DATA_LOSS, "BAD_STORED_DATA",
                                 ms.GetMatchRequest(name=ended[1].name))
            # Another process holds the write lock: the store cannot write
            # (it does not wait), and says so as UNAVAILABLE.
            lock = sqlite3.connect(own.db, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
            try:
                harness.expect_error(self, own.players.CreatePlayer,
                                     grpc.StatusCode.UNAVAILABLE, "STORAGE",
                                     ps.CreatePlayerRequest())
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            own.new_player("after")  # The server did not need a restart.
        finally:
            own.close()

    def test_a_hung_or_full_database(self):
        """STORAGE_TIMEOUT and STORAGE_FULL (docs/api.md "Storage
        trouble"): a write waits longer than --db-call-timeout-ms for a
        lock another process holds (the busy timeout is longer), and a
        database grown to --db-max-size-mb, as on a full disk."""
        own = harness.Server(extra=("--db-call-timeout-ms", "300",
                                    "--db-busy-timeout-ms", "20000",
                                    "--db-max-size-mb", "1"))
        try:
            a = own.new_player("A")
            lock = sqlite3.connect(own.db, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
            try:
                start = time.monotonic()
                harness.expect_error(self, own.players.CreatePlayer,
                                     grpc.StatusCode.DEADLINE_EXCEEDED,
                                     "STORAGE_TIMEOUT",
                                     ps.CreatePlayerRequest(display_name="x"))
                # At the server's bound, not the client's 30 s deadline.
                self.assertLess(time.monotonic() - start, 5)
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            # It left the writer's queue at the deadline: never written.
            with sqlite3.connect(own.db) as db:
                self.assertEqual(db.execute(
                    "SELECT count(*) FROM players WHERE display_name = 'x'"
                ).fetchone()[0], 0)
            # Grown past 1 MiB from outside (the cap cannot go below the
            # file's size): the next writes that need a page are refused,
            # and reads go on.
            own.stop()
            with sqlite3.connect(own.db) as db:
                db.execute("CREATE TABLE filler (b BLOB)")
                db.execute("INSERT INTO filler VALUES (zeroblob(1200000))")
            own.start()
            full = None
            for i in range(400):
                try:
                    own.players.CreatePlayer(
                        ps.CreatePlayerRequest(display_name="p%d" % i),
                        timeout=harness.DEADLINE_S)
                except grpc.RpcError as err:
                    full = err
                    break
            self.assertIsNotNone(full, "1 MiB never filled")
            harness.expect_error(self, own.players.CreatePlayer,
                                 grpc.StatusCode.RESOURCE_EXHAUSTED,
                                 "STORAGE_FULL",
                                 ps.CreatePlayerRequest(display_name="more"))
            own.players.GetPlayer(ps.GetPlayerRequest(name=a.name),
                                  metadata=a.md(), timeout=harness.DEADLINE_S)
        finally:
            own.close()


if __name__ == "__main__":
    unittest.main()
