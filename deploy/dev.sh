#!/usr/bin/env bash
# The README's commands, on a fresh Debian 12 machine (as root):
#   deploy/dev.sh serve   install what building needs, build mancalad,
#                         mancala and the board page (no tests), run
#                         mancalad (the page at http://127.0.0.1:8080/)
#   deploy/dev.sh pg      the same on a throwaway PostgreSQL cluster
#   deploy/dev.sh build   install what building needs, build mancalad and
#                         mancala; `build page`: the board page too, as
#                         serve builds it (deploy/Containerfile's build
#                         stage, which installs it)
#   deploy/dev.sh image   install podman and what its test needs, then
#                         build the image and test it (deploy.ContainerImage)
#   deploy/dev.sh test    install what building and testing need, build
#                         everything, run every test on SQLite and on a
#                         throwaway PostgreSQL cluster
# MANCALA_LISTEN (default 127.0.0.1:50051) is where serve and pg listen;
# port 0 picks a free one, logged as "mancalad listening on port N".
# MANCALA_WEB_LISTEN (default 127.0.0.1:8080) is where they serve browsers
# (Connect and gRPC-Web, docs/api.md "From a browser"); its port 0 is
# logged as "web port on port N".
# deploy/fresh-root.sh runs serve and test in a fresh Debian 12 root, as
# .ci/run does.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every dependency is a Debian 12 package. What `serve` builds needs these
# and no more: each is one the build uses by name (a few would also come as
# another's dependency). libpqxx: mancalad is built with its PostgreSQL
# store (`pg`, docs/cluster.md). libboost-dev: Boost.Beast and Asio
# (header-only), the browsers' web port (services/web). ninja-build: the
# builds' generator (cmake_generator below).
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libgrpc++-dev protobuf-compiler-grpc protobuf-compiler libprotobuf-dev
  libabsl-dev
  golang-github-gogo-googleapis-dev
  libsqlitecpp-dev libsqlite3-dev
  libcli11-dev libspdlog-dev nlohmann-json3-dev libssl-dev libutfcpp-dev
  libcpp-httplib-dev
  libpqxx-dev
  libboost-dev
)
# What serve, pg and `build page` add for the board page (clients/web,
# target web_page: npm ci of its pinned packages, protoc-gen-es, esbuild):
# Debian's node and npm, and ca-certificates for npm's registry.
PAGE_PACKAGES=(nodejs npm ca-certificates)
# The tests' own: GoogleTest and Google Benchmark (configuring with tests
# on requires them); git: the repository checks list the tracked files,
# and `mancalad --version` names the revision; sqlite3: tests read the
# database behind a server;
# prometheus: promtool and a real server for the metrics tests;
# python3-grpcio, python3-protobuf: the Python client example
# (clients/python) and the API contract tests (tests/clients);
# postgresql: the server the PostgreSQL variants of the tests run on;
# yamllint, python3-yaml: the deploy/k8s manifests' test;
# nodejs, npm: the browser clients' suite (tests/clients/web: npm ci of
# clients/web, then node --test), ca-certificates for npm's registry;
# nginx, curl, openssl: deploy/nginx-web.conf's test (a real nginx with a
# throwaway certificate, called over HTTP/2); chromium: the board page's
# tests in a real browser (tests/clients/web/page_test.mjs, driven by the
# npm package puppeteer-core, which downloads no browser of its own).
TEST_PACKAGES=(googletest libgtest-dev libgmock-dev libbenchmark-dev
  git sqlite3 systemd procps python3 prometheus python3-grpcio
  python3-protobuf postgresql postgresql-client yamllint python3-yaml
  nodejs npm ca-certificates nginx curl openssl chromium)
# The sanitizer and fuzzing builds (README "Sanitizers and fuzzing"):
# clang, its sanitizer runtimes (libclang-rt: only a Recommends of clang's
# headers package, which --no-install-recommends leaves out) and libFuzzer
# for build-asan; gcc for build-tsan.
SANITIZER_PACKAGES=(clang libclang-rt-14-dev libfuzzer-14-dev)
# The image test (tests/e2e/container_image_test.sh), on this machine:
# podman with runc (and catatonit, the init of the pause container that
# `podman kube play` builds), mmdebstrap for the base, a PostgreSQL server, and
# Debian's python3 with YAML for the manifests' overlay, openssl for its
# throwaway certificates.
IMAGE_PACKAGES=(podman runc catatonit mmdebstrap git postgresql python3 python3-yaml
  openssl)
