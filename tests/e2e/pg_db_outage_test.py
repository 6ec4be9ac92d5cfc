#!/usr/bin/env python3
"""A database stop and a database freeze, each longer than the grace period,
under two nodes (docs/cluster.md "The service was away", docs/api.md
"Health"): two real mancalad nodes A and B (--grace-seconds GRACE_S) on a
PostgreSQL cluster of this test's own (deploy/pg.sh on a free port in
20000-32000, as pg_outage_test.sh), over loopback (tests/e2e/two_nodes.py).

Two Kalah matches, each between two players: F, ranked, no turn limit, and
T, a 30 s turn limit. Every player holds a WatchMatch stream, one player of
each match on A and the other on B; a stream that ends (UNAVAILABLE during
an outage) is opened again REWATCH_S later from the last ply it saw, as a
client does. Each match gets two moves, then:

Phase 1, stop: the database is stopped (deploy/pg.sh pause) for DOWN_S,
longer than the grace period, and started again. For OBSERVE_S after it is
back:
  1. no CPU move in either match, neither a stand-in nor a timeout: the
     players were there all along (and a turn counts from the service's
     return at the earliest, so no turn can have run out);
  2. both nodes' GetMatch shows every seat present, none stood in for, from
     AGREE_S after the return on.
Each match then gets a move through the node that did not move it last.

Phase 2, freeze: the postmaster and all its processes get SIGSTOP for
FREEZE_S, then SIGCONT. During the freeze both nodes get calls with a
CALL_DEADLINE_S deadline (GetMatch, SubmitMove with a request id,
CreatePlayer; a second round of GetMatch and CreatePlayer later), and each
node's health service is asked for "readiness" every second (1 s deadline):
  3. every call answers within its deadline + LATE_S, and the node is done
     with it within that too (duration_ms of the node's "rpc" log line);
  4. readiness answers NOT_SERVING on each node within READY_DOWN_S of the
     freeze (an answer: a check that times out does not count), and
     SERVING again within READY_UP_S of SIGCONT; each node logs the
     calls that timed out and the readiness change at warning level;
  5. a SubmitMove that failed is sent again, the same request with the same
     request id, after SIGCONT: a move stored meanwhile must be answered OK
     with that very move; one not stored may be played then. Every player's
     move stored in the match since the freeze is one an OK reply answered;
  6. 1 and 2 again, from SIGCONT on.
Players that a failed CreatePlayer stored anyway are counted (CreatePlayer
has no request id that could answer them), not checked.

Every check is made and its figures kept whatever the others gave; a report
per phase is printed at the end, then every check not met, and the test
fails if there is one. About 80 s.

usage: pg_db_outage_test.py MANCALAD STUBS_DIR (build/clients/python)
Needs a PostgreSQL server installed (deploy/pg.sh); exits 77 (skipped)
without one, or fails under CI=true.
"""

import datetime
import glob
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import two_nodes  # noqa: E402
from two_nodes import Player, submit, wait_for  # noqa: E402

PG_SH = os.path.join(HERE, "..", "..", "deploy", "pg.sh")
GRACE_S = 5.0
TURN_LIMIT_S = 30  # The shortest a match may have.
BASELINE_S = GRACE_S + 3  # Presence watched before the outages.
DOWN_S = 10.0  # Phase 1: the database stopped, > GRACE_S.
FREEZE_S = 10.0  # Phase 2: the database frozen, > GRACE_S.
OBSERVE_S = 15.0  # After each outage: CPU moves and presence watched.
AGREE_S = 3.0  # Both nodes show every seat present this long after.
CALL_DEADLINE_S = 3.0  # The calls during the freeze.
LATE_S = 1.0  # How far past its deadline a call may run.
READY_DOWN_S = 5.0  # Readiness NOT_SERVING this long after the freeze.
READY_UP_S = 10.0  # Readiness SERVING again this long after SIGCONT.
REWATCH_S = 1.0  # A client opens its ended stream again after this.
POLL_S = 0.5  # Presence: both nodes' GetMatch this often.
SETTLE_S = 20.0  # After SIGCONT, the nodes' log lines of the calls.
TIMEOUT, STAND_IN = 2, 3  # v1.Move.CpuReason.
FROZEN_METHODS = ("GetMatch", "SubmitMove", "CreatePlayer")
RPC_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\] \[\w+\] "
                      r"rpc method=\S+/(\w+) status=(\w+) "
                      r"duration_ms=([\d.]+)")

STARTED = time.monotonic()


def say(msg):
    print("[%5.1f s] %s" % (time.monotonic() - STARTED, msg), flush=True)


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def now_ms():
    return int(time.time() * 1000)


