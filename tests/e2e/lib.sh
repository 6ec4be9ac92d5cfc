# Shared by the end-to-end scripts: start mancalad on a free port and wait
# until it says which.

# start_server MANCALAD DB LOG [FLAGS...]: sets SERVER_PID and PORT.
start_server() {
  local bin=$1 db=$2 log=$3
  shift 3
  "$bin" --listen 127.0.0.1:0 --db "$db" "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  PORT=""
  for _ in $(seq 1 200); do
    PORT=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$PORT" ] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "FAIL: mancalad did not start:"; cat "$log"; return 1
}

fail() { echo "FAIL: $*"; exit 1; }
