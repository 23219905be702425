#!/usr/bin/env bash
# Makes a labelled position set for the learned evaluation (issue 79) and
# says how well each evaluator sees the results in it.
#
#   scripts/nnue_data.sh AAMIR TEACHER OUT [GAMES] [SEED] [CHILDREN] [DEPTH]
#
# AAMIR is a release build of aamir. TEACHER is an evaluator that scores a
# position file (`TEACHER evalPos FILE`, printing one `Final Score: N` line
# per position, for the side to move), such as Sharp's developer build made
# outside this repository; nothing of it is kept here. OUT receives:
#   gen.tsv      aamir's self-play at DEPTH steps (default 3), with CHILDREN
#                (default 16) more positions per turn after random other
#                turns (`aamir gen --children`): game, result for the side to
#                move, turn, position;
#   pos.txt      the same positions in order, as a position file;
#   teacher.txt  the teacher's score of each, one a line, in that order;
#   auc.txt      `aamir auc` over them: how well aamir's static score and
#                the teacher's predict the game's result.
# gen.tsv's lines and teacher.txt's lines pair up one to one. The same
# arguments give the same gen.tsv (the seed fixes every game).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,20p' "$0"
    exit 2
fi
AAMIR=$1 TEACHER=$2 OUT=$3 GAMES=${4:-1000} SEED=${5:-1} CHILDREN=${6:-16} DEPTH=${7:-3}
mkdir -p "$OUT"
if [ ! -s "$OUT/gen.tsv" ]; then
    "$AAMIR" gen --seed "$SEED" --games "$GAMES" --depth "$DEPTH" --children "$CHILDREN" \
        --threads "$(nproc)" --out "$OUT/gen.tsv.part"
    mv "$OUT/gen.tsv.part" "$OUT/gen.tsv"
fi
# Every position of every game: no game is longer than this many plies.
"$AAMIR" auc "$OUT/gen.tsv" --plies 1000 --posfile "$OUT/pos.txt" > /dev/null
# The teacher in chunks: Sharp's evalPos holds a whole file in memory and
# is killed on a million positions.
CHUNK=${CHUNK:-50000}
rm -rf "$OUT/chunks" && mkdir -p "$OUT/chunks"
awk -v n="$CHUNK" -v dir="$OUT/chunks" '
    BEGIN { k = 0; i = 0; f = sprintf("%s/%06d.txt", dir, k) }
    $0 == ";" { i++; if (i % n == 0) { close(f); k++; f = sprintf("%s/%06d.txt", dir, k); next } }
    { print > f }
' "$OUT/pos.txt"
: > "$OUT/teacher.txt"
for c in "$OUT"/chunks/*.txt; do
    "$TEACHER" evalPos "$c" | grep 'Final Score' >> "$OUT/teacher.txt"
done
rm -rf "$OUT/chunks"
positions=$(grep -vc '^#' "$OUT/gen.tsv")
labels=$(wc -l < "$OUT/teacher.txt")
if [ "$positions" != "$labels" ]; then
    echo "the teacher scored $labels of $positions positions" >&2
    exit 1
fi
"$AAMIR" auc "$OUT/gen.tsv" --plies 1000 --scores "$OUT/teacher.txt" | tee "$OUT/auc.txt"
