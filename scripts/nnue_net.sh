#!/usr/bin/env bash
# Makes the learned evaluation's net from nothing (issue 79): the two
# teacher-labelled position sets, their packed files, and the trained net.
#
#   scripts/nnue_net.sh AAMIR TEACHER OUT [TRAIN-OPTIONS...]
#
# AAMIR is a release build of aamir; TEACHER scores position files
# (`TEACHER evalPos FILE`), such as Sharp's developer build made outside
# this repository by ../shared/tools/build-sharp.sh (nothing of it is kept
# here). OUT receives set1/ and set2/ (scripts/nnue_data.sh's output, each
# with all.pk packed by `aamir pack`) and net.nnue. Extra arguments go to
# `aamir train` (e.g. --residual). Each stage is skipped when its output
# exists, so an interrupted run resumes.
#
# The sets: set1 is 640 games of self-play at depth 3 (seed 1) with 16
# random-turn children a turn, about 1.05M positions; set2 is 1000 games
# (seed 2) with 48 children, about 4.66M. On two cores: about 16 and 48
# minutes of `aamir gen`, 2 and 6 minutes of labels, 5 minutes of
# training for 8 epochs.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,21p' "$0"
    exit 2
fi
AAMIR=$1 TEACHER=$2 OUT=$3
shift 3
here=$(dirname "$0")
mkdir -p "$OUT"
make_set() { # name games seed children
    local dir="$OUT/$1"
    if [ ! -s "$dir/teacher.txt" ] || [ ! -s "$dir/auc.txt" ]; then
        bash "$here/nnue_data.sh" "$AAMIR" "$TEACHER" "$dir" "$2" "$3" "$4" 3
    fi
    if [ ! -s "$dir/all.pk" ]; then
        "$AAMIR" pack "$dir/gen.tsv" --scores "$dir/teacher.txt" --out "$dir/all.pk"
    fi
}
make_set set1 640 1 16
make_set set2 1000 2 48
"$AAMIR" train "$OUT/set1/all.pk" "$OUT/set2/all.pk" --out "$OUT/net.nnue" \
    --epochs 8 --seed 1 "$@"
