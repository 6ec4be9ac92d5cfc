#!/usr/bin/env bash
# README's two commands on a fresh Debian 12 machine, for real: builds a
# minimal bookworm root with mmdebstrap, copies the repository's HEAD into
# it, and inside it (own mount and PID namespaces; loopback shared with
# this machine)
#   1. runs `deploy/dev.sh serve` in the background, waits for
#      grpc.health.v1 SERVING (`mancala health`), and stops it by its pid;
#   2. runs `deploy/dev.sh test` (with CI=true), whose exit status is this
#      script's and whose ctest summary is the last thing it prints.
# The root is removed at the end, whatever happens. .ci/run runs this script;
# a developer runs it by hand the same way (as root):
#
#   deploy/fresh-root.sh          # what HEAD holds: commit first
#   MANCALA_ROOT_PARENT=/big/disk deploy/fresh-root.sh
#
# The root gets the apt sources this machine is configured with, Debian
# 12's own suites only (no third-party archive, so nothing but Debian's
# packages can satisfy an install), this machine's apt settings for
# reaching them (proxies, snapshot validity) and its npm configuration;
# no mirror host is written here. Why a packages list is trusted: a
# package that dev.sh does not install is not in the root, so its absence
# fails serve or test here, as it would for a new user.
set -euo pipefail

SERVE_TIMEOUT_S=${MANCALA_SERVE_TIMEOUT_S:-3600}

