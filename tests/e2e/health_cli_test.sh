#!/usr/bin/env bash
# `mancala health`, the probe deploy/fresh-root.sh waits on: each status
# word and exit code against a real mancalad, through its drain on SIGTERM
# (readiness NOT_SERVING, liveness still SERVING) and after it stops.
set -euo pipefail
MANCALAD=$1
MANCALA=$2
source "$(dirname "$0")/lib.sh"
work_dir

start_server "$MANCALAD" "$WORK/m.db" "$WORK/server.log" --drain-seconds 30
S=127.0.0.1:$PORT

# expect RC WORD ARGS...: `mancala health ARGS` exits RC and prints WORD.
expect() {
  local want_rc=$1 want=$2 out rc
  shift 2
  set +e
  out=$("$MANCALA" health --server "$S" "$@" 2>"$WORK/err"); rc=$?
  set -e
  [ "$out" = "$want" ] && [ $rc -eq "$want_rc" ] ||
    fail "health $*: '$out' exit $rc (wanted '$want' exit $want_rc); stderr: $(cat "$WORK/err")"
}

expect 0 SERVING
expect 0 SERVING --service readiness
expect 0 SERVING --service liveness
expect 1 SERVICE_UNKNOWN --service mancala.v1.MatchService  # docs/api.md "Health": 3 names

kill -TERM "$SERVER_PID"
wait_for "$WORK/server.log" "draining: readiness NOT_SERVING" 10
expect 1 NOT_SERVING --service readiness
expect 0 SERVING --service liveness
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""

expect 1 UNREACHABLE --timeout-ms 500
grep -q "^error: health check of $S: .*(UNAVAILABLE\|(DEADLINE_EXCEEDED" "$WORK/err" ||
  fail "no error line for an unreachable server: $(cat "$WORK/err")"
expect_fail "--timeout-ms: Value 0 not in range" "$MANCALA" health --timeout-ms 0
echo "PASS"
