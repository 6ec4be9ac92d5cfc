#!/usr/bin/env bash
# `mancala leaderboard`, `rating` and `history` after one ranked Kalah
# match between two new players: Glicko-2 from 1500/350 gives the winner
# 1662.2 and the loser 1337.8, RD 290.2 each (docs: RATINGS); tables for
# people, --json for scripts; bad input gets a message and exit 1.
set -euo pipefail
MANCALAD=$1 MANCALA=$2 PYTHON=$3
source "$(dirname "$0")/lib.sh"
work_dir
serve_ranked_match "$MANCALAD" "$MANCALA"
# Both clients play the lowest legal pit, so the game is decided (no draw).
WINNER_ID=$(sqlite3 "$WORK/db" "SELECT player_id FROM rating_changes WHERE match_id='$ID' AND rank=1")
if [ "players/$WINNER_ID" = "$ALICE" ]; then
  WINNER=$ALICE LOSER=$BOB WINNER_NAME=Alice LOSER_NAME=Bob LOSER_TOKEN=$BOB_TOKEN
else
  WINNER=$BOB LOSER=$ALICE WINNER_NAME=Bob LOSER_NAME=Alice LOSER_TOKEN=$ALICE_TOKEN
fi
m() { "$MANCALA" "$@" --server "$S"; }

# Leaderboard: nobody is established after one match; with provisional
# ratings the winner leads.
out=$(m leaderboard --game kalah)
[[ "$out" == "No established ratings in kalah yet"* ]] || fail "leaderboard: $out"
out=$(m leaderboard --game kalah --provisional)
echo "$out"
line1=$(echo "$out" | sed -n 3p)
line2=$(echo "$out" | sed -n 4p)
[[ "$line1" =~ ^1\ +$WINNER\ +$WINNER_NAME\ +1662\.2\ +290\.2\ +1$ ]] || fail "row 1: $line1"
[[ "$line2" =~ ^2\ +$LOSER\ +$LOSER_NAME\ +1337\.8\ +290\.2\ +1$ ]] || fail "row 2: $line2"
m leaderboard --game kalah --provisional --json | "$PYTHON" -c '
import json, sys
r = json.load(sys.stdin)["ratings"]
assert [x["player"] for x in r] == sys.argv[1:3], r
assert round(r[0]["rating"], 1) == 1662.2 and round(r[1]["rating"], 1) == 1337.8, r
assert all(x["games_played"] == 1 and x["provisional"] for x in r), r
' "$WINNER" "$LOSER"

# Rating: by token (the caller's own) or by player; every game listed.
out=$(m rating --token "$LOSER_TOKEN")
echo "$out"
[ "$(echo "$out" | head -1)" = "Ratings of $LOSER" ] || fail "rating title: $out"
[[ "$(echo "$out" | grep '^kalah ')" =~ ^kalah\ +1337\.8\ +290\.2\ +0\.0600\ +1\ +provisional\ +20[0-9-]+\ [0-9:]+$ ]] ||
  fail "kalah rating row: $out"
[[ "$(echo "$out" | grep '^oware ')" =~ ^oware\ +1500\.0\ +350\.0\ +0\.0600\ +0\ +provisional\ +-$ ]] ||
  fail "oware rating row: $out"
out=$(m rating --player "$WINNER" --history)
echo "$out"
[[ "$(echo "$out" | sed -n 3p)" =~ kalah\ +$MATCH\ +1\ +1500\.0\ +1662\.2\ +\+162\.2\ +290\.2$ ]] ||
  fail "history row: $out"
m rating --player "$LOSER" --history --game kalah --json | "$PYTHON" -c '
import json, sys
c = json.load(sys.stdin)["changes"]
assert len(c) == 1 and c[0]["match"] == sys.argv[1] and c[0]["rank"] == 2, c
assert round(c[0]["rating_after"] - c[0]["rating_before"], 1) == -162.2, c
' "$MATCH"

# History: the player's matches, with their result (an admin query).
out=$(m history --player "$WINNER")
echo "$out"
[[ "$(echo "$out" | sed -n 3p)" =~ ^$MATCH\ +kalah\ +finished\ +ranked\ +[0-9]+\ +.*\ won$ ]] ||
  fail "history: $out"
out=$(m history --token "$LOSER_TOKEN" --json)
echo "$out" | "$PYTHON" -c '
import json, sys
m = json.load(sys.stdin)["matches"]
assert [x["name"] for x in m] == [sys.argv[1]] and m[0]["state"] == "FINISHED", m
' "$MATCH"

# Bad input.
expect_fail "--game must be kalah" m leaderboard --game chess
expect_fail "--game is required" "$MANCALA" leaderboard
expect_fail "name the player with --player" m rating
expect_fail "NOT_FOUND" m rating --player players/nobody
expect_fail "unknown game 'go'" m rating --player "$WINNER" --game go
expect_fail "set MANCALA_ADMIN_TOKEN" env MANCALA_ADMIN_TOKEN= \
  "$MANCALA" history --server "$S" --player "$WINNER"
expect_fail "UNAVAILABLE" "$MANCALA" leaderboard --game kalah --server 127.0.0.1:1
echo "PASS"
