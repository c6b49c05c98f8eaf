#!/bin/sh
# Configures a profile-guided release build of smtlm (GCC) in <build>: builds an instrumented
# smsim there, trains it on the speed work's reference inputs (both engines, one SM and
# 80 SMs, with and without the reader thread, plus smsim's built-in default), then reconfigures
# <build> to compile with those profiles (<build>/pgo); build it with cmake --build as usual. Results are
# identical to an ordinary build; only speed changes (docs/PERFORMANCE.md). Extra arguments go
# to both configure steps.
# Usage: tools/pgo_configure.sh <build-dir> <jobs> [cmake args...]
set -eu
[ $# -ge 2 ] || { echo "usage: tools/pgo_configure.sh <build-dir> <jobs> [cmake args...]" >&2; exit 2; }
B=$1
J=$2
shift 2
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$B"
B=$(cd "$B" && pwd)
P=$B/pgo/profiles
W=$B/pgo/workloads
rm -rf "$P"
mkdir -p "$P"

cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMTLM_BUILD_TESTS=ON -DSMTLM_BUILD_BENCH=ON \
    -DSMTLM_PGO_USE= -DSMTLM_PGO_GENERATE="$P" "$@" >/dev/null
cmake --build "$B" -j "$J" --target smsim smtlm_refgen

# Training: a few seconds of each main path (instrumented code runs about 2x slower).
rm -rf "$W"
mkdir -p "$W/imix" "$W/dep" "$W/manycta"
"$B/tests/bench/smtlm_refgen" imix "$W/imix" 2000
"$B/tests/bench/smtlm_refgen" dep "$W/dep" 2000
"$B/tests/bench/smtlm_refgen" manycta "$W/manycta" 200 160
S=$B/platform/smsim
for k in imix dep; do
    for e in c systemc; do
        "$S" -trace "$W/$k/kernelslist.g" -gpgpu_n_clusters 1 -smtlm_engine $e -smtlm_reader_thread 0 >/dev/null
    done
    "$S" -trace "$W/$k/kernelslist.g" -gpgpu_n_clusters 1 -smtlm_engine c -smtlm_reader_thread 1 >/dev/null
done
"$S" -trace "$W/manycta/kernelslist.g" -smtlm_engine c -smtlm_threads 2 >/dev/null
"$S" >/dev/null
echo "pgo_configure.sh: trained ($(ls "$P" | wc -l) profile files); configuring $B with them"

cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMTLM_PGO_GENERATE= -DSMTLM_PGO_USE="$P" "$@"
