#!/usr/bin/env python3
"""SIGTERM under load: a real mancalad, players moving against the CPU and
watchers open, is stopped with SIGTERM (docs/design.md "Shutdown").

Checks: the server exits 0 after "mancalad stopped cleanly" with no
sanitizer report in its log; every SubmitMove got an answer (OK, or
UNAVAILABLE once the server stopped accepting, or CANCELLED for a call gRPC
had received but not yet started when it shut down, grpc/grpc#41785), never
a timeout; every acknowledged move is stored with its pit; no refused move
is stored; every
watch stream ended with OK or UNAVAILABLE (reason SHUTTING_DOWN); the server
starts again on the same database.

usage: sigterm_test.py MANCALAD STUBS_DIR (build/clients/python)
"""

import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

PLAYERS = 6
WATCHERS = 3
MOVES_BEFORE_SIGTERM = 60  # Acknowledged moves, all players together.
CALL_TIMEOUT_S = 30  # Far above any answer; hitting it fails the test.
# What a call the server never ran may answer while it stops (see above).
NOT_RUN = None  # (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)
DEADLINE_S = 60  # For each phase of the test.


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load_stubs(stubs_dir):
    """Imports the Python stubs the build generated from proto/."""
    sys.path.insert(0, stubs_dir)
    global grpc, pb, pb_grpc, player_pb, player_grpc
    import grpc
    from mancala.v1 import match_service_pb2 as pb
    from mancala.v1 import match_service_pb2_grpc as pb_grpc
    from mancala.v1 import player_service_pb2 as player_pb
    from mancala.v1 import player_service_pb2_grpc as player_grpc
    global NOT_RUN
    NOT_RUN = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)


