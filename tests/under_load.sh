#!/usr/bin/env bash
# The tests that start processes, send signals or run a cluster (smsweep's, SLURM's included,
# the signal, output-stream, out-of-memory and progress tests, the pseudo-terminal one, the FIFO
# reader's), run while four busy loops keep the host's cores loaded, three times over: each test
# waits for the state it needs (a held point, a handler installed), never for time to pass, so
# all pass at any load.
# `make test-under-load` (.ci/run runs it after `make test`; about two minutes). Usage: under_load.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: under_load.sh BUILD_DIR}
tests='^(smsweep_.*|Signals[./].*|OutputStreams\..*|Engines/OutOfMemory\..*|Progress\..*|smsim_progress_line_on_a_terminal|ConfigLimits\..*)$'
busy=()
stop_busy() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_busy EXIT
for _ in 1 2 3 4; do
  (while :; do :; done) &
  busy+=($!)
done
start=$(date +%s)
for round in 1 2 3; do
  echo "== round $round of 3, four busy loops on $(nproc) cores"
  ctest --test-dir "$build" -R "$tests" -j "$(nproc)" --output-on-failure >"$build/under_load.log" 2>&1 ||
    { cat "$build/under_load.log"; exit 1; }
  tail -3 "$build/under_load.log"
done
echo "== all three rounds passed under load in $(( $(date +%s) - start )) s"
