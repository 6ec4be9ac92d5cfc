"""Several real mancalad nodes on one fresh PostgreSQL database, on loopback.

The database is created on the server MANCALA_TEST_PG_DSN names (deploy/pg.sh
env prints it; deploy/dev.sh test starts one) and dropped at the end. Each
node is `mancalad --storage postgres --listen 127.0.0.1:0`, its port read
back from the log line "listening on port N". Without MANCALA_TEST_PG_DSN a
test exits 77 (ctest: skipped), or fails under CI=true.

usage (from a test): cluster = Cluster(mancalad, stubs_dir); a = cluster.node("A")

Nodes stop at once on SIGTERM (--drain-seconds 0): draining has tests of its
own (drain_test.py). Player, Watcher and Search are the clients the
scenario's steps use.
"""

import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.parse

SKIPPED = 77
DEADLINE_S = 30  # Per wait or call; generous for a loaded 2-core machine.


def load_stubs(stubs_dir):
    """Puts the Python stubs the build generated from proto/ on the path,
    and tests/clients/harness.py, whose helpers these tests share."""
    sys.path.insert(0, stubs_dir)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "clients"))


def wait_for(condition, what, timeout=DEADLINE_S):
    """harness.wait_for (polls until truthy), with this file's deadline."""
    import harness
    return harness.wait_for(condition, what, timeout)


def _psql(dsn, sql):
    subprocess.run(["psql", dsn, "-XqAt", "-v", "ON_ERROR_STOP=1", "-c", sql],
                   check=True, stdout=subprocess.DEVNULL)


def _with_database(dsn, name):
    parts = urllib.parse.urlsplit(dsn)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


