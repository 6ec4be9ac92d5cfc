# Shared by the end-to-end scripts: start mancalad on a free port and wait
# until it says which.

# start_server MANCALAD DB LOG [FLAGS...]: sets SERVER_PID and PORT. An empty
# DB passes no --db (for --storage postgres).
start_server() {
  local bin=$1 db=$2 log=$3
  shift 3
  [ -n "$db" ] && set -- --db "$db" "$@"
  "$bin" --listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
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
