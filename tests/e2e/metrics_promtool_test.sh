#!/usr/bin/env bash
# mancalad --metrics-listen: a real scrape passes `promtool check metrics`
# (Prometheus' own linter), and its values agree with what the test did
# and with the database: moves committed, SubmitMove calls, CPU searches,
# commits, a waiting match and its watch stream, a player searching.
set -euo pipefail
MANCALAD=$1 MANCALA=$2 PYTHON=$3 PROMTOOL=$4
source "$(dirname "$0")/lib.sh"
work_dir
start_server "$MANCALAD" "$WORK/db" "$WORK/server.log" --tick-ms 50 \
  --metrics-listen 127.0.0.1:0
S=127.0.0.1:$PORT
MP=$(metrics_port "$WORK/server.log")
[ -n "$MP" ] || fail "no metrics port in the log"
scrape() { http_get "$PYTHON" "http://127.0.0.1:$MP/metrics"; }
# value NAME{LABELS}: the sample's value in the last scrape.
value() { awk -v s="$1" '$1 == s {print $2}' "$WORK/scrape.txt"; }

# A whole match against the CPU.
"$MANCALA" play --server "$S" --vs cpu --level 1 --auto >"$WORK/play.out" 2>&1 ||
  { cat "$WORK/play.out"; fail "play failed"; }
ID=$(sed -n 's/^Match matches\/\([0-9a-f]*\),.*/\1/p' "$WORK/play.out")
MOVES=$(sqlite3 "$WORK/db" "SELECT COUNT(*) FROM moves WHERE match_id='$ID'")
HUMAN=$(sqlite3 "$WORK/db" "SELECT COUNT(*) FROM moves WHERE match_id='$ID' AND by_cpu=0")
CPU=$(sqlite3 "$WORK/db" "SELECT COUNT(*) FROM moves WHERE match_id='$ID' AND by_cpu=1")

# A match waiting for a second player, its creator watching it; a player
# alone in the Oware queue.
"$MANCALA" play --server "$S" --vs open --name Host --auto >"$WORK/host.out" 2>&1 &
PIDS+=($!)
"$MANCALA" queue --server "$S" --game oware --name Solo --auto >"$WORK/solo.out" 2>&1 &
PIDS+=($!)
wait_for "$WORK/host.out" "invite code" 10
wait_for "$WORK/solo.out" "^1 searching" 10

scrape >"$WORK/scrape.txt"
"$PROMTOOL" check metrics <"$WORK/scrape.txt" >"$WORK/promtool.out" 2>&1 ||
  { cat "$WORK/promtool.out"; fail "promtool check metrics failed"; }
[ ! -s "$WORK/promtool.out" ] || { cat "$WORK/promtool.out"; fail "promtool complained"; }

check() {  # check SAMPLE WANTED
  local got
  got=$(value "$1")
  [ "$got" = "$2" ] || fail "$1 is '$got', wanted $2"
}
check mancala_moves_committed_total "$MOVES"
# Every write (players, matches, moves) goes through group commit: one
# commit carries one or more writes, so the writes counted are at least the
# moves, and there are no more commits than writes.
COMMITS=$(value mancala_store_commit_batch_size_count)
WRITES=$(value mancala_store_commit_batch_size_sum)
[ "${WRITES%.*}" -ge "$MOVES" ] || fail "store writes $WRITES < moves $MOVES"
[ "$COMMITS" -ge 1 ] && [ "$COMMITS" -le "${WRITES%.*}" ] ||
  fail "store commits $COMMITS not in 1..$WRITES"
check mancala_store_commit_duration_seconds_count "$COMMITS"
check 'grpc_server_handled_total{grpc_service="mancala.v1.MatchService",grpc_method="SubmitMove",grpc_code="OK"}' "$HUMAN"
check 'grpc_server_handled_total{grpc_service="mancala.v1.MatchService",grpc_method="CreateMatch",grpc_code="OK"}' 2
check 'grpc_server_handling_seconds_count{grpc_service="mancala.v1.MatchService",grpc_method="SubmitMove"}' "$HUMAN"
check 'mancala_live_matches{state="waiting"}' 1
check mancala_watch_streams_open 1
check 'mancala_matchmaking_searching_players{game="oware"}' 1
check 'mancala_matchmaking_searching_players{game="kalah"}' 0
# Every CPU move was searched for; a search whose move came too late may
# add one more.
searches=$(value 'mancala_cpu_searches_total{level="1"}')
[ "$searches" -ge "$CPU" ] && [ "$searches" -le $((CPU + 1)) ] ||
  fail "CPU searches $searches for $CPU CPU moves"
check 'mancala_cpu_search_duration_seconds_count{level="1"}' "$searches"
VERSION=$("$MANCALAD" --version | sed -n 's/^mancalad \([0-9.]*\) (revision \(.*\))$/\1 \2/p')
[ -n "$VERSION" ] || fail "mancalad --version: $("$MANCALAD" --version)"
set -- $VERSION
grep -q "^mancala_build_info{version=\"$1\",revision=\"$2\",grpc_version=\"[0-9.]*\"} 1$" \
  "$WORK/scrape.txt" || fail "build info does not match --version"

# Only /metrics is served; a bad address stops mancalad with a message.
set +e
http_get "$PYTHON" "http://127.0.0.1:$MP/other" >/dev/null 2>&1
rc=$?
out=$("$MANCALAD" --listen 127.0.0.1:0 --db "$WORK/db2" --metrics-listen nowhere 2>&1)
rc2=$?
set -e
[ $rc -ne 0 ] || fail "/other answered"
[ $rc2 -ne 0 ] && [[ "$out" == *"--metrics-listen takes host:port"* ]] ||
  fail "bad --metrics-listen: $rc2 $out"
grep -v '_bucket' "$WORK/scrape.txt" | grep -E '^(mancala_|grpc_server_handled_total\{.*SubmitMove)' | head -20
echo "PASS"
