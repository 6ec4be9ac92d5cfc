#!/usr/bin/env bash
# deploy/mancalad.service passes `systemd-analyze verify` (with ExecStart
# pointed at the binary just built, since it is not installed here), and
# its --web-root is where `cmake --install` of this build puts the board
# page under the prefix the unit runs mancalad from (PREFIX/bin/mancalad):
# mancalad refuses to start without that folder.
#
# Usage: systemd_unit_test.sh UNIT MANCALAD BUILD
set -euo pipefail
UNIT=$1 BIN=$2 BUILD=$3
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
sed "s|/usr/local/bin/mancalad|$BIN|" "$UNIT" >"$WORK/mancalad.service"
out=$(systemd-analyze verify "$WORK/mancalad.service" 2>&1) || { echo "$out"; exit 1; }
# verify prints warnings without failing; any line naming our unit is one.
if echo "$out" | grep -q "mancalad.service"; then echo "$out"; exit 1; fi

PREFIX=$(sed -n 's|^ExecStart=\([^ ]*\)/bin/mancalad .*|\1|p' "$UNIT")
PAGE=$(sed -n '/^#/d; s/.*--web-root \([^ ]*\).*/\1/p' "$UNIT")
[ -n "$PREFIX" ] || fail "no ExecStart=PREFIX/bin/mancalad in the unit"
[ -n "$PAGE" ] || fail "the unit passes no --web-root"
[[ "$PAGE" == "$PREFIX"/* ]] || fail "--web-root $PAGE is not under $PREFIX"
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log" ||
  { cat "$WORK/install.log"; fail "cmake --install failed"; }
[ -s "$WORK/prefix/${PAGE#"$PREFIX"/}/index.html" ] ||
  fail "--web-root $PAGE: cmake --install puts no index.html in" \
    "PREFIX/${PAGE#"$PREFIX"/}"
echo "PASS: systemd-analyze verify is clean; --web-root $PAGE holds the" \
  "installed page"
