#!/usr/bin/env bash
# deploy.ContainerImage: deploy/Containerfile built with podman and run the
# way deploy/k8s runs it (as root, on this machine: .ci/run runs it after
# the fresh root; podman needs this machine's cgroups and network).
#
#   1. a Debian 12 base made with mmdebstrap from this machine's apt sources
#      and imported (`podman import`), standing in for debian:bookworm-slim;
#   2. the image built on it (npm in the build stage with this machine's
#      npm registry and certificate authority); its size, labels, user and
#      entry point, and no Node in it;
#   3. run with the manifest's hardening (read-only root, a tmpfs for its
#      temporary files, every capability dropped, no-new-privileges, uid
#      65532) on SQLite
#      with a volume: SERVING through a published loopback port, the board
#      page at / of the published web port, a short
#      match played by `mancala` from outside the container, SIGTERM and a
#      clean stop in its JSON log, the database left on the volume;
#   4. the same on PostgreSQL (a throwaway cluster, deploy/pg.sh; the URL
#      in MANCALAD_DATABASE_URL, as the manifest's Secret provides it);
#   5. `podman kube play` of deploy/k8s's Deployment with a test overlay
#      (one replica, the local image, the host's network so the pod reaches
#      the cluster, free ports): the pod comes up SERVING, its web port
#      answering calls and serving the page;
#   6. `podman save --format oci-archive` of the image, then removed.
#
# Usage: container_image_test.sh          (needs podman, runc, mmdebstrap,
#        PostgreSQL, openssl and python3-yaml: .ci/run installs them)
# Containers run with runc (crun fails on these machines' cgroups) and
# explicit ulimits (root here lacks CAP_SYS_RESOURCE to keep podman's
# defaults): CONTAINERS_CONF below.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
source "$REPO/deploy/debian-sources.sh"
source "$REPO/tests/e2e/lib.sh"

