#!/usr/bin/env python3
"""Make tests/data/goal-fixture.tsv: positions whose fewest steps to goal
were computed by pyrimaa.board (the AEI reference board), independently of
aamir.

Run with the venv that has the `aei` package:

    $VENV/bin/python scripts/make_goal_fixture.py --seed 1 \
        --out tests/data/goal-fixture.tsv

Positions are random but built to sit near goal: the side to move has one to
three rabbits within four ranks of its goal and a few other pieces around
them, the opponent has blockers, freezers and trap guards in front of them;
some positions are templates for a blocked goal square with a strong friend
next to the blocker (push and pull), a frozen rabbit with friends around
(unfreezing), and a rabbit whose way runs over a trap. A quarter of the rows
are mid-turn (1-3 steps left). Rows are kept by (steps left, answer) quota,
and half of each quota is reserved for positions whose shortest goal found
by pyrimaa moves an enemy piece, unfreezes the rabbit, crosses a trap,
captures a piece or moves another friendly piece, so that those cases are
well represented. Every `none` row has a rabbit within rank reach ("just out
of reach").

Expected values: breadth-first search over pyrimaa's own single steps (push
and pull halves included), stopping at the first position with a rabbit of
the side to move on its goal rank. Its only pruning is that a rabbit gains at
most one rank per step.

Columns: side, board, expected (steps or `none`), steps_left, note (the kind
of shortest goal pyrimaa found, for coverage only).
"""

import argparse
import random
import sys
import time

from pyrimaa import board
from pyrimaa.board import Color, Piece, parse_short_pos

NOT8 = board.NOT_8_RANK
NOT1 = board.NOT_1_RANK
TRAP_IX = {18, 21, 42, 45}
KINDS = "CDHME"
LIMIT = {"R": 8, "C": 2, "D": 2, "H": 2, "M": 1, "E": 1}


def rabbits_on_goal(pos, color):
    if color == Color.GOLD:
        return pos.bitBoards[Piece.GRABBIT] & ~NOT8
    return pos.bitBoards[Piece.SRABBIT] & ~NOT1


def rank_gap_ok(pos, color, left):
    """Some rabbit of `color` is within `left` ranks of goal."""
    bits = pos.bitBoards[Piece.GRABBIT if color == Color.GOLD else Piece.SRABBIT]
    while bits:
        b = bits & -bits
        bits ^= b
        rank = board.bit_to_index(b) // 8
        gap = 7 - rank if color == Color.GOLD else rank
        if gap <= left:
            return True
    return False


def goal_bfs(pos):
    """(fewest steps, list of (piece, from, to) steps) or (None, None)."""
    color = pos.color
    if rabbits_on_goal(pos, color):
        return 0, []
    parent = {pos: None}
    frontier = [pos]
    for d in range(1, pos.stepsLeft + 1):
        nxt = []
        for p in frontier:
            if not rank_gap_ok(p, color, pos.stepsLeft - d + 1):
                continue
            for step, q in p.get_steps():
                if q in parent:
                    continue
                parent[q] = (p, step)
                if rabbits_on_goal(q, color):
                    line = []
                    cur = q
                    while parent[cur] is not None:
                        prev, st = parent[cur]
                        line.append((prev.piece_at(1 << st[0]), st[0], st[1], prev))
                        cur = prev
                    line.reverse()
                    return d, line
                if q.color == color:
                    nxt.append(q)
        frontier = nxt
    return None, None


def piece_count(pos):
    return sum(bin(pos.bitBoards[p]).count("1") for p in range(1, 15) if p not in (7, 8))


def tags_of(start, line):
    """What the shortest goal found does, for coverage notes."""
    color = start.color
    cbit = Piece.COLOR if color == Color.SILVER else 0
    rabbit = Piece.GRABBIT | cbit
    # Follow the scoring rabbit back from its last step.
    sq = line[-1][1]
    path = [line[-1][2], sq]
    for piece, frm, to, _ in reversed(line[:-1]):
        if piece == rabbit and to == sq:
            sq = frm
            path.append(sq)
    path.reverse()
    tags = []
    if any((piece & Piece.COLOR) != cbit for piece, _, _, _ in line):
        tags.append("push/pull")
    others = 0
    cur = path[0]
    for piece, frm, to, _ in line:
        if (piece & Piece.COLOR) == cbit:
            if piece == rabbit and frm == cur:
                cur = to
            else:
                others += 1
    if others:
        tags.append("friend-moves")
    if start.is_frozen_at(1 << path[0]):
        tags.append("unfreeze")
    if any(a % 8 != b % 8 for a, b in zip(path, path[1:])):
        tags.append("sideways")
    if any(s in TRAP_IX for s in path[1:]):
        tags.append("trap")
    end = line[-1][3].do_step((line[-1][1], line[-1][2]))
    if piece_count(end) < piece_count(start):
        tags.append("capture")
    return tags


