#!/bin/sh
# Generates the mancala.v1 and google.rpc messages and service descriptors
# for @bufbuild/protobuf 2 / Connect into clients/web/gen/ (or $1), with
# Debian's protoc and the protoc-gen-es that `npm ci` installed. Generated
# at build time, never committed (clients/web/.gitignore).
#
#   sh gen.sh [OUT_DIR]
#
# The same inputs as proto/CMakeLists.txt: proto/mancala/v1/*.proto
# (MANCALA_PROTO_DIR names proto/ for a copy of this folder elsewhere, as
# the build's in build/clients/web), and
# google/rpc/{status,error_details}.proto from Debian's
# golang-github-gogo-googleapis-dev (MANCALA_GOOGLEAPIS_DIR elsewhere).
# google/protobuf/*.proto (timestamp, duration, any, descriptor) come with
# protoc (libprotobuf-dev's /usr/include) and are not generated: the code
# imports them from @bufbuild/protobuf/wkt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
proto=${MANCALA_PROTO_DIR:-$(cd "$here/../.." && pwd)/proto}
out=${1:-$here/gen}
protoc=${PROTOC:-/usr/bin/protoc}
googleapis=${MANCALA_GOOGLEAPIS_DIR:-/usr/share/gocode/src/github.com/gogo/googleapis}
plugin=$here/node_modules/.bin/protoc-gen-es

[ -x "$plugin" ] || {
  echo "gen.sh: $plugin missing: run 'npm ci' in $here first" >&2
  exit 1
}
[ -f "$googleapis/google/rpc/error_details.proto" ] || {
  echo "gen.sh: no google/rpc/error_details.proto under $googleapis" \
    "(apt-get install golang-github-gogo-googleapis-dev)" >&2
  exit 1
}
rm -rf "$out"
mkdir -p "$out"
# protoc runs the plugin with `node` from PATH (its #! line is
# `/usr/bin/env node`).
cd "$proto"
"$protoc" -I . -I "$googleapis" \
  --plugin=protoc-gen-es="$plugin" \
  --es_out="$out" --es_opt=target=js+dts,import_extension=js \
  mancala/v1/*.proto google/rpc/status.proto google/rpc/error_details.proto
echo "gen.sh: $(find "$out" -name '*_pb.js' | wc -l) modules in $out"