LISTEN=${MANCALA_LISTEN:-127.0.0.1:50051}
WEB_LISTEN=${MANCALA_WEB_LISTEN:-127.0.0.1:8080}

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

# libpqxx is optional for a build, but not here: these commands promise
# both backends. `build OFF` configures without the tests and builds what
# a user runs; `build ON` everything. Both use ./build: `test` after
# `serve` compiles only what serve did not.
# MANCALA_REVISION names the git revision where the tree has no .git.
# `build OFF page` builds the board page too (build/clients/web/dist/page).
# Ninja, for a tree configured here first: it starts a target's
# compiles before the libraries it links are built, where Make waits, so
# both cores stay busy. Measured on 2 cores, the build-asan tree from
# scratch: 492 s with Ninja, 586 s with Make (user time 938 s and 958 s).
# A tree an earlier checkout configured keeps its generator (CMake refuses
# to change it).
cmake_generator() {
  [ -f "$1/CMakeCache.txt" ] || echo "-GNinja"
}

build() {
  local page=OFF
  [ "$1" = ON ] || [ "${2:-}" = page ] && page=ON
  cmake -S . -B build $(cmake_generator build) \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMANCALA_REQUIRE_POSTGRES=ON -DBUILD_TESTING="$1" \
    -DMANCALA_WEB_PAGE="$page" \
    ${MANCALA_REVISION:+-DMANCALA_REVISION="$MANCALA_REVISION"}
  if [ "$1" = OFF ]; then
    cmake --build build -j "$(nproc)" --target mancalad mancala
    [ "$page" = OFF ] || cmake --build build --target web_page
  else
    cmake --build build -j "$(nproc)"
  fi
}
PAGE=build/clients/web/dist/page

# A throwaway cluster (deploy/pg.sh), stopped whatever happens. Port 15432,
# or the next free one (another cluster may run on this machine).
start_pg() {
  if [ -z "${MANCALA_PG_PORT:-}" ]; then
    MANCALA_PG_PORT=15432
    while (exec 3<>"/dev/tcp/127.0.0.1/$MANCALA_PG_PORT") 2>/dev/null; do
      MANCALA_PG_PORT=$((MANCALA_PG_PORT + 1))
    done
  fi
  export MANCALA_PG_PORT
  # An absolute path: the trap runs after `cd build`.
  trap "bash '$PWD/deploy/pg.sh' stop >/dev/null 2>&1 || true" EXIT
  bash deploy/pg.sh start
  eval "$(bash deploy/pg.sh env)"
  export MANCALA_TEST_PG_DSN
}

# build-asan: clang, AddressSanitizer + UndefinedBehaviorSanitizer, with the
# libFuzzer targets; runs every test but the slow CPU strength series (and
# the benchmarks, which are not tests). build-tsan: ThreadSanitizer, the
# service tests. What each skips and why: README "Sanitizers and fuzzing".
sanitizer_suites() {
  local rc=0 t0=$SECONDS
  echo "=== AddressSanitizer + UndefinedBehaviorSanitizer build, fuzzing ==="
  cmake -S . -B build-asan $(cmake_generator build-asan) \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DMANCALA_SANITIZE=address,undefined -DMANCALA_FUZZ=ON >/dev/null
  # (set -e does not apply in a function called from `||`: a failed build
  # is checked by hand, so no test runs on a half-built tree.)
  cmake --build build-asan -j "$(nproc)" || return 1
  # The ThreadSanitizer build runs beside the ASan tests, at nice 19: the
  # tests leave the cores idle while their servers wait (an ASan run took
  # 381 s of wall time and 329 s of CPU on 2 cores), and nice 19 gives the
  # compiler only what the tests leave. Its output goes to a file, shown if
  # it fails.
  # -O1 -g1 (line tables): gcc compiles a service file in ~60% of the
  # time of -O2 -g (14.7 s against 9.0 s for match_service.cc, measured),
  # and ThreadSanitizer's reports keep their files and lines. (clang's
  # build-asan gained nothing from the same change, so it stays -O2 -g.)
  cmake -S . -B build-tsan $(cmake_generator build-tsan) \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    -DMANCALA_SANITIZE=thread >/dev/null
  local t1=$SECONDS tsan_log=build-tsan/build.log tsan_pid
  nice -n 19 cmake --build build-tsan -j "$(nproc)" --target services_test \
    >"$tsan_log" 2>&1 &
  tsan_pid=$!
  # tests/lsan.supp: a leak of libpqxx's, not ours (the file says which).
  (cd build-asan &&
    LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp print_suppressions=0" \
      ctest --output-on-failure --timeout 900 -j "$(nproc)" -LE slow) ||
    rc=1
  echo "=== ThreadSanitizer build: service tests ==="
  local t2=$SECONDS
  if ! wait "$tsan_pid"; then
    tail -n 40 "$tsan_log"
    echo "ThreadSanitizer build failed ($tsan_log)"
    return 1
  fi
  echo "ThreadSanitizer build took $((SECONDS - t1)) s, $((SECONDS - t2)) s" \
    "of it after the ASan tests"
  # Every report fails the run: the test whose process reported exits 66
  # (TSan's exitcode) and its reports show in ctest's output; any report
  # counted in the log (from any process) fails the step as well. The
  # services lock with services/base/mutex.h (std::mutex), which TSan sees;
  # tests/tsan.supp only lists Debian libraries it cannot see into.
  local log=build-tsan/ctest-tsan.log
  (cd build-tsan &&
    TSAN_OPTIONS="suppressions=$PWD/../tests/tsan.supp second_deadlock_stack=1 history_size=4" \
      ctest --output-on-failure --timeout 900 -j "$(nproc)" -L service) \
    2>&1 | tee "$log" || rc=1
  local reports
  reports=$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)
  echo "ThreadSanitizer: $reports reports ($log); waiting for the build" \
    "and the tests took $((SECONDS - t2)) s"
  ((reports == 0)) || rc=1
  echo "Sanitizer builds and suites took $((SECONDS - t0)) s (rc $rc)"
  return $rc
}

