#!/usr/bin/env python3
"""Writes the match openings file: both setups plus the first two turns.

Usage: make_openings.py OUT ARCHIVE_OR_GAMES_TSV...

Each input is an arimaa.com archive TSV or an `aamir match` games.tsv (the
same columns). Every game long enough gives one opening: its first four
moves (1g, 1s, 2g, 2s), labels written g/s. Openings are deduplicated and
kept in input order. `aamir match --openings OUT` replays each through
the rules and refuses the file if one is illegal or ends the game;
tests/match_openings.rs checks the committed file that way.

The committed tests/data/openings.txt was made from the two archive files
in tests/data and from games of Sharp against itself at depth 8:
  aamir match --engine name=sa,cmd=SHARP,option.depth=8 \
    --engine name=sb,cmd=SHARP,option.depth=8 --tc 1s/15s/100/30s \
    --max-turns 2 --games 160 --concurrency 2 --out DIR
  scripts/make_openings.py tests/data/openings.txt \
    tests/data/games-2026-02.tsv tests/data/games-2011-extra.tsv DIR/games.tsv
"""
import csv
import sys

csv.field_size_limit(1 << 30)


def openings(path):
    with open(path, newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        for row in rows:
            if row.get("corrupt", "0") not in ("0", ""):
                continue
            moves = [m.strip() for m in row["movelist"].split("\\n") if m.strip()]
            first = []
            for m in moves[:4]:
                label, _, rest = m.partition(" ")
                label = label.replace("w", "g").replace("b", "s")
                if not rest.strip() or not label[:-1].isdigit():
                    break
                first.append(f"{label} {rest.strip()}")
            if [m.split(" ")[0] for m in first] == ["1g", "1s", "2g", "2s"]:
                yield "\\n".join(first)


def main():
    out, inputs = sys.argv[1], sys.argv[2:]
    seen, sources, per_file = set(), [], []
    for p in inputs:
        mine = []
        for o in openings(p):
            if o not in seen:
                seen.add(o)
                mine.append(o)
        sources.append(mine)
        per_file.append(f"# {len(mine)} from {p.rsplit('/', 1)[-1]}")
    # Interleaved, so that a match using only the first openings still
    # draws on every source.
    lines = []
    for i in range(max(map(len, sources))):
        lines.extend(s[i] for s in sources if i < len(s))
    with open(out, "w") as f:
        f.write("# Match openings: both setups and the first two turns, one a line\n")
        f.write("# (moves separated by a literal \\n). Made by scripts/make_openings.py.\n")
        for line in per_file:
            f.write(line + "\n")
        for o in lines:
            f.write(o + "\n")
    print(f"{len(lines)} openings written to {out}")


if __name__ == "__main__":
    main()
