#!/usr/bin/env python3
"""Time that survives a node (issue 14, "Done when" steps 4 and 5): two real
mancalad nodes A and B on one PostgreSQL database, over loopback.

Step 4: a match with a 30 s turn limit; A commits the last move, so A armed
the deadline (the stored due time, on the database's clock). A is killed
with SIGKILL. Left idle, the turn is played once, by B, as a TURN_TIMEOUT
move, no later than the deadline plus B's sweep interval (and the time the
claim and the move take, at most PROCESSING_MS).

Step 5: a match without a turn limit whose player P3 watched through A when
A died. After the grace period from when A last marked P3 seen, B's CPU
stands in (STAND_IN) for P3; P3 then watches through B with their token,
and their next turn is theirs again: their own move through B is stored,
no stand-in follows.

Last, SIGTERM on B: B deletes its heartbeat row as it drains, so peers take
over its turns at once.

Both matches run at once, so the test takes about the turn limit (30 s,
the shortest a match may have).

usage: two_nodes_time_test.py MANCALAD STUBS_DIR (build/clients/python)
Needs MANCALA_TEST_PG_DSN (deploy/pg.sh env); exits 77 (skipped) without
it, or fails under CI=true (tests/e2e/two_nodes.py).
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import two_nodes  # noqa: E402

GRACE_S = 2.0
SWEEP_MS = 200
HEARTBEAT_MS = 200
TURN_LIMIT_S = 30
PROCESSING_MS = 1000  # Claim, catch-up, a 5 ms search and the append.
WAIT_S = TURN_LIMIT_S + 30  # Longest wait for the deadline or stand-in.
TIMEOUT, STAND_IN = 2, 3  # v1.Move.CpuReason.


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


class Database:
    """Reads of the cluster's database (two_nodes.Cluster.psql)."""

    def __init__(self, cluster):
        self.cluster = cluster

    def moves(self, match_id, after_ply=0):
        """(ply, seat, by_cpu, cpu_reason, played_at_ms) after a ply."""
        rows = self.cluster.psql(
            "SELECT ply, seat, by_cpu, cpu_reason, played_at_ms FROM moves "
            "WHERE match_id = '%s' AND ply > %d ORDER BY ply" %
            (match_id, after_ply))
        return [(int(p), int(s), b == "t", int(r), int(t))
                for p, s, b, r, t in rows]

    def one(self, sql):
        rows = self.cluster.psql(sql)
        return rows[0][0] if rows else None


NODE_FLAGS = ["--grace-seconds", str(GRACE_S), "--heartbeat-ms",
              str(HEARTBEAT_MS), "--sweep-ms", str(SWEEP_MS), "--tick-ms",
              "50"]


class Watcher(threading.Thread):
    """A WatchMatch stream held open with a player's token until it ends."""

    def __init__(self, node, match_name, player):
        super().__init__(daemon=True)
        self.call = node.matches.WatchMatch(
            pb.WatchMatchRequest(name=match_name), metadata=player.md())
        self.start()

    def run(self):
        try:
            for _ in self.call:
                pass
        except grpc.RpcError:
            pass  # Its node died or stopped.

    def cancel(self):
        self.call.cancel()


class Player:
    def __init__(self, node, display_name):
        resp = node.players.CreatePlayer(
            player_pb.CreatePlayerRequest(display_name=display_name),
            timeout=30)
        self.name = resp.player.name
        self.token = resp.token

    def md(self):
        return harness.auth(self.token)


def load_stubs():
    global grpc, pb, player_pb, harness
    import grpc
    import harness
    from mancala.v1 import match_service_pb2 as pb
    from mancala.v1 import player_service_pb2 as player_pb


def match_id(match):
    return match.name.split("/", 1)[1]


def create(node, creator, seats, turn_limit_s=0):
    from mancala.v1 import game_pb2
    return node.matches.CreateMatch(
        pb.CreateMatchRequest(
            game=game_pb2.KALAH, first_seat=0,
            turn_time_limit_seconds=turn_limit_s,
            seats=[pb.Seat(kind=pb.Seat.PLAYER, player=p.name)
                   for p in seats]),
        metadata=creator.md(), timeout=30)


def move(node, match, player):
    """`player` plays the lowest legal pit of `match` through `node`."""
    return node.matches.SubmitMove(
        pb.SubmitMoveRequest(name=match.name, pit=match.legal_pits[0],
                             expected_ply=match.ply),
        metadata=player.md(), timeout=30).match


def play_until(node, match, by_seat, seat):
    """Moves through `node` until `seat` is to move (at least one move)."""
    match = move(node, match, by_seat[match.to_move])
    while match.to_move != seat:
        if match.state != pb.Match.IN_PROGRESS:
            fail("match %s ended before seat %d's turn" % (match.name, seat))
        match = move(node, match, by_seat[match.to_move])
    return match


