#!/usr/bin/env bash
# mancalad on PostgreSQL over TLS: a throwaway cluster (deploy/pg.sh) with
# ssl=on that refuses connections without TLS (pg_hba: hostssl only), a
# throwaway CA and server certificate (127.0.0.1 in its subjectAltName)
# made with openssl, and the DSN's sslmode=verify-full and sslrootcert.
#
# Checks: a plaintext connection is refused by the cluster; mancalad with a
# DSN naming another CA, or a host the certificate does not name, exits 1
# with libpq's reason; the PostgreSQL two-node scenario
# (two_nodes_test.py, as e2e.TwoNodesScenario) passes with the verify-full
# DSN, every session of both nodes over TLS.
#
# usage: pg_tls_test.sh MANCALAD PYTHON3 STUBS_DIR REPO_DIR
set -euo pipefail
MANCALAD=$1 PYTHON=$2 STUBS=$3 REPO=$4

source "$(dirname "$0")/lib.sh"  # fail, free_low_port
if [ ! -x "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)/initdb" ]; then
  [ "${CI:-}" = true ] && fail "PostgreSQL server not installed (CI=true)"
  echo "SKIP: PostgreSQL server not installed"
  exit 77
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/pg_tls_test.XXXXXX")
chmod 755 "$dir"  # The cluster's owner reads the server's files here.
port=$(free_low_port "$PYTHON")
[ -n "$port" ] || fail "no free port"
export MANCALA_PG_PORT=$port MANCALA_PG_STATE=$dir/pg.state
cleanup() {
  "$REPO/deploy/pg.sh" stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

# The certificates.
ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
for ca in ca other-ca; do
  openssl req -x509 "${ec[@]}" -keyout "$dir/$ca.key" -out "$dir/$ca.pem" \
    -days 2 -subj "/CN=mancala $ca" 2>/dev/null
done
openssl req "${ec[@]}" -keyout "$dir/server.key" -out "$dir/server.csr" \
  -subj /CN=127.0.0.1 2>/dev/null
echo "subjectAltName=IP:127.0.0.1" >"$dir/san.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" \
  -CAkey "$dir/ca.key" -set_serial 0x3001 -days 2 -extfile "$dir/san.ext" \
  -out "$dir/server.pem" 2>/dev/null
chmod 600 "$dir/server.key"  # PostgreSQL refuses a key others can read.
[ "$(id -u)" = 0 ] && chown postgres: "$dir/server.key" "$dir/server.pem"

MANCALA_PG_OPTIONS="-c ssl=on -c ssl_cert_file=$dir/server.pem \
-c ssl_key_file=$dir/server.key -c ssl_min_protocol_version=TLSv1.2" \
MANCALA_PG_HBA="hostssl all all 127.0.0.1/32 trust" \
  "$REPO/deploy/pg.sh" start

base=postgresql://postgres@127.0.0.1:$port/postgres
tls_dsn="$base?sslmode=verify-full&sslrootcert=$dir/ca.pem"

# Without TLS: refused by the cluster itself.
if psql "$base?sslmode=disable" -XqAt -c 'SELECT 1' >"$dir/plain.out" 2>&1; then
  fail "a plaintext connection was accepted"
fi
grep -q 'no encryption' "$dir/plain.out" ||
  fail "plaintext refusal not for want of TLS: $(cat "$dir/plain.out")"
[ "$(psql "$tls_dsn" -XqAt -c 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')" = t ] ||
  fail "psql with the verify-full DSN is not on TLS"
echo "cluster: TLS only (plaintext refused: no encryption)"

# mancalad refuses a server it cannot verify: exit 1, libpq's reason.
refused() {  # DSN WANT
  local rc=0
  MANCALAD_DATABASE_URL=$1 timeout 60 "$MANCALAD" --storage postgres \
    --listen 127.0.0.1:0 >"$dir/refused.log" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "mancalad with $1 exited $rc: $(cat "$dir/refused.log")"
  grep -q "$2" "$dir/refused.log" ||
    fail "mancalad with $1 did not say '$2': $(cat "$dir/refused.log")"
  echo "refused: $(grep -o "$2" "$dir/refused.log" | head -n 1) (exit 1)"
}
refused "$base?sslmode=verify-full&sslrootcert=$dir/other-ca.pem" \
  "certificate verify failed"
refused "postgresql://postgres@localhost:$port/postgres?sslmode=verify-full&sslrootcert=$dir/ca.pem" \
  'does not match host name'

# The two-node scenario, every session verify-full.
MANCALA_TEST_PG_DSN=$tls_dsn "$PYTHON" "$REPO/tests/e2e/two_nodes_test.py" \
  "$MANCALAD" "$STUBS" || fail "two_nodes_test.py over TLS"
echo "PASS"