def node_flags(node_id):
    # Heartbeat, sweep and tick keep their defaults (1 s, 250 ms, 200 ms).
    return ["--node-id", node_id, "--grace-seconds", str(GRACE_S)]


def have_postgres():
    return any(os.access(p, os.X_OK)
               for p in glob.glob("/usr/lib/postgresql/*/bin/initdb"))


def free_port():
    """A free loopback port below the ephemeral range."""
    for _ in range(200):
        p = random.randrange(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", p))
                return p
            except OSError:
                pass
    raise AssertionError("no free port in 20000-32000")


class Postgres:
    """This test's own PostgreSQL cluster (deploy/pg.sh, its own
    MANCALA_PG_STATE in a temporary folder): stopped and started again
    (pause, resume), frozen (SIGSTOP to the postmaster and its processes)
    and thawed."""

    def __init__(self):
        self.port = free_port()
        self.work = tempfile.mkdtemp(prefix="mancala_pg_outage_")
        self.env = dict(os.environ, MANCALA_PG_PORT=str(self.port),
                        MANCALA_PG_STATE=os.path.join(self.work, "pg.state"))
        self.dsn = "postgresql://postgres@127.0.0.1:%d/postgres" % self.port
        self.frozen = []  # Pids stopped, the postmaster first.
        self.started = False

    def pg_sh(self, verb):
        r = subprocess.run(["bash", PG_SH, verb], env=self.env,
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise AssertionError("deploy/pg.sh %s: exit %d: %s%s" %
                                 (verb, r.returncode, r.stdout, r.stderr))

    def start(self):
        self.started = True
        self.pg_sh("start")

    def pause(self):
        self.pg_sh("pause")

    def resume(self):
        self.pg_sh("resume")

    def postmaster(self):
        with open(self.env["MANCALA_PG_STATE"]) as f:
            folder = f.read().strip()
        with open(os.path.join(folder, "data", "postmaster.pid")) as f:
            return int(f.readline())

    def freeze(self):
        """SIGSTOP to the postmaster, then to its processes (it forks no
        new one while stopped); returns how many were stopped."""
        pid = self.postmaster()
        os.kill(pid, signal.SIGSTOP)
        self.frozen = [pid]
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                              text=True).stdout.split()
        for kid in map(int, kids):
            try:
                os.kill(kid, signal.SIGSTOP)
                self.frozen.append(kid)
            except ProcessLookupError:
                pass
        return len(self.frozen)

    def thaw(self):
        for pid in reversed(self.frozen):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.frozen = []

    def stop(self):
        self.thaw()
        if self.started:
            try:
                self.pg_sh("stop")
            except AssertionError as err:
                print(err, flush=True)
        shutil.rmtree(self.work, ignore_errors=True)


class Rewatcher:
    """A player's WatchMatch stream, read in a thread and opened again
    REWATCH_S after it ends, from the last ply it saw. `open`: a stream is
    up (its Match came); `ends`: (time, code) of each end; `absences`:
    (time, seat, present, cpu_standing_in) of the PresenceChange events that
    said a seat was absent or stood in for."""

    def __init__(self, node, match, player, label):
        self.node, self.match, self.player, self.label = (node, match, player,
                                                          label)
        self.ply = 0
        self.open = False
        self.ends = []
        self.absences = []
        self._lock = threading.Lock()
        self._call = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        import grpc
        from mancala.v1 import match_service_pb2 as ms
        while True:
            with self._lock:
                if self._done.is_set():
                    return
                self._call = self.node.matches.WatchMatch(
                    ms.WatchMatchRequest(name=self.match, after_ply=self.ply),
                    metadata=self.player.md())
            try:
                for ev in self._call:
                    kind = ev.WhichOneof("event")
                    if kind == "move":
                        self.ply = ev.move.ply
                    elif kind in ("match", "finished"):
                        self.ply = getattr(ev, kind).ply
                        self.open = True
                    elif kind == "presence":
                        p = ev.presence
                        if not p.present or p.cpu_standing_in:
                            self.absences.append((time.monotonic(), p.seat,
                                                  p.present,
                                                  p.cpu_standing_in))
                code = "finished"
            except grpc.RpcError as err:
                code = err.code().name
            self.open = False
            if self._done.is_set():
                return
            self.ends.append((time.monotonic(), code))
            self._done.wait(REWATCH_S)

    def close(self):
        with self._lock:
            self._done.set()
            if self._call is not None:
                self._call.cancel()


class Readiness:
    """A node's grpc.health.v1 "readiness", asked every second with a 1 s
    deadline in a thread: samples of (time asked, SERVING, NOT_SERVING or
    UNREACHABLE: no answer in time)."""

    def __init__(self, node):
        self.node = node
        self.samples = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        import health_check
        while not self._done.is_set():
            t = time.monotonic()
            status = health_check.check(self.node.channel, "readiness",
                                        timeout=1)
            self.samples.append((t, status))
            self._done.wait(max(0.0, t + 1.0 - time.monotonic()))

    def first(self, status, after, before=float("inf")):
        """When `status` was first answered to a check asked in [after,
        before], or None."""
        for t, s in list(self.samples):
            if after <= t <= before and s == status:
                return t
        return None

    def timeline(self, t0, t1, base):
        """The answers asked in [t0, t1] as runs, times from `base`."""
        runs = []
        for t, s in list(self.samples):
            if t0 <= t <= t1:
                if runs and runs[-1][0] == s:
                    runs[-1][2] = t
                else:
                    runs.append([s, t, t])
        return ", ".join("%s %+.1f..%+.1f s" % (s.replace(
            "UNREACHABLE", "no answer"), a - base, b - base)
            for s, a, b in runs) or "(no check)"

    def close(self):
        self._done.set()


class PresencePoll:
    """Both nodes' GetMatch of every match every POLL_S in a thread:
    samples of (time, {(node, match label): a tuple of (present,
    cpu_standing_in) per seat, or the call's error code})."""

    def __init__(self, nodes, matches):
        self.nodes, self.matches = nodes, matches
        self.samples = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        import grpc
        from mancala.v1 import match_service_pb2 as ms
        while not self._done.is_set():
            t = time.monotonic()
            views = {}
            for node in self.nodes:
                for label, m in self.matches:
                    try:
                        g = node.matches.GetMatch(
                            ms.GetMatchRequest(name=m.name),
                            timeout=CALL_DEADLINE_S)
                        views[(node.name, label)] = tuple(
                            (s.present, s.cpu_standing_in) for s in g.seats)
                    except grpc.RpcError as err:
                        views[(node.name, label)] = err.code().name
            self.samples.append((t, views))
            self._done.wait(max(0.0, t + POLL_S - time.monotonic()))

    def stop(self):
        self._done.set()
        self._thread.join(timeout=2 * two_nodes.DEADLINE_S)

    @staticmethod
    def good(views):
        return all(isinstance(v, tuple) and
                   all(p and not s for p, s in v) for v in views.values())

    def disagree(self, views):
        """The matches whose seats the two nodes show differently."""
        names = [n.name for n in self.nodes]
        return [label for label, _ in self.matches
                if len({views[(n, label)] for n in names}) > 1]

    def summary(self, back):
        """(first time all good from `back`, samples from back + AGREE_S
        on, the bad ones among them, samples whose nodes disagree, the
        first bad sample's text)."""
        first = next((t - back for t, v in self.samples if self.good(v)),
                     None)
        late = [(t, v) for t, v in self.samples if t >= back + AGREE_S]
        bad = [(t, v) for t, v in late if not self.good(v)]
        split = [(t, v) for t, v in self.samples if self.disagree(v)]
        example = self.describe(bad[0], back) if bad else ""
        return first, late, bad, split, example

    @staticmethod
    def describe(sample, base):
        t, views = sample
        return "at %+.1f s: %s" % (t - base, "; ".join(
            "%s on %s %s" % (label, node, view) for (node, label), view in
            sorted(views.items(), key=lambda kv: (kv[0][1], kv[0][0]))))


class Outage:
    def __init__(self, cluster, pg):
        import grpc
        from mancala.v1 import game_pb2
        from mancala.v1 import match_service_pb2 as ms
        from mancala.v1 import player_service_pb2 as ps
        self.grpc, self.game_pb2, self.ms, self.ps = grpc, game_pb2, ms, ps
        self.cluster, self.pg = cluster, pg
        self.problems = []  # Checks not met, with their phase.
        self.lines = []  # The report, printed at the end.
        self.watchers, self.ready, self.polls = [], {}, []

    def note(self, phase, cond, msg):
        if not cond:
            self.problems.append("%s: %s" % (phase, msg))
            say("NOT MET (%s): %s" % (phase, msg))
        return cond

    def report_line(self, text):
        self.lines.append(text)
        say(text)

    # Calls ----------------------------------------------------------------
    def create(self, node, players, ranked, turn_limit_s):
        ms = self.ms
        req = ms.CreateMatchRequest(
            game=self.game_pb2.KALAH, ranked=ranked, options={"seeds": "6"},
            seats=[ms.Seat(kind=ms.Seat.PLAYER, player=p.name)
                   for p in players])
        if turn_limit_s:
            req.turn_time_limit_seconds = turn_limit_s
        return node.matches.CreateMatch(req, metadata=players[0].md(),
                                        timeout=two_nodes.DEADLINE_S)

    def get(self, node, match, timeout=two_nodes.DEADLINE_S):
        return node.matches.GetMatch(self.ms.GetMatchRequest(name=match.name),
                                     timeout=timeout)

    def play(self, match, node):
        """The player to move moves through `node` (retried with its
        request id while the node answers UNAVAILABLE); the reply."""
        m = self.get(node, match)
        player = self.players[m.seats[m.to_move].player]
        rid = uuid.uuid4().hex
        end = time.monotonic() + two_nodes.DEADLINE_S
        while True:
            try:
                return submit(node, match.name, player, m.legal_pits[0],
                              expected_ply=m.ply, request_id=rid)
            except self.grpc.RpcError as err:
                if (err.code() != self.grpc.StatusCode.UNAVAILABLE or
                        time.monotonic() > end):
                    raise
                time.sleep(0.5)

    def cpu_moves(self, t0_ms, t1_ms, base_ms):
        """(match, ply, seat, cpu_reason, ms after base_ms) of the CPU moves
        played in [t0_ms, t1_ms]."""
        labels = {m.name.split("/", 1)[1]: label
                  for label, m in self.matches}
        rows = self.cluster.psql(
            "SELECT match_id, ply, seat, cpu_reason, played_at_ms FROM moves "
            "WHERE by_cpu AND played_at_ms BETWEEN %d AND %d "
            "ORDER BY played_at_ms" % (t0_ms, t1_ms))
        return [(labels.get(mid, mid), int(p), int(s), int(r),
                 int(t) - base_ms) for mid, p, s, r, t in rows]

    def rpc_lines(self, node, t0_wall, t1_wall):
        """(method, status, duration s) of the node's logged calls of
        FROZEN_METHODS that started in [t0_wall, t1_wall]."""
        out = []
        for line in node.read_log().splitlines():
            m = RPC_LINE.match(line)
            if not m or m.group(2) not in FROZEN_METHODS:
                continue
            end = datetime.datetime.strptime(
                m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp()
            took = float(m.group(4)) / 1000.0
            if t0_wall <= end - took <= t1_wall:
                out.append((m.group(2), m.group(3), took))
        return out

    # Checks shared by both phases -----------------------------------------
    def check_cpu(self, phase, t0_ms, t1_ms, back_ms):
        """No CPU move in [t0_ms, t1_ms]; those made are shown with their
        time from the database's return, back_ms."""
        moves = self.cpu_moves(t0_ms, t1_ms, back_ms)
        standins = [x for x in moves if x[3] == STAND_IN]
        timeouts = [x for x in moves if x[3] == TIMEOUT]
        self.report_line(
            "%s: CPU moves: %d stand-in, %d timeout, %d in all%s" %
            (phase, len(standins), len(timeouts), len(moves),
             (" (match, ply, seat, reason, ms after the database's "
              "return): %s" % moves) if moves else ""))
        self.note(phase, not standins, "%d stand-in(s) for present players: "
                  "%s" % (len(standins), standins))
        self.note(phase, not timeouts, "%d timeout(s) before any turn could "
                  "have run out: %s" % (len(timeouts), timeouts))

    def check_presence(self, phase, poll, back):
        first, late, bad, split, example = poll.summary(back)
        self.report_line(
            "%s: presence: every seat present on both nodes first at %s "
            "after the return (bound %.0f s); %d of %d samples from %.0f s "
            "on not so; %d of %d samples where A and B disagree%s" %
            (phase, "never" if first is None else "%+.1f s" % first,
             AGREE_S, len(bad), len(late), AGREE_S, len(split),
             len(poll.samples), (" (first: %s)" % example) if example else ""))
        self.note(phase, late, "no presence sample %.0f s after the return" %
                  AGREE_S)
        self.note(phase, not bad, "%d of %d presence samples from %.0f s "
                  "after the return on show a seat absent, stood in for, or "
                  "the nodes disagreeing; first %s" %
                  (len(bad), len(late), AGREE_S, example))

    def streams(self, phase, t0, t1):
        ends = [(w.label, code) for w in self.watchers
                for t, code in list(w.ends) if t0 <= t <= t1]
        absent = [(w.label, seat, p, s) for w in self.watchers
                  for t, seat, p, s in list(w.absences) if t0 <= t <= t1]
        self.report_line(
            "%s: streams: %d ended (%s); %d absent or stand-in presence "
            "events seen (%s); open at the end: %d of %d" %
            (phase, len(ends), ", ".join("%s %s" % e for e in ends) or "-",
             len(absent), ", ".join("%s: seat %d present=%s stand-in=%s" % a
                                    for a in absent) or "-",
             sum(w.open for w in self.watchers), len(self.watchers)))

    def readiness_report(self, phase, t0, t1, base):
        for name, r in sorted(self.ready.items()):
            self.report_line("%s: readiness on %s (from the outage's start): "
                             "%s" % (phase, name, r.timeline(t0, t1, base)))

    def watch_again(self, phase):
        """Waits for every player's stream to be up (a failure noted)."""
        try:
            wait_for(lambda: all(w.open for w in self.watchers),
                     "every stream to be up again")
        except AssertionError as err:
            self.note(phase, False, str(err))

    # The scenario ---------------------------------------------------------
    def run(self):
        self.a = self.cluster.node("A", node_flags("A"))
        self.b = self.cluster.node("B", node_flags("B"))
        ps = [Player(self.a, "F one"), Player(self.b, "F two"),
              Player(self.a, "T one"), Player(self.b, "T two")]
        self.players = {p.name: p for p in ps}
        self.f = self.create(self.a, ps[0:2], True, 0)
        self.t = self.create(self.b, ps[2:4], False, TURN_LIMIT_S)
        self.matches = [("F", self.f), ("T", self.t)]
        self.watchers = [
            Rewatcher(self.a, self.f.name, ps[0], "F seat 0 on A"),
            Rewatcher(self.b, self.f.name, ps[1], "F seat 1 on B"),
            Rewatcher(self.a, self.t.name, ps[2], "T seat 0 on A"),
            Rewatcher(self.b, self.t.name, ps[3], "T seat 1 on B")]
        wait_for(lambda: all(w.open for w in self.watchers),
                 "every player's stream")
        self.ready = {"A": Readiness(self.a), "B": Readiness(self.b)}
        self.baseline()
        for _, m in self.matches:
            self.play(m, self.a)
            self.play(m, self.b)
        say("F (ranked, no limit) and T (30 s turns) at ply 2")
        self.check_cpu("setup", 0, now_ms(), 0)

        self.phase_stop()
        for _, m in self.matches:
            self.play(m, self.b if m is self.f else self.a)
        say("one more move in F (through B) and T (through A)")
        self.watch_again("phase 2")
        self.phase_freeze()

    def baseline(self):
        """Both nodes' presence with no outage, for BASELINE_S (past the
        grace period): not checked, only reported, to tell an outage's
        effects from the steady state's."""
        phase = "baseline (no outage)"
        t0 = time.monotonic()
        poll = PresencePoll((self.a, self.b), self.matches)
        self.polls.append(poll)
        time.sleep(BASELINE_S)
        poll.stop()
        split = [x for x in poll.samples if poll.disagree(x[1])]
        bad = [x for x in poll.samples if not poll.good(x[1])]
        self.report_line(
            "%s: presence for %.0f s after every stream was up, no call "
            "made (not checked): %d of %d samples show a seat absent or "
            "stood in for, %d the nodes disagreeing%s" %
            (phase, BASELINE_S, len(bad), len(poll.samples), len(split),
             (" (first %s)" % poll.describe(bad[0], t0)) if bad else ""))

    def phase_stop(self):
        phase = "phase 1 (stop)"
        t0, t0_ms = time.monotonic(), now_ms()
        self.pg.pause()
        say("database stopped (pg.sh pause took %.1f s)" %
            (time.monotonic() - t0))
        time.sleep(max(0.0, t0 + DOWN_S - time.monotonic()))
        self.pg.resume()
        back, back_ms = time.monotonic(), now_ms()
        say("database started again, %.1f s after the stop" % (back - t0))
        poll = PresencePoll((self.a, self.b), self.matches)
        self.polls.append(poll)
        time.sleep(max(0.0, back + OBSERVE_S - time.monotonic()))
        poll.stop()
        end, end_ms = time.monotonic(), now_ms()
        self.report_line("%s: down %.1f s (grace %.0f s), observed %.0f s "
                         "after the return" % (phase, back - t0, GRACE_S,
                                               end - back))
        self.check_cpu(phase, t0_ms, end_ms, back_ms)
        self.check_presence(phase, poll, back)
        self.streams(phase, t0, end)
        self.readiness_report(phase, t0 - 1, end, t0)

    def frozen_call(self, label, node, fn):
        t0 = time.monotonic()
        try:
            reply, code = fn(), "OK"
        except self.grpc.RpcError as err:
            reply, code = None, err.code().name
        self.calls.append(dict(label=label, node=node.name, code=code,
                               wall=time.monotonic() - t0, reply=reply))

    def frozen_round(self, calls):
        threads = [threading.Thread(target=self.frozen_call, args=c,
                                    daemon=True) for c in calls]
        for t in threads:
            t.start()
        return threads

    def phase_freeze(self):
        phase = "phase 2 (freeze)"
        ms, ps = self.ms, self.ps
        d = CALL_DEADLINE_S
        self.calls = []
        moves = {}  # Match label -> what its SubmitMove during the freeze was.
        for label, m, node in (("F", self.f, self.a), ("T", self.t, self.b)):
            g = self.get(node, m)
            moves[label] = dict(
                match=m, node=node, pre_ply=g.ply, pit=g.legal_pits[0],
                player=self.players[g.seats[g.to_move].player],
                rid=uuid.uuid4().hex)

        def move_call(label):
            mv = moves[label]
            return (lambda: mv["node"].matches.SubmitMove(
                ms.SubmitMoveRequest(name=mv["match"].name, pit=mv["pit"],
                                     expected_ply=mv["pre_ply"],
                                     request_id=mv["rid"]),
                metadata=mv["player"].md(), timeout=d))

        def get_call(node, m):
            return lambda: node.matches.GetMatch(
                ms.GetMatchRequest(name=m.name), timeout=d)

        def create_call(node, display_name):
            return lambda: node.players.CreatePlayer(
                ps.CreatePlayerRequest(display_name=display_name), timeout=d)

        frozen_names = ["frozen %s %d" % (n, i) for n in "AB" for i in (1, 2)]
        a, b = self.a, self.b
        t0_wall, t0 = time.time(), time.monotonic()
        t0_ms = int(t0_wall * 1000)
        stopped = self.pg.freeze()
        say("database frozen: SIGSTOP to the postmaster and %d of its "
            "processes" % (stopped - 1))
        time.sleep(1.0)
        threads = self.frozen_round([
            ("GetMatch F", a, get_call(a, self.f)),
            ("SubmitMove F", a, move_call("F")),
            ("CreatePlayer", a, create_call(a, frozen_names[0])),
            ("GetMatch T", b, get_call(b, self.t)),
            ("SubmitMove T", b, move_call("T")),
            ("CreatePlayer", b, create_call(b, frozen_names[2]))])
        time.sleep(max(0.0, t0 + 5.0 - time.monotonic()))
        threads += self.frozen_round([
            ("GetMatch T", a, get_call(a, self.t)),
            ("CreatePlayer", a, create_call(a, frozen_names[1])),
            ("GetMatch F", b, get_call(b, self.f)),
            ("CreatePlayer", b, create_call(b, frozen_names[3]))])
        time.sleep(max(0.0, t0 + FREEZE_S - time.monotonic()))
        thaw_wall, thaw = time.time(), time.monotonic()
        thaw_ms = int(thaw_wall * 1000)
        self.pg.thaw()
        say("database thawed (SIGCONT) after %.1f s" % (thaw - t0))
        poll = PresencePoll((self.a, self.b), self.matches)
        self.polls.append(poll)
        for t in threads:
            t.join(timeout=two_nodes.DEADLINE_S)

        # 3. Every call within its deadline + LATE_S, on both sides.
        made = {n: sum(c["node"] == n for c in self.calls) for n in "AB"}
        logged = {}
        settle = time.monotonic() + SETTLE_S
        while True:
            logged = {n.name: self.rpc_lines(n, t0_wall, thaw_wall)
                      for n in (a, b)}
            if (all(len(logged[n]) >= made[n] for n in "AB") or
                    time.monotonic() > settle):
                break
            time.sleep(0.2)
        for c in sorted(self.calls, key=lambda c: (c["node"], c["label"])):
            self.report_line("%s: %s on %s: %s after %.2f s" %
                             (phase, c["label"], c["node"], c["code"],
                              c["wall"]))
        for n in "AB":
            self.report_line(
                "%s: node %s logged %d of the %d calls started during the "
                "freeze: %s" % (phase, n, len(logged[n]), made[n], ", ".join(
                    "%s %s %.2f s" % x for x in logged[n]) or "-"))
        longest = max(c["wall"] for c in self.calls)
        served = [x[2] for n in "AB" for x in logged[n]]
        longest_served = max(served) if served else float("nan")
        self.report_line(
            "%s: longest call during the freeze: %.2f s at the client, %.2f s "
            "in the node (deadline %.0f s, bound %.0f s)" %
            (phase, longest, longest_served, d, d + LATE_S))
        self.note(phase, longest <= d + LATE_S, "a call took %.2f s at the "
                  "client, past its %.0f s deadline + %.0f s" %
                  (longest, d, LATE_S))
        self.note(phase, not served or longest_served <= d + LATE_S,
                  "a node ran a call for %.2f s, past its %.0f s deadline + "
                  "%.0f s" % (longest_served, d, LATE_S))
        for n in "AB":
            self.note(phase, len(logged[n]) >= made[n], "node %s had not "
                      "finished %d of the calls started during the freeze "
                      "%.0f s after SIGCONT" %
                      (n, made[n] - len(logged[n]), SETTLE_S))

        # 4. Readiness: NOT_SERVING during the freeze, SERVING after it.
        wait_for(lambda: all(r.first("SERVING", thaw) for r in
                             self.ready.values()) or
                 time.monotonic() > thaw + READY_UP_S + 2,
                 "readiness after the freeze")
        for name, r in sorted(self.ready.items()):
            down = r.first("NOT_SERVING", t0, thaw)
            up = r.first("SERVING", thaw)
            self.report_line(
                "%s: readiness on %s: NOT_SERVING first at %s after the "
                "freeze (bound %.0f s), SERVING again %s after SIGCONT "
                "(bound %.0f s)" %
                (phase, name, "never" if down is None else "%.1f s" %
                 (down - t0), READY_DOWN_S, "not yet" if up is None else
                 "%.1f s" % (up - thaw), READY_UP_S))
            self.note(phase, down is not None and down - t0 <= READY_DOWN_S,
                      "readiness on %s did not answer NOT_SERVING within "
                      "%.0f s of the freeze" % (name, READY_DOWN_S))
            self.note(phase, up is not None and up - thaw <= READY_UP_S,
                      "readiness on %s not SERVING within %.0f s of SIGCONT" %
                      (name, READY_UP_S))

        # The operator hears of it: warning lines (rate-limited) for the
        # calls that timed out and for readiness, on every node.
        for name, node in (("A", self.a), ("B", self.b)):
            log = node.read_log()
            timeouts = log.count("[warning] storage failure (timeout)")
            unready = log.count("not serving:")
            self.report_line("%s: node %s logged %d storage-timeout warning "
                             "line(s) and %d not-serving warning(s)" %
                             (phase, name, timeouts, unready))
            self.note(phase, timeouts >= 1 and unready >= 1,
                      "node %s logged no storage-timeout or no not-serving "
                      "warning" % name)

        # 5. A failed SubmitMove, sent again with its request id.
        answered = {}  # Match label -> plies an OK reply answered.
        for c in self.calls:
            if c["label"].startswith("SubmitMove") and c["code"] == "OK":
                answered.setdefault(c["label"][-1], set()).add(
                    c["reply"].move.ply)
        stored_after_failure = 0
        for label, mv in sorted(moves.items()):
            call = next(c for c in self.calls
                        if c["label"] == "SubmitMove " + label)
            stored = self.stored_moves(mv)
            mine = [r for r in stored if r[4] == mv["rid"]]
            if call["code"] == "OK":
                self.report_line("%s: SubmitMove %s answered OK during the "
                                 "freeze (ply %d)" %
                                 (phase, label, call["reply"].move.ply))
                continue
            stored_after_failure += bool(mine)
            t = time.monotonic()
            try:
                reply = mv["node"].matches.SubmitMove(
                    ms.SubmitMoveRequest(name=mv["match"].name, pit=mv["pit"],
                                         expected_ply=mv["pre_ply"],
                                         request_id=mv["rid"]),
                    metadata=mv["player"].md(), timeout=two_nodes.DEADLINE_S)
                retry = "OK, ply %d pit %d" % (reply.move.ply, reply.move.pit)
                answered.setdefault(label, set()).add(reply.move.ply)
            except self.grpc.RpcError as err:
                reply, retry = None, "%s (%s)" % (err.code().name,
                                                  err.details())
            self.report_line(
                "%s: SubmitMove %s (%s during the freeze): %s before the "
                "retry; the retry with its request id: %s after %.2f s" %
                (phase, label, call["code"],
                 ("stored at ply %d" % mine[0][0]) if mine else "not stored",
                 retry, time.monotonic() - t))
            if mine:
                self.note(phase, reply is not None and
                          reply.move.ply == mine[0][0] and
                          reply.move.pit == mv["pit"],
                          "SubmitMove %s was stored at ply %d after %s, but "
                          "its retry with the same request id answered %s" %
                          (label, mine[0][0], call["code"], retry))

        time.sleep(max(0.0, thaw + OBSERVE_S - time.monotonic()))
        poll.stop()
        end, end_ms = time.monotonic(), now_ms()
        unanswered = []
        for label, mv in sorted(moves.items()):
            for ply, seat, pit, by_cpu, rid in self.stored_moves(mv):
                if not by_cpu and ply not in answered.get(label, ()):
                    unanswered.append((label, ply, seat, pit, rid))
        players = self.cluster.psql(
            "SELECT display_name FROM players WHERE display_name IN (%s)" %
            ", ".join("'%s'" % n for n in frozen_names))
        created_ok = {c["reply"].player.display_name for c in self.calls
                      if c["label"] == "CreatePlayer" and c["code"] == "OK"}
        orphans = [r[0] for r in players if r[0] not in created_ok]
        self.report_line(
            "%s: stored after a failed call: %d move(s) (answered by their "
            "request id's retry: %d); player moves stored since the freeze "
            "that no OK reply answered: %d %s; players stored although their "
            "CreatePlayer failed (no request id can answer them; not "
            "checked): %d of %d" %
            (phase, stored_after_failure,
             stored_after_failure - len(unanswered), len(unanswered),
             unanswered or "", len(orphans),
             sum(c["label"] == "CreatePlayer" and c["code"] != "OK"
                 for c in self.calls)))
        self.note(phase, not unanswered, "moves stored that no reply "
                  "answered (match, ply, seat, pit, request id): %s" %
                  unanswered)
        self.check_cpu(phase, t0_ms, end_ms, thaw_ms)
        self.check_presence(phase, poll, thaw)
        self.streams(phase, t0, end)
        self.readiness_report(phase, t0 - 1, end, t0)

    def stored_moves(self, mv):
        """(ply, seat, pit, by_cpu, request id) of the moves stored in the
        match since the freeze began."""
        rows = self.cluster.psql(
            "SELECT ply, seat, pit, by_cpu, coalesce(request_id, '') FROM "
            "moves WHERE match_id = '%s' AND ply > %d ORDER BY ply" %
            (mv["match"].name.split("/", 1)[1], mv["pre_ply"]))
        # The stored id is scoped to its player: "{player_id}/{id}".
        return [(int(p), int(s), int(pit), c == "t", rid.split("/")[-1])
                for p, s, pit, c, rid in rows]

    def close(self):
        for w in self.watchers:
            w.close()
        for r in self.ready.values():
            r.close()
        for p in self.polls:
            p.stop()

    def print_report(self):
        print("---- report (before-figures: what the nodes did)", flush=True)
        for line in self.lines:
            print("  " + line)
        print("---- %d check(s) not met" % len(self.problems))
        for p in self.problems:
            print("  " + p)
        sys.stdout.flush()

    def db_report(self):
        self.cluster.report([
            ("matches", "SELECT id, ply, status, to_move, due_at, claim_node, "
             "claim_ply FROM matches ORDER BY id"),
            ("seats", "SELECT match_id, seat, seen_node, seen_at FROM seats "
             "ORDER BY match_id, seat"),
            ("moves", "SELECT match_id, ply, seat, pit, by_cpu, cpu_reason, "
             "played_at_ms, request_id FROM moves ORDER BY match_id, ply"),
            ("service_resumed", "SELECT * FROM service_resumed"),
            ("nodes", "SELECT * FROM nodes")], log_lines=60)


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    if not have_postgres():
        if os.environ.get("CI") == "true":
            fail("PostgreSQL server not installed (CI=true)")
        print("SKIP: PostgreSQL server not installed")
        sys.exit(two_nodes.SKIPPED)
    os.environ.setdefault("PGCONNECT_TIMEOUT", "10")  # psql never hangs.
    pg = Postgres()
    passed = False
    try:
        pg.start()
        say("PostgreSQL of this test's own on port %d" % pg.port)
        cluster = two_nodes.Cluster(sys.argv[1], sys.argv[2], server=pg.dsn)
        test = Outage(cluster, pg)
        try:
            test.run()
            passed = not test.problems
        finally:
            test.close()
            pg.thaw()
            test.print_report()
            if not passed:
                test.db_report()
            try:
                cluster.close(keep_logs=not passed)
            except Exception as err:  # The database may be down.
                print("cluster not closed cleanly: %r" % err, flush=True)
                for n in cluster.nodes:
                    if n.proc.poll() is None:
                        n.proc.kill()
    finally:
        pg.stop()
    if not passed:
        fail("%d check(s) not met (see the report above)" %
             len(test.problems))
    say("PASS")


if __name__ == "__main__":
    main()