# ---------------------------------------------------------------------------
# Inside the root (PID 1 of its namespace is the host side's `unshare`).
inside() {
  cd /src
  local log=$PWD/serve.log t0=$SECONDS pid port=""
  echo "=== fresh root: deploy/dev.sh serve ==="
  MANCALA_LISTEN=127.0.0.1:0 MANCALA_WEB_LISTEN=127.0.0.1:0 \
    bash deploy/dev.sh serve >"$log" 2>&1 &
  pid=$!
  # serve installs, builds, then execs mancalad (same pid), which logs
  # "mancalad listening on port N" once it accepts calls.
  while kill -0 "$pid" 2>/dev/null; do
    port=$(sed -n 's/.*mancalad listening on port \([0-9]*\).*/\1/p' "$log" |
      head -n 1)
    [ -n "$port" ] && break
    if ((SECONDS - t0 > SERVE_TIMEOUT_S)); then
      echo "fresh root: serve did not listen within ${SERVE_TIMEOUT_S} s" >&2
      break
    fi
    sleep 1
  done
  if [ -z "$port" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "fresh root: deploy/dev.sh serve failed; the end of its output:" >&2
    tail -n 60 "$log" >&2
    return 1
  fi
  local status=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    status=$(./build/client/mancala health --server "127.0.0.1:$port" \
      --timeout-ms 2000 2>&1) && break
    sleep 1
  done
  echo "fresh root: serve printed:"
  grep -E '^Installing:|mancalad listening|\[100%\] Built target' "$log" |
    sed 's/^/  /' | cut -c1-400
  echo "fresh root: mancala health --server 127.0.0.1:$port: $status" \
    "($((SECONDS - t0)) s after serve started: install, build, start)"
  kill -TERM "$pid"
  local rc=0
  wait "$pid" || rc=$?
  echo "fresh root: mancalad stopped by its pid ($pid), exit status $rc"
  if [ "$status" != SERVING ] || ((rc != 0)); then
    echo "fresh root: serve failed; the end of its output:" >&2
    tail -n 30 "$log" >&2
    return 1
  fi
  echo "=== fresh root: deploy/dev.sh test ==="
  bash deploy/dev.sh test
}

if [ "${1:-}" = --inside ]; then
  inside
  exit
fi

# ---------------------------------------------------------------------------
# On this machine.
source "$(dirname "$0")/debian-sources.sh"
[ "$(id -u)" = 0 ] || {
  echo "fresh-root.sh: run as root (mmdebstrap, chroot, mounts)" >&2
  exit 2
}
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
  echo "fresh-root.sh: uncommitted changes are not copied (HEAD is)" >&2
fi
if ! command -v mmdebstrap >/dev/null; then
  echo "Installing: mmdebstrap"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

PARENT=${MANCALA_ROOT_PARENT:-/var/tmp}
ROOT=$(mktemp -d "$PARENT/mancala-fresh-root.XXXXXX")
chmod 755 "$ROOT"  # its / : users inside (postgres) must get through it
CHILD=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$CHILD" ]; then kill "$CHILD" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  # The mounts lived in the child's namespace and went with it; never
  # delete through one that is still there.
  if findmnt -rn -o TARGET | grep -q "^$ROOT"; then
    echo "fresh-root.sh: $ROOT still has mounts; left in place" >&2
  else
    rm -rf --one-file-system "$ROOT"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

t0=$SECONDS
echo "=== fresh root: mmdebstrap bookworm (minbase) ==="
debian12_root "$ROOT"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
cp /etc/hosts "$ROOT/etc/hosts"
# This machine's npm configuration: the user's (~/.npmrc) and the global
# one (/etc/npmrc, where Debian's npm reads it). A `cafile` that one names
# (a proxy's certificate authority, say) is copied in beside it under a
# name of the root's own: the root's ca-certificates writes its own bundle
# at the usual path, without this machine's additions.
copy_npmrc() {
  local from=$1 to=$2 ca
  [ -f "$from" ] || return 0
  mkdir -p "$(dirname "$ROOT$to")"
  cp "$from" "$ROOT$to"
  ca=$(sed -n 's/^[[:space:]]*cafile[[:space:]]*=[[:space:]]*//p' "$from" |
    tail -n 1)
  if [ -n "$ca" ] && [ -f "$ca" ]; then
    mkdir -p "$ROOT/etc/npm-ca"
    cp "$ca" "$ROOT/etc/npm-ca/$(basename "$to").pem"
    sed -i "s|^[[:space:]]*cafile[[:space:]]*=.*|cafile=/etc/npm-ca/$(basename "$to").pem|" \
      "$ROOT$to"
  fi
}
copy_npmrc "$HOME/.npmrc" ~root/.npmrc
copy_npmrc /etc/npmrc /etc/npmrc
# Packages install their services but start none (policy-rc.d "101":
# action forbidden): the root shares this machine's network, where a
# PostgreSQL on 5432 would collide; the tests start their own servers.
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"
git clone --quiet --no-hardlinks "$SRC" "$ROOT/src"
echo "fresh root: $(du -sh --exclude=src "$ROOT" | cut -f1) made in" \
  "$((SECONDS - t0)) s; the repository at $(git -C "$ROOT/src" rev-parse --short HEAD)"

# A private mount namespace (so nothing mounted here, /proc, /sys, /dev,
# is seen outside or outlives it) and PID namespace (so every process started inside ends
# with it, and with unshare: --kill-child; a server left running cannot
# hold the root).
unshare --mount --propagation private --pid --fork --kill-child -- bash -euc '
  root=$1
  mount -t proc proc "$root/proc"
  # /sys as every machine has it. Without it, a lookup under /sys that
  # has a fallback (the CPU count, for one) succeeds but leaves errno at
  # ENOENT; gRPC 1.51 reads errno for a nonblocking connect() only after
  # other calls (iomgr/tcp_client_posix.cc), so about 1 in 300 sanitizer
  # test processes had their first connect to their own loopback server
  # fail with "No such file or directory" (syscall "connect" in the gRPC
  # trace). Reproduced in a root: 5 of 1464 processes without /sys, 0 of
  # 1952 with it.
  mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
  mount --rbind /dev "$root/dev"
  mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
  # HOME: the home of root, the same folder in the root as on this machine.
  exec chroot "$root" /usr/bin/env -i HOME=~root USER=root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb CI=true MANCALA_SERVE_TIMEOUT_S="$2" \
    bash /src/deploy/fresh-root.sh --inside
' fresh-root "$ROOT" "$SERVE_TIMEOUT_S" &
CHILD=$!
rc=0
wait "$CHILD" || rc=$?
CHILD=""
exit "$rc"
