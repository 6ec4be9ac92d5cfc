# Shared by the end-to-end scripts: start mancalad on a free port and wait
# until it says which.

# start_server MANCALAD DB LOG [FLAGS...]: sets SERVER_PID and PORT. An empty
# DB passes no --db (for --storage postgres).
start_server() {
  local bin=$1 db=$2 log=$3
  shift 3
  [ -n "$db" ] && set -- --db "$db" "$@"
  # The log exists before the loop below reads it: the redirection of a
  # background command happens in the child, maybe after our first read.
  : >"$log"
  # The scripts create players freely: the per-address creation limit has
  # tests of its own (tests/services/api/limits_test.cc).
  "$bin" --listen 127.0.0.1:0 --create-burst 0 "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  PORT=""
  for _ in $(seq 1 200); do
    PORT=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$PORT" ] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "FAIL: mancalad did not start:"; cat "$log"; return 1
}

fail() { echo "FAIL: $*"; exit 1; }

# wait_for FILE REGEX SECONDS: until FILE has a line matching REGEX.
wait_for() {
  for _ in $(seq 1 $(($3 * 20))); do
    grep -qE "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  echo "--- $1:"; cat "$1" 2>/dev/null; fail "timed out waiting for /$2/ in $1"
}

# ranked_match MANCALA SERVER DIR: Alice and Bob find each other with
# `mancala queue --ranked` and play a Kalah match to the end. Sets
# MATCH, ALICE, BOB (players/...), ALICE_TOKEN and BOB_TOKEN; the outputs
# are DIR/alice.out and DIR/bob.out.
ranked_match() {
  local mancala=$1 server=$2 dir=$3
  "$mancala" queue --server "$server" --game kalah --ranked --name Alice \
    --auto >"$dir/alice.out" 2>&1 &
  local a=$!
  wait_for "$dir/alice.out" "searching" 10
  "$mancala" queue --server "$server" --game kalah --ranked --name Bob \
    --auto >"$dir/bob.out" 2>&1 &
  local b=$!
  wait "$a" || { cat "$dir/alice.out"; fail "Alice's client failed"; }
  wait "$b" || { cat "$dir/bob.out"; fail "Bob's client failed"; }
  MATCH=$(sed -n 's/^Found \(matches\/[0-9a-f]*\),.*/\1/p' "$dir/alice.out")
  ALICE=$(sed -n 's/^You are Alice (\(players\/[0-9a-f]*\),.*/\1/p' "$dir/alice.out")
  BOB=$(sed -n 's/^You are Bob (\(players\/[0-9a-f]*\),.*/\1/p' "$dir/bob.out")
  ALICE_TOKEN=$(sed -n 's/.*, token \([0-9a-f]*\))\.$/\1/p' "$dir/alice.out")
  BOB_TOKEN=$(sed -n 's/.*, token \([0-9a-f]*\))\.$/\1/p' "$dir/bob.out")
  [ -n "$MATCH" ] && [ -n "$ALICE" ] && [ -n "$BOB" ] ||
    fail "no match, Alice or Bob in the queue output"
}

# metrics_port LOG: the metrics port mancalad logged (--metrics-listen).
metrics_port() {
  sed -n 's/.*metrics on port \([0-9][0-9]*\).*/\1/p' "$1" | head -1
}

# http_get PYTHON URL: the body, or exit 1 (no curl on a bare machine).
http_get() {
  "$1" -c 'import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode(), end="")' "$2"
}

# web_port LOG: the browsers' port mancalad logged (--web-listen).
web_port() {
  sed -n 's/.*web port on port \([0-9][0-9]*\).*/\1/p' "$1" | head -1
}

