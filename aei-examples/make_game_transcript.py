#!/usr/bin/env python3
"""Writes an AEI transcript that replays one arimaa.com archive game.

Usage: make_game_transcript.py ARCHIVE.tsv GAME_ID [ASK_AT ...] > game.aei

The controller sends every move with `makemove`; before each turn label in
ASK_AT (e.g. 2g 10s) it asks the engine for its move with `go`, followed
by `stop` for a move (so that a piped transcript gets an answer at once; a
setup needs no search), as a GUI's analysis would. Old labels (w/b) are written as g/s.
"""
import csv
import sys

csv.field_size_limit(10**9)
path, game_id, *ask_at = sys.argv[1:]
row = next(r for r in csv.DictReader(open(path), delimiter="\t") if r["id"] == game_id)
out = [
    "aei",
    "isready",
    "setoption name tcmove value 8",
    "setoption name tcreserve value 0",
    "setoption name tcpercent value 100",
    "setoption name rated value 0",
    "newgame",
]
for line in row["movelist"].split("\\n"):
    label, _, move = line.strip().partition(" ")
    label = label.replace("w", "g").replace("b", "s")
    if label in ask_at:
        out += ["setoption name moveused value 0", "go"]
        if label not in ("1g", "1s"):
            # A setup is answered at once; a move is searched until `stop`.
            out.append("stop")
    if move.strip():
        out.append(f"makemove {move.strip()}")
out += ["isready", "quit"]
print("\n".join(out))
