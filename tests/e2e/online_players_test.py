#!/usr/bin/env python3
""""N online" (mancala.v1.QueueStats.online) end to end, against real
mancalad over loopback: one node on SQLite, or with --postgres two nodes A
and B on one PostgreSQL database (two_nodes.py), every count asked of
every node:

1. nobody yet: 0 online; an anonymous call changes nothing;
2. P1 created through the first node: 1 online, on every node;
3. P2 searches through the last node (an open FindMatch stream) and P1
   calls again: 2; an anonymous spectator's stream adds nobody;
4. P1 makes no call for the grace period: 1 (P2's open stream keeps them
   online however long it has been since their call);
5. P2's stream ends: 0 once the grace period has passed since it ended;
   P1 calls again through the last node: 1.

Counts are polled until they are right (a cluster's count is a heartbeat
old); a step that never gets there fails with the counts each node gave.
About 35 s.

usage: online_players_test.py MANCALAD STUBS_DIR [--postgres]
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MANCALAD, STUBS = sys.argv[1], sys.argv[2]
POSTGRES = "--postgres" in sys.argv[3:]
sys.path.insert(0, HERE)
import two_nodes  # noqa: E402

two_nodes.load_stubs(STUBS)
os.environ["MANCALAD"] = MANCALAD
import harness  # noqa: E402
from mancala.v1 import game_pb2  # noqa: E402
from mancala.v1 import match_service_pb2 as ms  # noqa: E402
from mancala.v1 import matchmaking_service_pb2 as mm  # noqa: E402
from mancala.v1 import player_service_pb2 as ps  # noqa: E402

# Long enough that a player who has just called is still online through
# a few polls on a loaded machine; each expiry below waits it out.
GRACE_S = 8
FLAGS = ["--grace-seconds", str(GRACE_S)]
STARTED = time.monotonic()


def say(msg):
    print("[%5.1f s] %s" % (time.monotonic() - STARTED, msg), flush=True)


def online(node):
    return node.matchmaking.GetQueueStats(mm.GetQueueStatsRequest(),
                                          timeout=20).online


def expect_online(nodes, n, what):
    """Polls every node until each says `n` online."""
    seen = {}

    def all_say_n():
        for node in nodes:
            seen[node] = online(node)
        return all(v == n for v in seen.values())

    try:
        harness.wait_for(all_say_n, what, timeout=30)
    except AssertionError:
        print("FAIL: %s: expected %d online, the nodes said %s" %
              (what, n, [seen.get(x) for x in nodes]), flush=True)
        raise
    say("%d online on %d node(s): %s" % (n, len(nodes), what))


def create(node, name):
    r = node.players.CreatePlayer(ps.CreatePlayerRequest(display_name=name),
                                  timeout=20)
    return r.player.name, (("authorization", "Bearer " + r.token),)


def call(node, player):
    """A call with the player's token."""
    name, md = player
    node.players.GetPlayer(ps.GetPlayerRequest(name=name), metadata=md,
                           timeout=20)


def main():
    if POSTGRES:
        cluster = two_nodes.Cluster(MANCALAD, STUBS)
        extra = FLAGS + ["--heartbeat-ms", "200"]
        nodes = [cluster.node("A", extra), cluster.node("B", extra)]
        close = cluster.close
    else:
        server = harness.Server(extra=FLAGS)
        nodes = [server]
        close = server.close
    first, last = nodes[0], nodes[-1]
    ok = False
    try:
        # 1.
        expect_online(nodes, 0, "a fresh site")
        stats = first.matchmaking.GetQueueStats(mm.GetQueueStatsRequest(),
                                                timeout=20)
        if stats.online != 0 or stats.searching != 0:
            raise AssertionError("anonymous GetQueueStats counted: %s" % stats)
        # 2.
        p1 = create(first, "P1")
        expect_online(nodes, 1, "P1 created through the first node")
        # 3. P2 searching through the last node.
        p2 = create(last, "P2")
        search = last.matchmaking.FindMatch(
            mm.FindMatchRequest(game=game_pb2.KALAH, players=2, ranked=True),
            metadata=p2[1])
        first_update = next(search)
        if first_update.WhichOneof("update") != "waiting":
            raise AssertionError("FindMatch: %s" % first_update)
        call(first, p1)
        expect_online(nodes, 2, "P1 called, P2 searches")
        # A match P1 opens for a friend, watched anonymously through the
        # last node.
        match = first.matches.CreateMatch(
            ms.CreateMatchRequest(game=game_pb2.KALAH, seats=[
                ms.Seat(kind=ms.Seat.PLAYER, player=p1[0]),
                ms.Seat(kind=ms.Seat.OPEN)]),
            metadata=p1[1], timeout=20)
        spectator = last.matches.WatchMatch(
            ms.WatchMatchRequest(name=match.name))
        next(spectator)
        expect_online(nodes, 2, "an anonymous spectator watches")
        # 4. P1 silent for the grace period; P2 still searching.
        t_p1 = time.monotonic()
        expect_online(nodes, 1, "P1 silent past the grace period")
        if time.monotonic() - t_p1 < GRACE_S - 2:
            raise AssertionError("P1 went offline %.1f s after their call, "
                                 "before the grace period (%d s)" %
                                 (time.monotonic() - t_p1, GRACE_S))
        spectator.cancel()
        # 5.
        search.cancel()
        t_p2 = time.monotonic()
        expect_online(nodes, 0, "P2's search ended past the grace period")
        if time.monotonic() - t_p2 < GRACE_S - 2:
            raise AssertionError("P2 went offline %.1f s after their stream "
                                 "ended" % (time.monotonic() - t_p2))
        call(last, p1)
        expect_online(nodes, 1, "P1 called through the last node")
        ok = True
        print("PASS", flush=True)
    finally:
        if POSTGRES and not ok:
            cluster.report([("online_players", "SELECT player_id, seen_at, "
                             "now() FROM online_players")])
        close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
