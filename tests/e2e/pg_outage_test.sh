#!/usr/bin/env bash
# PostgreSQL goes away mid-match and comes back; mancalad is never restarted.
# With the real binaries and a throwaway cluster of this test's own
# (deploy/pg.sh on a free port below 32768):
#   1. the database unreachable at start-up: mancalad exits non-zero, saying so
#   2. a match is started and played on PostgreSQL (--storage postgres, URL
#      from MANCALAD_DATABASE_URL)
#   3. the server is stopped: the next move fails with UNAVAILABLE (code 14)
#      and the health service reports NOT_SERVING (readiness), while the
#      liveness name stays SERVING (no restart for a database outage)
#   4. the server is started again: health returns to SERVING by itself and
#      the match is played to its end; every move is stored once, in order.
set -euo pipefail
MANCALAD=$1 MANCALA=$2 PG_SH=$3
HERE=$(dirname "$0")
source "$HERE/lib.sh"
if [ ! -x "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)/initdb" ]; then
  [ "${CI:-}" = true ] && fail "PostgreSQL server not installed (CI=true)"
  echo "SKIP: PostgreSQL server not installed"
  exit 77
fi
WORK=$(mktemp -d)
export MANCALA_PG_STATE=$WORK/pg.state
MANCALA_PG_PORT=$(free_low_port /usr/bin/python3)
export MANCALA_PG_PORT
cleanup() {
  stop_server
  bash "$PG_SH" stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
export MANCALAD_DATABASE_URL="postgresql://postgres@127.0.0.1:$MANCALA_PG_PORT/postgres"
health() { /usr/bin/python3 "$HERE/health_check.py" "127.0.0.1:$PORT" "$@"; }
# wait_health WANT SECONDS
wait_health() {
  local got=""
  for _ in $(seq 1 $(($2 * 10))); do
    got=$(health)
    [ "$got" = "$1" ] && return 0
    sleep 0.1
  done
  fail "health is '$got', want $1"
}

# 1. Nothing listens yet.
set +e
timeout 30 "$MANCALAD" --listen 127.0.0.1:0 --storage postgres \
  >"$WORK/early.log" 2>&1
rc=$?
set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "mancalad without its database: exit $rc"
grep -q "cannot start: UNAVAILABLE" "$WORK/early.log" ||
  { cat "$WORK/early.log"; fail "no clear start-up error"; }

# 2. The database is up: play the first move.
bash "$PG_SH" start >/dev/null
start_server "$MANCALAD" "" "$WORK/server.log" --storage postgres --db-pool 2
grep -q "postgresql://postgres@127.0.0.1" "$WORK/server.log" ||
  fail "mancalad does not say it runs on PostgreSQL"
wait_health SERVING 10
first_moves "$MANCALA" "$WORK/client1.out" --game kalah --vs cpu --moves 0

# 3. The database goes away: the move fails with UNAVAILABLE.
bash "$PG_SH" pause
wait_health NOT_SERVING 10
[ "$(health readiness)" = NOT_SERVING ] || fail "readiness: $(health readiness)"
[ "$(health liveness)" = SERVING ] ||
  fail "liveness follows the database: $(health liveness)"
set +e
"$MANCALA" play --server 127.0.0.1:$PORT --match "$MATCH" --token "$TOKEN" \
  --auto </dev/null >"$WORK/client2.out" 2>"$WORK/client2.err"
rc=$?
set -e
[ $rc -eq 1 ] && grep -q "(code 14)" "$WORK/client2.err" ||
  { cat "$WORK/client2.out" "$WORK/client2.err"; fail "move during the outage: exit $rc, want UNAVAILABLE"; }

# 4. It comes back; the same mancalad serves again and the match ends.
bash "$PG_SH" resume
wait_health SERVING 20
"$MANCALA" play --server 127.0.0.1:$PORT --match "$MATCH" --token "$TOKEN" \
  --auto </dev/null >"$WORK/client3.out" 2>"$WORK/client3.err" ||
  { cat "$WORK/client3.out" "$WORK/client3.err"; fail "client 3 failed"; }
grep -q "Game over" "$WORK/client3.out" || fail "match did not finish"
kill -0 "$SERVER_PID" || fail "mancalad died"
grep -q "database unreachable, not serving" "$WORK/server.log" ||
  fail "mancalad did not log the outage"

ID=${MATCH#matches/}
DB=$MANCALAD_DATABASE_URL
read -r count maxply <<<"$(psql "$DB" -XqAt -F ' ' -c \
  "SELECT COUNT(*), MAX(ply) FROM moves WHERE match_id='$ID'")"
read -r status ply <<<"$(psql "$DB" -XqAt -F ' ' -c \
  "SELECT status, ply FROM matches WHERE id='$ID'")"
[ "$count" = "$maxply" ] && [ "$maxply" = "$ply" ] || fail "moves $count, max ply $maxply, match ply $ply"
[ "$status" = finished ] || fail "match status $status"
echo "PASS: UNAVAILABLE and NOT_SERVING during the outage; $ply moves stored, match finished, no restart"
