#!/usr/bin/env python3
"""The web port's wire (services/web/web_port.h) as raw HTTP/1.1 from
Python's http.client against a real mancalad (--web-listen 127.0.0.1:0):
the Connect protocol (unary JSON and proto, a server stream, errors with
their ErrorInfo details in unpadded base64), gRPC-Web (binary and text,
trailers-only errors, percent-encoded grpc-message), 415, unknown methods,
CORS, the body limit, deadlines, a closed tab ending the player's
presence, the creation limit kept for the browser's own address
(shared with a native call from the same host), and the page's files
(--web-root) beside the RPCs.

With --postgres, the same on two nodes on one PostgreSQL database
(two_nodes.py): every call through node A's web port, WatchMatch through
node B's, which must deliver the move played through A. (The creation
limit's test runs on a SQLite server of its own either way.)

usage: web_port_test.py MANCALAD STUBS_DIR (build/clients/python) [--postgres]
"""

import base64
import http.client
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
MANCALAD, STUBS = sys.argv[1], sys.argv[2]
del sys.argv[1:3]
POSTGRES = "--postgres" in sys.argv
if POSTGRES:
    sys.argv.remove("--postgres")
os.environ["MANCALAD"] = MANCALAD
sys.path.insert(0, STUBS)
sys.path.insert(0, os.path.join(HERE, "..", "clients"))
import grpc  # noqa: E402
import harness  # noqa: E402
from google.rpc import error_details_pb2, status_pb2  # noqa: E402
from mancala.v1 import game_pb2  # noqa: E402
from mancala.v1 import match_service_pb2 as ms  # noqa: E402
from mancala.v1 import player_service_pb2 as ps  # noqa: E402

ORIGIN = "http://site.example"


def frame(flags, payload):
    return struct.pack(">BI", flags, len(payload)) + payload


def frames(body):
    """(flags, payload) of each envelope/frame of `body`."""
    out, i = [], 0
    while i < len(body):
        flags, n = struct.unpack(">BI", body[i:i + 5])
        out.append((flags, body[i + 5:i + 5 + n]))
        i += 5 + n
    return out


def unpadded(value):
    return base64.b64decode(value + "=" * (-len(value) % 4))


class WebPortTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        web = ("--web-listen", "127.0.0.1:0", "--web-allowed-origins", ORIGIN)
        if POSTGRES:
            sys.path.insert(0, HERE)
            import two_nodes
            cls.srv = two_nodes.Cluster(MANCALAD, STUBS)
            nodes = [cls.srv.node(n, web) for n in ("A", "B")]
        else:
            cls.srv = harness.Server(extra=web + ("--create-burst", "50"))
            nodes = [cls.srv]
        ports = [harness.wait_for(
            lambda n=n: (re.findall(r"web port on port (\d+)",
                                    n.read_log()) or [None])[-1],
            "the web port") for n in nodes]
        # Calls through the first node, WatchMatch through the last.
        cls.web_port, cls.watch_port = ports[0], ports[-1]

    @classmethod
    def tearDownClass(cls):
        cls.srv.close()

    def post(self, path, body, content_type, headers=None, timeout=30):
        conn = http.client.HTTPConnection("127.0.0.1", int(self.web_port),
                                          timeout=timeout)
        h = {"Content-Type": content_type}
        h.update(headers or {})
        conn.request("POST", path, body=body, headers=h)
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp, data

    def connect_json(self, path, message, headers=None):
        resp, data = self.post(path, json.dumps(message).encode(),
                               "application/json", headers)
        return resp, json.loads(data) if data else None

    def guest(self):
        resp, body = self.connect_json(
            "/mancala.v1.PlayerService/CreatePlayer", {"displayName": "Web"})
        self.assertEqual(resp.status, 200, body)
        return body["player"]["name"], body["token"]

    # Connect, unary --------------------------------------------------------
    def test_connect_unary_json_and_proto(self):
        name, token = self.guest()
        self.assertTrue(name.startswith("players/"))
        resp, data = self.post(
            "/mancala.v1.PlayerService/GetPlayer",
            ps.GetPlayerRequest(name=name).SerializeToString(),
            "application/proto", {"Authorization": "Bearer " + token})
        self.assertEqual(resp.status, 200, data)
        self.assertEqual(resp.getheader("Content-Type"), "application/proto")
        player = ps.Player.FromString(data)
        self.assertEqual(player.name, name)
        self.assertEqual(player.display_name, "Web")

    def test_connect_error_carries_error_info_in_unpadded_base64(self):
        resp, body = self.connect_json("/mancala.v1.MatchService/GetMatch",
                                       {"name": "matches/nope"})
        self.assertEqual(resp.status, 404)
        self.assertEqual(body["code"], "not_found")
        detail = body["details"][0]
        self.assertEqual(detail["type"], "google.rpc.ErrorInfo")
        self.assertNotIn("=", detail["value"])
        info = error_details_pb2.ErrorInfo.FromString(unpadded(detail["value"]))
        self.assertEqual(info.reason, "MATCH_NOT_FOUND")
        self.assertEqual(info.domain, "mancala.v1")

    def test_bad_json_is_invalid_argument(self):
        resp, body = self.connect_json("/mancala.v1.MatchService/GetMatch",
                                       {"nmae": "typo"})
        self.assertEqual(resp.status, 400)
        self.assertEqual(body["code"], "invalid_argument")

    def test_unknown_method_and_content_type(self):
        resp, body = self.connect_json("/mancala.v1.MatchService/Nope", {})
        self.assertEqual(resp.status, 404)
        self.assertEqual(body["code"], "unimplemented")
        resp, _ = self.post("/mancala.v1.MatchService/GetMatch", b"{}",
                            "text/plain")
        self.assertEqual(resp.status, 415)
        resp, _ = self.post("/grpc.health.v1.Health/Nope", b"",
                            "application/grpc-web+proto")
        self.assertEqual(resp.getheader("grpc-status"), "12")

    def test_health_check_in_json(self):
        resp, body = self.connect_json("/grpc.health.v1.Health/Check",
                                       {"service": "readiness"})
        self.assertEqual(resp.status, 200, body)
        self.assertEqual(body, {"status": "SERVING"})

    # gRPC-Web ---------------------------------------------------------------
    def test_grpc_web_binary_and_text(self):
        req = ps.CreatePlayerRequest(display_name="GW").SerializeToString()
        resp, data = self.post("/mancala.v1.PlayerService/CreatePlayer",
                               frame(0, req), "application/grpc-web+proto")
        self.assertEqual(resp.status, 200)
        (f0, msg), (f1, trailers) = frames(data)
        self.assertEqual((f0, f1), (0, 0x80))
        self.assertEqual(ps.CreatePlayerResponse.FromString(msg)
                         .player.display_name, "GW")
        self.assertEqual(trailers, b"grpc-status:0\r\n")
        resp, data = self.post("/mancala.v1.PlayerService/CreatePlayer",
                               base64.b64encode(frame(0, req)),
                               "application/grpc-web-text")
        self.assertEqual(resp.getheader("Content-Type"),
                         "application/grpc-web-text+proto")
        (f0, msg), (f1, trailers) = frames(base64.b64decode(data))
        self.assertEqual(ps.CreatePlayerResponse.FromString(msg)
                         .player.display_name, "GW")

    def test_grpc_web_error_is_trailers_only(self):
        req = ms.GetMatchRequest(name="matches/nope").SerializeToString()
        resp, data = self.post("/mancala.v1.MatchService/GetMatch",
                               frame(0, req), "application/grpc-web+proto")
        self.assertEqual(resp.status, 200)
        self.assertEqual(data, b"")
        self.assertEqual(resp.getheader("grpc-status"), "5")
        status = status_pb2.Status.FromString(
            base64.b64decode(resp.getheader("grpc-status-details-bin")))
        info = error_details_pb2.ErrorInfo.FromString(status.details[0].value)
        self.assertEqual(info.reason, "MATCH_NOT_FOUND")
        # grpc-message is percent-encoded: no raw space-less escapes needed
        # here, but '%' and non-ASCII would be.
        self.assertIn("matches/nope", resp.getheader("grpc-message"))

    # Streams -----------------------------------------------------------------
    def test_connect_stream_of_a_match_against_the_cpu(self):
        name, token = self.guest()
        auth = {"Authorization": "Bearer " + token}
        resp, match = self.connect_json(
            "/mancala.v1.MatchService/CreateMatch",
            {"game": "KALAH", "seats": [{"kind": "PLAYER", "player": name},
                                        {"kind": "CPU", "cpuLevel": 1}]}, auth)
        self.assertEqual(resp.status, 200, match)
        # On two nodes, watched through the other one.
        conn = http.client.HTTPConnection("127.0.0.1", int(self.watch_port),
                                          timeout=30)
        body = json.dumps({"name": match["name"]}).encode()
        conn.request("POST", "/mancala.v1.MatchService/WatchMatch",
                     body=frame(0, body),
                     headers=dict(auth, **{
                         "Content-Type": "application/connect+json"}))
        stream = conn.getresponse()
        self.assertEqual(stream.status, 200)
        self.assertEqual(stream.getheader("Content-Type"),
                         "application/connect+json")
        def event():
            flags, n = struct.unpack(">BI", stream.read(5))
            e = json.loads(stream.read(n))
            self.assertEqual(flags, 0, e)
            return e

        first = event()
        self.assertIn("match", first)  # The stream opens with the match.
        # Our seat (0) to move: the CPU may have opened.
        current = first["match"]
        while current.get("toMove", 0) != 0:
            e = event()
            if "move" in e:
                _, current = self.connect_json(
                    "/mancala.v1.MatchService/GetMatch",
                    {"name": match["name"]}, auth)
        pit = current["legalPits"][0]
        resp, moved = self.connect_json(
            "/mancala.v1.MatchService/SubmitMove",
            {"name": match["name"], "pit": pit}, auth)
        self.assertEqual(resp.status, 200, moved)
        ply = int(moved["move"]["ply"])
        # The move made through the web port reaches the web stream.
        for _ in range(50):
            e = event()
            if "move" in e and int(e["move"]["ply"]) == ply:
                self.assertEqual(e["move"].get("pit", 0), pit)
                break
        else:
            self.fail("the move never reached the stream")
        conn.close()  # The browser goes: the inner stream is cancelled.

    def test_a_stream_that_fails_ends_with_its_error(self):
        resp, data = self.post(
            "/mancala.v1.MatchService/WatchMatch",
            frame(0, b'{"name": "matches/nope"}'), "application/connect+json")
        self.assertEqual(resp.status, 200)
        [(flags, end)] = frames(data)
        self.assertEqual(flags, 0x02)
        error = json.loads(end)["error"]
        self.assertEqual(error["code"], "not_found")
        self.assertEqual(error["details"][0]["type"], "google.rpc.ErrorInfo")

    def test_a_deadline_from_connect_timeout_ms(self):
        name, token = self.guest()
        auth = {"Authorization": "Bearer " + token}
        _, match = self.connect_json(
            "/mancala.v1.MatchService/CreateMatch",
            {"game": "KALAH", "seats": [{"kind": "PLAYER", "player": name},
                                        {"kind": "CPU", "cpuLevel": 1}]}, auth)
        start = time.monotonic()
        resp, data = self.post(
            "/mancala.v1.MatchService/WatchMatch",
            frame(0, json.dumps({"name": match["name"]}).encode()),
            "application/connect+json",
            dict(auth, **{"connect-timeout-ms": "300"}))
        took = time.monotonic() - start
        flags, end = frames(data)[-1]
        self.assertEqual(flags, 0x02)
        self.assertEqual(json.loads(end)["error"]["code"], "deadline_exceeded")
        self.assertLess(took, 5)

    # Limits, CORS --------------------------------------------------------------
    def test_a_body_over_the_limit_is_refused_before_it_is_read(self):
        resp, _ = self.post("/mancala.v1.PlayerService/CreatePlayer",
                            b"x" * (2 << 20), "application/json")
        self.assertEqual(resp.status, 413)

    def test_cors_for_an_allowed_origin_only(self):
        for origin, allowed in ((ORIGIN, True), ("http://evil.example", False)):
            conn = http.client.HTTPConnection("127.0.0.1", int(self.web_port))
            conn.request("OPTIONS", "/mancala.v1.MatchService/GetMatch",
                         headers={"Origin": origin,
                                  "Access-Control-Request-Method": "POST"})
            resp = conn.getresponse()
            resp.read()
            conn.close()
            self.assertEqual(resp.status, 204)
            self.assertEqual(resp.getheader("Access-Control-Allow-Origin"),
                             origin if allowed else None)
            if allowed:
                self.assertIn("authorization", resp.getheader(
                    "Access-Control-Allow-Headers"))
        resp, _ = self.connect_json("/grpc.health.v1.Health/Check", {},
                                    {"Origin": ORIGIN})
        self.assertEqual(resp.getheader("Access-Control-Allow-Origin"), ORIGIN)
        self.assertIn("grpc-status-details-bin",
                      resp.getheader("Access-Control-Expose-Headers"))