def start_server(mancalad, db, log_path):
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [mancalad, "--listen", "127.0.0.1:0", "--db", db,
         "--cpu-budgets-ms", "5,5,5,5", "--cpu-threads", "2",
         "--create-burst", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    give_up = time.monotonic() + DEADLINE_S
    while time.monotonic() < give_up:
        m = re.search(r"listening on port (\d+)", open(log_path).read())
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    fail("mancalad did not start:\n" + open(log_path).read())


class Player(threading.Thread):
    """Plays Kalah against the CPU (level 1), match after match, and records
    the answer to every SubmitMove: (match id, ply it moved at, pit, code)."""

    def __init__(self, channel, acked_total):
        super().__init__(daemon=True)
        self.players = player_grpc.PlayerServiceStub(channel)
        self.matches = pb_grpc.MatchServiceStub(channel)
        self.acked_total = acked_total
        self.answers = []
        self.match_names = []
        self.error = None

    def run(self):
        try:
            self.play()
        except grpc.RpcError as e:
            # Setup calls after SIGTERM may be refused; that ends the player.
            if e.code() not in NOT_RUN:
                self.error = "%s: %s" % (e.code(), e.details())

    def play(self):
        resp = self.players.CreatePlayer(player_pb.CreatePlayerRequest(),
                                         timeout=CALL_TIMEOUT_S)
        auth = [("authorization", "Bearer " + resp.token)]
        me = resp.player.name
        while True:
            req = pb.CreateMatchRequest(game=1)  # KALAH
            req.seats.add(kind=pb.Seat.PLAYER, player=me)
            req.seats.add(kind=pb.Seat.CPU, cpu_level=1)
            match = self.matches.CreateMatch(req, metadata=auth,
                                             timeout=CALL_TIMEOUT_S)
            self.match_names.append(match.name)
            while match.state == pb.Match.IN_PROGRESS:
                if match.to_move != 0:  # The CPU's turn: look again.
                    match = self.matches.GetMatch(
                        pb.GetMatchRequest(name=match.name), metadata=auth,
                        timeout=CALL_TIMEOUT_S)
                    continue
                pit = match.legal_pits[0]
                try:
                    out = self.matches.SubmitMove(
                        pb.SubmitMoveRequest(name=match.name, pit=pit,
                                             expected_ply=match.ply),
                        metadata=auth, timeout=CALL_TIMEOUT_S)
                except grpc.RpcError as e:
                    self.answers.append((match.name, match.ply, pit, e.code()))
                    if e.code() not in NOT_RUN:
                        self.error = "SubmitMove: %s %s" % (e.code(),
                                                            e.details())
                    return
                self.answers.append((match.name, match.ply, pit,
                                     grpc.StatusCode.OK))
                self.acked_total.release()
                match = out.match


class Watcher(threading.Thread):
    """Reads a WatchMatch stream to its end and keeps how it ended."""

    def __init__(self, channel, name):
        super().__init__(daemon=True)
        self.stub = pb_grpc.MatchServiceStub(channel)
        self.name = name
        self.events = 0
        self.end = None

    def run(self):
        try:
            for _ in self.stub.WatchMatch(pb.WatchMatchRequest(name=self.name)):
                self.events += 1
            self.end = (grpc.StatusCode.OK, "")
        except grpc.RpcError as e:
            self.end = (e.code(), e.details())


def main():
    mancalad, stubs_dir = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp()
    load_stubs(stubs_dir)
    db = os.path.join(work, "mancala.db")
    proc, port = start_server(mancalad, db, os.path.join(work, "server1.log"))
    try:
        channel = grpc.insecure_channel("127.0.0.1:%d" % port)
        acked = threading.Semaphore(0)
        players = [Player(channel, acked) for _ in range(PLAYERS)]
        for p in players:
            p.start()
        give_up = time.monotonic() + DEADLINE_S
        while not all(p.match_names for p in players[:WATCHERS]):
            if time.monotonic() > give_up:
                fail("players did not start their matches")
            time.sleep(0.01)
        watchers = [Watcher(channel, p.match_names[0])
                    for p in players[:WATCHERS]]
        for w in watchers:
            w.start()
        for _ in range(MOVES_BEFORE_SIGTERM):
            if not acked.acquire(timeout=give_up - time.monotonic()):
                fail("players made too few moves before the deadline")
        proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            fail("mancalad did not stop within %d s of SIGTERM" % DEADLINE_S)
        for t in players + watchers:
            t.join(timeout=DEADLINE_S)
            if t.is_alive():
                fail("a client call is still waiting after the server exited")
    finally:
        if proc.poll() is None:
            proc.kill()
    log = open(os.path.join(work, "server1.log")).read()
    if rc != 0 or "mancalad stopped cleanly" not in log:
        fail("mancalad exit %d; log:\n%s" % (rc, log))
    if re.search(r"Sanitizer|runtime error:", log):
        fail("sanitizer report:\n" + log)

    for p in players:
        if p.error:
            fail("player: " + p.error)
    for w in watchers:
        code, details = w.end
        if code == grpc.StatusCode.UNAVAILABLE:
            if "shutting down" not in details:
                fail("watch stream ended UNAVAILABLE without saying why: " +
                     details)
        elif code != grpc.StatusCode.OK:
            fail("watch stream ended %s %s" % (code, details))
        if w.events == 0:
            fail("a watch stream got no event")

    conn = sqlite3.connect(db)
    acked_count = refused = 0
    for p in players:
        for name, ply, pit, code in p.answers:
            row = conn.execute(
                "SELECT seat, pit FROM moves WHERE match_id=? AND ply=?",
                (name.split("/")[1], ply + 1)).fetchone()
            if code == grpc.StatusCode.OK:
                acked_count += 1
                if row != (0, pit):
                    fail("acknowledged move %s ply %d pit %d: stored %r" %
                         (name, ply + 1, pit, row))
            else:
                refused += 1
                if row is not None and row[0] == 0:
                    fail("move %s ply %d answered %s but stored %r" %
                         (name, ply + 1, code, row))
    conn.close()

    # The database opens again: every match is restored.
    proc, port = start_server(mancalad, db, os.path.join(work, "server2.log"))
    proc.send_signal(signal.SIGTERM)
    if proc.wait(timeout=DEADLINE_S) != 0:
        fail("restarted mancalad did not stop cleanly:\n" +
             open(os.path.join(work, "server2.log")).read())
    print("PASS: %d acknowledged moves stored, %d refused and not stored, "
          "%d watch streams ended cleanly, clean exit and restart" %
          (acked_count, refused, len(watchers)))


if __name__ == "__main__":
    main()
