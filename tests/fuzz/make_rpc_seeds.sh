#!/usr/bin/env bash
# Writes the seed corpus of rpc_fuzz (corpus/rpc_fuzz/): one input per
# request below, as rpc_fuzz.cc reads it (RPC index, caller, request bytes).
# The index is the method's place among all mancala.v1 methods sorted by
# full name, as rpc_fuzz.cc sorts them. Run from anywhere; needs protoc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
proto=$here/../../proto
out=$here/corpus/rpc_fuzz
mkdir -p "$out"
methods=$(cd "$proto" && grep -ho 'rpc [A-Za-z]*' mancala/v1/*_service.proto |
  awk '{print $2}' | while read -r m; do
    svc=$(grep -l "rpc $m(" "$proto"/mancala/v1/*_service.proto | head -1)
    s=$(sed -n 's/^service \([A-Za-z]*\).*/\1/p' "$svc")
    echo "mancala.v1.$s.$m"
  done | LC_ALL=C sort)
seed() {  # seed METHOD CALLER MESSAGE TEXT
  local idx
  idx=$(echo "$methods" | grep -n "\.$1\$" | cut -d: -f1)
  [ -n "$idx" ] || { echo "no method $1" >&2; exit 1; }
  { printf "\\x$(printf %02x $((idx - 1)))\\x$(printf %02x "$2")"
    printf '%s' "$4" | protoc -I "$proto" --encode="mancala.v1.$3" \
      "$proto"/mancala/v1/*_service.proto
  } >"$out/$1-$2-$(printf '%s' "$4" | md5sum | cut -c1-8)"
}
seed CreatePlayer 0 CreatePlayerRequest 'display_name: "Ann"'
seed GetPlayer 0 GetPlayerRequest 'name: "@player"'
seed GetPlayer 1 GetPlayerRequest 'name: "players/me"'
seed CreateMatch 1 CreateMatchRequest 'game: KALAH seats { kind: PLAYER player: "@player" } seats { kind: CPU cpu_level: 4 }'
seed CreateMatch 1 CreateMatchRequest 'game: MANCALA_BASIC options { key: "players" value: "3" } seats { kind: PLAYER player: "@player" } seats { kind: OPEN } seats { kind: CPU } first_seat: 2 turn_time_limit_seconds: 30'
seed CreateMatch 1 CreateMatchRequest 'game: OWARE options { key: "cycle_rule" value: "move_cap:40" } seats { kind: PLAYER player: "@player" } seats { kind: CPU } ranked: true'
seed GetMatch 0 GetMatchRequest 'name: "@match"'
seed JoinMatch 1 JoinMatchRequest 'invite_code: "@invite" seat: 1'
seed CancelMatch 1 CancelMatchRequest 'name: "@match"'
seed Rematch 1 RematchRequest 'name: "@match"'
seed SubmitMove 1 SubmitMoveRequest 'name: "@match" pit: 2 expected_ply: 0 request_id: "r1"'
seed Resign 1 ResignRequest 'name: "@match"'
seed ListMoves 0 ListMovesRequest 'parent: "@match" page_size: 2'
seed WatchMatch 1 WatchMatchRequest 'name: "@match" after_ply: 1'
seed FindMatch 1 FindMatchRequest 'game: KALAH accept_cpu_opponent: true'
seed CancelFind 1 CancelFindRequest ''
seed GetQueueStats 0 GetQueueStatsRequest 'game: OWARE'
seed GetRating 0 GetRatingRequest 'name: "@player/ratings/kalah"'
seed ListLeaderboard 0 ListLeaderboardRequest 'game: KALAH page_size: 1'
seed GetRatingHistory 0 GetRatingHistoryRequest 'name: "@player/ratings/oware" page_size: 3'
seed ListMatches 2 ListMatchesRequest 'player: "@player" page_size: 1 create_time_from { seconds: 1 } end_time_to { seconds: 4102444800 }'
seed ListMatches 2 ListMatchesRequest 'create_time_from { seconds: -99999999999999 }'
seed GetMatchHistory 2 GetMatchHistoryRequest 'name: "@match"'
seed VoidMatch 2 VoidMatchRequest 'name: "@match" reason: "test"'
seed ListAuditLog 2 ListAuditLogRequest 'page_size: 1'
seed VerifyMatch 2 VerifyMatchRequest 'name: "@match"'