class ClosedTabTest(unittest.TestCase):
    """A closed tab ends its stream's inner call, so the player's presence
    ends with it: with a grace period of 0.5 s, a spectator's stream sees
    the player's seat go absent about 0.5 s after the player's connection
    closes (were the inner call left open, the seat would stay present)."""

    GRACE_S = 0.5

    def test_a_closed_tab_ends_the_players_presence(self):
        srv = harness.Server(extra=("--web-listen", "127.0.0.1:0",
                                    "--grace-seconds", str(self.GRACE_S)))
        try:
            port = int(harness.wait_for(
                lambda: (re.findall(r"web port on port (\d+)",
                                    srv.read_log()) or [None])[-1],
                "the web port"))
            player = srv.new_player("Tab")
            match = srv.matches.CreateMatch(ms.CreateMatchRequest(
                game=game_pb2.KALAH, seats=[
                    ms.Seat(kind=ms.Seat.PLAYER, player=player.name),
                    ms.Seat(kind=ms.Seat.CPU, cpu_level=1)]),
                metadata=(("authorization", "Bearer " + player.token),),
                timeout=harness.DEADLINE_S)

            def watch(token=None):
                conn = http.client.HTTPConnection("127.0.0.1", port,
                                                  timeout=30)
                headers = {"Content-Type": "application/connect+json"}
                if token:
                    headers["Authorization"] = "Bearer " + token
                conn.request("POST", "/mancala.v1.MatchService/WatchMatch",
                             body=frame(0, json.dumps(
                                 {"name": match.name}).encode()),
                             headers=headers)
                # The response takes the socket over (Connection: close).
                sock = conn.sock
                resp = conn.getresponse()
                self.assertEqual(resp.status, 200)

                def event():
                    flags, n = struct.unpack(">BI", resp.read(5))
                    return json.loads(resp.read(n))
                return sock, event

            # The player's tab: its stream keeps the seat present past the
            # grace period.
            tab, tab_event = watch(player.token)
            self.assertIn("match", tab_event())
            spectator, next_event = watch()
            self.assertIn("match", next_event())
            time.sleep(3 * self.GRACE_S)
            seat = srv.matches.GetMatch(ms.GetMatchRequest(name=match.name),
                                        timeout=harness.DEADLINE_S).seats[0]
            self.assertTrue(seat.present, "absent with the tab open")
            tab.shutdown(socket.SHUT_RDWR)  # The tab closes.
            tab.close()
            closed = time.monotonic()
            while True:
                e = next_event()
                if "presence" in e and e["presence"].get("seat", 0) == 0 \
                        and not e["presence"].get("present", False):
                    break
            took = time.monotonic() - closed
            print("seat absent %.2f s after the tab closed (grace %.1f s)" %
                  (took, self.GRACE_S))
            self.assertLess(took, self.GRACE_S + 5)
            spectator.close()
        finally:
            srv.close()


