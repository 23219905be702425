#!/usr/bin/env bash
# Issue 80's switch-off runs: Sharp at depth 5 against the whole search
# design and against the design with one part off at a time (and with the
# learned evaluation on), 100 games an arm on the same openings and colours,
# so every arm has a paired line against `whole`. The rules for reading it
# were set before any result (docs/journal/stops-79.md, stop 87).
#
#   scripts/switch_off.sh SHARP AAMIR OUT [SEED]
#
# SHARP: Sharp's AEI command (../shared/tools/build-sharp.sh makes
# /tmp/peers/bin/sharp); AAMIR: the aamir binary that plays every arm and
# runs the match; OUT: the match folder. A match already in OUT is resumed.
# SEED: a `summary.json` saved from an unfinished run (sessions end and
# machines change; `--resume` needs the same SHARP and AAMIR paths the run
# began with, which the summary records): it is copied into an empty OUT
# and resumed, so games already played are not played again.
set -euo pipefail
sharp=${1:?usage: switch_off.sh SHARP AAMIR OUT [SEED]}
aamir=${2:?usage: switch_off.sh SHARP AAMIR OUT [SEED]}
out=${3:?usage: switch_off.sh SHARP AAMIR OUT [SEED]}
seed=${4:-}
here=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$out/summary.json" ] && [ -n "$seed" ]; then
  mkdir -p "$out"
  case "$seed" in
    *.gz) gunzip -c "$seed" > "$out/summary.json" ;;
    *) cp "$seed" "$out/summary.json" ;;
  esac
fi
if [ -f "$out/summary.json" ]; then
  exec "$aamir" match --resume --out "$out"
fi

arm() { echo "name=$1,cmd=$aamir${2:+,$2}"; }
exec "$aamir" match --mode gauntlet \
  --engine "name=sharp5,cmd=$sharp,option.depth=5" \
  --engine "$(arm whole)" \
  --engine "$(arm no_defend option.threat_defend=0)" \
  --engine "$(arm no_quiet option.quiet_reduce=0)" \
  --engine "$(arm no_leaves option.midturn_qsearch=0,option.midturn_defend=0)" \
  --engine "$(arm no_needless option.undo_prune=0,option.freecap_prune=0)" \
  --engine "$(arm no_order option.killers=0,option.commute=0)" \
  --engine "$(arm no_null option.null_reduction=0)" \
  --engine "$(arm no_root option.root_reduce=0)" \
  --engine "$(arm net option.evalnet=1)" \
  --tc 1s/15s/100/30s --max-turns 150 --games 100 --concurrency 2 \
  --openings "$here/tests/data/openings.txt" --out "$out"
