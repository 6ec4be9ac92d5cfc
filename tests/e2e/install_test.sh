#!/usr/bin/env bash
# `cmake --install` puts the binaries, the README, the docs, the systemd
# unit and the board page where an operator expects them (here under a temp
# prefix), and the installed mancalad serves the installed page.
#
# Usage: install_test.sh BUILD [PYTHON]   (a build with MANCALA_WEB_PAGE on,
#        as every build with the tests is; PYTHON defaults to Debian's)
set -euo pipefail
BUILD=$1 PYTHON=${2:-/usr/bin/python3}
source "$(dirname "$0")/lib.sh"
ROOT=$(mktemp -d)
trap 'stop_server; rm -rf "$ROOT"' EXIT
cmake --install "$BUILD" --prefix "$ROOT" >"$ROOT/install.log" ||
  { cat "$ROOT/install.log"; fail "cmake --install failed"; }
for f in bin/mancalad bin/mancala; do
  [ -x "$ROOT/$f" ] || fail "$f not installed"
done
DOC=share/doc/mancala-server
# The page: what the systemd unit, the image and deploy/k8s pass to
# --web-root (under /usr/local).
WEB=share/mancala-server/web
for f in "$DOC"/README.md lib/systemd/system/mancalad.service \
  "$WEB"/index.html "$WEB"/app.js "$WEB"/style.css; do
  [ -s "$ROOT/$f" ] || fail "$f not installed"
done
SRC=$(dirname "$0")/../..
if [ -d "$SRC/docs" ]; then
  for f in $(cd "$SRC/docs" && find . -type f); do
    [ -f "$ROOT/$DOC/docs/$f" ] || fail "docs/$f not installed"
  done
fi
"$ROOT/bin/mancalad" --version | grep -q '^mancalad ' || fail "installed mancalad"

# The installed mancalad serves the installed page at / on its web port.
start_server "$ROOT/bin/mancalad" "$ROOT/mancala.db" "$ROOT/server.log" \
  --web-listen 127.0.0.1:0 --web-root "$ROOT/$WEB"
wait_for "$ROOT/server.log" "web port on port [0-9]+" 10
serves_page "$PYTHON" "http://127.0.0.1:$(web_port "$ROOT/server.log")/" \
  "$SRC/clients/web/page/index.html"
echo "PASS: $(grep -c Installing "$ROOT/install.log") files installed;" \
  "the installed mancalad serves the installed page at /"
