#!/usr/bin/env python3
"""Draining on SIGTERM (docs/design.md "Shutdown"), with real mancalad
nodes: node A, stopped with SIGTERM while a player watches a match on it,

1. reports readiness NOT_SERVING ("" and "readiness") while its listener is
   still open: liveness still says SERVING and a GetMatch on A is answered;
2. keeps serving for --drain-seconds: the watch stream is still open when
   readiness turns, and ends no earlier than the drain, with UNAVAILABLE
   (reason SHUTTING_DOWN: "shutting down" in its message);
3. then closes its listener (a health check finds nobody) and exits 0 after
   "mancalad stopped cleanly", within EXIT_SLACK_S of the drain's end,
   although a client connection that never reads (so never answers the
   shutdown's GOAWAY ping) is open: gRPC alone waited for it up to its 10 s
   cut-off, and for an idle gRPC-core client (C++, Python) up to its 5 s
   backup poll.

With --postgres (MANCALA_TEST_PG_DSN names the server; a fresh schema per
run) a second node B serves the same database throughout: B's readiness
stays SERVING, the watcher resumes on B from its last ply and the next move
through B succeeds at once.

usage: drain_test.py MANCALAD STUBS_DIR [--postgres]
Exit 77 (skipped) with --postgres but no MANCALA_TEST_PG_DSN, unless CI=true.
"""

import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DRAIN_S = 4  # Long enough to check "still serving" on a loaded machine.
DEADLINE_S = 30  # For each wait; hitting it fails the test.
EXIT_SLACK_S = 3  # SIGTERM to exit at most DRAIN_S + this (a loaded machine).


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load_modules(stubs_dir):
    sys.path[:0] = [stubs_dir, HERE,
                    os.path.join(os.path.dirname(HERE), "clients")]
    global grpc, ms, player_pb, player_grpc, ms_grpc, harness, health_check
    import grpc
    import harness  # tests/clients: players, matches, moves.
    import health_check
    from mancala.v1 import match_service_pb2 as ms
    from mancala.v1 import match_service_pb2_grpc as ms_grpc
    from mancala.v1 import player_service_pb2 as player_pb
    from mancala.v1 import player_service_pb2_grpc as player_grpc


def wait_for(condition, what):
    """harness.wait_for, failing with a message instead of a traceback."""
    try:
        return harness.wait_for(condition, what, timeout=DEADLINE_S)
    except AssertionError as e:
        fail(str(e))


