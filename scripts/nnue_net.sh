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
# (seed 2) with 48 children, about 4.66M; set3 is the 63,000 positions of
# 922 recorded games that matter with 24 children each, 1.56M. On two
# cores: about 16 and 48 minutes of `aamir gen` (set3: 32 s), 2, 6 and 2
# minutes of labels, 8 minutes of training for 8 epochs.
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
# set3: the positions of games that matter, with 24 random-turn children
# each: Sharp against Sharp, aamir against Sharp and the archive's games
# (tests/data/records, tests/data/games-*.tsv), given by these relative
# paths so that the games' names, and so the held-out split, are the same
# on every machine.
records="$(cd "$here/../tests/data/records" && pwd)"
if [ ! -s "$OUT/set3/gen.tsv" ]; then
    mkdir -p "$OUT/set3"
    (cd "$records" && "$AAMIR" gen --records residmt-d5/games.tsv ladder/full/games.tsv \
        ladder/rungs/games.tsv resid-d5/games.tsv paired/games.tsv nnue-d5/games.tsv \
        sharp-openings/games.tsv optest/games.tsv suite-games/games.tsv \
        suite-games2/games.tsv ../games-2026-02.tsv ../games-2011-extra.tsv \
        --children 24 --seed 3 --threads "$(nproc)" --out "$OUT/set3/gen.tsv.part")
    mv "$OUT/set3/gen.tsv.part" "$OUT/set3/gen.tsv"
fi
if [ ! -s "$OUT/set3/teacher.txt" ] || [ ! -s "$OUT/set3/auc.txt" ]; then
    bash "$here/nnue_data.sh" "$AAMIR" "$TEACHER" "$OUT/set3"
fi
if [ ! -s "$OUT/set3/all.pk" ]; then
    "$AAMIR" pack "$OUT/set3/gen.tsv" --scores "$OUT/set3/teacher.txt" --out "$OUT/set3/all.pk"
fi
# set3 is read twice: a third of what the net sees comes from real games.
"$AAMIR" train "$OUT/set1/all.pk" "$OUT/set2/all.pk" "$OUT/set3/all.pk" "$OUT/set3/all.pk" \
    --out "$OUT/net.nnue" --epochs 8 --seed 1 "$@"
