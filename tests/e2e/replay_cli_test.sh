#!/usr/bin/env bash
# `mancala replay` over every conformance file: all pass, none skipped, and
# the summary line has the documented shape. A corrupted trace must fail.
set -euo pipefail
MANCALA=$1 DIR=$2
source "$(dirname "$0")/lib.sh"
files=$(ls "$DIR"/*.json | grep -v ratings.json)
out=$("$MANCALA" replay $files) || { echo "$out" | tail -20; fail "replay failed"; }
last=$(echo "$out" | tail -1)
echo "$last"
[[ "$last" =~ ^[0-9]+\ passed,\ 0\ failed,\ 0\ skipped$ ]] || fail "summary: $last"
n=$(echo "$last" | cut -d' ' -f1)
# One unit per game of every trace file, one per (edge case, option value).
want=$(python3 - "$DIR" <<'PY'
import glob, json, sys
n = 0
for f in glob.glob(sys.argv[1] + "/*.json"):
    d = json.load(open(f))
    if "games" in d:
        n += len(d["games"])
    elif "cases" in d:
        for c in d["cases"]:
            n += 1 if c["game"] == "mancala_basic" else len(c["expected"])
print(n)
PY
)
[ "$n" = "$want" ] || fail "$n units passed, want $want"

WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
# Player 0's first move in game 0 of a Kalah trace, with a wrong board.
python3 - "$DIR/openspiel_kalah_playthrough.json" "$WORK/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["games"][0]["steps"][3]["pits"][1][0] += 1
json.dump(d, open(sys.argv[2], "w"))
PY
set +e
bad=$("$MANCALA" replay "$WORK/bad.json"); rc=$?
set -e
[ $rc -ne 0 ] || fail "corrupted trace passed"
echo "$bad" | grep -q "ply 3" || { echo "$bad"; fail "mismatch not reported at ply 3"; }
echo "$bad" | tail -1 | grep -q "^0 passed, 1 failed" || fail "summary: $(echo "$bad" | tail -1)"
echo PASS
