#!/bin/sh
# Host instructions per unit of work, counted by valgrind's callgrind (deterministic: the same
# binary gives the same counts on any machine), on the speed work's reference inputs:
#   parse   instructions per byte of .traceg text (the trace reader alone, smtlm_parse_only)
#   engine  instructions per warp instruction of the whole smsim run minus the reader's part
#           (the block held whole in both, so the reader's part is its parse and store)
#   total   instructions per warp instruction of the whole smsim run (C engine, one thread, the
#           thread block held whole)
# Usage: tests/bench/host_instructions.sh [build-dir] [insts-per-warp]   (default build, 20000)
set -eu
B=${1:-build}
N=${2:-20000}
command -v valgrind >/dev/null || { echo "host_instructions.sh: needs valgrind" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ir() { # total instructions of a callgrind run: $1 = log file
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$1" | tr -d ,
}
printf '%-8s %10s %10s %12s %10s %10s %10s\n' input cycles warp_insts bytes parse/B engine/wi total/wi
for k in imix dep; do
    "$B/tests/bench/smtlm_refgen" "$k" "$T/$k" "$N"
    valgrind --tool=callgrind --callgrind-out-file="$T/$k.full" "$B/platform/smsim" -trace "$T/$k/kernelslist.g" \
        -gpgpu_n_clusters 1 -smtlm_engine c -smtlm_threads 1 -smtlm_reader_thread 0 -smtlm_trace_stream_mib 100 \
        >"$T/$k.out" 2>"$T/$k.full.log" # the block held whole: parsed once, so engine = whole run - parse
    valgrind --tool=callgrind --callgrind-out-file="$T/$k.parse" "$B/tests/bench/smtlm_parse_only" --whole \
        "$T/$k/kernel-1.traceg" >"$T/$k.parse.out" 2>"$T/$k.parse.log"
    full=$(ir "$T/$k.full.log")
    parse=$(ir "$T/$k.parse.log")
    cycles=$(sed -n 's/^gpu_tot_sim_cycle = //p' "$T/$k.out")
    wi=$(sed -n 's/^gpgpu_n_tot_w_icount = //p' "$T/$k.out")
    bytes=$(awk '{print $2}' "$T/$k.parse.out")
    awk -v k="$k" -v c="$cycles" -v wi="$wi" -v b="$bytes" -v f="$full" -v p="$parse" 'BEGIN {
        printf "%-8s %10d %10d %12d %10.1f %10.0f %10.0f\n", k, c, wi, b, p / b, (f - p) / wi, f / wi }'
done
