#!/bin/bash
# Time to depth with 1 and 2 threads (`aamir analyze --depth D`), side by
# side, on the opening and four middlegames of the bench set; each time
# includes process start and allocating the table.
A=${A:-target/release/aamir}
. "$(dirname "$0")/positions.sh"
ttd() { # name depth pos
  for th in 1 2; do
    s=$(date +%s.%N)
    $A analyze --depth $2 --threads $th "$3" > /dev/null 2>&1
    e=$(date +%s.%N)
    printf "%s depth %s threads %s: %.2f s\n" $1 $2 $th $(echo "$e - $s" | bc)
  done
}
ttd opening 12 "$OPEN"
for m in M1 M2 M3 M4; do ttd $m 10 "${!m}"; done
