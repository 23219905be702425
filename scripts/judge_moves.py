#!/usr/bin/env python3
"""Judges engines' moves by a stronger engine's search: a fast proxy
between matches (issue 79).

    judge_moves.py --games GAMES.tsv [...] --judge JUDGE [--depth 5]
        [--positions 300] [--seed 1] [--time 1] [--jobs 2]
        --engine NAME=AAMIR [ARGS...] --engine NAME=AAMIR [ARGS...]

Takes positions from `aamir match` game records (`games.tsv`) where a
player whose name does not start with `sharp` is to move, a random sample
of them by the seed. Each engine (`aamir analyze POSITION --time T ARGS`,
for instance `--evalfile NET`) chooses its move in every position; the
position after each move goes to the judge (`JUDGE searchPos FILE -d
DEPTH`, such as Sharp's developer build made outside this repository),
and the judge's score of it, negated for the mover and read as a winning
chance (760 judge units a logit), is the move's grade. The first engine
is the baseline: each other one is reported by its mean difference from
it over the same positions, with its standard error and how many moves
differed. Needs the PyPI package `aei` (pyrimaa) for the move rules.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from pyrimaa import board

SCALE = 760.0


def parse_games(paths):
    """(short board, side) of every position with a non-sharp mover."""
    out = []
    for path in paths:
        with open(path) as f:
            header = f.readline().rstrip("\n").split("\t")
            col = {name: i for i, name in enumerate(header)}
            for line in f:
                cells = line.rstrip("\n").split("\t")
                if len(cells) < len(header):
                    continue
                names = {"w": cells[col["wusername"]], "b": cells[col["busername"]]}
                moves = cells[col["movelist"]].split("\\n")
                pos = board.Position(board.Color.GOLD, 4, board.BLANK_BOARD)
                for ply, mv in enumerate(moves):
                    parts = mv.split()
                    if not parts:
                        break
                    label, steps = parts[0], " ".join(parts[1:])
                    side = "w" if label[-1] in "wg" else "b"
                    if ply >= 2 and not names[side].startswith("sharp") and steps:
                        out.append(pos)
                    try:
                        pos = pos.do_move_str(steps)
                    except Exception:
                        break
    return out


def short(pos):
    side = "g" if pos.color == board.Color.GOLD else "s"
    return f"{side} {pos.board_to_str('short')}"


def posfile_entry(pos):
    side = "g" if pos.color == board.Color.GOLD else "s"
    rows = pos.board_to_str("short")[1:-1]
    ranks = [rows[i * 8:(i + 1) * 8].replace(" ", ".") for i in range(8)]
    return "2" + side + "\n" + "\n".join(ranks) + "\n;\n"


def best_move(aamir, args, pos, time):
    cmd = [aamir, "analyze", short(pos), "--time", str(time)] + args
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("bestmove "):
            return line[len("bestmove "):].strip()
    raise RuntimeError(f"no bestmove from {' '.join(cmd)}")


def judge(judge_cmd, depth, positions, path):
    """The judge's score of each position, for its side to move."""
    with open(path, "w") as f:
        for p in positions:
            f.write(posfile_entry(p))
    out = subprocess.run(
        [judge_cmd, "searchPos", path, "-d", str(depth)],
        capture_output=True, text=True, check=True).stdout
    # One line a position: index, depth, score, nodes..., PV.
    scores = {}
    for line in out.splitlines():
        cells = line.split("\t")
        if len(cells) > 3 and cells[0].isdigit() and cells[1].isdigit():
            scores[int(cells[0])] = int(cells[2])
    scores = [scores.get(i) for i in range(len(positions))]
    if None in scores:
        raise RuntimeError(f"the judge scored {len(positions) - scores.count(None)} of {len(positions)}")
    return scores


def chance(score):
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score / SCALE))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", nargs="+", required=True)
    ap.add_argument("--judge", required=True)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--engine", action="append", required=True,
                    help="NAME=AAMIR [ARGS...] (one string)")
    ap.add_argument("--work", default="/tmp/judge_moves")
    opts = ap.parse_args()

    pool = parse_games(opts.games)
    random.Random(opts.seed).shuffle(pool)
    positions = pool[:opts.positions]
    print(f"{len(positions)} positions of {len(pool)}", flush=True)
    grades = {}
    moves = {}
    for spec in opts.engine:
        name, rest = spec.split("=", 1)
        argv = rest.split()
        # An engine's moves and grades are kept in WORK-NAME.json and used
        # again for the same command, positions and judge.
        key = {"argv": argv, "time": opts.time, "depth": opts.depth,
               "positions": [short(p) for p in positions]}
        cache = f"{opts.work}-{name}.json"
        if os.path.exists(cache):
            with open(cache) as f:
                kept = json.load(f)
            if kept["key"] == key:
                grades[name], moves[name] = kept["grades"], kept["moves"]
                g = grades[name]
                print(f"{name}: mean chance after its move {sum(g) / len(g):.4f} (kept)", flush=True)
                continue
        with ThreadPoolExecutor(opts.jobs) as ex:
            chosen = list(ex.map(lambda p: best_move(argv[0], argv[1:], p, opts.time), positions))
        after = [p.do_move_str(m) for p, m in zip(positions, chosen)]
        scores = judge(opts.judge, opts.depth, after, f"{opts.work}-{name}.txt")
        g = [chance(-s) for s in scores]
        with open(cache, "w") as f:
            json.dump({"key": key, "grades": g, "moves": chosen}, f)
        grades[name] = g
        moves[name] = chosen
        print(f"{name}: mean chance after its move {sum(g) / len(g):.4f}", flush=True)
    names = [s.split("=", 1)[0] for s in opts.engine]
    base = names[0]
    for name in names[1:]:
        d = [a - b for a, b in zip(grades[name], grades[base])]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
        se = math.sqrt(var / n)
        differ = sum(1 for a, b in zip(moves[name], moves[base]) if a != b)
        print(f"{name} - {base}: {mean:+.4f} +- {se:.4f} (z {mean / se if se else 0:+.2f}),"
              f" moves differ in {differ} of {n}")


if __name__ == "__main__":
    sys.exit(main())
