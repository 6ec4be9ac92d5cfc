#!/usr/bin/env bash
# `cmake --install` puts the binaries, the README, the docs and the
# systemd unit where an operator expects them (here under a temp prefix).
set -euo pipefail
BUILD=$1
source "$(dirname "$0")/lib.sh"
ROOT=$(mktemp -d)
trap 'rm -rf "$ROOT"' EXIT
cmake --install "$BUILD" --prefix "$ROOT" >"$ROOT/install.log" ||
  { cat "$ROOT/install.log"; fail "cmake --install failed"; }
for f in bin/mancalad bin/mancala; do
  [ -x "$ROOT/$f" ] || fail "$f not installed"
done
DOC=share/doc/mancala-server
for f in "$DOC"/README.md lib/systemd/system/mancalad.service; do
  [ -s "$ROOT/$f" ] || fail "$f not installed"
done
SRC=$(dirname "$0")/../..
if [ -d "$SRC/docs" ]; then
  for f in $(cd "$SRC/docs" && find . -type f); do
    [ -f "$ROOT/$DOC/docs/$f" ] || fail "docs/$f not installed"
  done
fi
"$ROOT/bin/mancalad" --version | grep -q '^mancalad ' || fail "installed mancalad"
echo "PASS: $(grep -c Installing "$ROOT/install.log") files installed"
