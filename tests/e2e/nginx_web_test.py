#!/usr/bin/env python3
"""deploy/nginx-web.conf, run by a real nginx in front of a real mancalad's
web port: the example as a site would use it, with only its ports and a
throwaway self-signed certificate changed. Through it:
  - a browser's HTTP/2 (curl --http2) Connect call answers, on HTTP/2;
  - a Connect stream (WatchMatch) delivers its first message while the
    stream stays open (buffering off), then a move played natively;
  - an error keeps its status and ErrorInfo details.

usage: nginx_web_test.py MANCALAD STUBS_DIR (build/clients/python)
"""

import base64
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import unittest

import two_nodes

os.environ["MANCALAD"] = sys.argv[1]
two_nodes.load_stubs(sys.argv[2])
del sys.argv[1:3]
import harness  # noqa: E402
from mancala.v1 import game_pb2  # noqa: E402
from mancala.v1 import match_service_pb2 as ms  # noqa: E402
from mancala.v1 import player_service_pb2 as ps  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

CONF = os.path.join(HERE, "..", "..", "deploy", "nginx-web.conf")
NGINX = "/usr/sbin/nginx"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_conf(tls_port, web_port, cert, key):
    """The example with this test's ports and certificate, nothing else."""
    with open(CONF) as f:
        conf = f.read()
    edits = [
        (r"listen 443 ssl http2;", "listen 127.0.0.1:%d ssl http2;" %
         tls_port),
        (r"\n\s*listen \[::\]:443 ssl http2;", ""),
        (r"server 127\.0\.0\.1:8080;", "server 127.0.0.1:%d;" % web_port),
        (r"ssl_certificate\s+\S+;", "ssl_certificate %s;" % cert),
        (r"ssl_certificate_key\s+\S+;", "ssl_certificate_key %s;" % key),
    ]
    for pattern, repl in edits:
        conf, n = re.subn(pattern, repl, conf)
        assert n == 1, "deploy/nginx-web.conf has no %r" % pattern
    return conf


def envelope(flags, payload):
    return struct.pack(">BI", flags, len(payload)) + payload


class NginxWebTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="mancala_nginx_")
        cls.srv = harness.Server(extra=("--web-listen", "127.0.0.1:0"))
        web_port = int(harness.wait_for(
            lambda: (re.findall(r"web port on port (\d+)",
                                cls.srv.read_log()) or [None])[-1],
            "the web port"))
        cert = os.path.join(cls.dir, "cert.pem")
        key = os.path.join(cls.dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                        "-nodes", "-days", "1", "-subj", "/CN=localhost",
                        "-keyout", key, "-out", cert], check=True,
                       capture_output=True)
        cls.port = free_port()
        with open(os.path.join(cls.dir, "site.conf"), "w") as f:
            f.write(site_conf(cls.port, web_port, cert, key))
        # The rest of an nginx.conf, all under the test's folder.
        d = cls.dir
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write("%s\npid %s/nginx.pid;\nerror_log %s/error.log info;\n"
                    "worker_processes 1;\nevents {}\nhttp {\n"
                    "  access_log %s/access.log;\n"
                    "  client_body_temp_path %s/body;\n"
                    "  proxy_temp_path %s/proxy;\n"
                    "  include %s/site.conf;\n}\n" %
                    ("user root;" if os.geteuid() == 0 else "", d, d, d, d, d,
                     d))
        cls.nginx = subprocess.Popen(
            [NGINX, "-p", d, "-c", os.path.join(d, "nginx.conf"), "-g",
             "daemon off;"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def up():
            if cls.nginx.poll() is not None:
                raise AssertionError("nginx exited: %s" %
                                     cls.nginx.stdout.read().decode())
            try:
                socket.create_connection(("127.0.0.1", cls.port), 1).close()
                return True
            except OSError:
                return False
        harness.wait_for(up, "nginx to listen")
        cls.tls = ssl.create_default_context(cafile=cert)
        cls.tls.check_hostname = False

    @classmethod
    def tearDownClass(cls):
        cls.nginx.terminate()
        cls.nginx.wait(timeout=30)
        cls.srv.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def conn(self):
        return http.client.HTTPSConnection("127.0.0.1", self.port,
                                           context=self.tls, timeout=30)

    def test_connect_over_http2(self):
        out = subprocess.run(
            ["curl", "-sS", "--http2", "-k", "-o", "-", "-w",
             "\\n%{http_version} %{http_code}", "-H",
             "Content-Type: application/json", "--data", "{}",
             "https://127.0.0.1:%d/grpc.health.v1.Health/Check" % self.port],
            check=True, capture_output=True, text=True, timeout=30).stdout
        body, status = out.rsplit("\n", 1)
        self.assertEqual(status, "2 200")
        self.assertEqual(json.loads(body), {"status": "SERVING"})

    def test_a_stream_is_not_buffered(self):
        player = self.srv.players.CreatePlayer(ps.CreatePlayerRequest(),
                                               timeout=harness.DEADLINE_S)
        md = (("authorization", "Bearer " + player.token),)
        match = self.srv.matches.CreateMatch(ms.CreateMatchRequest(
            game=game_pb2.KALAH, seats=[
                ms.Seat(kind=ms.Seat.PLAYER, player=player.player.name),
                ms.Seat(kind=ms.Seat.CPU, cpu_level=1)]),
            metadata=md, timeout=harness.DEADLINE_S)
        c = self.conn()
        c.request("POST", "/mancala.v1.MatchService/WatchMatch",
                  body=envelope(0, json.dumps({"name": match.name}).encode()),
                  headers={"Content-Type": "application/connect+json"})
        resp = c.getresponse()
        self.assertEqual(resp.status, 200)

        def message():
            flags, n = struct.unpack(">BI", resp.read(5))
            return flags, json.loads(resp.read(n))
        # The first message comes while the stream is open: nothing waits
        # for a buffer to fill or for the end.
        flags, first = message()
        self.assertEqual(flags, 0)
        self.assertEqual(first["match"]["name"], match.name)
        self.srv.matches.SubmitMove(ms.SubmitMoveRequest(
            name=match.name, pit=2), metadata=md, timeout=harness.DEADLINE_S)
        flags, second = message()
        self.assertEqual(flags, 0)
        self.assertEqual(second["move"]["pit"], 2)
        c.close()

    def test_an_error_keeps_its_details(self):
        c = self.conn()
        c.request("POST", "/mancala.v1.MatchService/GetMatch",
                  body=b'{"name": "matches/nope"}',
                  headers={"Content-Type": "application/json"})
        resp = c.getresponse()
        error = json.loads(resp.read())
        self.assertEqual(resp.status, 404)
        self.assertEqual(error["code"], "not_found")
        detail = error["details"][0]
        self.assertEqual(detail["type"], "google.rpc.ErrorInfo")
        value = detail["value"]
        self.assertNotIn("=", value)
        self.assertIn(b"MATCH_NOT_FOUND",
                      base64.b64decode(value + "=" * (-len(value) % 4)))
        c.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