class WebRootTest(unittest.TestCase):
    """--web-root: the page's files to GET and HEAD beside the RPCs, with
    ETags for revalidation; nothing outside what the folder held at start;
    a folder that is no page refuses the start."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="web_root_test.")
        cls.files = {"index.html": b"<!doctype html><title>Mancala</title>",
                     "app.js": b"import './board.js';\n",
                     "img/board.svg": b"<svg/>"}
        for name, body in cls.files.items():
            os.makedirs(os.path.dirname(os.path.join(cls.dir, name)),
                        exist_ok=True)
            with open(os.path.join(cls.dir, name), "wb") as f:
                f.write(body)
        with open(os.path.join(cls.dir, ".secret"), "wb") as f:
            f.write(b"token")
        cls.srv = harness.Server(extra=("--web-listen", "127.0.0.1:0",
                                        "--web-root", cls.dir))
        cls.port = int(harness.wait_for(
            lambda: (re.findall(r"web port on port (\d+)",
                                cls.srv.read_log()) or [None])[-1],
            "the web port"))

    @classmethod
    def tearDownClass(cls):
        cls.srv.close()
        shutil.rmtree(cls.dir)

    def request(self, method, path, headers=None, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp, data

    def test_the_page_and_its_files(self):
        resp, data = self.request("GET", "/")
        self.assertEqual(resp.status, 200)
        self.assertEqual(data, self.files["index.html"])
        self.assertEqual(resp.getheader("Content-Type"),
                         "text/html; charset=utf-8")
        self.assertEqual(resp.getheader("Cache-Control"), "no-cache")
        self.assertEqual(resp.getheader("X-Content-Type-Options"), "nosniff")
        etag = resp.getheader("ETag")
        self.assertRegex(etag, r'^"[0-9a-f]{16}"$')
        # An invite link's query names the same page.
        resp, data = self.request("GET", "/?join=AB12CD")
        self.assertEqual((resp.status, data), (200, self.files["index.html"]))
        resp, data = self.request("GET", "/app.js")
        self.assertEqual((resp.status, data), (200, self.files["app.js"]))
        self.assertEqual(resp.getheader("Content-Type"),
                         "text/javascript; charset=utf-8")
        resp, data = self.request("GET", "/img/board.svg")
        self.assertEqual(resp.getheader("Content-Type"), "image/svg+xml")

        # Revalidation: the same ETag is 304 with no body.
        resp, data = self.request("GET", "/", {"If-None-Match": etag})
        self.assertEqual((resp.status, data), (304, b""))
        self.assertEqual(resp.getheader("ETag"), etag)
        resp, data = self.request("GET", "/", {"If-None-Match": '"0"'})
        self.assertEqual(resp.status, 200)

        # HEAD: the length, no body.
        resp, data = self.request("HEAD", "/app.js")
        self.assertEqual(resp.status, 200)
        self.assertEqual(resp.getheader("Content-Length"),
                         str(len(self.files["app.js"])))
        self.assertEqual(data, b"")

    def test_nothing_else(self):
        for path in ("/missing.js", "/.secret", "/img/", "/../etc/passwd",
                     "/img/../app.js", "/%2e%2e/%2e%2e/etc/passwd",
                     "/mancala.v1.MatchService/GetMatch"):
            resp, data = self.request("GET", path)
            self.assertEqual(resp.status, 404, path)
            self.assertNotIn(b"token", data)
        resp, _ = self.request("PUT", "/index.html", body=b"x")
        self.assertEqual(resp.status, 405)
        self.assertIn("GET", resp.getheader("Allow"))

    def test_the_rpcs_beside_the_files(self):
        resp, data = self.request("POST", "/grpc.health.v1.Health/Check",
                                  {"Content-Type": "application/json"}, b"{}")
        self.assertEqual((resp.status, json.loads(data)),
                         (200, {"status": "SERVING"}))

    def test_a_folder_that_is_no_page_refuses_the_start(self):
        empty = tempfile.mkdtemp(prefix="web_root_test.")
        dbs = tempfile.mkdtemp(prefix="web_root_test.")
        try:
            def start(*args):
                return subprocess.run(
                    [MANCALAD, "--listen", "127.0.0.1:0", "--db",
                     os.path.join(dbs, "m.db")] + list(args),
                    capture_output=True, text=True, timeout=60)
            for root, why in ((empty, "has no index.html"),
                              (os.path.join(empty, "gone"), "is not a folder")):
                proc = start("--web-listen", "127.0.0.1:0", "--web-root", root)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn(why, proc.stdout + proc.stderr)
            proc = start("--web-root", self.dir)  # No --web-listen.
            self.assertNotEqual(proc.returncode, 0)
            self.assertIn("--web-listen", proc.stdout + proc.stderr)
        finally:
            shutil.rmtree(empty)
            shutil.rmtree(dbs)


class BrowserAddressTest(unittest.TestCase):
    """The creation limit is kept for the browser's own address: calls
    through the web port and native ones from the same host share one
    bucket (were the in-process peer used, they would not)."""

    def test_web_and_native_calls_share_the_hosts_bucket(self):
        srv = harness.Server(extra=("--web-listen", "127.0.0.1:0",
                                    "--create-burst", "2",
                                    "--create-per-minute", "0.01"))
        try:
            port = harness.wait_for(
                lambda: (re.findall(r"web port on port (\d+)",
                                    srv.read_log()) or [None])[-1],
                "the web port")
            codes = []
            for _ in range(2):
                conn = http.client.HTTPConnection("127.0.0.1", int(port))
                conn.request("POST", "/mancala.v1.PlayerService/CreatePlayer",
                             body=b"{}",
                             headers={"Content-Type": "application/json"})
                codes.append(conn.getresponse().status)
                conn.close()
            self.assertEqual(codes, [200, 200])
            with self.assertRaises(grpc.RpcError) as caught:
                srv.players.CreatePlayer(ps.CreatePlayerRequest(),
                                         timeout=harness.DEADLINE_S)
            self.assertEqual(caught.exception.code(),
                             grpc.StatusCode.RESOURCE_EXHAUSTED)
        finally:
            srv.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
