#!/usr/bin/env bash
# mancalad's logs: with --log-format json every line is one JSON object and
# each RPC has one info line with method, status, duration, match and
# player; no line holds a token or a token's hash. --log-level warn drops
# the RPC lines; a bad level or format is refused; --version answers.
set -euo pipefail
MANCALAD=$1 MANCALA=$2 PYTHON=$3
source "$(dirname "$0")/lib.sh"
work_dir

[[ "$("$MANCALAD" --version)" =~ ^mancalad\ [0-9]+\.[0-9]+\.[0-9]+\ \(revision\ [0-9a-f]+|unknown\)$ ]] ||
  fail "--version: $("$MANCALAD" --version)"
for bad in "--log-level loud" "--log-format xml"; do
  set +e
  out=$("$MANCALAD" --listen 127.0.0.1:0 --db "$WORK/bad.db" $bad 2>&1); rc=$?
  set -e
  [ $rc -ne 0 ] && [[ "$out" == *"${bad%% *}"* ]] || fail "$bad: $rc $out"
done

start_server "$MANCALAD" "$WORK/db" "$WORK/server.log" --log-format json
S=127.0.0.1:$PORT
"$MANCALA" play --server "$S" --vs cpu --level 1 --auto --name Lin \
  >"$WORK/play.out" 2>&1 || { cat "$WORK/play.out"; fail "play failed"; }
TOKEN=$(sed -n 's/.*, token \([0-9a-f]*\))\.$/\1/p' "$WORK/play.out")
PLAYER=$(sed -n 's/^You are Lin (\(players\/[0-9a-f]*\),.*/\1/p' "$WORK/play.out")
MATCH=$(sed -n 's/^Match \(matches\/[0-9a-f]*\),.*/\1/p' "$WORK/play.out")
# One call that fails (the CLI stops at the first game).
"$MANCALA" rating --server "$S" --player players/nobody >/dev/null 2>&1 && fail "rating for nobody"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
HASH=$(printf '%s' "$TOKEN" | sha256sum | cut -d' ' -f1)
! grep -q -e "$TOKEN" -e "$HASH" "$WORK/server.log" || fail "a token or its hash is in the log"

"$PYTHON" - "$WORK/server.log" "$PLAYER" "$MATCH" <<'PY'
import json, sys
path, player, match = sys.argv[1:]
lines = [json.loads(l) for l in open(path)]  # Every line is JSON.
assert all(l["level"] and l["time"].endswith("Z") and l["msg"] for l in lines)
rpc = [l for l in lines if l["msg"] == "rpc"]
for l in rpc:
    assert l["level"] == "info" and l["method"].startswith("/"), l
    assert isinstance(l["duration_ms"], (int, float)) and l["duration_ms"] >= 0, l
moves = [l for l in rpc if l["method"] == "/mancala.v1.MatchService/SubmitMove"]
assert moves and all(l["status"] == "OK" and l["player"] == player and
                     l["match"] == match for l in moves), moves[:2]
create = [l for l in rpc if l["method"].endswith("/CreateMatch")]
assert len(create) == 1 and create[0]["match"] == match, create
missing = [l for l in rpc if l["method"].endswith("/GetRating")]
assert len(missing) == 1 and all(l["status"] == "NOT_FOUND" and l["error"]
                                 for l in missing), missing
print(f"{len(lines)} JSON lines, {len(rpc)} RPC lines, {len(moves)} moves by {player}")
PY

# Text, at warn: no RPC lines (nor the info start-up line, so the port is
# chosen here and the server is ready once it answers).
P=$(free_port "$PYTHON")
"$MANCALAD" --listen "127.0.0.1:$P" --db "$WORK/warn.db" --log-level warn \
  >"$WORK/warn.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
  "$MANCALA" leaderboard --server "127.0.0.1:$P" --game kalah >/dev/null 2>&1 && break
  sleep 0.05
done
"$MANCALA" leaderboard --server "127.0.0.1:$P" --game kalah >/dev/null ||
  fail "the warn-level server does not answer"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
! grep -q "rpc\|listening" "$WORK/warn.log" || { cat "$WORK/warn.log"; fail "info lines at warn"; }
echo "PASS"
