#!/usr/bin/env bash
# kill -9 under load: 64 matches play at once (group commit batching their
# moves) while the server is killed with SIGKILL; every move the clients saw
# acknowledged must be in the database, and the server must start again on
# it with every match where the database says.
set -euo pipefail
MANCALAD=$1 LOAD=$2
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d)
trap 'kill -9 ${SERVER_PID:-0} ${LOAD_PID:-0} 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
DB=$WORK/mancala.db

start_server "$MANCALAD" "$DB" "$WORK/server1.log" --grace-seconds 86400
"$LOAD" --server 127.0.0.1:$PORT --matches 64 --seconds 6 \
  --log "$WORK/acked.csv" >"$WORK/load.out" 2>&1 &
LOAD_PID=$!
# Kill once plenty of moves are acknowledged and many more are in flight.
for _ in $(seq 1 600); do
  n=$(wc -l <"$WORK/acked.csv" 2>/dev/null || echo 0)
  [ "$n" -ge 300 ] && break
  kill -0 "$LOAD_PID" 2>/dev/null || { cat "$WORK/load.out"; fail "load tool ended early"; }
  sleep 0.05
done
[ "$n" -ge 300 ] || fail "only $n moves acknowledged before the deadline"
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
wait "$LOAD_PID" || { cat "$WORK/load.out"; fail "load tool failed"; }
acked=$(wc -l <"$WORK/acked.csv")

# Every acknowledged (match, ply, pit) is stored.
read -r imported missing <<<"$(sqlite3 -separator ' ' "$DB" <<SQL
CREATE TEMP TABLE acked(match_id TEXT, ply INTEGER, pit INTEGER);
.import --csv --schema temp $WORK/acked.csv acked
SELECT (SELECT COUNT(*) FROM acked), COUNT(*) FROM acked a LEFT JOIN moves m
  ON m.match_id = a.match_id AND m.ply = a.ply AND m.pit = a.pit
  WHERE m.match_id IS NULL;
SQL
)"
[ "$imported" = "$acked" ] || fail "read $imported of $acked acknowledged moves"
[ "$missing" = 0 ] || fail "$missing of $acked acknowledged moves are not stored"
# Each match's moves are plies 1..ply, none missing or extra.
bad=$(sqlite3 "$DB" "SELECT COUNT(*) FROM matches x WHERE x.ply <>
  (SELECT COUNT(*) FROM moves m WHERE m.match_id = x.id) OR x.ply <>
  (SELECT COALESCE(MAX(ply), 0) FROM moves m WHERE m.match_id = x.id)")
[ "$bad" = 0 ] || fail "$bad matches whose ply disagrees with their moves"

# The server starts again on the same database (every match replays).
start_server "$MANCALAD" "$DB" "$WORK/server2.log"
kill -0 "$SERVER_PID" || fail "server did not stay up after restart"
echo "PASS: $acked acknowledged moves of 64 concurrent matches all stored after kill -9"
