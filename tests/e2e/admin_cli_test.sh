#!/usr/bin/env bash
# `mancala admin matches|history|verify|void|audit` after one ranked Kalah
# match: the match is listed, its record has one row per stored move, it
# verifies, voiding it puts both players back at 1500/350 and leaves an
# audit entry; a wrong or missing admin token is refused. Then
# `mancala admin revoke-tokens|ban|unban`: the new token works, a ban and
# its lift are told and audited, a second ban is refused.
set -euo pipefail
MANCALAD=$1 MANCALA=$2 PYTHON=$3
source "$(dirname "$0")/lib.sh"
work_dir
serve_ranked_match "$MANCALAD" "$MANCALA"
PLY=$(sqlite3 "$WORK/db" "SELECT ply FROM matches WHERE id='$ID'")
a() { "$MANCALA" admin "$@" --server "$S"; }

out=$(a matches --state finished)
echo "$out"
[[ "$(echo "$out" | sed -n 2p)" =~ ^$MATCH\ +kalah\ +finished\ +ranked\ +$PLY\ + ]] ||
  fail "admin matches: $out"
[ "$(a matches --state waiting)" = "No matches." ] || fail "waiting matches listed"
a matches --player "$ALICE" --json | "$PYTHON" -c '
import json, sys
m = json.load(sys.stdin)["matches"]
assert [x["name"] for x in m] == [sys.argv[1]], m
' "$MATCH"

out=$(a history "$MATCH")
echo "$out" | head -6
[[ "$(echo "$out" | head -1)" == "$MATCH: kalah, finished, ranked, Alice vs Bob" ||
   "$(echo "$out" | head -1)" == "$MATCH: kalah, finished, ranked, Bob vs Alice" ]] ||
  fail "history title: $out"
rows=$(echo "$out" | grep -cE '^ *[0-9]+ +[01] +[0-5] +player ')
[ "$rows" -eq "$PLY" ] || fail "history shows $rows moves, the store has $PLY"
a history "$MATCH" --json | "$PYTHON" -c '
import json, sys
h = json.load(sys.stdin)
assert len(h["moves"]) == int(sys.argv[1]), len(h["moves"])
assert len(h["rating_changes"]) == 2, h["rating_changes"]
' "$PLY"

out=$(a verify "$MATCH")
[ "$out" = "$MATCH: consistent (replaying the stored moves gives the stored result)" ] ||
  fail "verify: $out"

out=$(a void "$MATCH" --reason "e2e check" --actor tester)
# Both players' ratings are recomputed (VoidMatchResponse).
[ "$out" = "Voided $MATCH; 2 rating changes recomputed." ] || fail "void: $out"
for p in "$ALICE" "$BOB"; do
  [[ "$("$MANCALA" rating --server "$S" --player "$p" --game kalah | sed -n 3p)" =~ ^kalah\ +1500\.0\ +350\.0\  ]] ||
    fail "$p not back at 1500/350 after the void"
done
out=$(a audit)
echo "$out"
[[ "$(echo "$out" | sed -n 2p)" =~ ^\ *1\ +20[0-9-]+\ [0-9:]+\ +tester\ +void_match\ +$MATCH\ +e2e\ check$ ]] ||
  fail "audit: $out"

expect_fail "FAILED_PRECONDITION" a void "$MATCH" --reason again
expect_fail "--reason is required" a void "$MATCH"
expect_fail "NOT_FOUND" a verify matches/0123
expect_fail "UNAUTHENTICATED" env MANCALA_ADMIN_TOKEN=wrong \
  "$MANCALA" admin audit --server "$S"
expect_fail "set MANCALA_ADMIN_TOKEN" env -u MANCALA_ADMIN_TOKEN \
  "$MANCALA" admin matches --server "$S"
expect_fail "unknown state 'done'" a matches --state done

out=$(a revoke-tokens "$BOB" --reason "token leaked")
echo "$out"
NEW=$(echo "$out" | sed -n 2p)
[[ "$(echo "$out" | head -1)" == "New token of $BOB (Bob), shown once; the old one no longer works:" &&
   "$NEW" =~ ^[0-9a-f]{32,}$ ]] || fail "revoke-tokens: $out"
[[ "$("$MANCALA" rating --server "$S" --token "$NEW" --game kalah)" == *kalah* ]] ||
  fail "the new token does not work"
[ "$(a ban "$ALICE" --reason "bot" --actor tester)" = "$ALICE (Alice) is banned." ] ||
  fail "ban"
expect_fail "FAILED_PRECONDITION" a ban "$ALICE" --reason again
expect_fail "--reason is required" a ban "$ALICE"
[ "$(a unban "$ALICE" --reason "appeal")" = "$ALICE (Alice) is no longer banned." ] ||
  fail "unban"
a audit --json | "$PYTHON" -c '
import json, sys
e = json.load(sys.stdin)["entries"]
got = [(x["action"], x["target"], x["actor"], x["reason"]) for x in e[:3]]
want = [("unban_player", sys.argv[1], "admin", "appeal"),
        ("ban_player", sys.argv[1], "tester", "bot"),
        ("revoke_tokens", sys.argv[2], "admin", "token leaked")]
assert got == want, got
' "$ALICE" "$BOB"
echo "PASS"
