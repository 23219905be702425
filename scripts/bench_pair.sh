#!/bin/bash
# Speed of two builds side by side: `aamir bench` of OLD and NEW at the
# same time, one per core (taskset), for ROUNDS rounds, swapping cores each
# round. On a shared machine whose speed drifts between runs, only a ratio
# measured at the same moment means anything. Prints each pair's times,
# the node totals (they must agree when the change is speed only) and the
# ratio OLD/NEW; extra arguments go to both benches (e.g. --depth 9).
# usage: scripts/bench_pair.sh OLD NEW [ROUNDS] [bench args...]
set -euo pipefail
OLD=$1; NEW=$2; ROUNDS=${3:-3}; shift $(( $# < 3 ? $# : 3 ))
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
secs() { awk '/^depth/ {sub("s,", "", $5); print $5}' "$1"; }
nodes() { awk '/^nodes/ {print $2}' "$1"; }
for r in $(seq 1 "$ROUNDS"); do
  a=$(( r % 2 )); b=$(( 1 - a ))
  taskset -c $a "$OLD" bench "$@" > "$tmp/old" &
  taskset -c $b "$NEW" bench "$@" > "$tmp/new"
  wait
  printf "round %d: old %s s (core %d, %s nodes), new %s s (core %d, %s nodes), old/new %.2f\n" \
    "$r" "$(secs "$tmp/old")" $a "$(nodes "$tmp/old")" "$(secs "$tmp/new")" $b "$(nodes "$tmp/new")" \
    "$(echo "$(secs "$tmp/old") / $(secs "$tmp/new")" | bc -l)"
done
