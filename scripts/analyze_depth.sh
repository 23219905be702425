#!/bin/bash
# Depth and speed of `aamir analyze` at fixed budgets (5 s from two openings,
# 10 s on four middlegames of the bench set), with 1 and 2 threads
# (THREADS="1" to run one). Run from the checkout after `cargo build --release`.
A=${A:-target/release/aamir}
. "$(dirname "$0")/positions.sh"
run() { # name time threads pos
  out=$($A analyze --time $2 --threads $3 "$4" 2>&1)
  last=$(echo "$out" | grep -E '^depth [0-9]+ ' | tail -1)
  fin=$(echo "$out" | grep -E '^depth ' | tail -1)
  echo "$1 t=$2 threads=$3 | completed: $(echo $last | awk '{print $2, "nodes", $6, "nps", $10}') | last line: $(echo $fin | awk '{print $1, $2, "time", $8, "nps", $10}')"
}
for th in ${THREADS:-1 2}; do
  run opening 5 $th "$OPEN"
  run opening-669182 5 $th "$OPEN2"
  for m in M1 M2 M3 M4; do run $m 10 $th "${!m}"; done
done
