#!/usr/bin/env python3
"""Nobody pays for a restart on PostgreSQL (docs/cluster.md "The service was
away"): one real mancalad node on a fresh PostgreSQL database, over
loopback (tests/e2e/two_nodes.py).

Two players hold WatchMatch streams on two Kalah matches: F (no turn
limit) and T (a 30 s turn limit). Each match gets a move; then the node
stops (SIGTERM) and stays down for DOWN_S, longer than the grace period
(GRACE_S) and than T's turn, so T's deadline passes while nobody can play.
The node starts again (A2) and the players reconnect RECONNECT_S after it
listens, within the fresh grace period. Then:

1. no CPU move is made in either match (no stand-in, no timeout) for the
   first TURN_LIMIT_S - 2 s after the restart;
2. T's turn started again with the restart: GetMatch shows its deadline a
   full turn after A2 started (within 2 s);
3. the restarted turn does end: T's player, present but idle, gets a
   TURN_TIMEOUT move no earlier than that deadline and at most
   LATE_S after it;
4. F, whose players are present and which has no limit, still has no CPU
   move; A2 logged that the service came back.

Before the service's return was recorded, the first sweep of A2 stood in
for every seat and played T's timeout within a second of the start.
About 75 s.

usage: pg_restart_test.py MANCALAD STUBS_DIR (build/clients/python)
Needs MANCALA_TEST_PG_DSN (deploy/pg.sh env); exits 77 (skipped) without
it, or fails under CI=true.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import two_nodes  # noqa: E402
from two_nodes import Player, Watcher, submit, wait_for  # noqa: E402

GRACE_S = 5.0
TURN_LIMIT_S = 30  # The shortest a match may have.
DOWN_S = TURN_LIMIT_S + 2  # Past T's deadline and the grace period.
RECONNECT_S = 3.0
LATE_S = 5.0  # Tick, claim, a 5 ms search and the append, on a loaded box.
TIMEOUT, STAND_IN = 2, 3  # v1.Move.CpuReason.

STARTED = time.monotonic()


def say(msg):
    print("[%5.1f s] %s" % (time.monotonic() - STARTED, msg), flush=True)


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def node_flags():
    return ["--node-id", "A", "--grace-seconds", str(GRACE_S),
            "--heartbeat-ms", "200", "--sweep-ms", "200", "--tick-ms", "50"]


class Restart:
    def __init__(self, cluster):
        from mancala.v1 import game_pb2
        from mancala.v1 import match_service_pb2 as ms
        self.ms, self.game_pb2 = ms, game_pb2
        self.cluster = cluster

    def cpu_moves(self, match):
        """(ply, cpu_reason, played_at_ms) of the CPU's moves in `match`."""
        mid = match.name.split("/", 1)[1]
        return [(int(p), int(r), int(t)) for p, r, t in self.cluster.psql(
            "SELECT ply, cpu_reason, played_at_ms FROM moves WHERE match_id "
            "= '%s' AND by_cpu ORDER BY ply" % mid)]

    def create(self, node, players, turn_limit_s):
        ms = self.ms
        req = ms.CreateMatchRequest(
            game=self.game_pb2.KALAH, options={"seeds": "6"},
            seats=[ms.Seat(kind=ms.Seat.PLAYER, player=p.name)
                   for p in players])
        if turn_limit_s:
            req.turn_time_limit_seconds = turn_limit_s
        return node.matches.CreateMatch(req, metadata=players[0].md(),
                                        timeout=two_nodes.DEADLINE_S)

    def get(self, node, match):
        return node.matches.GetMatch(self.ms.GetMatchRequest(name=match.name),
                                     timeout=two_nodes.DEADLINE_S)

    def watch_all(self, node):
        watchers = [Watcher(node, m.name, p) for m in (self.f, self.t)
                    for p in self.players]
        for w in watchers:
            wait_for(lambda w=w: w.snapshots or w.ended,
                     "a watcher's first snapshot")
            check(w.ended is None, "a watch ended at once: %s %s" %
                  (w.ended, w.details))
        return watchers

    def run(self):
        a = self.cluster.node("A", node_flags())
        self.players = [Player(a, "Alice"), Player(a, "Bob")]
        self.f = self.create(a, self.players, 0)
        self.t = self.create(a, self.players, TURN_LIMIT_S)
        watchers = self.watch_all(a)
        for m in (self.f, self.t):
            submit(a, m.name, self.players[m.to_move], m.legal_pits[0],
                   expected_ply=m.ply)
        say("two matches moved once, both players watching on A")

        a.stop()
        stopped = time.monotonic()
        check(a.proc.returncode == 0, "A exited %d" % a.proc.returncode)
        for w in watchers:
            wait_for(lambda w=w: w.ended, "a watch to end with A")
        time.sleep(max(0.0, DOWN_S - (time.monotonic() - stopped)))
        a2 = self.cluster.node("A2", node_flags())
        back_ms = int(time.time() * 1000)
        back = time.monotonic()
        say("A2 listens after %.1f s down" % (time.monotonic() - stopped))

        time.sleep(RECONNECT_S)
        self.watch_all(a2)
        say("both players watch again on A2, %.0f s after it started" %
            RECONNECT_S)

        deadline = self.get(a2, self.t).turn_deadline
        deadline_ms = deadline.seconds * 1000 + deadline.nanos // 1000000
        check(abs(deadline_ms - (back_ms + TURN_LIMIT_S * 1000)) <= 2000,
              "T's deadline is %d ms after the restart, not a full turn "
              "(%d s)" % (deadline_ms - back_ms, TURN_LIMIT_S))
        say("step 2: T's turn starts again: deadline %.1f s after the "
            "restart" % ((deadline_ms - back_ms) / 1000.0))

        while time.monotonic() < back + TURN_LIMIT_S - 2:
            for m, name in ((self.f, "F"), (self.t, "T")):
                moves = self.cpu_moves(m)
                check(not moves, "CPU moves in %s after the restart: %s "
                      "(ply, reason, ms after the restart)" %
                      (name, [(p, r, t - back_ms) for p, r, t in moves]))
            time.sleep(0.5)
        say("step 1: no CPU move in %d s after the restart (no stand-in, "
            "no timeout)" % (TURN_LIMIT_S - 2))

        moves = wait_for(lambda: self.cpu_moves(self.t),
                         "T's restarted turn to time out",
                         timeout=2 + LATE_S + two_nodes.DEADLINE_S)
        ply, reason, at_ms = moves[0]
        check(reason == TIMEOUT, "T's CPU move has reason %d, not "
              "TURN_TIMEOUT" % reason)
        check(deadline_ms <= at_ms <= deadline_ms + LATE_S * 1000,
              "T timed out %d ms after its restarted deadline" %
              (at_ms - deadline_ms))
        say("step 3: T's idle player timed out %d ms after the restarted "
            "deadline" % (at_ms - deadline_ms))
        check(not self.cpu_moves(self.f), "a CPU move in F: %s" %
              self.cpu_moves(self.f))
        say("step 4: still no CPU move in F")
        check("start again now" in a2.read_log(),
              "A2 did not log the service's return at warning level")

    def report(self):
        self.cluster.report([
            ("matches", "SELECT id, ply, status, to_move, due_at, claim_node, "
             "claim_ply FROM matches ORDER BY id"),
            ("seats", "SELECT match_id, seat, seen_node, seen_at FROM seats "
             "ORDER BY match_id, seat"),
            ("moves", "SELECT match_id, ply, seat, by_cpu, cpu_reason, "
             "played_at_ms FROM moves ORDER BY match_id, ply"),
            ("service_resumed", "SELECT * FROM service_resumed"),
            ("nodes", "SELECT * FROM nodes")])


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    cluster = two_nodes.Cluster(sys.argv[1], sys.argv[2])
    test = Restart(cluster)
    passed = False
    try:
        test.run()
        passed = True
    finally:
        if not passed:
            test.report()
        cluster.close(keep_logs=not passed)
    say("PASS")


if __name__ == "__main__":
    main()
