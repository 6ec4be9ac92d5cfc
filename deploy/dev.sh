#!/usr/bin/env bash
# The README's two commands, on a fresh Debian 12 machine (as root):
#   deploy/dev.sh serve   install what is missing, build, run mancalad
#   deploy/dev.sh test    install what is missing, build, run every test
set -euo pipefail
cd "$(dirname "$0")/.."

# Every dependency is a Debian 12 package.
PACKAGES=(
  build-essential cmake pkg-config git
  libgrpc++-dev protobuf-compiler-grpc protobuf-compiler libprotobuf-dev
  libabsl-dev
  golang-github-gogo-googleapis-dev
  libsqlitecpp-dev libsqlite3-dev sqlite3
  libcli11-dev libspdlog-dev nlohmann-json3-dev libssl-dev libutfcpp-dev
  libcpp-httplib-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
)
# prometheus: promtool and a real server for the metrics tests;
# python3-grpcio, python3-protobuf: the Python client example
# (clients/python) and the API contract tests (tests/clients).
TEST_PACKAGES=(systemd procps python3 prometheus python3-grpcio python3-protobuf)

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "Installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build build -j "$(nproc)"
}

case "${1:-}" in
  serve)
    install_missing "${PACKAGES[@]}"
    build
    mkdir -p var
    exec ./build/services/mancalad --listen 127.0.0.1:50051 --db var/mancala.db
    ;;
  test)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build
    # The golden data the suite checks, counted from the files themselves
    # (tests fail if these differ from what they register and replay).
    find tests/data -name "*.json" ! -name ratings.json | sort |
      xargs ./build/client/mancala replay | tail -n 1 |
      sed 's/^/Golden traces and edge cases (mancala replay): /'
    ./build/tests/ratings/ratings_test \
      --gtest_filter=ConformanceFile.EveryVectorIsARegisteredTest |
      grep 'registered tests'
    cd build
    exec ctest --output-on-failure --timeout 900 -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 serve|test" >&2
    exit 2
    ;;
esac
