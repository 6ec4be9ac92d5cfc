#!/usr/bin/env python3
"""Issue 14, step 7: one matchmaking queue for two real mancalad nodes.

Nodes A and B run on one fresh PostgreSQL schema (their own on the server
MANCALA_TEST_PG_DSN names). Checks: both count a searcher on A; a player
searching on A and one searching on B are paired into one match that both
streams report (same match, seats 0 and 1 by arrival) and both nodes serve;
a CancelFind sent to B for a search held on A removes it site-wide (both
nodes count 0, CancelFind answers cancelled) and A ends that stream
CANCELLED; a stream dropped on A leaves the queue of B too; after A is
killed (-9) with a searcher, B stops counting it once its row expires and
the player can search (and be paired) on B.

usage: two_nodes_queue_test.py MANCALAD STUBS_DIR CLIENT_TESTS_DIR
Exit 77 (skipped) without MANCALA_TEST_PG_DSN, a failure under CI=true.
"""

import os
import queue
import subprocess
import sys
import threading
import uuid


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Search(threading.Thread):
    """One FindMatch stream; its updates land in `updates`, its end in
    `ended` (the status code)."""

    def __init__(self, node, player):
        super().__init__(daemon=True)
        self.updates = queue.Queue()
        self.ended = queue.Queue()
        self.call = node.matchmaking.FindMatch(
            mm_pb.FindMatchRequest(game=game_pb2.KALAH), metadata=player.md(),
            timeout=60)
        self.start()

    def run(self):
        try:
            for update in self.call:
                self.updates.put(update)
            self.ended.put(grpc.StatusCode.OK)
        except grpc.RpcError as e:
            self.ended.put(e.code())

    def next_update(self, what):
        try:
            return self.updates.get(timeout=harness.DEADLINE_S)
        except queue.Empty:
            fail("no update (%s) within %d s" % (what, harness.DEADLINE_S))

    def end_code(self):
        try:
            return self.ended.get(timeout=harness.DEADLINE_S)
        except queue.Empty:
            fail("the stream did not end within %d s" % harness.DEADLINE_S)

    def found(self):
        while True:
            u = self.next_update("the match found")
            if u.HasField("found"):
                return u.found


def searching(node):
    return node.matchmaking.GetQueueStats(
        mm_pb.GetQueueStatsRequest(), timeout=harness.DEADLINE_S).searching


def wait_searching(nodes, n, what):
    harness.wait_for(lambda: all(searching(x) == n for x in nodes), what)


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    mancalad, stubs, client_tests = sys.argv[1:]
    dsn = os.environ.get("MANCALA_TEST_PG_DSN", "")
    if not dsn:
        if os.environ.get("CI") == "true":
            fail("MANCALA_TEST_PG_DSN is not set (CI=true)")
        print("SKIP: MANCALA_TEST_PG_DSN is not set")
        sys.exit(77)
    sys.path[:0] = [stubs, client_tests]
    os.environ["MANCALAD"] = mancalad
    global grpc, harness, mm_pb, game_pb2
    import grpc
    import harness
    from mancala.v1 import game_pb2
    from mancala.v1 import matchmaking_service_pb2 as mm_pb

    schema = "e2e_queue_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", dsn, "-XqAt", "-c", "CREATE SCHEMA " + schema],
                   check=True)
    sep = "&" if "?" in dsn else "?"
    os.environ["MANCALAD_DATABASE_URL"] = (
        dsn + sep + "options=-csearch_path%3D" + schema)
    nodes = []
    try:
        extra = ["--storage", "postgres"]
        a = harness.Server(extra=extra)  # Migrates the schema first.
        nodes.append(a)
        b = harness.Server(extra=extra)
        nodes.append(b)
        run(a, b)
        print("PASS")
    finally:
        for n in nodes:
            n.close()
        subprocess.run(["psql", dsn, "-XqAt", "-c",
                        "DROP SCHEMA %s CASCADE" % schema], check=False,
                       stderr=subprocess.DEVNULL)


def run(a, b):
    p1, p2, p3 = a.new_player("P1"), b.new_player("P2"), a.new_player("P3")

    # A searcher on A is counted on both nodes.
    s1 = Search(a, p1)
    first = s1.next_update("P1's first QueueState")
    if not first.HasField("waiting") or first.waiting.searching != 1:
        fail("P1's first update: %s" % first)
    wait_searching([a, b], 1, "both nodes to count P1")

    # P2 searches on B: one match for both.
    s2 = Search(b, p2)
    f1, f2 = s1.found(), s2.found()
    if not f1.match or f1.match != f2.match:
        fail("P1 and P2 were not paired into one match: %s / %s" % (f1, f2))
    if (f1.seat, f2.seat) != (0, 1):
        fail("seats by arrival should be 0 (P1) and 1 (P2): %d, %d" %
             (f1.seat, f2.seat))
    for who, s in (("P1", s1), ("P2", s2)):
        code = s.end_code()
        if code != grpc.StatusCode.OK:
            fail("%s's stream ended %s after the match" % (who, code))
    for node in (a, b):
        m = get_match(node, f1.match)
        seated = [s.player for s in m.seats]
        if seated != [p1.name, p2.name]:
            fail("match %s seats %s, not P1 and P2" % (f1.match, seated))
    wait_searching([a, b], 0, "both nodes to count nobody")

    # P3 searches on A and cancels through B: gone everywhere.
    s3 = Search(a, p3)
    wait_searching([a, b], 1, "both nodes to count P3")
    resp = b.matchmaking.CancelFind(mm_pb.CancelFindRequest(),
                                    metadata=p3.md(),
                                    timeout=harness.DEADLINE_S)
    if not resp.cancelled:
        fail("CancelFind on B did not cancel P3's search held on A")
    if searching(a) != 0 or searching(b) != 0:
        fail("after CancelFind: A counts %d, B counts %d" %
             (searching(a), searching(b)))
    code = s3.end_code()
    if code != grpc.StatusCode.CANCELLED:
        fail("P3's stream on A ended %s, not CANCELLED" % code)

    # A stream dropped on A leaves B's count too.
    s4 = Search(a, p3)
    wait_searching([a, b], 1, "both nodes to count P3 again")
    s4.call.cancel()
    wait_searching([a, b], 0, "the dropped search to leave both nodes")

    # A node killed with searchers leaves no ghosts: B stops counting P3
    # once the rows expire (5 s by the database clock), and P3 may search
    # again on B, where they are paired.
    s5 = Search(a, p3)
    wait_searching([a, b], 1, "both nodes to count P3 before the kill")
    a.proc.kill()
    a.proc.wait()
    harness.wait_for(lambda: searching(b) == 0,
                     "B to stop counting the dead node's searcher")
    p4 = b.new_player("P4")
    s6, s7 = Search(b, p3), Search(b, p4)
    f6, f7 = s6.found(), s7.found()
    if not f6.match or f6.match != f7.match:
        fail("P3 (again, on B) and P4 were not paired: %s / %s" % (f6, f7))


def get_match(node, name):
    from mancala.v1 import match_service_pb2
    return node.matches.GetMatch(match_service_pb2.GetMatchRequest(name=name),
                                 timeout=harness.DEADLINE_S)


if __name__ == "__main__":
    main()
