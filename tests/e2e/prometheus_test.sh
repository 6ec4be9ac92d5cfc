#!/usr/bin/env bash
# A real Prometheus server scrapes a real mancalad: once the target is up,
# the test makes three GetRating calls (for an unknown player, so each
# ends NOT_FOUND) and asks Prometheus' HTTP API until the RPC counter shows
# exactly those three. Prometheus has its own config and data in a temp
# folder, listens on loopback and is stopped by its pid whatever happens.
set -euo pipefail
MANCALAD=$1 MANCALA=$2 PYTHON=$3 PROMETHEUS=$4
source "$(dirname "$0")/lib.sh"
work_dir
PROM_PID=""
# Prometheus first, by its pid: asked to stop, killed if it lingers.
stop_all() {
  if [ -n "$PROM_PID" ]; then
    kill "$PROM_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$PROM_PID" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$PROM_PID" 2>/dev/null || true
  fi
  cleanup_work
}
trap stop_all EXIT
trap 'exit 1' INT TERM
start_server "$MANCALAD" "$WORK/db" "$WORK/server.log" --metrics-listen 127.0.0.1:0
S=127.0.0.1:$PORT
MP=$(metrics_port "$WORK/server.log")

cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: mancalad
    static_configs:
      - targets: ['127.0.0.1:$MP']
YAML
PP=$(free_port "$PYTHON")
# `timeout` bounds its life even if this script is killed outright (then
# no trap runs); a TERM to PROM_PID (timeout's pid) reaches Prometheus.
timeout --kill-after=5 170 "$PROMETHEUS" --config.file="$WORK/prometheus.yml" \
  --storage.tsdb.path="$WORK/tsdb" --web.listen-address="127.0.0.1:$PP" \
  --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PROM_PID=$!

# query PROMQL: the first result's value, or "" (none yet, or not up yet).
query() {
  "$PYTHON" - "http://127.0.0.1:$PP/api/v1/query" "$1" <<'PY' 2>/dev/null || true
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
data = json.load(urllib.request.urlopen(url, timeout=5))
result = data["data"]["result"]
print(result[0]["value"][1] if result else "")
PY
}
# wait_query PROMQL WANTED SECONDS
wait_query() {
  local got=""
  for _ in $(seq 1 $(($3 * 4))); do
    got=$(query "$1")
    [ "$got" = "$2" ] && return 0
    kill -0 "$PROM_PID" 2>/dev/null || { cat "$WORK/prometheus.log"; fail "prometheus exited"; }
    sleep 0.25
  done
  cat "$WORK/prometheus.log"
  fail "Prometheus says $1 = '$got' after $3 s, wanted $2"
}

wait_query 'up{job="mancalad"}' 1 60
wait_query 'mancala_build_info{job="mancalad"}' 1 10
COUNTER='grpc_server_handled_total{job="mancalad",grpc_service="mancala.v1.RatingService",grpc_method="GetRating",grpc_code="NOT_FOUND"}'
[ -z "$(query "$COUNTER")" ] || fail "GetRating counted before any call"
for _ in 1 2 3; do
  if "$MANCALA" rating --server "$S" --player players/nobody --game kalah \
    >/dev/null 2>"$WORK/rating.err"; then
    fail "rating for an unknown player succeeded"
  fi
  grep -q NOT_FOUND "$WORK/rating.err" || fail "rating: $(cat "$WORK/rating.err")"
done
wait_query "$COUNTER" 3 30
echo "Prometheus on 127.0.0.1:$PP: $COUNTER = 3"
echo "PASS"
