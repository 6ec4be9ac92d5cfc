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
expect_error "--b is a CPU level (1-4) or mcts (got xyz)" --game kalah --a 4 --b xyz
expect_error "--mcts-ms is the time of --b mcts" --game kalah --a 4 --b 3 --mcts-ms 5
expect_error "--b mcts (the MCTS yardstick) plays two players only" \
  --game mancala_basic --players 3 --a 4 --b mcts

# The MCTS yardstick as B: a short series prints A's score with its
# interval, by first mover, and the yardstick's simulations.
yard=$("$MANCALA" arena --game kalah --a 2 --b mcts --mcts-ms 5 --budget-ms 5 --games 2)
echo "$yard"
[[ "$yard" == *"B = the MCTS yardstick (UCT c=2, one random rollout, solver; 5 ms per move), 2 games"* ]] ||
  fail "yardstick header: $yard"
score_line="A's score [0-9.]+% \+- [0-9.]+ \(95%\); [0-9.]+% when A moved first, [0-9.]+% when B did"
[[ "$yard" =~ $score_line ]] || fail "yardstick score line: $yard"
sims_line="the yardstick: ([0-9]+) simulations per move, ([0-9]+) per second"
[[ "$yard" =~ $sims_line ]] ||
  fail "yardstick simulations: $yard"
[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "the yardstick ran no simulations: $yard"

# Reproducible: the same counts and margins with one thread and with two.
series=(--game oware --a 3 --b 2 --games 12 --seed 5 --nodes 3000)
one=$("$MANCALA" arena "${series[@]}" --threads 1 | sed -n 4,8p)
two=$("$MANCALA" arena "${series[@]}" --threads 2 | sed -n 4,8p)
echo "$one"
counts=$(sed -n 1p <<<"$one")
[[ "$counts" =~ ^A\ +[0-9]+\ +[0-9]+\ +[0-9]+\ +[0-9.]+%$ ]] || fail "table: $counts"
[ "$one" = "$two" ] || fail "1 thread: '$one', 2 threads: '$two'"

# Margins per seat: B moved first exactly when A moved second, so B's mean
# margin from the first seat is minus A's from the second, and the other
# way round; each side moved first in half of the games.
a_row=$(sed -n 4p <<<"$one")
b_row=$(sed -n 5p <<<"$one")
[[ "$a_row" =~ ^A\ level\ 3\ +([-+][0-9.]+)\ +([-+][0-9.]+)\ +\(6\ games\ first\)$ ]] ||
  fail "A margins: $a_row"
a_first=${BASH_REMATCH[1]} a_second=${BASH_REMATCH[2]}
[[ "$b_row" =~ ^B\ level\ 2\ +([-+][0-9.]+)\ +([-+][0-9.]+)\ +\(6\ games\ first\)$ ]] ||
  fail "B margins: $b_row"
b_first=${BASH_REMATCH[1]} b_second=${BASH_REMATCH[2]}
awk -v a1="$a_first" -v a2="$a_second" -v b1="$b_first" -v b2="$b_second" \
  'BEGIN { exit !(a1 + b2 == 0 && a2 + b1 == 0) }' ||
  fail "margins do not mirror: $a_row / $b_row"

echo "PASS"
