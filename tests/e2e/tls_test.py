#!/usr/bin/env python3
"""TLS on mancalad's gRPC port, as operators and clients meet it: a throwaway
CA and server certificates (127.0.0.1 in their subjectAltName) made with
openssl, a real mancalad, the Python client and the `mancala` CLI.

Checks:
- a missing file, or a key that does not match the certificate, stops the
  server at start with exit 1 and a message naming the flag;
- a TLS client verifying against the CA plays; a plaintext client and the
  CLI without the CA are refused (UNAVAILABLE); `mancala --tls-ca-file`
  works;
- rotation: the files are replaced under an open WatchMatch stream; a new
  connection sees the new certificate's serial within seconds, the stream
  keeps receiving moves made on the old connection, and the log names both
  serials;
- the web port (a Connect stream) and the metrics port serve the same
  certificate over TLS, refuse plain HTTP, and follow the rotation; the
  web stream opened before it goes on too;
- a broken file later (not a certificate) is logged and the last good
  certificate kept;
- mutual TLS (--tls-client-ca-file): a client without a certificate is
  refused, one with a certificate the CA signed plays;
- the plaintext health port (--health-listen, for Kubernetes' gRPC
  probes) answers liveness and readiness without TLS and serves nothing
  else;
- SIGTERM: exit 0, and the staged copies of the key are removed.

- the Python example (clients/python/play_vs_cpu.py --tls-ca-file) plays
  a match over TLS.

usage: tls_test.py MANCALAD MANCALA STUBS_DIR (build/clients/python)
"""

import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time

DEADLINE_S = 30


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def wait_for(cond, what, timeout=DEADLINE_S):
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if cond():
            return
        time.sleep(0.05)
    fail("timed out waiting for " + what)


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_certificates(d):
    """ca.pem; server certificates 1001 and 1002 (s1001.pem/.key, ...) and
    a client certificate 2001, all signed by the CA."""
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", d + "/ca.key", "-out",
            d + "/ca.pem", "-days", "2", "-subj", "/CN=mancala test CA")
    with open(d + "/san.ext", "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name, serial, ext in (("s1001", "0x1001", True),
                              ("s1002", "0x1002", True),
                              ("client", "0x2001", False)):
        openssl("req", *ec, "-keyout", d + "/%s.key" % name, "-out",
                d + "/%s.csr" % name, "-subj", "/CN=" + name)
        openssl("x509", "-req", "-in", d + "/%s.csr" % name, "-CA",
                d + "/ca.pem", "-CAkey", d + "/ca.key", "-set_serial", serial,
                "-days", "2", "-out", d + "/%s.pem" % name,
                *(["-extfile", d + "/san.ext"] if ext else []))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def replace(path, data):
    """As a careful operator (or kubelet) does: a whole new file at once."""
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.rename(path + ".tmp", path)