class Node:
    """One mancalad on the cluster's database, with its gRPC stubs."""

    def __init__(self, cluster, name, extra=()):
        import grpc
        from mancala.v1 import (admin_service_pb2_grpc,
                                match_service_pb2_grpc,
                                matchmaking_service_pb2_grpc,
                                player_service_pb2_grpc,
                                rating_service_pb2_grpc)
        self.name = name
        self.log = os.path.join(cluster.dir, "mancalad_%s.log" % name)
        env = dict(os.environ, MANCALAD_DATABASE_URL=cluster.url)
        args = [cluster.mancalad, "--storage", "postgres", "--listen",
                "127.0.0.1:0", "--cpu-budgets-ms", "5,5,5,5",
                "--create-burst", "0", "--drain-seconds", "0"] + list(extra)
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen(args, stdout=out,
                                         stderr=subprocess.STDOUT, env=env)

        def port():
            if self.proc.poll() is not None:
                raise AssertionError("mancalad %s exited: %s" %
                                     (name, self.read_log()))
            m = re.findall(r"listening on port (\d+)", self.read_log())
            return m and int(m[-1])

        self.port = wait_for(port, "node %s to listen" % name)
        self.channel = grpc.insecure_channel("127.0.0.1:%d" % self.port)
        self.players = player_service_pb2_grpc.PlayerServiceStub(self.channel)
        self.matches = match_service_pb2_grpc.MatchServiceStub(self.channel)
        self.ratings = rating_service_pb2_grpc.RatingServiceStub(self.channel)
        self.matchmaking = matchmaking_service_pb2_grpc.MatchmakingServiceStub(
            self.channel)
        self.admin = admin_service_pb2_grpc.AdminServiceStub(self.channel)

    def read_log(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def kill9(self):
        """SIGKILL: no shutdown of any kind, as a crashed machine. The
        channel stays open until stop(): closing it here cancelled the calls
        still open on it, so a watch whose broken connection gRPC had not
        read yet (slow under load) ended CANCELLED instead of UNAVAILABLE,
        what a client of a dead server sees."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=DEADLINE_S)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=DEADLINE_S)
        self.channel.close()


class Cluster:
    """A fresh database and the nodes started on it."""

    def __init__(self, mancalad, stubs_dir, server=None):
        """`server`: the DSN of the PostgreSQL server to create the database
        on; MANCALA_TEST_PG_DSN by default (a test that runs a server of its
        own, as pg_db_outage_test.py does, passes its DSN)."""
        load_stubs(stubs_dir)
        server = server or os.environ.get("MANCALA_TEST_PG_DSN")
        if not server:
            if os.environ.get("CI") == "true":
                print("FAIL: MANCALA_TEST_PG_DSN is not set (CI=true)")
                sys.exit(1)
            print("SKIP: MANCALA_TEST_PG_DSN is not set")
            sys.exit(SKIPPED)
        self.mancalad = mancalad
        self.server = server
        self.db = "mancala_e2e_%d_%06x" % (os.getpid(),
                                            random.getrandbits(24))
        _psql(server, "CREATE DATABASE " + self.db)
        self.url = _with_database(server, self.db)
        self.dir = tempfile.mkdtemp(prefix="mancala_nodes_")
        self.nodes = []

    def node(self, name, extra=()):
        n = Node(self, name, extra)
        self.nodes.append(n)
        return n

    def psql(self, sql):
        """Rows of `sql` on the cluster's database, as lists of strings."""
        out = subprocess.run(["psql", self.url, "-XqAt", "-F", "\t", "-c",
                              sql], check=True, capture_output=True,
                             text=True).stdout
        return [line.split("\t") for line in out.splitlines()]

    def report(self, tables, log_lines=300):
        """Prints what a failed test leaves to go on (ctest shows a failed
        test's output): `tables`, a list of (title, SQL) read from the
        cluster's database, then the end of every node's log. The logs stay
        in self.dir."""
        print("---- the database at the failure", flush=True)
        for title, sql in tables:
            print("%s:" % title)
            try:
                for row in self.psql(sql):
                    print("  " + "\t".join(row))
            except subprocess.CalledProcessError as err:
                print("  (not read: %s)" % err)
        for n in self.nodes:
            with open(n.log, errors="replace") as f:
                lines = f.readlines()
            print("---- node %s (pid %d), last %d of %d log lines, in %s" %
                  (n.name, n.proc.pid, min(log_lines, len(lines)),
                   len(lines), n.log))
            sys.stdout.writelines(lines[-log_lines:])
        print("---- end of the node logs", flush=True)

    def close(self, keep_logs=False):
        """Stops the nodes and drops the database; the nodes' logs are
        removed unless `keep_logs` (a failed test's)."""
        for n in self.nodes:
            n.stop()
        _psql(self.server, "DROP DATABASE IF EXISTS %s WITH (FORCE)" %
              self.db)
        if not keep_logs:
            shutil.rmtree(self.dir, ignore_errors=True)


class Player:
    """A new player, created through `node`, and their bearer token."""

    def __init__(self, node, display_name):
        from mancala.v1 import player_service_pb2 as ps
        resp = node.players.CreatePlayer(
            ps.CreatePlayerRequest(display_name=display_name),
            timeout=DEADLINE_S)
        self.name, self.token = resp.player.name, resp.token

    def md(self):
        return (("authorization", "Bearer " + self.token),)


def submit(node, match, player, pit, expected_ply=None, request_id=""):
    """SubmitMove of `pit` in match `match` (its name) through `node`."""
    from mancala.v1 import match_service_pb2 as ms
    req = ms.SubmitMoveRequest(name=match, pit=pit, request_id=request_id)
    if expected_ply is not None:
        req.expected_ply = expected_ply
    return node.matches.SubmitMove(req, metadata=player.md(),
                                   timeout=DEADLINE_S)


class Watcher:
    """Reads a WatchMatch stream in a thread: move plies, snapshot plies and
    states, and how it ended (a grpc.StatusCode, or "finished", and the
    status message)."""

    def __init__(self, node, match, player, after_ply=0):
        from mancala.v1 import match_service_pb2 as ms
        self.plies = []
        self.snapshots = []
        self.states = []
        self.ended = None
        self.details = None
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
                    self.states.append(ev.match.state)
            self.ended = "finished"
        except grpc.RpcError as err:
            self.details = err.details()
            self.ended = err.code()

    def cancel(self):
        self.call.cancel()


class Search:
    """One FindMatch stream (Kalah) read in a thread: its updates, then the
    status it ended with."""

    def __init__(self, node, player):
        from mancala.v1 import game_pb2
        from mancala.v1 import matchmaking_service_pb2 as mm
        self.updates = queue.Queue()
        self.ended = queue.Queue()
        self.call = node.matchmaking.FindMatch(
            mm.FindMatchRequest(game=game_pb2.KALAH), metadata=player.md(),
            timeout=2 * DEADLINE_S)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        import grpc
        try:
            for update in self.call:
                self.updates.put(update)
            self.ended.put(grpc.StatusCode.OK)
        except grpc.RpcError as e:
            self.ended.put(e.code())

    def found(self):
        """The first `found` update; AssertionError after DEADLINE_S."""
        while True:
            try:
                u = self.updates.get(timeout=DEADLINE_S)
            except queue.Empty:
                raise AssertionError("no match found within %d s" %
                                     DEADLINE_S)
            if u.HasField("found"):
                return u.found

    def end_code(self):
        try:
            return self.ended.get(timeout=DEADLINE_S)
        except queue.Empty:
            raise AssertionError("the search did not end within %d s" %
                                 DEADLINE_S)


def searching(node):
    """How many players `node` says are searching (the whole site)."""
    from mancala.v1 import matchmaking_service_pb2 as mm
    return node.matchmaking.GetQueueStats(mm.GetQueueStatsRequest(),
                                          timeout=DEADLINE_S).searching