class Node:
    """One mancalad on 127.0.0.1:0; the port is read back from its log."""

    def __init__(self, mancalad, work, name, db_args, env):
        self.log_path = os.path.join(work, name + ".log")
        self.name = name
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                [mancalad, "--listen", "127.0.0.1:0", "--create-burst", "0",
                 "--drain-seconds", str(DRAIN_S)] + db_args,
                stdout=log, stderr=subprocess.STDOUT, env=env)

        def port():
            if self.proc.poll() is not None:
                fail("%s exited:\n%s" % (name, self.log()))
            m = re.search(r"listening on port (\d+)", self.log())
            return m and int(m.group(1))

        self.port = wait_for(port, name + " to listen")
        self.channel = grpc.insecure_channel("127.0.0.1:%d" % self.port)
        self.matches = ms_grpc.MatchServiceStub(self.channel)
        self.players = player_grpc.PlayerServiceStub(self.channel)

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def health(self, service):
        return health_check.check(self.channel, service)

    def new_player(self):
        r = self.players.CreatePlayer(player_pb.CreatePlayerRequest(),
                                      timeout=DEADLINE_S)
        return harness.Player(r.player.name, r.token, r.player.display_name)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def silent_connection(port):
    """A client connection that never reads: the HTTP/2 preface and an
    empty SETTINGS frame, then nothing (no SETTINGS ack, no PING ack)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE_S)
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
              b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
    return s


class Watcher(threading.Thread):
    """Reads a WatchMatch stream; keeps the last ply seen and how it ended."""

    def __init__(self, node, name, after_ply=0):
        super().__init__(daemon=True)
        self.call = node.matches.WatchMatch(
            ms.WatchMatchRequest(name=name, after_ply=after_ply))
        self.ply = None
        self.end = None  # (code, details, monotonic time)

    def run(self):
        try:
            for ev in self.call:
                kind = ev.WhichOneof("event")
                if kind == "move":
                    self.ply = ev.move.ply
                elif kind == "match":
                    self.ply = ev.match.ply
            self.end = (grpc.StatusCode.OK, "", time.monotonic())
        except grpc.RpcError as e:
            self.end = (e.code(), e.details(), time.monotonic())


def postgres_database(work):
    """(mancalad database flags, env) for a fresh schema, and a cleanup."""
    dsn = os.environ.get("MANCALA_TEST_PG_DSN", "")
    if not dsn:
        if os.environ.get("CI") == "true":
            fail("MANCALA_TEST_PG_DSN is not set (CI=true)")
        print("SKIP: MANCALA_TEST_PG_DSN is not set")
        sys.exit(77)
    schema = "drain_%d_%d" % (os.getpid(), random.randrange(1 << 30))
    subprocess.run(["psql", dsn, "-XqAt", "-c", "CREATE SCHEMA " + schema],
                   check=True, stdout=subprocess.DEVNULL)
    url = dsn + ("&" if "?" in dsn else "?") + \
        "options=-csearch_path%3D" + schema
    env = dict(os.environ, MANCALAD_DATABASE_URL=url)

    def drop():
        subprocess.run(["psql", dsn, "-XqAt", "-c",
                        "DROP SCHEMA %s CASCADE" % schema],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return ["--storage", "postgres"], env, drop


def main():
    mancalad, stubs_dir = sys.argv[1], sys.argv[2]
    postgres = "--postgres" in sys.argv[3:]
    load_modules(stubs_dir)
    work = tempfile.mkdtemp(prefix="mancala_drain_")
    if postgres:
        db_args, env, drop = postgres_database(work)
    else:
        db_args = ["--db", os.path.join(work, "mancala.db")]
        env, drop = dict(os.environ), (lambda: None)
    nodes = []
    try:
        a = Node(mancalad, work, "A", db_args, env)
        nodes.append(a)
        b = None
        if postgres:
            b = Node(mancalad, work, "B", db_args, env)
            nodes.append(b)
        run(a, b)
    finally:
        for n in nodes:
            n.kill()
        drop()


def run(a, b):
    for service in ("", "readiness", "liveness"):
        if a.health(service) != "SERVING":
            fail("A: health %r is %s before SIGTERM" %
                 (service, a.health(service)))
    if a.health("no-such-service") != "NOT_FOUND":
        fail("A: an unknown health name is not NOT_FOUND")
    p1, p2 = a.new_player(), a.new_player()
    by_seat = [p1, p2]
    match = harness.create_match(a, p1, [harness.seat_of(p1),
                                         harness.seat_of(p2)])
    match = harness.play(a, match, by_seat, plies=3)
    watcher = Watcher(a, match.name)
    watcher.start()
    wait_for(lambda: watcher.ply == match.ply, "the watcher's first event")
    silent = silent_connection(a.port)

    a.proc.send_signal(signal.SIGTERM)
    sigterm = time.monotonic()
    # 1. Readiness turns first, while A still serves.
    wait_for(lambda: a.health("readiness") == "NOT_SERVING",
             "A's readiness to turn NOT_SERVING")
    turned = time.monotonic()
    if a.health("") != "NOT_SERVING":
        fail("A: the whole-server health name did not turn with readiness")
    if a.health("liveness") != "SERVING":
        fail("A: liveness turned with readiness: %s" % a.health("liveness"))
    got = a.matches.GetMatch(ms.GetMatchRequest(name=match.name),
                             timeout=DEADLINE_S)
    if got.ply != match.ply:
        fail("A answered ply %d while draining, want %d" % (got.ply, match.ply))
    if watcher.end is not None:
        fail("the watch stream ended before the drain: %r" % (watcher.end,))
    if time.monotonic() - sigterm >= DRAIN_S:
        fail("the checks above took longer than the drain (%d s): "
             "inconclusive" % DRAIN_S)
    if b is not None and b.health("readiness") != "SERVING":
        fail("B is not ready while A drains")

    # 2. After the drain the stream ends UNAVAILABLE, saying why.
    wait_for(lambda: watcher.end is not None, "the watch stream to end")
    code, details, ended = watcher.end
    if code != grpc.StatusCode.UNAVAILABLE or "shutting down" not in details:
        fail("watch stream ended %s %r, want UNAVAILABLE shutting down" %
             (code, details))
    if ended - sigterm < DRAIN_S * 0.9:
        fail("the watch stream ended %.2f s after SIGTERM, before the %d s "
             "drain" % (ended - sigterm, DRAIN_S))
    last_ply = watcher.ply

    # 3. The listener closes and the process exits cleanly.
    try:
        rc = a.proc.wait(timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        fail("A did not exit within %d s of its drain" % DEADLINE_S)
    exited = time.monotonic()
    silent.close()
    if exited - sigterm > DRAIN_S + EXIT_SLACK_S:
        fail("A exited %.2f s after SIGTERM, over the %d s drain + %d s: "
             "did it wait for a connection to answer?" %
             (exited - sigterm, DRAIN_S, EXIT_SLACK_S))
    log = a.log()
    if rc != 0 or "mancalad stopped cleanly" not in log:
        fail("A exit %d; log:\n%s" % (rc, log))
    if "draining" not in log:
        fail("A did not log its drain:\n" + log)
    if a.health("readiness") != "UNREACHABLE":
        fail("A's listener is still open after exit")

    if b is not None:
        # The client resumes on B from its last ply; the next move goes
        # through B at once.
        resumed = Watcher(b, match.name, after_ply=last_ply)
        resumed.start()
        wait_for(lambda: resumed.ply == last_ply, "the watch to resume on B")
        m = b.matches.GetMatch(ms.GetMatchRequest(name=match.name),
                               timeout=DEADLINE_S)
        m = harness.play(b, m, by_seat, plies=1)
        if m.ply != last_ply + 1:
            fail("move through B: ply %d, want %d" % (m.ply, last_ply + 1))
        wait_for(lambda: resumed.ply == last_ply + 1,
                 "the resumed watcher to see the move through B")
        resumed.call.cancel()
    print("PASS: readiness NOT_SERVING %.2f s after SIGTERM while serving; "
          "stream ended UNAVAILABLE after %.2f s (drain %d s); clean exit "
          "after %.2f s%s" %
          (turned - sigterm, ended - sigterm, DRAIN_S, exited - sigterm,
           "; resumed on B and moved" if b is not None else ""))


if __name__ == "__main__":
    main()
