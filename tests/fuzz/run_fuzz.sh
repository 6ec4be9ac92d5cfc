#!/usr/bin/env bash
# run_fuzz.sh TARGET SEEDS WORK SECONDS: fuzzes TARGET for SECONDS, starting
# from the seed corpus SEEDS (read only; new inputs go to WORK), and prints
# the executions. A crash, a sanitizer report or a failed check fails the
# test; the input is saved in WORK (copy it into SEEDS as a regression).
set -euo pipefail
target=$1 seeds=$2 work=$3 seconds=$4
mkdir -p "$work/new"
# Leak checking stays on for the pure targets; the RPC target keeps its
# server (and gRPC its threads) to the end of the process on purpose.
if [[ "$(basename "$target")" == rpc_fuzz ]]; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
fi
"$target" "$work/new" "$seeds" -max_total_time="$seconds" -timeout=30 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$work/" \
  2>"$work/log" || { tail -n 60 "$work/log"; exit 1; }
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
echo "PASS: $(basename "$target"): $execs executions in ${seconds} s"
