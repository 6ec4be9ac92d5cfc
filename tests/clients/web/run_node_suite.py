#!/usr/bin/env python3
"""Runs the browser clients' suite (connect_test.mjs, `node --test`) against
a real mancalad's web port: one node on SQLite, or with --postgres two nodes
on one PostgreSQL database (tests/e2e/two_nodes.py), where the suite plays
through node A and watches through node B.

usage: run_node_suite.py MANCALAD STUBS_DIR NODE SUITE [--postgres]
                         [-- MANCALAD_ARG...]
  STUBS_DIR  build/clients/python (the harness's gRPC stubs)
  NODE       Debian's node
  SUITE      connect_test.mjs or page_test.mjs, in the build's copy of
             clients/web's tree (its node_modules, gen/ and dist/ made by
             the fixture clients.web.NpmCi)
  MANCALAD_ARG  more flags for every mancalad (page_test.mjs: --web-root
             and a short --grace-seconds)

The suite's exit status is this script's; a node that exits early fails it.
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MANCALAD, STUBS, NODE, SUITE = sys.argv[1:5]
OWN, EXTRA = (sys.argv[5:sys.argv.index("--")], sys.argv[sys.argv.index("--") + 1:]) \
    if "--" in sys.argv else (sys.argv[5:], [])
POSTGRES = "--postgres" in OWN
ORIGIN = "http://site.example"
WEB = ("--web-listen", "127.0.0.1:0", "--web-allowed-origins",
       ORIGIN) + tuple(EXTRA)
SUITE_TIMEOUT_S = 600


def web_port(read_log, what):
    import harness
    return harness.wait_for(
        lambda: (re.findall(r"web port on port (\d+)", read_log()) or
                 [None])[-1], "the web port of " + what)


def run_suite(url, watch_url):
    env = dict(os.environ, MANCALA_WEB_URL=url,
               MANCALA_WEB_WATCH_URL=watch_url, MANCALA_WEB_ORIGIN=ORIGIN)
    print("node --test %s: calls to %s, WatchMatch to %s" %
          (SUITE, url, watch_url), flush=True)
    return subprocess.run([NODE, "--expose-gc", "--test", SUITE], env=env,
                          timeout=SUITE_TIMEOUT_S).returncode


def main():
    if POSTGRES:
        sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e"))
        import two_nodes
        cluster = two_nodes.Cluster(MANCALAD, STUBS)
        rc = 1
        try:
            a = cluster.node("A", WEB)
            b = cluster.node("B", WEB)
            url_a = "http://127.0.0.1:%s" % web_port(a.read_log, "node A")
            url_b = "http://127.0.0.1:%s" % web_port(b.read_log, "node B")
            rc = run_suite(url_a, url_b)
        finally:
            if rc != 0:
                cluster.report([("matches", "SELECT id, status, ply FROM "
                                 "matches ORDER BY id")])
            cluster.close(keep_logs=rc != 0)
        return rc
    os.environ["MANCALAD"] = MANCALAD
    sys.path.insert(0, STUBS)
    sys.path.insert(0, os.path.join(HERE, ".."))
    import harness
    srv = harness.Server(extra=WEB)
    rc = 1
    try:
        url = "http://127.0.0.1:%s" % web_port(srv.read_log, "mancalad")
        rc = run_suite(url, url)
    finally:
        if rc != 0:
            print("---- mancalad's log\n" + srv.read_log()[-20000:])
        srv.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
