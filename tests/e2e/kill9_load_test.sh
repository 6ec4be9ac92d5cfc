#!/usr/bin/env bash
# kill -9 under load: 64 matches play at once (group commit batching their
# moves) while the server is killed with SIGKILL; every move the clients saw
# acknowledged must be in the database, and the server must start again on
# it with every match where the database says. SQLite, or PostgreSQL with
# MANCALA_TEST_BACKEND=postgres.
set -euo pipefail
MANCALAD=$1 LOAD=$2
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d)
# Never `kill -9 0`: that would kill the whole process group.
trap '[ -z "${LOAD_PID:-}" ] || kill -9 "$LOAD_PID" 2>/dev/null || true
  stop_server
  wait 2>/dev/null; drop_db; rm -rf "$WORK"' EXIT
export LC_ALL=C  # sort and comm below agree on the order.
make_db "$WORK"

start_server "$MANCALAD" "$DB" "$WORK/server1.log" --grace-seconds 86400
"$LOAD" --server 127.0.0.1:$PORT --matches 64 --seconds 6 \
  --log "$WORK/acked.csv" >"$WORK/load.out" 2>&1 &
LOAD_PID=$!
# Kill once plenty of moves are acknowledged and many more are in flight.
for _ in $(seq 1 600); do
  n=$(wc -l 2>/dev/null <"$WORK/acked.csv" || echo 0)
  [ "$n" -ge 300 ] && break
  kill -0 "$LOAD_PID" 2>/dev/null || { cat "$WORK/load.out"; fail "load tool ended early"; }
  sleep 0.05
done
[ "$n" -ge 300 ] || fail "only $n moves acknowledged before the deadline"
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
wait "$LOAD_PID" || { cat "$WORK/load.out"; fail "load tool failed"; }
acked=$(wc -l <"$WORK/acked.csv")

# Every acknowledged (match, ply, pit) is stored: the log's lines
# (match,ply,pit) that no stored move matches.
sql "SELECT match_id || ',' || ply || ',' || pit FROM moves" | sort \
  >"$WORK/stored.csv"
sort "$WORK/acked.csv" >"$WORK/acked.sorted"
missing=$(comm -23 "$WORK/acked.sorted" "$WORK/stored.csv" | wc -l)
[ "$missing" = 0 ] || { comm -23 "$WORK/acked.sorted" "$WORK/stored.csv" |
  head -5; fail "$missing of $acked acknowledged moves are not stored"; }
# Each match's moves are plies 1..ply, none missing or extra.
bad=$(sql "SELECT COUNT(*) FROM matches x WHERE x.ply <>
  (SELECT COUNT(*) FROM moves m WHERE m.match_id = x.id) OR x.ply <>
  (SELECT COALESCE(MAX(ply), 0) FROM moves m WHERE m.match_id = x.id)")
[ "$bad" = 0 ] || fail "$bad matches whose ply disagrees with their moves"

# The server starts again on the same database (every match replays).
start_server "$MANCALAD" "$DB" "$WORK/server2.log"
kill -0 "$SERVER_PID" || fail "server did not stay up after restart"
echo "PASS: $acked acknowledged moves of 64 concurrent matches all stored after kill -9"
