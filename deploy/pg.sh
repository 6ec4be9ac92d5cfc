#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and development (Debian's
# postgresql package; nothing is installed system-wide or left behind).
#
#   deploy/pg.sh start   initdb a cluster in a fresh temporary folder and start
#                        it on 127.0.0.1:$MANCALA_PG_PORT (default 15432: below
#                        32768, so outside Linux's ephemeral port range)
#   deploy/pg.sh env     print `export MANCALA_TEST_PG_DSN=...` for that cluster
#   deploy/pg.sh stop    stop it by its postmaster pid and delete the folder
#   deploy/pg.sh pause   stop the server but keep the folder (outage tests)
#   deploy/pg.sh resume  start the paused server again, same data and port
#
# MANCALA_PG_OPTIONS adds server settings ("-c ssl=on -c ssl_cert_file=..."),
# and MANCALA_PG_HBA, if set, is the cluster's whole pg_hba.conf (e.g. only
# "hostssl all all 127.0.0.1/32 trust", refusing connections without TLS).
# The cluster's folder is remembered in $MANCALA_PG_STATE (default
# mancala-pg-$PORT.dir in the temporary folder), so several clusters can run on several ports.
# initdb and pg_ctl refuse to run as root: as root they run as `postgres`.
set -euo pipefail

PORT=${MANCALA_PG_PORT:-15432}
STATE=${MANCALA_PG_STATE:-${TMPDIR:-/tmp}/mancala-pg-$PORT.dir}

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] || {
    echo "pg.sh: no PostgreSQL server found; apt-get install postgresql" >&2
    exit 1
  }
  echo "$dir"
}

# as_owner CMD...: run as the postgres user when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

dsn() { echo "postgresql://postgres@127.0.0.1:$PORT/postgres"; }

start() {
  if [ -f "$STATE" ] && [ -d "$(cat "$STATE")" ]; then
    echo "pg.sh: a cluster for port $PORT already runs in $(cat "$STATE")" >&2
    exit 1
  fi
  local bin dir
  bin=$(pg_bin)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/mancala-pg.XXXXXX")
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  echo "$dir" >"$STATE"
  # --no-sync: the cluster is thrown away; the server itself keeps fsync on.
  as_owner "$bin/initdb" --no-sync -U postgres -A trust -E UTF8 \
    --locale=C -D "$dir/data" >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  if [ -n "${MANCALA_PG_HBA:-}" ]; then
    printf '%s\n' "$MANCALA_PG_HBA" >"$dir/data/pg_hba.conf"
  fi
  echo "${MANCALA_PG_OPTIONS:-}" >"$dir/options"
  launch "$dir"
  echo "PostgreSQL on $(dsn) (folder $dir)"
}

# launch DIR: start the cluster in DIR and wait until it accepts connections.
launch() {
  local dir=$1
  if ! as_owner "$(pg_bin)/pg_ctl" start -w -t 60 -D "$dir/data" \
    -l "$dir/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $dir -c max_connections=200 $(cat "$dir/options" 2>/dev/null)" \
    >/dev/null; then
    echo "pg.sh: PostgreSQL did not start on port $PORT:" >&2
    cat "$dir/server.log" >&2
    exit 1
  fi
}

running_dir() {
  [ -f "$STATE" ] || { echo "pg.sh: no cluster for port $PORT" >&2; exit 1; }
  cat "$STATE"
}

# halt DIR: stop the postmaster of DIR by its pid, waiting until it is gone.
halt() {
  local dir=$1 pid
  if [ -f "$dir/data/postmaster.pid" ]; then
    pid=$(head -n 1 "$dir/data/postmaster.pid")
    # SIGINT: fast shutdown (open sessions are ended, nothing is lost).
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 1 300); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "pg.sh: postmaster $pid ignored SIGINT; sending SIGQUIT" >&2
      kill -QUIT "$pid" 2>/dev/null || true
    fi
  fi
}

stop() {
  [ -f "$STATE" ] || return 0
  local dir
  dir=$(cat "$STATE")
  halt "$dir"
  rm -rf "$dir" "$STATE"
  echo "PostgreSQL on port $PORT stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  pause) halt "$(running_dir)" ;;
  resume) launch "$(running_dir)" ;;
  env) echo "export MANCALA_TEST_PG_DSN=$(dsn)" ;;
  *)
    echo "usage: $0 start|stop|env|pause|resume" \
      "(port: MANCALA_PG_PORT, default 15432)" >&2
    exit 2
    ;;
esac