class Builder:
    """A board in gold's frame; silver positions are mirrored north-south."""

    def __init__(self, rng, side):
        self.rng = rng
        self.side = side
        self.cells = {}

    def put(self, letter, file, rank, own):
        if not (0 <= file < 8 and 0 <= rank < 8):
            return
        gold = own == (self.side == "g")
        ch = letter.upper() if gold else letter.lower()
        r = rank if self.side == "g" else 7 - rank
        if (file, r) in self.cells:
            return
        if sum(1 for v in self.cells.values() if v == ch) >= LIMIT[letter.upper()]:
            return
        self.cells[(file, r)] = ch

    def board(self):
        # Remove pieces alone on a trap: no game position has one.
        out = dict(self.cells)
        for (f, r), ch in self.cells.items():
            if (r * 8 + f) in TRAP_IX:
                friends = [
                    out.get((f + df, r + dr))
                    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                ]
                if not any(x and x.isupper() == ch.isupper() for x in friends):
                    del out[(f, r)]
        s = ""
        for r in range(7, -1, -1):
            for f in range(8):
                s += out.get((f, r), " ")
        return "[" + s + "]"


def random_position(rng):
    side = rng.choice("gs")
    b = Builder(rng, side)
    style = rng.random()
    rabbits = []
    for _ in range(rng.randint(1, 3)):
        f, r = rng.randrange(8), rng.randint(3, 6)
        rabbits.append((f, r))
        b.put("R", f, r, True)
    near = lambda spread: (
        rabbits[0][0] + rng.randint(-spread, spread),
        rabbits[0][1] + rng.randint(-1, spread),
    )
    if style < 0.35:
        # A blocker in the rabbit's way, a strong friend beside or behind it.
        f, r = rabbits[0]
        if rng.random() < 0.5:
            f, r = f, rng.randint(5, 6)
            b.put("R", f, r, True)
        br = r + rng.randint(1, 7 - r)
        b.put(rng.choice("CDHR"), f, br, False)
        df, dr = rng.choice(((-1, 0), (1, 0), (0, 1), (-1, -1), (1, -1)))
        b.put(rng.choice("HME"), f + df, br + dr, True)
    elif style < 0.5:
        # A frozen rabbit with friends one or two steps away.
        f, r = rabbits[0]
        b.put(rng.choice(KINDS), f + rng.choice((-1, 1)), r, False)
        for _ in range(rng.randint(1, 3)):
            b.put(rng.choice(KINDS + "R"), f + rng.randint(-2, 2), r + rng.randint(-2, 1), True)
    elif style < 0.65:
        # A rabbit whose way crosses trap c6 or f6 (c3/f3 for silver).
        f = rng.choice((2, 5))
        r = rng.randint(3, 4)
        rabbits.insert(0, (f, r))
        b.put("R", f, r, True)
        for _ in range(rng.randint(0, 2)):
            b.put(rng.choice(KINDS), f + rng.choice((-1, 1)), 5 + rng.choice((0, 1, -1)), True)
        for _ in range(rng.randint(0, 2)):
            b.put(rng.choice(KINDS), f + rng.choice((-1, 1, 0)), 5 + rng.choice((0, 1)), False)
    for _ in range(rng.randint(0, 6)):
        f, r = near(2) if rng.random() < 0.7 else (rng.randrange(8), rng.randint(2, 7))
        b.put(rng.choice(KINDS), f, r, True)
    for _ in range(rng.randint(1, 12)):
        f, r = near(3) if rng.random() < 0.6 else (rng.randrange(8), rng.randint(3, 7))
        b.put(rng.choice(KINDS + "RR"), f, r, False)
    # The opponent keeps a rabbit somewhere on its home side.
    b.put("R", rng.randrange(8), 7, False)
    text = b.board()
    if side == "g" and ("R" in text[1:9] or "r" in text[57:65]):
        return None
    if side == "s" and ("r" in text[57:65] or "R" in text[1:9]):
        return None
    if ("R" if side == "g" else "r") not in text:
        return None
    steps_left = 4 if rng.random() < 0.75 else rng.randint(1, 3)
    return side, text, steps_left


