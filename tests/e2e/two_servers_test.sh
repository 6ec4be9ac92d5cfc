#!/usr/bin/env bash
# Two real mancalad processes on one database: the second must refuse to
# start (non-zero exit) with a message naming the lock file and the first
# one's pid, and the first keeps serving. The database files are 0600.
set -euo pipefail
MANCALAD=$1
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d)
cleanup() {
  local pid
  for pid in ${SERVER_PID:-} ${FIRST_PID:-} ${SECOND_PID:-}; do
    kill -9 "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
DB=$WORK/mancala.db

umask 022
start_server "$MANCALAD" "$DB" "$WORK/first.log"
FIRST_PID=$SERVER_PID

"$MANCALAD" --listen 127.0.0.1:0 --db "$DB" >"$WORK/second.log" 2>&1 &
SECOND_PID=$!
# It must exit by itself (deadline 20 s), not start serving.
for _ in $(seq 1 400); do
  kill -0 "$SECOND_PID" 2>/dev/null || break
  sleep 0.05
done
kill -0 "$SECOND_PID" 2>/dev/null && { cat "$WORK/second.log"; fail "second mancalad still running"; }
set +e
wait "$SECOND_PID"
rc=$?
set -e
SECOND_PID=
[ "$rc" -ne 0 ] || { cat "$WORK/second.log"; fail "second mancalad exited 0"; }
grep -q "listening on port" "$WORK/second.log" && fail "second mancalad served"
grep -qF "$DB.lock" "$WORK/second.log" || { cat "$WORK/second.log"; fail "message does not name $DB.lock"; }
grep -q "pid $FIRST_PID" "$WORK/second.log" || { cat "$WORK/second.log"; fail "message does not name pid $FIRST_PID"; }
kill -0 "$FIRST_PID" 2>/dev/null || fail "first mancalad died"

for f in "$DB" "$DB-wal" "$DB-shm" "$DB.lock"; do
  mode=$(stat -c %a "$f")
  [ "$mode" = 600 ] || fail "$f has mode $mode, want 600"
done

# Once the first is gone (kill -9: the kernel drops its lock), a new server
# starts on the same database.
kill -9 "$FIRST_PID"; wait "$FIRST_PID" 2>/dev/null || true
start_server "$MANCALAD" "$DB" "$WORK/third.log"
echo "PASS: second mancalad refused ($(grep -o 'database .*' "$WORK/second.log" | head -1)); files 0600; restart after kill -9 works"
