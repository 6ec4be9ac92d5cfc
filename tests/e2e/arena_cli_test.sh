#!/usr/bin/env bash
# `mancala arena`: bad input gets a message and a non-zero exit; a series
# with a node limit prints the same table with one thread or two.
set -euo pipefail
MANCALA=$1
source "$(dirname "$0")/lib.sh"

# expect_error WANTED_TEXT ARGS...: the command fails and says WANTED_TEXT.
expect_error() {
  local want=$1 out rc
  shift
  set +e
  out=$("$MANCALA" arena "$@" 2>&1); rc=$?
  set -e
  [ $rc -ne 0 ] || fail "arena $* exited 0: $out"
  [[ "$out" == *"$want"* ]] || fail "arena $*: no '$want' in: $out"
}
expect_error "CPU levels are 1 to 4 (got 0)" --game kalah --a 0 --b 1
expect_error "CPU levels are 1 to 4 (got 5)" --game kalah --a 4 --b 5
expect_error "--games must be at least 1" --game kalah --a 2 --b 1 --games 0
expect_error "unknown game" --game chess --a 2 --b 1
expect_error "seeds" --game kalah --a 2 --b 1 -o seeds=abc
expect_error "players" --game kalah --a 2 --b 1 --players 4
expect_error "--seed: must be a whole number" --game kalah --a 2 --b 1 --seed -1
expect_error "--nodes: must be a whole number" --game kalah --a 2 --b 1 --nodes -1
expect_error "--budget-ms: Value 0 not in range" --game kalah --a 2 --b 1 --budget-ms 0
expect_error "--opening-plies: Value 101 not in range" --game kalah --a 2 --b 1 --opening-plies 101
expect_error "must be a multiple of the 4 players" \
  --game mancala_basic --players 4 --a 2 --b 1 --games 6 --opening-plies 2

# Reproducible: the same counts with one thread and with two.
series=(--game oware --a 3 --b 2 --games 12 --seed 5 --nodes 3000)
one=$("$MANCALA" arena "${series[@]}" --threads 1 | sed -n 4p)
two=$("$MANCALA" arena "${series[@]}" --threads 2 | sed -n 4p)
echo "$one"
[[ "$one" =~ ^A\ +[0-9]+\ +[0-9]+\ +[0-9]+\ +[0-9.]+%$ ]] || fail "table: $one"
[ "$one" = "$two" ] || fail "1 thread: '$one', 2 threads: '$two'"

echo "PASS"