QUOTA = {
    4: {1: 300, 2: 450, 3: 450, 4: 500, None: 500},
    3: {1: 80, 2: 100, 3: 120, None: 120},
    2: {1: 80, 2: 120, None: 120},
    1: {1: 80, None: 80},
}
SPECIAL = {"push/pull", "friend-moves", "unfreeze", "trap", "capture"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every quota")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    quota = {sl: {k: max(1, int(v * args.scale)) for k, v in q.items()} for sl, q in QUOTA.items()}
    rows = {(sl, k): [] for sl, q in quota.items() for k in q}
    special = {key: 0 for key in rows}
    pushes = {key: 0 for key in rows}
    seen = set()
    tries = 0
    t0 = time.time()
    while any(len(rows[k]) < quota[k[0]][k[1]] for k in rows):
        tries += 1
        cand = random_position(rng)
        if cand is None:
            continue
        side, text, sl = cand
        if (side, text, sl) in seen:
            continue
        seen.add((side, text, sl))
        color = Color.GOLD if side == "g" else Color.SILVER
        pos = parse_short_pos(color, sl, text)
        if not rank_gap_ok(pos, color, sl) or rabbits_on_goal(pos, color):
            continue
        opp = Color.SILVER if color == Color.GOLD else Color.GOLD
        if rabbits_on_goal(pos, opp):
            continue
        d, line = goal_bfs(pos)
        key = (sl, d)
        if key not in rows:
            continue
        q = quota[sl][d]
        if len(rows[key]) >= q:
            continue
        tags = tags_of(pos, line) if line else []
        is_special = bool(SPECIAL.intersection(tags))
        is_push = "push/pull" in tags
        # Half of each quota waits for the interesting cases, and a quarter
        # of the 3- and 4-step ones for goals that push or pull a blocker.
        if not is_special and d is not None and d > 1 and len(rows[key]) - special[key] >= q - q // 2:
            continue
        if not is_push and d in (3, 4) and sl >= 3 and len(rows[key]) - pushes[key] >= q - q // 4:
            continue
        special[key] += is_special
        pushes[key] += is_push
        note = ",".join(tags) if tags else ("out-of-reach" if d is None else "straight")
        rows[key].append((side, text, "none" if d is None else str(d), str(sl), note))
        total = sum(len(v) for v in rows.values())
        if total % 100 == 0:
            print(f"{total} rows, {tries} candidates, {time.time() - t0:.0f}s", file=sys.stderr)
    counts = {}
    for v in rows.values():
        for r in v:
            for t in r[4].split(","):
                counts[t] = counts.get(t, 0) + 1
    with open(args.out, "w") as f:
        f.write("# side\tboard\tgoal_steps\tsteps_left\tnote\n")
        f.write("# goal_steps: fewest steps with which the side to move, with steps_left steps\n")
        f.write("# left in its turn, can have a rabbit on its goal rank, or none; computed by\n")
        f.write("# pyrimaa.board breadth-first search. note: kind of shortest goal pyrimaa found.\n")
        f.write(f"# made by: scripts/make_goal_fixture.py --seed {args.seed}"
                + (f" --scale {args.scale}" if args.scale != 1.0 else "") + "\n")
        f.write("# rows by steps_left/answer: " + ", ".join(
            f"{sl}/{'none' if d is None else d}:{len(rows[(sl, d)])}" for (sl, d) in rows) + "\n")
        f.write("# notes: " + ", ".join(f"{k}:{v}" for k, v in sorted(counts.items())) + "\n")
        for key in rows:
            for r in rows[key]:
                f.write("\t".join(r) + "\n")
    print(f"wrote {sum(len(v) for v in rows.values())} rows from {tries} candidates "
          f"in {time.time() - t0:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