def seen_node(db, mid, seat):
    return db.one("SELECT seen_node FROM seats WHERE match_id = '%s' AND "
                  "seat = %d" % (mid, seat))


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    cluster = two_nodes.Cluster(sys.argv[1], sys.argv[2])
    load_stubs()
    db = Database(cluster)
    try:
        a = cluster.node("A", ["--node-id", "A"] + NODE_FLAGS)
        b = cluster.node("B", ["--node-id", "B"] + NODE_FLAGS)
        p1, p2, p3, p4 = (Player(a, "P%d" % i) for i in range(1, 5))

        # Step 4's match: P1 (on A) moves last, through A; P2, to move,
        # watches through B, so the deadline, not absence, decides.
        t = create(a, p1, [p1, p2], TURN_LIMIT_S)
        t = play_until(a, t, [p1, p2], 1)
        t_id, t_ply = match_id(t), t.ply
        p2_watch = Watcher(b, t.name, p2)
        # Step 5's match: P3, to move, watches through A; P4 through B.
        s = create(a, p3, [p3, p4])
        s = play_until(a, play_until(a, s, [p3, p4], 1), [p3, p4], 0)
        s_id, s_ply = match_id(s), s.ply
        p3_watch_a = Watcher(a, s.name, p3)
        p4_watch = Watcher(b, s.name, p4)
        for mid, seat, node, who in ((t_id, 1, "B", "P2"),
                                     (s_id, 0, "A", "P3"),
                                     (s_id, 1, "B", "P4")):
            harness.wait_for(lambda: seen_node(db, mid, seat) == node,
                             "%s seen by %s" % (who, node))
        due_ms = int(db.one(
            "SELECT (extract(epoch FROM due_at) * 1000)::bigint FROM matches "
            "WHERE id = '%s'" % t_id))
        if db.moves(t_id, t_ply) or db.moves(s_id, s_ply):
            fail("a move was played before A died")

        a.kill9()
        p3_watch_a.join(timeout=30)
        p3_seen_ms = int(db.one(
            "SELECT (extract(epoch FROM seen_at) * 1000)::bigint FROM seats "
            "WHERE match_id = '%s' AND seat = 0" % s_id))
        print("A killed; T due in %d ms" % (due_ms - time.time() * 1000),
              flush=True)

        # Step 5: the stand-in for P3 after the grace period, by B.
        stood_in = harness.wait_for(lambda: db.moves(s_id, s_ply),
                                    "a stand-in for P3", WAIT_S)
        ply, seat, by_cpu, reason, at = stood_in[0]
        if (seat, by_cpu, reason) != (0, True, STAND_IN):
            fail("S move %d is %s, not P3's stand-in" % (ply, stood_in[0]))
        if at < p3_seen_ms + GRACE_S * 1000 - 20:
            fail("the stand-in came %d ms after P3 was last seen, within "
                 "the grace period" % (at - p3_seen_ms))
        print("stand-in for P3 %d ms after A last saw P3" % (at - p3_seen_ms),
              flush=True)
        # P3 comes back through B with their token; then their turn is
        # theirs again.
        def p4_to_move():
            m = b.matches.GetMatch(pb.GetMatchRequest(name=s.name),
                                   metadata=p4.md(), timeout=30)
            return m if m.to_move == 1 else None

        s = harness.wait_for(p4_to_move, "P4's turn after the stand-in")
        p3_watch_b = Watcher(b, s.name, p3)
        harness.wait_for(lambda: seen_node(db, s_id, 0) == "B",
                         "P3 seen by B")
        back_at_ply = s.ply
        s = play_until(b, s, [p3, p4], 0)
        s = move(b, s, p3)
        after = db.moves(s_id, back_at_ply)
        if any(by_cpu for _, _, by_cpu, _, _ in after):
            fail("the CPU moved after P3 came back: %s" % after)
        if not any(seat == 0 for _, seat, _, _, _ in after):
            fail("P3's own move through B is not stored: %s" % after)
        print("P3 reclaimed the seat through B at ply %d" % back_at_ply,
              flush=True)

        # Step 4: the deadline A armed is fired once, by B, as a timeout.
        fired = harness.wait_for(lambda: db.moves(t_id, t_ply),
                                 "T's deadline", WAIT_S)
        ply, seat, by_cpu, reason, at = fired[0]
        if (ply, seat, by_cpu, reason) != (t_ply + 1, 1, True, TIMEOUT):
            fail("T move is %s, not P2's timeout at ply %d" %
                 (fired[0], t_ply + 1))
        late = at - due_ms
        if late < -20 or late > SWEEP_MS + PROCESSING_MS:
            fail("T's timeout came %d ms after its deadline (sweep %d ms)" %
                 (late, SWEEP_MS))
        print("T's deadline fired by B %d ms after it was due" % late,
              flush=True)
        if "B" != db.one("SELECT id FROM nodes WHERE id = 'B'"):
            fail("B has no heartbeat row")
        p2_watch.cancel()
        p4_watch.cancel()
        p3_watch_b.cancel()

        # Draining: SIGTERM, and B's row is gone.
        b.stop()
        if b.proc.returncode != 0:
            fail("B exited %d on SIGTERM:\n%s" % (b.proc.returncode,
                                                    b.read_log()))
        if db.one("SELECT count(*) FROM nodes WHERE id = 'B'") != "0":
            fail("B's heartbeat row outlived its SIGTERM")
        print("PASS", flush=True)
    finally:
        cluster.close()


if __name__ == "__main__":
    main()
