#!/usr/bin/env bash
# deploy/mancalad.service passes `systemd-analyze verify` (with ExecStart
# pointed at the binary just built, since it is not installed here).
set -euo pipefail
UNIT=$1 BIN=$2
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
sed "s|/usr/local/bin/mancalad|$BIN|" "$UNIT" >"$WORK/mancalad.service"
out=$(systemd-analyze verify "$WORK/mancalad.service" 2>&1) || { echo "$out"; exit 1; }
# verify prints warnings without failing; any line naming our unit is one.
if echo "$out" | grep -q "mancalad.service"; then echo "$out"; exit 1; fi
echo PASS