class Server:
    def __init__(self, mancalad, d, name, extra):
        self.log_path = os.path.join(d, name + ".log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ, TMPDIR=os.path.join(d, name + "-tmp"))
        os.makedirs(env["TMPDIR"])
        self.tmp = env["TMPDIR"]
        self.proc = subprocess.Popen(
            [mancalad, "--listen", "127.0.0.1:0", "--db", ":memory:",
             "--create-burst", "0", *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.port = None
        self.health_port = self.web_port = self.metrics_port = None

    def text(self):
        return open(self.log_path).read()

    def wait_listening(self):
        """Waits for the port lines of every port asked for (mancalad logs
        them one after another once all listen)."""
        lines = {"port": r"listening on port (\d+)"}
        for flag, key, line in (
                ("--health-listen", "health_port", r"health port on port"),
                ("--web-listen", "web_port", r"web port on port"),
                ("--metrics-listen", "metrics_port", r"metrics on port")):
            setattr(self, key, None)
            if flag in self.proc.args:
                lines[key] = line + r" (\d+)"

        def listening():
            found = {k: re.search(v, self.text()) for k, v in lines.items()}
            if all(found.values()):
                for k, m in found.items():
                    setattr(self, k, int(m.group(1)))
                return True
            return self.proc.poll() is not None
        wait_for(listening, "mancalad to start")
        if self.port is None:
            fail("mancalad did not start:\n" + self.text())
        return "127.0.0.1:%d" % self.port

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(DEADLINE_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("mancalad did not stop on SIGTERM")
        if rc != 0:
            fail("mancalad exited %d:\n%s" % (rc, self.text()))
        left = os.listdir(self.tmp)
        if left:
            fail("the staged TLS copies are left behind: %s" % left)


def served_serial(port, ca):
    """The serial of the certificate a new TLS connection is shown."""
    ctx = ssl.create_default_context(cafile=ca)
    ctx.set_alpn_protocols(["h2"])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        with ctx.wrap_socket(sock, server_hostname="127.0.0.1") as tls:
            return tls.getpeercert()["serialNumber"]


def https(port, ca):
    return http.client.HTTPSConnection(
        "127.0.0.1", port, timeout=DEADLINE_S,
        context=ssl.create_default_context(cafile=ca))


def plain_http_refused(port, path):
    """A plaintext HTTP request to a TLS port gets no HTTP answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        fail("plain HTTP on TLS port %d answered %d" % (port, resp.status))
    except (http.client.HTTPException, OSError):
        pass
    finally:
        conn.close()


class WebStream:
    """A Connect WatchMatch stream over the web port's TLS."""

    def __init__(self, port, ca, match, token):
        body = json.dumps({"name": match}).encode()
        self.conn = https(port, ca)
        self.conn.request(
            "POST", "/mancala.v1.MatchService/WatchMatch",
            body=struct.pack(">BI", 0, len(body)) + body,
            headers={"Content-Type": "application/connect+json",
                     "Authorization": "Bearer " + token})
        self.resp = self.conn.getresponse()
        if self.resp.status != 200:
            fail("web WatchMatch over TLS: HTTP %d" % self.resp.status)

    def ply(self):
        """The ply of the next event (a snapshot or a move)."""
        flags, n = struct.unpack(">BI", self.resp.read(5))
        event = json.loads(self.resp.read(n))
        if flags != 0:
            fail("the web stream ended: %s" % event)
        if "move" in event:
            return int(event["move"]["ply"])
        return int(event["match"].get("ply", 0))


def start_fails(mancalad, d, extra, expect):
    r = subprocess.run([mancalad, "--listen", "127.0.0.1:0", "--db",
                        ":memory:", *extra],
                       capture_output=True, text=True, timeout=DEADLINE_S)
    out = r.stdout + r.stderr
    if r.returncode != 1 or expect not in out:
        fail("start with %s: exit %d, wanted 1 and %r in:\n%s" %
             (extra, r.returncode, expect, out))
    print("refused at start (exit 1): " + out.strip().splitlines()[-1])


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    mancalad, mancala, stubs = sys.argv[1:]
    sys.path.insert(0, stubs)
    import grpc
    from mancala.v1 import game_pb2
    from mancala.v1 import match_service_pb2 as ms
    from mancala.v1 import match_service_pb2_grpc as ms_grpc
    from mancala.v1 import player_service_pb2 as ps
    from mancala.v1 import player_service_pb2_grpc as ps_grpc

    d = tempfile.mkdtemp(prefix="tls_test.")
    try:
        make_certificates(d)
        ca = d + "/ca.pem"
        cert, key = d + "/tls.crt", d + "/tls.key"
        shutil.copy(d + "/s1001.pem", cert)
        shutil.copy(d + "/s1001.key", key)

        # Bad files at start: exit 1, the flag named.
        start_fails(mancalad, d, ["--tls-cert-file", cert, "--tls-key-file",
                                  d + "/missing.key"],
                    "--tls-key-file %s/missing.key: cannot read it" % d)
        start_fails(mancalad, d, ["--tls-cert-file", cert, "--tls-key-file",
                                  d + "/s1002.key"], "does not match")
        start_fails(mancalad, d, ["--tls-cert-file", d + "/san.ext",
                                  "--tls-key-file", key],
                    "no PEM certificate in it")

        server = Server(mancalad, d, "tls",
                        ["--tls-cert-file", cert, "--tls-key-file", key,
                         "--web-listen", "127.0.0.1:0",
                         "--metrics-listen", "127.0.0.1:0",
                         "--health-listen", "127.0.0.1:0"])
        target = server.wait_listening()
        tls_creds = grpc.ssl_channel_credentials(read(ca))

        # Plaintext clients are refused.
        def refused(channel, who):
            """`channel`'s first call fails to connect (UNAVAILABLE)."""
            try:
                ps_grpc.PlayerServiceStub(channel).CreatePlayer(
                    ps.CreatePlayerRequest(), timeout=5)
                fail(who + " was served")
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.UNAVAILABLE:
                    fail("%s: %s, wanted UNAVAILABLE" % (who, e.code()))
            channel.close()
        refused(grpc.insecure_channel(target),
                "a plaintext client on the TLS port")
        cli = subprocess.run([mancala, "health", "--server", target],
                             capture_output=True, text=True, timeout=60)
        if cli.returncode != 1 or "UNREACHABLE" not in cli.stdout:
            fail("plaintext `mancala health`: %d %s" % (cli.returncode,
                                                         cli.stdout))
        cli = subprocess.run([mancala, "--tls-ca-file", ca, "health",
                              "--server", target],
                             capture_output=True, text=True, timeout=60)
        if cli.returncode != 0 or cli.stdout.strip() != "SERVING":
            fail("`mancala --tls-ca-file health`: %d %s %s" %
                 (cli.returncode, cli.stdout, cli.stderr))
        print("TLS port: plaintext refused, `mancala --tls-ca-file` SERVING")
        for port, path in ((server.web_port, "/"),
                           (server.metrics_port, "/metrics")):
            plain_http_refused(port, path)
        conn = https(server.metrics_port, ca)
        conn.request("GET", "/metrics")
        scrape = conn.getresponse().read().decode()
        conn.close()
        if "grpc_server_handled_total" not in scrape:
            fail("no metrics over TLS:\n" + scrape[:500])
        print("web and metrics ports: TLS, plain HTTP refused")
        health = "127.0.0.1:%d" % server.health_port
        for service in ("liveness", "readiness"):
            cli = subprocess.run([mancala, "health", "--server", health,
                                  "--service", service],
                                 capture_output=True, text=True, timeout=60)
            if cli.returncode != 0 or cli.stdout.strip() != "SERVING":
                fail("plaintext health port, %s: %d %s %s" % (
                    service, cli.returncode, cli.stdout, cli.stderr))
        only_health = grpc.insecure_channel(health)
        try:
            ps_grpc.PlayerServiceStub(only_health).CreatePlayer(
                ps.CreatePlayerRequest(), timeout=DEADLINE_S)
            fail("the health port served PlayerService")
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNIMPLEMENTED:
                fail("PlayerService on the health port: %s" % e.code())
        only_health.close()
        print("health port: plaintext liveness and readiness SERVING, "
              "nothing else served")
        example = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "..", "..", "clients", "python",
                               "play_vs_cpu.py")
        played = subprocess.run(
            [sys.executable, example, "--server", target, "--tls-ca-file", ca],
            capture_output=True, text=True, timeout=120,
            env=dict(os.environ, PYTHONPATH=stubs))
        if played.returncode != 0 or "result: " not in played.stdout:
            fail("the Python example over TLS: %d\n%s%s" % (
                played.returncode, played.stdout, played.stderr))
        print("the Python example over TLS: " +
              played.stdout.strip().splitlines()[-1])

        # A match over TLS, watched on its own connection.
        channel = grpc.secure_channel(target, tls_creds)
        players = ps_grpc.PlayerServiceStub(channel)
        matches = ms_grpc.MatchServiceStub(channel)
        seats, md, tokens = [], [], []
        for name in ("Ada", "Bo"):
            r = players.CreatePlayer(ps.CreatePlayerRequest(display_name=name),
                                     timeout=DEADLINE_S)
            seats.append(r.player.name)
            md.append((("authorization", "Bearer " + r.token),))
            tokens.append(r.token)
        match = matches.CreateMatch(
            ms.CreateMatchRequest(
                game=game_pb2.KALAH,
                seats=[ms.Seat(kind=ms.Seat.PLAYER, player=p) for p in seats]),
            metadata=md[0], timeout=DEADLINE_S)
        watch_channel = grpc.secure_channel(target, tls_creds)
        plies = []
        ended = []
        stream = ms_grpc.MatchServiceStub(watch_channel).WatchMatch(
            ms.WatchMatchRequest(name=match.name), metadata=md[0])

        def read_stream():
            try:
                for ev in stream:
                    if ev.WhichOneof("event") == "move":
                        plies.append(ev.move.ply)
                    elif ev.WhichOneof("event") == "match":
                        plies.append(ev.match.ply)  # Where it starts.
                ended.append("finished")
            except grpc.RpcError as e:
                ended.append(e.code())
        threading.Thread(target=read_stream, daemon=True).start()
        wait_for(lambda: plies == [0], "the stream's first snapshot")
        web_stream = WebStream(server.web_port, ca, match.name, tokens[0])
        if web_stream.ply() != 0:
            fail("the web stream did not open with the match at ply 0")

        def move():
            nonlocal match
            match = matches.SubmitMove(
                ms.SubmitMoveRequest(name=match.name, pit=match.legal_pits[0],
                                     expected_ply=match.ply),
                metadata=md[match.to_move], timeout=DEADLINE_S).match
            want = match.ply
            wait_for(lambda: plies and plies[-1] == want,
                     "the watcher to see ply %d (has %s, ended %s)" %
                     (want, plies, ended))
        move()

        # Rotation under the open stream.
        before = served_serial(server.port, ca)
        replace(cert, read(d + "/s1002.pem"))
        replace(key, read(d + "/s1002.key"))
        wait_for(lambda: served_serial(server.port, ca) == "1002",
                 "a new connection to see serial 1002", timeout=15)
        after = served_serial(server.port, ca)
        for port in (server.web_port, server.metrics_port):
            wait_for(lambda: served_serial(port, ca) == "1002",
                     "port %d to serve serial 1002" % port, timeout=5)
        move()  # On the old connection; the stream sees it.
        if ended:
            fail("the watch stream ended at the rotation: %s" % ended)
        web_plies = [web_stream.ply(), web_stream.ply()]
        if web_plies != [1, 2]:
            fail("the web stream over TLS saw plies %s, wanted [1, 2]" %
                 web_plies)
        fresh = grpc.secure_channel(target, tls_creds)
        ps_grpc.PlayerServiceStub(fresh).CreatePlayer(
            ps.CreatePlayerRequest(), timeout=DEADLINE_S)
        fresh.close()
        if "TLS certificate reloaded: serial 1002" not in server.text():
            fail("no reload line in the log:\n" + server.text())
        print("rotation: serial %s before, %s after (gRPC, web and metrics "
              "ports); the open WatchMatch streams (gRPC and web) saw ply %d "
              "after it" % (before, after, plies[-1]))

        # A broken file is logged; the last good certificate stays.
        replace(cert, b"not a certificate\n")
        wait_for(lambda: "TLS files not reloaded, keeping serial 1002"
                 in server.text(), "the log to report the broken file")
        if served_serial(server.port, ca) != "1002":
            fail("a broken file replaced the certificate")
        move()
        print("broken file: logged, serial 1002 still served")
        stream.cancel()
        web_stream.conn.close()
        channel.close()
        watch_channel.close()
        server.stop()

        # Mutual TLS.
        replace(cert, read(d + "/s1001.pem"))
        server = Server(mancalad, d, "mtls",
                        ["--tls-cert-file", cert, "--tls-key-file",
                         d + "/s1001.key", "--tls-client-ca-file", ca,
                         "--metrics-listen", "127.0.0.1:0",
                         "--web-listen", "127.0.0.1:0"])
        target = server.wait_listening()
        refused(grpc.secure_channel(target, tls_creds),
                "a client without a certificate under mTLS")
        signed = grpc.secure_channel(target, grpc.ssl_channel_credentials(
            read(ca), read(d + "/client.key"), read(d + "/client.pem")))
        ps_grpc.PlayerServiceStub(signed).CreatePlayer(
            ps.CreatePlayerRequest(), timeout=DEADLINE_S)
        signed.close()
        # /metrics asks for the client certificate too; the web port
        # (browsers) does not.
        try:
            conn = https(server.metrics_port, ca)
            conn.request("GET", "/metrics")
            fail("metrics under mTLS answered a client without a "
                 "certificate: %d" % conn.getresponse().status)
        except (ssl.SSLError, http.client.HTTPException, OSError):
            pass
        ctx = ssl.create_default_context(cafile=ca)
        ctx.load_cert_chain(d + "/client.pem", d + "/client.key")
        conn = http.client.HTTPSConnection("127.0.0.1", server.metrics_port,
                                           timeout=DEADLINE_S, context=ctx)
        conn.request("GET", "/metrics")
        if conn.getresponse().status != 200:
            fail("metrics under mTLS refused a signed client")
        conn = https(server.web_port, ca)
        conn.request("POST", "/mancala.v1.PlayerService/CreatePlayer",
                     body=b"{}", headers={"Content-Type": "application/json"})
        if conn.getresponse().status != 200:
            fail("the web port under mTLS refused a browser")
        server.stop()
        print("mTLS: a client without a certificate refused (gRPC, "
              "metrics), a signed one served; browsers need none")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print("PASS")


if __name__ == "__main__":
    main()