# serves_page PYTHON URL INDEX_HTML [CA_FILE]: GET URL answers 200 with
# text/html holding the <title> of INDEX_HTML (the board page's source), or
# the test fails (an installed or packaged page, served with --web-root).
# An https URL's certificate is checked against CA_FILE.
serves_page() {
  local title out
  title=$(sed -n 's:.*\(<title>.*</title>\).*:\1:p' "$3" | head -n 1)
  [ -n "$title" ] || fail "no <title> in $3"
  out=$("$1" -c 'import ssl, sys, urllib.error, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[3]) if sys.argv[3] else None
try:
    r = urllib.request.urlopen(sys.argv[1], timeout=10, context=ctx)
except urllib.error.HTTPError as e:  # Its status, said below.
    r = e
print(r.status, r.headers.get("Content-Type"),
      sys.argv[2] in r.read().decode(errors="replace"))' "$2" "$title" \
      "${4:-}" 2>&1) ||
    fail "GET $2: $(tail -n 1 <<<"$out")"
  [[ "$out" == "200 text/html"*" True" ]] ||
    fail "GET $2: $out (want 200, text/html and $title)"
}

# free_port PYTHON: a loopback TCP port nobody listens on right now.
free_port() {
  "$1" -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# free_low_port PYTHON: a loopback TCP port below Linux's ephemeral range
# (32768 up) that nothing listens on, for a server whose port must be
# chosen before it starts (a PostgreSQL cluster of deploy/pg.sh): a port
# the kernel is not handing out to clients meanwhile.
free_low_port() {
  "$1" -c 'import random, socket
for _ in range(200):
    p = random.randrange(20000, 32000)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        s.close()'
}

# work_dir: WORK, a temp folder, and an EXIT trap (cleanup_work) that
# kills mancalad (SERVER_PID) and every pid in PIDS, then removes WORK.
work_dir() {
  WORK=$(mktemp -d)
  PIDS=()
  trap cleanup_work EXIT
}
cleanup_work() {
  for p in "${PIDS[@]}" ${SERVER_PID:-}; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}

# expect_fail TEXT COMMAND...: the command exits non-zero and says TEXT.
expect_fail() {
  local want=$1 out rc
  shift
  set +e
  out=$("$@" 2>&1); rc=$?
  set -e
  [ $rc -ne 0 ] || fail "$* exited 0: $out"
  [[ "$out" == *"$want"* ]] || fail "$*: no '$want' in: $out"
}

# serve_ranked_match MANCALAD MANCALA: in WORK (work_dir), mancalad with an
# admin token (exported as MANCALA_ADMIN_TOKEN, as the CLI reads it) and
# one finished ranked match (ranked_match). Sets S (host:port) and ID.
serve_ranked_match() {
  export MANCALA_ADMIN_TOKEN=e2e-admin-token
  start_server "$1" "$WORK/db" "$WORK/server.log" --tick-ms 50 \
    --admin-token "$MANCALA_ADMIN_TOKEN"
  S=127.0.0.1:$PORT
  ranked_match "$2" "$S" "$WORK"
  ID=${MATCH#matches/}
}

# stop_server: kill -9 the server start_server started, if any (never
# `kill 0`, which would hit the whole process group).
stop_server() {
  [ -n "${SERVER_PID:-}" ] || return 0
  kill -9 "$SERVER_PID" 2>/dev/null || return 0
  wait "$SERVER_PID" 2>/dev/null || true
}

# first_moves MANCALA OUT [PLAY FLAGS...]: starts a match with `mancala play`
# against the server on PORT; the client must stop when its input runs out
# (exit 2). Sets MATCH and TOKEN from what it printed. OUT.err gets stderr.
first_moves() {
  local bin=$1 out=$2 rc=0
  shift 2
  "$bin" play --server 127.0.0.1:$PORT "$@" </dev/null >"$out" 2>"$out.err" ||
    rc=$?
  [ $rc -eq 2 ] || { cat "$out" "$out.err"; fail "first client exit $rc, want 2"; }
  MATCH=$(sed -n 's/^Match \(matches\/[0-9a-f]*\),.*/\1/p' "$out")
  TOKEN=$(sed -n 's/.*, token \([0-9a-f]*\))\.$/\1/p' "$out")
  [ -n "$MATCH" ] && [ -n "$TOKEN" ] || fail "client did not print match and token"
}

# make_db WORK: sets DB, what mancalad's --db takes, to a fresh database: a
# SQLite file in WORK, or with MANCALA_TEST_BACKEND=postgres a new schema on
# the server MANCALA_TEST_PG_DSN names (drop_db removes it). Without that
# server the test is skipped (exit 77), or fails under CI=true.
make_db() {
  if [ "${MANCALA_TEST_BACKEND:-sqlite}" != postgres ]; then
    DB=$1/mancala.db
    return 0
  fi
  if [ -z "${MANCALA_TEST_PG_DSN:-}" ]; then
    [ "${CI:-}" = true ] && fail "MANCALA_TEST_PG_DSN is not set (CI=true)"
    echo "SKIP: MANCALA_TEST_PG_DSN is not set"
    exit 77
  fi
  PG_SCHEMA=e2e_$$_$RANDOM
  psql "$MANCALA_TEST_PG_DSN" -XqAt -c "CREATE SCHEMA $PG_SCHEMA" >/dev/null
  local sep='?'
  [[ $MANCALA_TEST_PG_DSN == *\?* ]] && sep='&'
  DB="$MANCALA_TEST_PG_DSN${sep}options=-csearch_path%3D$PG_SCHEMA"
}

drop_db() {
  [ -n "${PG_SCHEMA:-}" ] || return 0
  psql "$MANCALA_TEST_PG_DSN" -XqAt -c "DROP SCHEMA $PG_SCHEMA CASCADE" \
    >/dev/null 2>&1 || true
}

# sql QUERY: the rows of one query on DB, columns separated by a space.
sql() {
  if [ -n "${PG_SCHEMA:-}" ]; then
    psql "$DB" -XqAt -F ' ' -c "$1"
  else
    sqlite3 -separator ' ' "$DB" "$1"
  fi
}
