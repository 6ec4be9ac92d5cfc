"""A real mancalad over loopback, and a Python gRPC client for it.

The stubs are generated at build time from proto/ into build/clients/python (see
proto/CMakeLists.txt); run.py puts that folder on sys.path. Every error a
test expects goes through expect_error(), which also records the ErrorInfo
reason, so run.py can check that the run reached every reason the API
documents (mancala.v1.ErrorReason).
"""

import os
import re
import shutil
import subprocess
import tempfile
import time

import grpc

from google.rpc import error_details_pb2, status_pb2
from mancala.v1 import (admin_service_pb2_grpc, match_service_pb2_grpc,
                        matchmaking_service_pb2_grpc, player_service_pb2,
                        player_service_pb2_grpc, rating_service_pb2_grpc)

MANCALAD = os.environ.get("MANCALAD", "mancalad")
ADMIN_TOKEN = "python-admin-token"
DEADLINE_S = 20  # Per wait; generous for a loaded 2-core machine.

# Reasons this run met, for run.py's coverage check, and per RPC the test
# that first met each: {(rpc, reason): test id}.
REACHED = set()
REACHED_BY = {}


def wait_for(condition, what, timeout=DEADLINE_S):
    """Polls `condition` until it is truthy; fails after `timeout` s."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.02)


class Server:
    """mancalad on 127.0.0.1:0 with its own database; the port is read back
    from its log line "listening on port N"."""

    def __init__(self, admin_token=ADMIN_TOKEN, extra=(), db_dir=None):
        self.dir = db_dir or tempfile.mkdtemp(prefix="mancala_py_")
        self.owns_dir = db_dir is None
        self.db = os.path.join(self.dir, "mancala.db")
        self.admin_token = admin_token
        self.extra = list(extra)
        self.proc = None
        self.start()

    def start(self):
        self.log = os.path.join(self.dir, "mancalad.log")
        args = [MANCALAD, "--listen", "127.0.0.1:0", "--db", self.db,
                "--cpu-budgets-ms", "5,5,5,5", "--queue-update-seconds", "60"]
        if "--create-burst" not in self.extra:
            # Many players from one address: the creation limit has tests of
            # its own (limits_test.py, tests/services/api/limits_test.cc).
            args += ["--create-burst", "0"]
        args += self.extra
        env = dict(os.environ)
        env.pop("MANCALAD_ADMIN_TOKEN", None)
        if self.admin_token:
            args += ["--admin-token", self.admin_token]
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(args, stdout=out,
                                         stderr=subprocess.STDOUT, env=env)

        def port():
            if self.proc.poll() is not None:
                raise AssertionError("mancalad exited: " + self.read_log())
            m = re.search(r"listening on port (\d+)", self.read_log())
            return m and int(m.group(1))

        self.port = wait_for(port, "mancalad to listen")
        self.channel = grpc.insecure_channel("127.0.0.1:%d" % self.port)
        self.players = player_service_pb2_grpc.PlayerServiceStub(self.channel)
        self.matches = match_service_pb2_grpc.MatchServiceStub(self.channel)
        self.ratings = rating_service_pb2_grpc.RatingServiceStub(self.channel)
        self.admin = admin_service_pb2_grpc.AdminServiceStub(self.channel)
        self.matchmaking = matchmaking_service_pb2_grpc.MatchmakingServiceStub(
            self.channel)

    def read_log(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def stop(self):
        if self.proc is not None:
            self.channel.close()
            self.proc.terminate()
            self.proc.wait(timeout=DEADLINE_S)
            self.proc = None

    def close(self):
        self.stop()
        if self.owns_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def new_player(self, display_name=""):
        resp = self.players.CreatePlayer(
            player_service_pb2.CreatePlayerRequest(display_name=display_name),
            timeout=DEADLINE_S)
        return Player(resp.player.name, resp.token, resp.player.display_name)


class _Shared:
    """The server the test modules share, started on first use; run.py
    closes it."""

    server = None

    def __getattr__(self, name):
        if _Shared.server is None:
            _Shared.server = Server()
        return getattr(_Shared.server, name)

    def close(self):
        if _Shared.server is not None:
            _Shared.server.close()
            _Shared.server = None


srv = _Shared()


class Player:
    def __init__(self, name, token, display_name):
        self.name = name
        self.token = token
        self.display_name = display_name

    def md(self):
        return auth(self.token)


def auth(token, scheme="Bearer"):
    return (("authorization", scheme + " " + token),)


def error_info(err):
    """The google.rpc.ErrorInfo of an RpcError (None without one)."""
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for any_msg in status.details:
                info = error_details_pb2.ErrorInfo()
                if any_msg.Unpack(info):
                    return info
    return None


def expect_error(test, call, code, reason, *args, **kwargs):
    """Calls call(*args, **kwargs), expects an RpcError with `code` and
    ErrorInfo `reason` (domain mancala.v1); returns (error, info)."""
    kwargs.setdefault("timeout", DEADLINE_S)
    try:
        result = call(*args, **kwargs)
        if hasattr(result, "__iter__") and not hasattr(result, "ListFields"):
            for _ in result:  # A stream: its error comes when read.
                pass
    except grpc.RpcError as err:
        info = error_info(err)
        got = info.reason if info else None
        test.assertEqual((err.code(), got), (code, reason), err.details())
        test.assertEqual(info.domain, "mancala.v1")
        # No message quotes more than a short prefix of client input.
        test.assertLess(len(err.details()), 400, err.details())
        REACHED.add(reason)
        method = getattr(call, "_method", b"?")
        rpc = method.decode() if isinstance(method, bytes) else str(method)
        REACHED_BY.setdefault((rpc.rsplit("/", 1)[-1], reason), test.id())
        return err, info
    test.fail("expected %s %s, got success" % (code, reason))


# Building matches -----------------------------------------------------------

def seat_of(player):
    from mancala.v1 import match_service_pb2 as ms
    return ms.Seat(kind=ms.Seat.PLAYER, player=player.name)


def create_match(srv, creator, seats, game=None, options=None, ranked=False):
    """A match of `seats` (Seat messages) created by `creator`."""
    from mancala.v1 import game_pb2, match_service_pb2 as ms
    req = ms.CreateMatchRequest(game=game or game_pb2.KALAH, seats=seats,
                                ranked=ranked, options=options or {})
    return srv.matches.CreateMatch(req, metadata=creator.md(),
                                   timeout=DEADLINE_S)


def play(srv, match, by_seat, plies=None):
    """Plays the lowest legal pit for whoever is to move (by_seat[i] holds
    seat i) until the match is over or `plies` moves were made."""
    from mancala.v1 import match_service_pb2 as ms
    made = 0
    while match.state == ms.Match.IN_PROGRESS and (plies is None or
                                                   made < plies):
        player = by_seat[match.to_move]
        resp = srv.matches.SubmitMove(
            ms.SubmitMoveRequest(name=match.name, pit=match.legal_pits[0],
                                 expected_ply=match.ply),
            metadata=player.md(), timeout=DEADLINE_S)
        match = resp.match
        made += 1
    return match
