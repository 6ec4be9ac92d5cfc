#!/usr/bin/env python3
"""Issue 14 "Done when", steps 1, 2, 3 and 6, in order, with two real
mancalad nodes A and B on one PostgreSQL database over loopback:

1. a ranked match created on A; player 1 watches on B, player 2 on A; ten
   moves alternate between A and B; both watchers see plies 1-10 exactly
   once, in order;
2. a stale expected ply sent to A after B moved gets ABORTED (STALE_PLY)
   with the current ply;
3. kill -9 A: its watcher gets UNAVAILABLE, resumes on B from its last ply
   and misses nothing; the next move through B succeeds at once; every
   acknowledged move is stored;
6. (A restarted) every remaining move, the finishing one included, is sent
   to both nodes at once with one request id: one stored move per ply, the
   same reply from both, one rating change per player with the exact
   Glicko-2 values (docs/ratings.md; computed here from the paper).

usage: two_nodes_test.py MANCALAD STUBS_DIR (build/clients/python)
"""

import math
import os
import sys
import threading
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import two_nodes  # noqa: E402
from two_nodes import wait_for  # noqa: E402

CALL_S = 30


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


# Glicko-2 (Glickman, "Example of the Glicko-2 system"), as docs/ratings.md
# states it: tau 0.5, Illinois tolerance 1e-6, t = 0 rating periods for a
# player's first match. Written from the paper, not from our C++.
SCALE = 173.7178


