#!/usr/bin/env bash
# A whole Kalah match played with the real `mancala` client against the real
# `mancalad`; the server is killed with SIGKILL in the middle and started
# again on the same database; the match is finished; every move the client
# saw acknowledged must be in the database, in order, once.
set -euo pipefail
MANCALAD=$1 MANCALA=$2
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d)
# No server yet, no kill: `kill -9 0` would kill the whole process group.
trap 'stop_server; drop_db; rm -rf "$WORK"' EXIT
make_db "$WORK"  # SQLite, or PostgreSQL with MANCALA_TEST_BACKEND=postgres.

start_server "$MANCALAD" "$DB" "$WORK/server1.log"
# First half: four moves of ours (the CPU answers in between), then input
# runs out and the client stops, telling how to resume.
first_moves "$MANCALA" "$WORK/client1.out" --game kalah --vs cpu --moves 0,1,2,3

# Kill the server the hard way, mid-match.
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true

start_server "$MANCALAD" "$DB" "$WORK/server2.log"
"$MANCALA" play --server 127.0.0.1:$PORT --match "$MATCH" --token "$TOKEN" \
  --auto </dev/null >"$WORK/client2.out" 2>"$WORK/client2.err" ||
  { cat "$WORK/client2.out" "$WORK/client2.err"; fail "client 2 failed"; }
grep -q "Game over" "$WORK/client2.out" || fail "match did not finish"

kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
ID=${MATCH#matches/}

# Every acknowledged move ("ply N: ... plays pit P" as the client printed
# it) is stored with the same pit.
acked=$(cat "$WORK/client1.out" "$WORK/client2.out" |
  sed -n 's/^  ply \([0-9]*\): .* plays pit \([0-9]*\).*/\1 \2/p')
[ -n "$acked" ] || fail "the client acknowledged no move"
while read -r ply pit; do
  got=$(sql "SELECT pit FROM moves WHERE match_id='$ID' AND ply=$ply")
  [ "$got" = "$pit" ] || fail "acknowledged move ply $ply pit $pit: database has '$got'"
done <<<"$acked"
# The stored moves are exactly plies 1..N with the match at ply N, finished.
read -r count maxply <<<"$(sql "SELECT COUNT(*), MAX(ply) FROM moves WHERE match_id='$ID'")"
read -r status ply <<<"$(sql "SELECT status, ply FROM matches WHERE id='$ID'")"
[ "$count" = "$maxply" ] && [ "$maxply" = "$ply" ] || fail "moves $count, max ply $maxply, match ply $ply"
[ "$status" = finished ] || fail "match status $status"
[ "$(echo "$acked" | wc -l)" = "$ply" ] || fail "client saw $(echo "$acked" | wc -l) moves, database has $ply"
echo "PASS: $ply moves, all acknowledged moves stored, match finished after kill -9"
