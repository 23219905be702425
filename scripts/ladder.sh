#!/usr/bin/env bash
# The strength ladder: Sharp at depths 3, 4, 5, 6 and 8 and at full
# strength, a random mover and aamir, played against each other at one
# time control so that a score against any rung maps onto one Elo scale
# (`aamir match rate`, anchored at Sharp depth 5 = 0). The table goes into
# docs/strength.md with the date and the machine.
#
#   scripts/ladder.sh SHARP AAMIR RANDOM OUT [GAMES]
#
# SHARP: Sharp's AEI command (../shared/tools/build-sharp.sh makes
# /tmp/peers/bin/sharp); AAMIR: the aamir binary to rate (also the one that
# runs the matches); RANDOM: a random mover (AEI's `simple_engine`, from
# `pip install aei`); OUT: a folder for the three matches; GAMES: games per
# pairing (default 20). Each stage resumes if it was stopped, so the script
# can simply be run again.
set -euo pipefail
sharp=${1:?usage: ladder.sh SHARP AAMIR RANDOM OUT [GAMES]}
aamir=${2:?usage: ladder.sh SHARP AAMIR RANDOM OUT [GAMES]}
random=${3:?usage: ladder.sh SHARP AAMIR RANDOM OUT [GAMES]}
out=${4:?usage: ladder.sh SHARP AAMIR RANDOM OUT [GAMES]}
games=${5:-20}
here=$(cd "$(dirname "$0")/.." && pwd)
common=(--tc 1s/15s/100/30s --max-turns 150 --games "$games"
        --openings "$here/tests/data/openings.txt" --concurrency "${CONCURRENCY:-1}")
rung() { echo "name=sharp$1,cmd=$sharp,option.depth=$1"; }

stage() {
  local dir=$out/$1; shift
  if [ -f "$dir/summary.json" ]; then
    "$aamir" match --resume --out "$dir" --games "$games" || true
  else
    "$aamir" match "$@" "${common[@]}" --out "$dir"
  fi
}

# 1. The cheap rungs against each other (Sharp at a fixed depth moves in
#    well under a second), and the random mover against the lowest: it is
#    the floor, below every rung by more than a match can measure.
stage rungs --mode roundrobin --engine "$(rung 3)" --engine "$(rung 4)" \
  --engine "$(rung 5)" --engine "$(rung 6)" --engine "$(rung 8)"
stage random --mode gauntlet --engine "$(rung 3)" --engine "name=random,cmd=$random"
# 2. Full-strength Sharp against the rungs nearest it.
stage full --mode gauntlet --engine "name=sharp,cmd=$sharp" \
  --engine "$(rung 6)" --engine "$(rung 8)"
# 3. aamir against the rungs around it.
stage aamir --mode gauntlet --engine "name=aamir,cmd=$aamir" \
  --engine "$(rung 4)" --engine "$(rung 5)" --engine "$(rung 6)"

"$aamir" match rate --anchor sharp5 "$out"/rungs "$out"/random "$out"/full "$out"/aamir