def glicko2(r, rd, vol, opponents, tau=0.5, eps=1e-6):
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    g = lambda p: 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)  # noqa: E731
    v_inv, d_sum = 0.0, 0.0
    for (r_j, rd_j, s_j) in opponents:
        mu_j, phi_j = (r_j - 1500) / SCALE, rd_j / SCALE
        e = 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))
        v_inv += g(phi_j) ** 2 * e * (1 - e)
        d_sum += g(phi_j) * (s_j - e)
    v = 1 / v_inv
    delta = v * d_sum
    a = math.log(vol * vol)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) /
                (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    vol_new = math.exp(big_a / 2)
    phi_star = phi  # t = 0: a first match.
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * d_sum
    return 1500 + SCALE * mu_new, SCALE * phi_new, vol_new


class Watcher:
    """Reads a WatchMatch stream in a thread: move plies, and how it ended."""

    def __init__(self, node, match, player, after_ply=0):
        from mancala.v1 import match_service_pb2 as ms
        self.plies = []
        self.snapshots = []
        self.ended = None  # grpc.StatusCode, or "finished".
        self.call = node.matches.WatchMatch(
            ms.WatchMatchRequest(name=match, after_ply=after_ply),
            metadata=player.md())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        import grpc
        try:
            for ev in self.call:
                kind = ev.WhichOneof("event")
                if kind == "move":
                    self.plies.append(ev.move.ply)
                elif kind == "match":
                    self.snapshots.append(ev.match.ply)
            self.ended = "finished"
        except grpc.RpcError as err:
            self.ended = err.code()


class Player:
    def __init__(self, node, display_name):
        from mancala.v1 import player_service_pb2 as ps
        resp = node.players.CreatePlayer(
            ps.CreatePlayerRequest(display_name=display_name), timeout=CALL_S)
        self.name, self.token = resp.player.name, resp.token

    def md(self):
        return (("authorization", "Bearer " + self.token),)


def submit(node, match, player, pit, expected_ply=None, request_id=""):
    from mancala.v1 import match_service_pb2 as ms
    req = ms.SubmitMoveRequest(name=match, pit=pit, request_id=request_id)
    if expected_ply is not None:
        req.expected_ply = expected_ply
    return node.matches.SubmitMove(req, metadata=player.md(), timeout=CALL_S)


def main():
    mancalad, stubs = sys.argv[1], sys.argv[2]
    cluster = two_nodes.Cluster(mancalad, stubs)
    try:
        run(cluster)
    finally:
        cluster.close()
    print("PASS")


def run(cluster):
    import grpc
    import harness
    from mancala.v1 import game_pb2
    from mancala.v1 import match_service_pb2 as ms
    from mancala.v1 import rating_service_pb2 as rs

    a, b = cluster.node("A"), cluster.node("B")
    p1, p2 = Player(a, "One"), Player(a, "Two")
    acked = {}  # ply -> pit of every acknowledged move.

    # Step 1 ------------------------------------------------------------
    match = a.matches.CreateMatch(
        ms.CreateMatchRequest(
            game=game_pb2.KALAH, ranked=True, options={"seeds": "6"},
            seats=[ms.Seat(kind=ms.Seat.PLAYER, player=p1.name),
                   ms.Seat(kind=ms.Seat.PLAYER, player=p2.name)]),
        metadata=p1.md(), timeout=CALL_S)
    name = match.name
    by_seat = [p1, p2]
    w1 = Watcher(b, name, p1)  # Player 1 watches on B,
    w2 = Watcher(a, name, p2)  # player 2 on A.
    wait_for(lambda: w1.snapshots and w2.snapshots, "both watch snapshots")
    for i in range(10):
        node = a if i % 2 == 0 else b
        resp = submit(node, name, by_seat[match.to_move], match.legal_pits[0],
                      expected_ply=match.ply)
        check(resp.move.ply == match.ply + 1,
              "move %d through %s stored at ply %d" % (i + 1, node.name,
                                                       resp.move.ply))
        acked[resp.move.ply] = resp.move.pit
        match = resp.match
    check(match.ply == 10, "ten moves made, at ply %d" % match.ply)
    for w, where in ((w1, "B"), (w2, "A")):
        wait_for(lambda: len(w.plies) >= 10, "watcher on %s: plies 1-10, "
                 "has %s" % (where, w.plies))
        check(w.plies == list(range(1, 11)),
              "watcher on %s saw %s" % (where, w.plies))
    print("step 1: both watchers saw plies 1-10 once, in order")

    # Step 2 ------------------------------------------------------------
    # Move 10 went through B; A is asked with the ply before it.
    try:
        submit(a, name, by_seat[match.to_move], match.legal_pits[0],
               expected_ply=9)
        fail("a stale expected ply was accepted by A")
    except grpc.RpcError as err:
        info = harness.error_info(err)
        check(err.code() == grpc.StatusCode.ABORTED and info is not None and
              info.reason == "STALE_PLY" and info.metadata["ply"] == "10",
              "stale ply on A: %s %s %s" % (err.code(), info, err.details()))
    print("step 2: stale ply on A -> ABORTED STALE_PLY, ply 10")

    # Step 3 ------------------------------------------------------------
    a.kill9()
    wait_for(lambda: w2.ended is not None, "A's watcher to end")
    check(w2.ended == grpc.StatusCode.UNAVAILABLE,
          "A's watcher ended with %s" % w2.ended)
    last = w2.plies[-1]
    w2b = Watcher(b, name, p2, after_ply=last)  # Resumed on B.
    resp = submit(b, name, by_seat[match.to_move], match.legal_pits[0],
                  expected_ply=match.ply)
    check(resp.move.ply == 11, "next move through B at ply %d" %
          resp.move.ply)
    acked[resp.move.ply] = resp.move.pit
    match = resp.match
    for w, what in ((w2b, "resumed watcher"), (w1, "B's watcher")):
        wait_for(lambda: w.plies and w.plies[-1] >= 11,
                 "%s to see ply 11, has %s" % (what, w.plies))
    check(w2.plies + w2b.plies == list(range(1, 12)),
          "player 2 saw %s then %s" % (w2.plies, w2b.plies))
    stored = b.matches.ListMoves(ms.ListMovesRequest(parent=name, page_size=100),
                                 timeout=CALL_S).moves
    check({m.ply: m.pit for m in stored} == acked,
          "stored %s, acknowledged %s" %
          ({m.ply: m.pit for m in stored}, acked))
    print("step 3: A killed; watcher resumed on B missing nothing; "
          "ply 11 through B; all %d acknowledged moves stored" % len(acked))

    # Step 6 ------------------------------------------------------------
    check(match.state == ms.Match.IN_PROGRESS, "the match ended at ply %d, "
          "before step 6" % match.ply)
    a = cluster.node("A2")  # A back, as a new process.
    while match.state == ms.Match.IN_PROGRESS:
        player = by_seat[match.to_move]
        rid = uuid.uuid4().hex
        replies, errors = {}, []

        def send(node):
            try:
                replies[node.name] = submit(node, name, player,
                                            match.legal_pits[0],
                                            request_id=rid)
            except grpc.RpcError as err:
                errors.append("%s: %s %s" % (node.name, err.code(),
                                             err.details()))

        threads = [threading.Thread(target=send, args=(n,)) for n in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check(not errors, "same request id on both nodes: %s" % errors)
        check(replies["A2"] == replies["B"],
              "different replies at ply %d:\n%s\n%s" %
              (match.ply + 1, replies["A2"], replies["B"]))
        resp = replies["B"]
        check(resp.move.ply == match.ply + 1, "ply %d after %d" %
              (resp.move.ply, match.ply))
        acked[resp.move.ply] = resp.move.pit
        match = resp.match
    check(match.state == ms.Match.FINISHED, "match state %s" % match.state)
    rows = cluster.psql("SELECT ply, pit FROM moves WHERE match_id = '%s' "
                        "ORDER BY ply" % name.split("/")[-1])
    check({int(p): int(q) for p, q in rows} == acked and
          len(rows) == match.ply,
          "stored moves %s, acknowledged %s" % (rows, acked))
    ranks = list(match.result.ranks)
    score = lambda me, them: 1.0 if ranks[me] < ranks[them] else (  # noqa
        0.5 if ranks[me] == ranks[them] else 0.0)
    for seat, player in enumerate(by_seat):
        hist = b.ratings.GetRatingHistory(
            rs.GetRatingHistoryRequest(name=player.name + "/ratings/kalah"),
            timeout=CALL_S).changes
        check(len(hist) == 1, "%d rating changes for seat %d" %
              (len(hist), seat))
        want = glicko2(1500, 350, 0.06, [(1500, 350, score(seat, 1 - seat))])
        got = (hist[0].rating_after, hist[0].rating_deviation_after,
               hist[0].volatility_after)
        check(abs(got[0] - want[0]) < 1e-6 and abs(got[1] - want[1]) < 1e-6
              and abs(got[2] - want[2]) < 1e-9,
              "seat %d rated %s, Glicko-2 says %s" % (seat, got, want))
        print("seat %d: rank %d, rating %.6f RD %.6f volatility %.9f" %
              ((seat, ranks[seat]) + got))
    print("step 6: plies 12-%d each sent to both nodes with one request id: "
          "one stored move per ply, same replies, one exact rating change per "
          "player" % match.ply)


if __name__ == "__main__":
    main()