WORK=$(mktemp -d "${MANCALA_ROOT_PARENT:-/var/tmp}/mancala-image-test.XXXXXX")
mkdir "$WORK/tls"  # Step 5's certificates; mounted by `mancala` below.
TAG=$$
BASE=localhost/mancala-test-base:$TAG
IMAGE=localhost/mancalad:test-$TAG
CONTAINERS=()
export CONTAINERS_CONF=$WORK/containers.conf
cat >"$CONTAINERS_CONF" <<'EOF'
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=8192:8192"]
[engine]
runtime = "runc"
EOF
export MANCALA_PG_PORT=${MANCALA_PG_PORT:-15499}
export MANCALA_PG_STATE=$WORK/pg.state
cleanup() {
  local rc=$?
  for c in "${CONTAINERS[@]}"; do podman rm -f -t 0 "$c" >/dev/null 2>&1 || true; done
  podman kube down "$WORK/kube.yaml" >/dev/null 2>&1 || true
  podman secret rm "mancalad-database-$TAG" >/dev/null 2>&1 || true
  podman rmi -f "$IMAGE" "$BASE" >/dev/null 2>&1 || true
  # The build stage is left as an untagged image (about 1.5 GB): remove
  # the untagged images this run made, none that were there before it.
  if [ -n "${DANGLING_BEFORE+set}" ]; then
    comm -13 <(echo "$DANGLING_BEFORE") \
      <(podman images -q --filter dangling=true | sort -u) |
      xargs -r podman rmi -f >/dev/null 2>&1 || true
  fi
  bash "$REPO/deploy/pg.sh" stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT
step() { echo "deploy.ContainerImage: $*"; }

# mancala ARGS...: the image's own `mancala`, in a container of its own on
# the host's network: a client outside the server's container.
mancala() {
  podman run --rm --network host --read-only --cap-drop ALL \
    -v "$WORK/tls:/tls:ro" --entrypoint /usr/local/bin/mancala "$IMAGE" "$@"
}
# wait_serving ADDRESS NAME: until `mancala health` answers SERVING.
wait_serving() {
  local out=""
  for _ in $(seq 1 60); do
    out=$(mancala health --server "$1" --timeout-ms 1000 2>/dev/null) && return 0
    [ "$(podman inspect -f '{{.State.Running}}' "$2" 2>/dev/null)" = true ] || break
    sleep 1
  done
  podman logs "$2" 2>&1 | tail -n 20
  fail "$2 is not SERVING on $1 (last answer: $out)"
}
# play ADDRESS: a Kalah match against the CPU, played to its end.
play() {
  local out
  out=$(mancala play --server "$1" --game kalah --vs cpu --level 1 --auto \
    --name Container 2>&1) || fail "mancala play failed: $out"
  [[ "$out" == *"Game over"* ]] || fail "the match did not end: $out"
}
# stop_cleanly NAME: SIGTERM (the image's STOPSIGNAL); exit 0, JSON logs.
stop_cleanly() {
  podman stop -t 30 "$1" >/dev/null
  local code
  code=$(podman inspect -f '{{.State.ExitCode}}' "$1")
  podman logs "$1" >"$WORK/$1.log" 2>&1
  [ "$code" = 0 ] || { tail -n 20 "$WORK/$1.log"; fail "$1 exited $code"; }
  grep -q '"msg":"signal 15: shutting down"' "$WORK/$1.log" &&
    grep -q '"msg":"mancalad stopped cleanly"' "$WORK/$1.log" ||
    { tail -n 20 "$WORK/$1.log"; fail "$1: no clean stop in its JSON log"; }
}
HARDENING=(--read-only --tmpfs /tmp:rw,size=16m --cap-drop ALL
  --security-opt no-new-privileges --user 65532:65532)

t0=$SECONDS
debian12_root "$WORK/base.tar" \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*'
podman import -q "$WORK/base.tar" "$BASE" >/dev/null
rm -f "$WORK/base.tar"
step "base $BASE made in $((SECONDS - t0)) s"

t0=$SECONDS
REVISION=$(git -C "$REPO" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
VERSION=$(sed -n 's/^project(mancala_server VERSION \([0-9.]*\).*/\1/p' "$REPO/CMakeLists.txt")
DANGLING_BEFORE=$(podman images -q --filter dangling=true | sort -u)
# The board page's npm packages come from this machine's npm registry,
# trusting the certificate authority its npm trusts (a proxy's, say):
# deploy/Containerfile names no registry. Without npm here, npm's defaults.
NPM_ARGS=()
if command -v npm >/dev/null; then
  NPM_ARGS+=(--build-arg npm_config_registry="$(npm config get registry)")
  NPM_CA=$(npm config get cafile)
  [ -f "$NPM_CA" ] && NPM_ARGS+=(--secret id=npm-ca,src="$NPM_CA")
fi
podman build -q -f "$REPO/deploy/Containerfile" -t "$IMAGE" \
  --build-arg BASE="$BASE" --build-arg REVISION="$REVISION" \
  --build-arg VERSION="$VERSION" "${NPM_ARGS[@]}" "$REPO" \
  >"$WORK/build.log" 2>&1 ||
  { tail -n 40 "$WORK/build.log"; fail "podman build failed"; }
SIZE=$(podman image inspect -f '{{.Size}}' "$IMAGE")
step "image built in $((SECONDS - t0)) s, $((SIZE / 1000000)) MB ($IMAGE)"
[ "$(podman image inspect -f '{{.Config.User}}' "$IMAGE")" = 65532:65532 ] ||
  fail "the image does not run as 65532:65532"
[ "$(podman image inspect -f '{{index .Config.Labels "org.opencontainers.image.revision"}}' "$IMAGE")" = "$REVISION" ] ||
  fail "the revision label is not $REVISION"
[ "$(podman image inspect -f '{{index .Config.Labels "org.opencontainers.image.version"}}' "$IMAGE")" = "$VERSION" ] ||
  fail "the version label is not $VERSION"
[ "$(podman image inspect -f '{{.Config.StopSignal}}' "$IMAGE")" = SIGTERM ] ||
  fail "STOPSIGNAL is not SIGTERM"
version=$(podman run --rm "${HARDENING[@]}" "$IMAGE" --version)
[ "$version" = "mancalad $VERSION (revision $REVISION)" ] ||
  fail "mancalad --version in the image: $version"
# Node bundles the page in the build stage only.
packages=$(podman run --rm --entrypoint /usr/bin/dpkg-query "$IMAGE" \
  -W -f '${Package} ${db:Status-Status}\n') ||
  fail "dpkg-query in the image failed"
if grep -E '^(nodejs|npm) installed$' <<<"$packages"; then
  fail "the run stage has Node (nodejs or npm installed)"
fi

# 3. SQLite on a volume, the port published on loopback.
mkdir -p "$WORK/data" && chown 65532:65532 "$WORK/data"
C=mancalad-sqlite-$TAG
CONTAINERS+=("$C")
podman run -d --name "$C" "${HARDENING[@]}" -v "$WORK/data:/var/lib/mancala" \
  -p 127.0.0.1::50051 -p 127.0.0.1::8080 "$IMAGE" >/dev/null
PORT=$(podman port "$C" 50051/tcp | sed 's/.*://')
WEB=$(podman port "$C" 8080/tcp | sed 's/.*://')
wait_serving "127.0.0.1:$PORT" "$C"
# The CMD's --web-root: the page the build stage installed.
serves_page /usr/bin/python3 "http://127.0.0.1:$WEB/" \
  "$REPO/clients/web/page/index.html"
play "127.0.0.1:$PORT"
stop_cleanly "$C"
[ -s "$WORK/data/mancala.db" ] || fail "no database on the volume"
step "SQLite: hardened, SERVING on 127.0.0.1:$PORT, the page at" \
  "127.0.0.1:$WEB/, a match played, clean stop"

# 4. PostgreSQL: the URL from the environment, as the Secret gives it.
bash "$REPO/deploy/pg.sh" start >/dev/null
eval "$(bash "$REPO/deploy/pg.sh" env)"
C=mancalad-postgres-$TAG
CONTAINERS+=("$C")
GRPC=$(free_port /usr/bin/python3)
podman run -d --name "$C" "${HARDENING[@]}" --network host \
  -e MANCALAD_DATABASE_URL="$MANCALA_TEST_PG_DSN" "$IMAGE" \
  --storage postgres --listen "127.0.0.1:$GRPC" --log-format json \
  --drain-seconds 1 >/dev/null
wait_serving "127.0.0.1:$GRPC" "$C"
play "127.0.0.1:$GRPC"
stop_cleanly "$C"
grep -q '"msg":"draining: readiness NOT_SERVING' "$WORK/$C.log" ||
  fail "$C did not drain"
step "PostgreSQL: SERVING on 127.0.0.1:$GRPC, a match played, drained and stopped"

# 5. The manifests under podman kube play, TLS from the test's throwaway CA
#    (the pod's user reads the files: the key is the test's own).
GRPC=$(free_port /usr/bin/python3)
METRICS=$(free_port /usr/bin/python3)
WEB=$(free_port /usr/bin/python3)
HEALTH=$(free_port /usr/bin/python3)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$WORK/tls/ca.key" -out "$WORK/tls/ca.pem" -days 1 \
  -subj "/CN=mancala test CA" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$WORK/tls/tls.key" -out "$WORK/tls/tls.csr" -subj /CN=127.0.0.1 \
  2>/dev/null
echo "subjectAltName=IP:127.0.0.1" >"$WORK/tls/san.ext"
openssl x509 -req -in "$WORK/tls/tls.csr" -CA "$WORK/tls/ca.pem" \
  -CAkey "$WORK/tls/ca.key" -set_serial 0x4001 -days 1 \
  -extfile "$WORK/tls/san.ext" -out "$WORK/tls/tls.crt" 2>/dev/null
chmod 755 "$WORK/tls" && chmod 644 "$WORK/tls/tls.key"
/usr/bin/python3 "$REPO/tests/e2e/k8s_test_overlay.py" "$REPO/deploy/k8s" \
  --image "$IMAGE" --grpc-port "$GRPC" --metrics-port "$METRICS" \
  --web-port "$WEB" --health-port "$HEALTH" --tls-dir "$WORK/tls" \
  --secret-name "mancalad-database-$TAG" \
  --database-url "$MANCALA_TEST_PG_DSN" \
  --secret-out "$WORK/secret.json" >"$WORK/kube.yaml"
podman secret create "mancalad-database-$TAG" "$WORK/secret.json" >/dev/null
podman kube play --quiet "$WORK/kube.yaml" >"$WORK/kube.out" 2>&1 ||
  { cat "$WORK/kube.out"; fail "podman kube play failed"; }
POD_CONTAINER=$(podman ps --format '{{.Names}}' | grep -- "-mancalad$" | head -n 1)
[ -n "$POD_CONTAINER" ] || { podman ps -a; fail "no mancalad container from kube play"; }
# The probes' port: plaintext health.
wait_serving "127.0.0.1:$HEALTH" "$POD_CONTAINER"
mancala health --server "127.0.0.1:$HEALTH" --service readiness >/dev/null ||
  fail "the kube play pod is not ready"
# The gRPC port: TLS with the mounted certificate.
mancala --tls-ca-file /tls/ca.pem health --server "127.0.0.1:$GRPC" \
  --service readiness >/dev/null ||
  fail "the pod's gRPC port does not serve TLS with the mounted certificate"
# The manifests' web port answers a browser's call (Connect JSON, HTTPS).
web=$(/usr/bin/python3 -c '
import ssl, sys, urllib.request
req = urllib.request.Request(sys.argv[1], data=b"{}",
                             headers={"Content-Type": "application/json"})
ctx = ssl.create_default_context(cafile=sys.argv[2])
print(urllib.request.urlopen(req, timeout=10, context=ctx).read().decode())' \
  "https://127.0.0.1:$WEB/grpc.health.v1.Health/Check" "$WORK/tls/ca.pem" \
  2>&1) || fail "the pod's web port: $web"
[ "$web" = '{"status":"SERVING"}' ] || fail "the pod's web port said: $web"
# ... and serves the page from the manifest's --web-root.
serves_page /usr/bin/python3 "https://127.0.0.1:$WEB/" \
  "$REPO/clients/web/page/index.html" "$WORK/tls/ca.pem"
# The manifest's hardening, as podman applied it to the pod's container.
hardening=$(podman inspect -f '{{.HostConfig.ReadonlyRootfs}} {{.Config.User}} {{len .HostConfig.CapAdd}} {{.HostConfig.SecurityOpt}}' "$POD_CONTAINER")
[[ "$hardening" == "true 65532:65532 0 "*no-new-privileges* ]] ||
  fail "kube play's container is not hardened as the manifest says: $hardening"
podman kube down "$WORK/kube.yaml" >/dev/null
step "podman kube play deploy/k8s (1 replica, local image): read-only root, uid 65532, no capability added, no-new-privileges; ready on the plaintext health port $HEALTH, TLS on 127.0.0.1:$GRPC, its web port answering and serving the page over HTTPS on $WEB"

# 6. An OCI archive of the image.
podman save -q --format oci-archive -o "$WORK/image.tar" "$IMAGE"
step "podman save --format oci-archive: $(($(stat -c %s "$WORK/image.tar") / 1000000)) MB"
rm -f "$WORK/image.tar"
echo "deploy.ContainerImage: PASS"