case "${1:-}" in
  serve)
    install_missing "${PACKAGES[@]}" "${PAGE_PACKAGES[@]}"
    build OFF page
    mkdir -p var
    exec ./build/services/mancalad --listen "$LISTEN" --db var/mancala.db \
      --web-listen "$WEB_LISTEN" --web-root "$PAGE"
    ;;
  build)
    if [ "${2:-}" = page ]; then
      install_missing "${PACKAGES[@]}" "${PAGE_PACKAGES[@]}"
      build OFF page
    else
      install_missing "${PACKAGES[@]}"
      build OFF
    fi
    ;;
  image)
    install_missing "${IMAGE_PACKAGES[@]}"
    exec bash tests/e2e/container_image_test.sh
    ;;
  pg)
    install_missing "${PACKAGES[@]}" "${PAGE_PACKAGES[@]}" postgresql \
      postgresql-client
    build OFF page
    start_pg
    # The URL stays out of the process list: --storage postgres reads it
    # from the environment. The cluster goes when mancalad stops.
    MANCALAD_DATABASE_URL=$MANCALA_TEST_PG_DSN \
      ./build/services/mancalad --listen "$LISTEN" --storage postgres \
      --web-listen "$WEB_LISTEN" --web-root "$PAGE"
    ;;
  test)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}" \
      "${SANITIZER_PACKAGES[@]}"
    build ON
    # Every test runs on SQLite; the storage contract, service and e2e
    # tests run again on PostgreSQL (ctest names starting "postgres.").
    # Under CI=true a PostgreSQL test without its server fails, never skips.
    start_pg
    # Sanitizer suites first, so the main run's ctest summary stays the
    # last lines printed (CI reads them); their failure fails the run.
    sanitized=0
    sanitizer_suites || sanitized=$?
    # The golden data the suite checks, counted from the files themselves
    # (tests fail if these differ from what they register and replay).
    find tests/data -name "*.json" ! -name ratings.json | sort |
      xargs ./build/client/mancala replay | tail -n 1 |
      sed 's/^/Golden traces and edge cases (mancala replay): /'
    ./build/tests/ratings/ratings_test \
      --gtest_filter=ConformanceFile.EveryVectorIsARegisteredTest |
      grep 'registered tests'
    echo "=== Main build: every test ==="
    cd build
    # Not exec: the trap stops the cluster afterwards, quietly, so ctest's
    # summary stays the last lines of output.
    rc=0
    ctest --output-on-failure --timeout 900 -j "$(nproc)" || rc=$?
    ((rc == 0 && sanitized == 0)) || exit 1
    ;;
  *)
    echo "usage: $0 serve|pg|test|build [page]|image" >&2
    exit 2
    ;;
esac
