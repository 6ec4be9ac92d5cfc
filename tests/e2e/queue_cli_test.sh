#!/usr/bin/env bash
# `mancala queue`: two ranked players find each other (the first sees
# "1 searching" while alone), get the same match on different seats and
# play it to the end; a casual player alone gets a CPU opponent after the
# server's fallback wait; bad input gets a message and exit 1.
set -euo pipefail
MANCALAD=$1 MANCALA=$2
source "$(dirname "$0")/lib.sh"
work_dir
start_server "$MANCALAD" "$WORK/db" "$WORK/server.log" --tick-ms 50 \
  --cpu-fallback-seconds 1
S=127.0.0.1:$PORT

ranked_match "$MANCALA" "$S" "$WORK"
grep -q "^Looking for a ranked kalah match for 2 players" "$WORK/alice.out" ||
  fail "no search line"
grep -qE "^1 searching, waited [0-9]+ s, rating window \+/-100" \
  "$WORK/alice.out" || fail "Alice never saw '1 searching'"
grep -q "^Found $MATCH, your seat" "$WORK/bob.out" || fail "Bob got another match"
SEAT_A=$(sed -n 's/^Found .*, your seat \([0-9]\)\./\1/p' "$WORK/alice.out")
SEAT_B=$(sed -n 's/^Found .*, your seat \([0-9]\)\./\1/p' "$WORK/bob.out")
[ "$SEAT_A" != "$SEAT_B" ] || fail "both on seat $SEAT_A"
for who in alice bob; do
  grep -q "^Game over" "$WORK/$who.out" || fail "$who's match did not end"
done
ID=${MATCH#matches/}
[ "$(sqlite3 "$WORK/db" "SELECT ranked || status FROM matches WHERE id='$ID'")" = 1finished ] ||
  fail "the match is not stored as ranked and finished"

# Casual, alone, accepting the CPU: matched with it after the 1 s wait.
"$MANCALA" queue --server "$S" --game oware --accept-cpu --name Carol --auto \
  >"$WORK/carol.out" 2>&1 || { cat "$WORK/carol.out"; fail "Carol's queue failed"; }
grep -q "^1 searching" "$WORK/carol.out" || fail "Carol never saw '1 searching'"
grep -q "^Found matches/" "$WORK/carol.out" || fail "Carol found no match"
grep -q "CPU (level" "$WORK/carol.out" || fail "Carol's opponent is not the CPU"
grep -q "^Game over" "$WORK/carol.out" || fail "Carol's match did not end"

set +e
out=$("$MANCALA" queue --server "$S" --game chess 2>&1); rc=$?
set -e
[ $rc -eq 1 ] && [[ "$out" == *"unknown game 'chess'"* ]] || fail "chess: $rc $out"
set +e
out=$("$MANCALA" queue --server "$S" --game kalah --token nope 2>&1); rc=$?
set -e
[ $rc -eq 1 ] && [[ "$out" == *"UNAUTHENTICATED"* ]] || fail "bad token: $rc $out"
sed -n 1,4p "$WORK/alice.out"
echo "PASS"
